#!/usr/bin/perl
# Drives the reference server with GitLab::API::v4 (Debian's libgitlab-api-v4-perl, 0.2x), as a GitLab
# client would.
#
# Run by perl-gitlabracadabra.spec.ts with GITLAB_URL, GITLAB_TOKEN (the administrator's, with the sudo
# scope) and GITLAB_FIXTURES (the fixture manifest, JSON). Builds its own users, group and project
# through the API (create_user answers nothing, so users are found again with GET /users?username=),
# then drives the 47 endpoint forms: through the module's methods where it has them, through its REST
# client (_call_rest_client) where it has not. GitLab::API::v4 sends an array in the query as a plain
# repeated key (user_ids=1&user_ids=2: Rack keeps the last) unless the caller names the key `user_ids[]`,
# bodies as JSON, and sudo as the `Sudo` header. Prints one JSON line per check: {"form", "via", "ok", "detail"}.
use strict;
use warnings;
use GitLab::API::v4;
use JSON::PP;

my $json = JSON::PP->new->canonical;
my $URL = $ENV{GITLAB_URL} or die 'GITLAB_URL';
my $TOKEN = $ENV{GITLAB_TOKEN} or die 'GITLAB_TOKEN';
my $FIXTURES = $json->decode($ENV{GITLAB_FIXTURES} || '{}');
my $FILE = '/projects/:id/repository/files/:file_path';
my $failures = 0;
$| = 1;

sub emit {
    my ($form, $via, $ok, $detail) = @_;
    $failures++ unless $ok;
    $detail = '' unless defined $detail;
    $detail =~ s/\s+/ /g;
    print $json->encode({ form => $form, via => $via, ok => ($ok ? JSON::PP::true : JSON::PP::false), detail => substr($detail, 0, 500) }), "\n";
}

# Runs the code (which dies on a failed expectation).
sub check {
    my ($form, $via, $code) = @_;
    my $value = eval { $code->() };
    if ($@) { emit($form, $via, 0, "$@"); return undef }
    emit($form, $via, 1, '');
    return $value;
}

# The code must die with an HTTP error of this status (GitLab::API::v4 croaks "(HTTP <status>)").
sub expect_status {
    my ($form, $via, $status, $code) = @_;
    eval { $code->() };
    my $error = $@;
    if (!$error) { emit($form, $via, 0, "no error, expected $status") }
    elsif ($error =~ /\(HTTP $status\)/) { emit($form, $via, 1, "HTTP $status") }
    else { emit($form, $via, 0, "expected HTTP $status: $error") }
}

sub expect { my ($condition, $text) = @_; die "$text\n" unless $condition }

sub client { GitLab::API::v4->new(url => "$URL/api/v4", private_token => $_[0], retries => 0) }
my $gl = client($TOKEN);

# A request the module has no method for: its REST client, with the module's headers.
sub call {
    my ($api, $verb, $path, $vars, $options) = @_;
    return $api->_call_rest_client($verb, $path, $vars || [], $options || {});
}

sub ids { join ',', sort { $a <=> $b } map { $_->{id} } @{ $_[0] || [] } }

# --- Set-up through the API, as the administrator ----------------------------------------------
my (%users, $group, $project);
my $setup = eval {
    my $me = $gl->current_user();
    expect($me->{username} eq 'root' && $me->{is_admin}, "current user $me->{username}");
    expect($gl->version()->{version} =~ /-ee$/, 'version');
    for my $name (qw(ann bob cid dee eve own dev)) {
        $gl->create_user({ email => "pl-$name\@example.com", username => "pl-$name", name => "Pl $name", password => 'Secret-pass-123', skip_confirmation => JSON::PP::true });
        # create_user answers nothing: the user is found by its username, exactly.
        my $found = $gl->users({ username => "pl-$name" });
        expect(@$found == 1, "users named pl-$name: " . scalar(@$found));
        $users{$name} = $found->[0];
    }
    # create_group answers nothing either: the group is read back by its path.
    $gl->create_group({ name => 'pl-group', path => 'pl-group', visibility => 'private' });
    $group = $gl->group('pl-group');
    $project = $gl->create_project({ name => 'pl-project', namespace_id => $group->{id}, initialize_with_readme => JSON::PP::true, visibility => 'private' });
    1;
};
emit('set-up: GET /user, GET /version, POST /users, GET /users?username=, POST /groups, POST /projects', 'method', $setup ? 1 : 0, $@);
exit 1 unless $setup;
my ($pid, $gid) = ($project->{id}, $group->{id});
my ($ann, $bob, $cid, $dee, $eve, $own, $dev) = @users{qw(ann bob cid dee eve own dev)};

# --- Repository files ----------------------------------------------------------------------------
my $path = 'docs/guide.md';
my %blob;
check("POST $FILE", 'method', sub {
    $gl->create_file($pid, $path, { branch => 'main', content => "one\ntwo\n", commit_message => 'add guide' });
    expect($gl->rest_client->http_tiny_response->{status} == 201, 'created');
});
check("GET $FILE", 'method', sub {
    my $file = $gl->file($pid, $path, { ref => 'main' });
    expect(length($file->{blob_id}) == 40 && $file->{file_name} eq 'guide.md', 'file');
    $blob{id} = $file->{blob_id};
});
check("GET $FILE/blame", 'http', sub {
    my $ranged = call($gl, 'GET', 'projects/:id/repository/files/:path/blame', [$pid, $path], { query => { ref => 'main', 'range[start]' => 2, 'range[end]' => 2 } });
    expect(join(',', map { @{ $_->{lines} } } @$ranged) eq 'two', 'ranged blame');
});
check("GET $FILE/raw", 'method', sub { expect($gl->raw_file($pid, $path, { ref => 'main' }) eq "one\ntwo\n", 'raw content') });
for my $suffix ('', '/blame', '/raw') {
    check("HEAD $FILE$suffix", 'http', sub {
        # A HEAD answer has no body to decode.
        call($gl, 'HEAD', "projects/:id/repository/files/:path$suffix", [$pid, $path], { query => { ref => 'main' }, decode => 0 });
        my $res = $gl->rest_client->http_tiny_response;
        expect($res->{status} == 200 && ($res->{headers}{'x-gitlab-blob-id'} || '') eq $blob{id}, "HEAD $res->{status}");
    });
}
expect_status("POST $FILE", 'method', 400, sub { $gl->create_file($pid, $path, { branch => 'main', content => 'x', commit_message => 'again' }) });
check("PUT $FILE", 'method', sub {
    $gl->edit_file($pid, $path, { branch => 'main', content => "one\nTWO\n", commit_message => 'edit' });
    expect($gl->raw_file($pid, $path, { ref => 'main' }) eq "one\nTWO\n", 'updated');
});
check("DELETE $FILE", 'method', sub {
    $gl->delete_file($pid, $path, { branch => 'main', commit_message => 'remove' });
    expect(!defined $gl->file($pid, $path, { ref => 'main' }), 'still there');
});

# --- Remote mirrors ----------------------------------------------------------------------------------
my $mirror;
check('POST /projects/:id/remote_mirrors', 'http', sub {
    $mirror = call($gl, 'POST', 'projects/:id/remote_mirrors', [$pid], { content => { url => 'https://bot:s3cret@example.com/m.git', enabled => JSON::PP::true } });
    expect($mirror->{url} eq 'https://*****:*****@example.com/m.git', "url $mirror->{url}");
});
check('GET /projects/:id/remote_mirrors', 'http', sub { expect(ids(call($gl, 'GET', 'projects/:id/remote_mirrors', [$pid])) eq $mirror->{id}, 'listed') });
check('GET /projects/:id/remote_mirrors/:mirror_id', 'http', sub { expect(call($gl, 'GET', 'projects/:id/remote_mirrors/:m', [$pid, $mirror->{id}])->{id} == $mirror->{id}, 'read') });
check('PUT /projects/:id/remote_mirrors/:mirror_id', 'http', sub {
    expect(call($gl, 'PUT', 'projects/:id/remote_mirrors/:m', [$pid, $mirror->{id}], { content => { only_protected_branches => JSON::PP::true } })->{only_protected_branches}, 'updated');
});
check('POST /projects/:id/remote_mirrors/:mirror_id/sync', 'http', sub {
    call($gl, 'POST', 'projects/:id/remote_mirrors/:m/sync', [$pid, $mirror->{id}]);
    expect($gl->rest_client->http_tiny_response->{status} == 204, 'status');
});
check('DELETE /projects/:id/remote_mirrors/:mirror_id', 'http', sub {
    call($gl, 'DELETE', 'projects/:id/remote_mirrors/:m', [$pid, $mirror->{id}]);
    expect(!defined call($gl, 'GET', 'projects/:id/remote_mirrors/:m', [$pid, $mirror->{id}]), 'still there');
});

# --- Invitations ---------------------------------------------------------------------------------------
for my $kind ('groups', 'projects') {
    my $id = $kind eq 'groups' ? $gid : $pid;
    my ($first, $second) = ("pl-new-$kind\@example.com", "pl-two-$kind\@example.com");
    check("POST /$kind/:id/invitations", 'http', sub {
        # A JSON array, as the module sends an array reference in a body.
        my $result = call($gl, 'POST', "$kind/:id/invitations", [$id], { content => { email => [$first, $second], access_level => 30 } });
        expect($result->{status} eq 'success', "status $result->{status}");
    });
    check("POST /$kind/:id/invitations", 'http', sub {
        my $result = call($gl, 'POST', "$kind/:id/invitations", [$id], { content => { user_id => "$dee->{id},$eve->{id}", access_level => 10 } });
        expect($result->{status} eq 'success', "status $result->{status}");
        my $members = call($gl, 'GET', "$kind/:id/members", [$id], { query => { 'user_ids[]' => [$dee->{id}, $eve->{id}] } });
        expect(ids($members) eq join(',', sort { $a <=> $b } $dee->{id}, $eve->{id}), 'members ' . ids($members));
        call($gl, 'DELETE', "$kind/:id/members/:u", [$id, $_->{id}]) for $dee, $eve;
    });
    check("GET /$kind/:id/invitations", 'http', sub { expect(@{ call($gl, 'GET', "$kind/:id/invitations", [$id]) } == 2, 'listed') });
    check("PUT /$kind/:id/invitations/:email", 'http', sub {
        expect(call($gl, 'PUT', "$kind/:id/invitations/:email", [$id, $first], { content => { access_level => 40 } })->{access_level} == 40, 'updated');
    });
    check("DELETE /$kind/:id/invitations/:email", 'http', sub {
        call($gl, 'DELETE', "$kind/:id/invitations/:email", [$id, $_]) for $first, $second;
        expect(@{ call($gl, 'GET', "$kind/:id/invitations", [$id]) } == 0, 'invitations left');
    });
}

# --- Members -------------------------------------------------------------------------------------------
check('POST /groups/:id/members', 'method', sub { expect($gl->add_group_member($gid, { user_id => $bob->{id}, access_level => 30 })->{access_level} == 30, 'added') });
check('POST /projects/:id/members', 'method', sub { expect($gl->add_project_member($pid, { user_id => $cid->{id}, access_level => 20 })->{access_level} == 20, 'added') });
check('GET /groups/:id/members', 'method', sub {
    # The module's plain array (user_ids=<ann>&user_ids=<bob>) is its last value for Rack: bob alone.
    expect(ids($gl->group_members($gid, { user_ids => [$ann->{id}, $bob->{id}] })) eq $bob->{id}, 'plain repeated user_ids');
    expect(ids($gl->group_members($gid, { 'user_ids[]' => [$bob->{id}, $ann->{id}] })) eq $bob->{id}, 'user_ids[]');
});
check('GET /projects/:id/members', 'method', sub { expect(ids($gl->project_members($pid, { user_ids => "$cid->{id},$bob->{id}" })) eq $cid->{id}, 'comma user_ids') });
check('GET /groups/:id/members/all', 'method', sub { expect(ids($gl->all_group_members($gid, { 'user_ids[]' => [$bob->{id}] })) eq $bob->{id}, 'all') });
check('GET /projects/:id/members/all', 'method', sub {
    my @levels = map { "$_->{id}:$_->{access_level}" } sort { $a->{id} <=> $b->{id} } @{ $gl->all_project_members($pid, { 'user_ids[]' => [$bob->{id}, $cid->{id}] }) };
    expect("@levels" eq "$bob->{id}:30 $cid->{id}:20", "levels @levels");
});
check('GET /groups/:id/members/:user_id', 'method', sub { expect($gl->group_member($gid, $bob->{id})->{access_level} == 30, 'level') });
check('GET /projects/:id/members/:user_id', 'method', sub { expect($gl->project_member($pid, $cid->{id})->{access_level} == 20, 'level') });
check('GET /groups/:id/members/all/:user_id', 'http', sub { expect(call($gl, 'GET', 'groups/:id/members/all/:u', [$gid, $bob->{id}])->{access_level} == 30, 'level') });
check('GET /projects/:id/members/all/:user_id', 'http', sub { expect(call($gl, 'GET', 'projects/:id/members/all/:u', [$pid, $bob->{id}])->{access_level} == 30, 'inherited') });
check('PUT /groups/:id/members/:user_id', 'method', sub { expect($gl->update_group_member($gid, $bob->{id}, { access_level => 40 })->{access_level} == 40, 'level') });
check('PUT /projects/:id/members/:user_id', 'method', sub { expect($gl->update_project_member($pid, $cid->{id}, { access_level => 30 })->{access_level} == 30, 'level') });
expect_status('POST /groups/:id/members', 'method', 409, sub { $gl->add_group_member($gid, { user_id => $bob->{id}, access_level => 30 }) });
check('DELETE /projects/:id/members/:user_id', 'method', sub {
    $gl->remove_project_member($pid, $cid->{id});
    expect(!defined $gl->project_member($pid, $cid->{id}), 'still a member');
});
check('DELETE /groups/:id/members/:user_id', 'method', sub {
    $gl->add_group_member($gid, { user_id => $dee->{id}, access_level => 10 });
    $gl->remove_group_member($gid, $dee->{id});
    expect(!defined $gl->group_member($gid, $dee->{id}), 'still a member');
});

# --- sudo (the Sudo header) ------------------------------------------------------------------------------
$gl->add_group_member($gid, { user_id => $dev->{id}, access_level => 30 });
expect_status('POST /projects/:id/members', 'method', 403, sub { $gl->sudo($dev->{username})->add_project_member($pid, { user_id => $ann->{id}, access_level => 10 }) });
check("POST $FILE", 'method', sub {
    $gl->create_branch($pid, { branch => 'dev-work', ref => 'main' });
    $gl->sudo($dev->{id})->create_file($pid, 'sudo.txt', { branch => 'dev-work', content => 'x', commit_message => 'as dev' });
    my $commit = $gl->branch($pid, 'dev-work')->{commit};
    expect($commit->{author_email} eq 'pl-dev@example.com', "author $commit->{author_email}");
});

# --- Billable and pending members, approval, LDAP override ------------------------------------------------
check('set-up: billable members', 'method', sub {
    $gl->add_group_member($gid, { user_id => $ann->{id}, access_level => 20 });
    $gl->add_project_member($pid, { user_id => $eve->{id}, access_level => 30 });
    $gl->add_group_member($gid, { user_id => $own->{id}, access_level => 50 });
});
check('GET /groups/:id/billable_members', 'http', sub {
    my %seen = map { $_->{id} => 1 } @{ call($gl, 'GET', 'groups/:id/billable_members', [$gid]) };
    expect($seen{ $ann->{id} } && $seen{ $eve->{id} }, 'billable');
});
expect_status('GET /groups/:id/billable_members', 'http', 400, sub { call($gl->sudo($dev->{username}), 'GET', 'groups/:id/billable_members', [$gid]) });
check('GET /groups/:id/billable_members/:user_id/memberships', 'http', sub {
    expect(join(',', map { $_->{source_id} } @{ call($gl, 'GET', 'groups/:id/billable_members/:u/memberships', [$gid, $eve->{id}]) }) eq $pid, 'memberships');
});
check('GET /groups/:id/billable_members/:user_id/indirect', 'http', sub { expect(@{ call($gl, 'GET', 'groups/:id/billable_members/:u/indirect', [$gid, $eve->{id}]) } == 0, 'indirect') });
check('DELETE /groups/:id/billable_members/:user_id', 'http', sub { call($gl, 'DELETE', 'groups/:id/billable_members/:u', [$gid, $eve->{id}]) });
check('PUT /groups/:id/members/:user_id/state', 'http', sub { expect(call($gl, 'PUT', 'groups/:id/members/:u/state', [$gid, $ann->{id}], { content => { state => 'awaiting' } })->{success}, 'state') });
my $pending;
check('GET /groups/:id/pending_members', 'http', sub {
    my $list = call($gl, 'GET', 'groups/:id/pending_members', [$gid]);
    expect(@$list == 1 && $list->[0]{username} eq 'pl-ann', 'pending');
    $pending = $list->[0]{id};
});
check('PUT /groups/:id/members/:member_id/approve', 'http', sub {
    call($gl, 'PUT', 'groups/:id/members/:m/approve', [$gid, $pending]);
    expect(@{ call($gl, 'GET', 'groups/:id/pending_members', [$gid]) } == 0, 'still pending');
});
check('POST /groups/:id/members/approve_all', 'http', sub {
    call($gl, 'PUT', 'groups/:id/members/:u/state', [$gid, $bob->{id}], { content => { state => 'awaiting' } });
    call($gl, 'POST', 'groups/:id/members/approve_all', [$gid]);
    expect(@{ call($gl, 'GET', 'groups/:id/pending_members', [$gid]) } == 0, 'still pending');
});
my $ldap = $FIXTURES->{ldap} || {};
my $ldap_gl = client($ldap->{owner_token} || 'missing');
check('POST /groups/:id/members/:user_id/override', 'http', sub {
    expect(call($ldap_gl, 'POST', 'groups/:id/members/:u/override', [$ldap->{group_id}, $ldap->{user_id}])->{override}, 'override');
});
check('DELETE /groups/:id/members/:user_id/override', 'http', sub {
    expect(!call($ldap_gl, 'DELETE', 'groups/:id/members/:u/override', [$ldap->{group_id}, $ldap->{user_id}])->{override}, 'override removed');
});

# --- Errors ---------------------------------------------------------------------------------------------
expect_status('GET /user', 'method', 401, sub { client('glpat-not-a-real-token-000')->current_user() });
# The module answers a GET's 404 with undef rather than an error.
check('GET /user', 'method', sub {
    my $sudo = $gl->sudo('pl-nobody');
    expect(!defined $sudo->current_user() && $sudo->rest_client->http_tiny_response->{status} == 404, 'sudo of an unknown user');
});

exit($failures ? 1 : 0);
