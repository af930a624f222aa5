# Drives the reference server with the Ruby `gitlab` gem (4.x, Debian's ruby-gitlab), as a GitLab client would.
#
# Run by clients.spec.ts with GITLAB_URL, GITLAB_TOKEN (the administrator's, with the sudo scope) and
# GITLAB_FIXTURES (the server's fixture manifest, JSON). Builds its own users, group and project through
# the API, then drives the 47 endpoint forms: through the gem's methods where it has them, through its
# request methods (client.get/post/put/delete, HTTParty's head) where it has not. The gem sends arrays
# in Rack's bracket form (`user_ids[]=1&user_ids[]=2`, `email[]=a&email[]=b` in a form body) and `sudo`
# as a query parameter. Prints one JSON line per check: {"form", "via", "ok", "detail"}.
require 'gitlab'
require 'json'

URL = ENV.fetch('GITLAB_URL')
TOKEN = ENV.fetch('GITLAB_TOKEN')
FIXTURES = JSON.parse(ENV.fetch('GITLAB_FIXTURES', '{}'))
FILE = '/projects/:id/repository/files/:file_path'
MIRRORS = '/projects/:id/remote_mirrors'
MIRROR = '/projects/:id/remote_mirrors/:mirror_id'

$failures = 0

def emit(form, via, ok, detail)
  $failures += 1 unless ok
  puts JSON.generate(form: form, via: via, ok: ok, detail: detail.to_s[0, 500])
  $stdout.flush
end

# Runs the block (which raises on a failed expectation); returns its value, nil on failure.
def check(form, via)
  value = yield
  emit(form, via, true, value.is_a?(String) ? value : '')
  value
rescue StandardError => e
  emit(form, via, false, "#{e.class}: #{e.message}")
  nil
end

# The block must raise error_class (a Gitlab::Error::ResponseError) with message containing `message`.
def expect_error(form, via, error_class, message = nil)
  yield
  emit(form, via, false, "no error, expected #{error_class}")
rescue error_class => e
  if message && !e.message.include?(message)
    emit(form, via, false, "#{error_class} with #{e.message.inspect}, expected #{message.inspect}")
  else
    emit(form, via, true, "#{error_class} #{e.response_status}")
  end
rescue StandardError => e
  emit(form, via, false, "#{e.class} instead of #{error_class}: #{e.message}")
end

def expect(condition, text)
  raise text unless condition
end

def client(token)
  Gitlab.client(endpoint: "#{URL}/api/v4", private_token: token)
end

def enc(text)
  URI.encode_www_form_component(text).gsub('+', '%20').gsub('.', '%2E')
end

gl = client(TOKEN)

# HTTParty's head with the client's token: the gem has no HEAD method.
def head(path, query = {}, token = TOKEN)
  Gitlab::Request.head("#{URL}/api/v4#{path}", query: query, headers: { 'PRIVATE-TOKEN' => token })
end

# --- Set-up through the API, as the administrator ---------------------------------------------
users = {}
begin
  me = gl.user
  expect(me.username == 'root' && me.is_admin, "current user #{me.username}")
  expect(gl.version.version.end_with?('-ee'), 'version')
  %w[ann bob cid dee eve own dev].each do |name|
    users[name] = gl.create_user("rb-#{name}@example.com", 'Secret-pass-123', "rb-#{name}", name: "Rb #{name}", skip_confirmation: true)
  end
  $group = gl.create_group('rb-group', 'rb-group', visibility: 'private')
  $project = gl.create_project('rb-project', namespace_id: $group.id, initialize_with_readme: true, visibility: 'private')
  emit('set-up: GET /user, GET /version, POST /users, POST /groups, POST /projects', 'method', true, '')
rescue StandardError => e
  emit('set-up: GET /user, GET /version, POST /users, POST /groups, POST /projects', 'method', false, "#{e.class}: #{e.message}")
  exit 1
end
group = $group
project = $project
pid = project.id
gid = group.id
ann, bob, cid, dee, eve, own, dev = users.values_at('ann', 'bob', 'cid', 'dee', 'eve', 'own', 'dev')

check('set-up: GET /users?username=', 'method') do
  found = gl.users(username: 'rb-bob')
  expect(found.map(&:id) == [bob.id], "users named rb-bob: #{found.map(&:username)}")
end
check('set-up: GET /groups/:id/subgroups', 'method') do
  sub = gl.create_group('rb-sub', 'rb-sub', parent_id: gid)
  expect(gl.group_subgroups(gid).map(&:id) == [sub.id], 'subgroups')
end

# --- Repository files --------------------------------------------------------------------------
path = 'docs/guide.md'
blob = {}
check("POST #{FILE}", 'method') do
  created = gl.create_file(pid, path, 'main', "one\ntwo\n", 'add guide', author_name: 'Ann', author_email: 'rb-ann@example.com')
  expect(created.file_path == path && created.branch == 'main', "created #{created.to_h}")
end
check("GET #{FILE}", 'method') do
  file = gl.get_file(pid, path, 'main')
  expect(Base64.decode64(file.content) == "one\ntwo\n", "content #{file.content}")
  expect(file.blob_id.length == 40 && file.file_name == 'guide.md', "file #{file.to_h}")
  blob[:id] = file.blob_id
end
check("GET #{FILE}/blame", 'method') do
  ranges = gl.get_file_blame(pid, path, 'main')
  expect(ranges.flat_map { |r| r.lines } == %w[one two], "blame #{ranges.map(&:to_h)}")
  # A hash parameter in Rack's bracket form: range[start]=2&range[end]=2.
  ranged = gl.get("/projects/#{pid}/repository/files/#{enc(path)}/blame", query: { ref: 'main', range: { start: 2, end: 2 } })
  expect(ranged.flat_map { |r| r.lines } == %w[two], "ranged blame #{ranged.map(&:to_h)}")
end
check("GET #{FILE}/raw", 'method') do
  expect(gl.file_contents(pid, path, 'main') == "one\ntwo\n", 'raw content')
end
%w[ /blame /raw].unshift('').each do |suffix|
  check("HEAD #{FILE}#{suffix}", 'http') do
    res = head("/projects/#{pid}/repository/files/#{enc(path)}#{suffix}", ref: 'main')
    expect(res.code == 200 && res.headers['x-gitlab-blob-id'] == blob[:id], "#{res.code} #{res.headers['x-gitlab-blob-id']}")
    expect(res.headers['x-gitlab-file-path'] == path, "path #{res.headers['x-gitlab-file-path']}")
  end
end
expect_error("POST #{FILE}", 'method', Gitlab::Error::BadRequest, 'A file with this name already exists') do
  gl.create_file(pid, path, 'main', 'x', 'again')
end
check("PUT #{FILE}", 'method') do
  updated = gl.edit_file(pid, path, 'main', "one\nTWO\n", 'edit guide')
  expect(updated.file_path == path, "updated #{updated.to_h}")
  expect(gl.file_contents(pid, path, 'main') == "one\nTWO\n", 'updated content')
end
check("DELETE #{FILE}", 'method') do
  gl.remove_file(pid, path, 'main', 'remove guide')
  begin
    gl.get_file(pid, path, 'main')
    raise 'the file is still there'
  rescue Gitlab::Error::NotFound
    'gone'
  end
end
expect_error("GET #{FILE}", 'method', Gitlab::Error::NotFound, '404 File Not Found') { gl.get_file(pid, 'nope.md', 'main') }
check("HEAD #{FILE}", 'http') do
  expect(head("/projects/#{pid}/repository/files/nope.md", ref: 'main').code == 404, 'HEAD of a missing file')
end

# --- Remote mirrors ------------------------------------------------------------------------------
mirror = {}
check("POST #{MIRRORS}", 'http') do
  created = gl.post("/projects/#{pid}/remote_mirrors", body: { url: 'https://bot:s3cret@example.com/mirror.git', enabled: true })
  expect(created.url == 'https://*****:*****@example.com/mirror.git' && created.enabled == true, "mirror #{created.to_h}")
  mirror[:id] = created.id
end
check("GET #{MIRRORS}", 'http') { expect(gl.get("/projects/#{pid}/remote_mirrors").map(&:id) == [mirror[:id]], 'listed') }
check("GET #{MIRROR}", 'http') { expect(gl.get("/projects/#{pid}/remote_mirrors/#{mirror[:id]}").id == mirror[:id], 'read') }
check("PUT #{MIRROR}", 'http') do
  updated = gl.put("/projects/#{pid}/remote_mirrors/#{mirror[:id]}", body: { only_protected_branches: true })
  expect(updated.only_protected_branches == true, "mirror #{updated.to_h}")
end
check("POST #{MIRROR}/sync", 'http') do
  gl.post("/projects/#{pid}/remote_mirrors/#{mirror[:id]}/sync")
  'synced'
end
check("DELETE #{MIRROR}", 'http') { gl.delete("/projects/#{pid}/remote_mirrors/#{mirror[:id]}") && 'deleted' }
expect_error("GET #{MIRROR}", 'http', Gitlab::Error::NotFound) { gl.get("/projects/#{pid}/remote_mirrors/#{mirror[:id]}") }
expect_error("POST #{MIRRORS}", 'http', Gitlab::Error::BadRequest) { gl.post("/projects/#{pid}/remote_mirrors", body: { url: 'not a url' }) }

# --- Invitations: arrays in Rack's bracket form (email[]=…, user_id[]=…) ---------------------------
{ 'groups' => gid, 'projects' => pid }.each do |kind, id|
  first = "rb-new-#{kind}@example.com"
  second = "rb-two-#{kind}@example.com"
  check("POST /#{kind}/:id/invitations", 'http') do
    result = gl.post("/#{kind}/#{id}/invitations", body: { email: [first, second], access_level: 30 })
    expect(result.status == 'success', "invitation #{result.to_h}")
  end
  check("POST /#{kind}/:id/invitations", 'http') do
    result = gl.post("/#{kind}/#{id}/invitations", body: { user_id: [dee.id, eve.id], access_level: 10 })
    expect(result.status == 'success', "invitation by user_id[] #{result.to_h}")
    direct = gl.get("/#{kind}/#{id}/members", query: { user_ids: [dee.id, eve.id] })
    expect(direct.map(&:id).sort == [dee.id, eve.id].sort, "members #{direct.map(&:id)}")
    [dee, eve].each { |u| gl.delete("/#{kind}/#{id}/members/#{u.id}") }
    'user_id[] made both members'
  end
  check("GET /#{kind}/:id/invitations", 'http') do
    listed = gl.get("/#{kind}/#{id}/invitations")
    expect(listed.map(&:invite_email).sort == [first, second].sort, "listed #{listed.map(&:to_h)}")
  end
  check("PUT /#{kind}/:id/invitations/:email", 'http') do
    expect(gl.put("/#{kind}/#{id}/invitations/#{enc(first)}", body: { access_level: 40 }).access_level == 40, 'updated')
  end
  check("DELETE /#{kind}/:id/invitations/:email", 'http') do
    [first, second].each { |email| gl.delete("/#{kind}/#{id}/invitations/#{enc(email)}") }
    expect(gl.get("/#{kind}/#{id}/invitations").to_a.empty?, 'invitations left')
  end
  expect_error("DELETE /#{kind}/:id/invitations/:email", 'http', Gitlab::Error::NotFound) do
    gl.delete("/#{kind}/#{id}/invitations/#{enc('rb-nobody@example.com')}")
  end
end

# --- Members -----------------------------------------------------------------------------------------
check('POST /groups/:id/members', 'method') do
  member = gl.add_group_member(gid, bob.id, 30)
  expect(member.id == bob.id && member.access_level == 30, "member #{member.to_h}")
end
check('POST /projects/:id/members', 'method') do
  member = gl.add_team_member(pid, cid.id, 20, expires_at: '2099-01-31')
  expect(member.id == cid.id && member.expires_at == '2099-01-31', "member #{member.to_h}")
end
check('GET /groups/:id/members', 'method') do
  # user_ids as the gem sends an array: user_ids[]=…&user_ids[]=…
  only = gl.group_members(gid, user_ids: [bob.id, ann.id])
  expect(only.map(&:id) == [bob.id], "members of user_ids[] #{only.map(&:id)}")
end
check('GET /projects/:id/members', 'method') do
  gl.add_team_member(pid, dee.id, 10)
  ids = gl.team_members(pid, skip_users: [cid.id]).map(&:id)
  expect(ids == [dee.id], "skip_users[] #{ids}")
  gl.remove_team_member(pid, dee.id)
  expect(gl.team_members(pid, user_ids: [cid.id]).map(&:id) == [cid.id], 'user_ids[]')
end
check('GET /groups/:id/members/all', 'http') do
  expect(gl.get("/groups/#{gid}/members/all", query: { user_ids: [bob.id] }).map(&:id) == [bob.id], 'all members of user_ids[]')
end
check('GET /projects/:id/members/all', 'method') do
  levels = gl.all_members(pid, user_ids: [bob.id, cid.id]).to_h { |m| [m.id, m.access_level] }
  expect(levels == { bob.id => 30, cid.id => 20 }, "levels #{levels}")
end
check('GET /groups/:id/members/:user_id', 'method') { expect(gl.group_member(gid, bob.id).access_level == 30, 'level 30') }
check('GET /projects/:id/members/:user_id', 'method') { expect(gl.team_member(pid, cid.id).access_level == 20, 'level 20') }
check('GET /groups/:id/members/all/:user_id', 'http') { expect(gl.get("/groups/#{gid}/members/all/#{bob.id}").access_level == 30, 'level 30') }
check('GET /projects/:id/members/all/:user_id', 'http') { expect(gl.get("/projects/#{pid}/members/all/#{bob.id}").access_level == 30, 'inherited 30') }
check('PUT /groups/:id/members/:user_id', 'method') { expect(gl.edit_group_member(gid, bob.id, 40).access_level == 40, 'level 40') }
check('PUT /projects/:id/members/:user_id', 'method') { expect(gl.edit_team_member(pid, cid.id, 30).access_level == 30, 'level 30') }
expect_error('POST /groups/:id/members', 'method', Gitlab::Error::Conflict, 'Member already exists') { gl.add_group_member(gid, bob.id, 30) }
check('DELETE /projects/:id/members/:user_id', 'method') do
  gl.remove_team_member(pid, cid.id)
  expect(gl.team_members(pid, user_ids: [cid.id]).to_a.empty?, 'still a member')
end
check('DELETE /groups/:id/members/:user_id', 'method') do
  gl.add_group_member(gid, dee.id, 10)
  gl.remove_group_member(gid, dee.id)
  expect(gl.group_members(gid, user_ids: [dee.id]).to_a.empty?, 'still a member')
end
expect_error('GET /groups/:id/members/:user_id', 'method', Gitlab::Error::NotFound) { gl.group_member(gid, 999_999) }

# --- sudo: the administrator acts as another user (query parameter and Sudo header) ----------------
check('POST /projects/:id/members', 'http') do
  gl.add_group_member(gid, dev.id, 30)
  # A Developer may not add members: as the Developer, the administrator's request is refused.
  gl.post("/projects/#{pid}/members", query: { sudo: dev.username }, body: { user_id: ann.id, access_level: 10 })
  raise 'sudo was ignored: the member was added'
rescue Gitlab::Error::Forbidden
  '403 as the Developer'
end
check('GET /groups/:id/members', 'http') do
  me = gl.get('/user', headers: { 'Sudo' => dev.id.to_s })
  expect(me.username == dev.username, "Sudo header acts as #{me.username}")
end
check("POST #{FILE}", 'http') do
  gl.create_branch(pid, 'dev-work', 'main')
  gl.post("/projects/#{pid}/repository/files/sudo.txt", query: { sudo: dev.username }, body: { branch: 'dev-work', content: 'x', commit_message: 'as dev' })
  commit = gl.get("/projects/#{pid}/repository/branches/dev-work").commit
  expect(commit.author_email == dev.email, "commit by #{commit.author_email}")
  'authored by the Developer'
end

# --- Billable and pending members, approval, LDAP override (GitLab EE) ------------------------------
check('set-up: billable members', 'method') do
  gl.add_group_member(gid, ann.id, 20)
  gl.add_team_member(pid, eve.id, 30)
  gl.add_group_member(gid, own.id, 50)
end
check('GET /groups/:id/billable_members', 'method') do
  ids = gl.group_billable_members(gid).map(&:id)
  expect(ids.include?(ann.id) && ids.include?(eve.id), "billable #{ids}")
end
check('GET /groups/:id/billable_members', 'http') do
  gl.get("/groups/#{gid}/billable_members", query: { sudo: dev.username })
  raise 'sudo was ignored: a Developer read billable members'
rescue Gitlab::Error::BadRequest, Gitlab::Error::Forbidden => e
  "#{e.response_status} as the Developer"
end
check('GET /groups/:id/billable_members/:user_id/memberships', 'http') do
  sources = gl.get("/groups/#{gid}/billable_members/#{eve.id}/memberships").map(&:source_id)
  expect(sources == [pid], "memberships #{sources}")
end
check('GET /groups/:id/billable_members/:user_id/indirect', 'http') do
  expect(gl.get("/groups/#{gid}/billable_members/#{eve.id}/indirect").to_a.empty?, 'indirect')
end
check('DELETE /groups/:id/billable_members/:user_id', 'http') do
  gl.delete("/groups/#{gid}/billable_members/#{eve.id}")
  expect(!gl.group_billable_members(gid).map(&:id).include?(eve.id), 'eve still billable')
end
pending = {}
check('PUT /groups/:id/members/:user_id/state', 'http') do
  expect(gl.put("/groups/#{gid}/members/#{ann.id}/state", body: { state: 'awaiting' }).success == true, 'state')
end
check('GET /groups/:id/pending_members', 'http') do
  listed = gl.get("/groups/#{gid}/pending_members")
  expect(listed.map(&:username) == ['rb-ann'], "pending #{listed.map(&:to_h)}")
  pending[:id] = listed.first.id
end
check('PUT /groups/:id/members/:member_id/approve', 'http') do
  gl.put("/groups/#{gid}/members/#{pending[:id]}/approve")
  expect(gl.get("/groups/#{gid}/pending_members").to_a.empty?, 'still pending')
end
check('POST /groups/:id/members/approve_all', 'http') do
  gl.put("/groups/#{gid}/members/#{bob.id}/state", body: { state: 'awaiting' })
  gl.post("/groups/#{gid}/members/approve_all")
  expect(gl.get("/groups/#{gid}/pending_members").to_a.empty?, 'still pending')
end
ldap = FIXTURES['ldap'] || {}
ldap_gl = client(ldap.fetch('owner_token', 'missing'))
check('POST /groups/:id/members/:user_id/override', 'http') do
  expect(ldap_gl.post("/groups/#{ldap['group_id']}/members/#{ldap['user_id']}/override").override == true, 'override')
end
check('DELETE /groups/:id/members/:user_id/override', 'http') do
  expect(ldap_gl.delete("/groups/#{ldap['group_id']}/members/#{ldap['user_id']}/override").override == false, 'override removed')
end
expect_error('PUT /groups/:id/members/:user_id/state', 'http', Gitlab::Error::BadRequest) do
  gl.put("/groups/#{gid}/members/#{ann.id}/state", body: { state: 'sleeping' })
end

# --- Errors across the API -------------------------------------------------------------------------
expect_error('GET /user', 'method', Gitlab::Error::Unauthorized) { client('glpat-not-a-real-token-000').user }
expect_error('GET /user', 'http', Gitlab::Error::NotFound, "User with ID or username 'rb-nobody'") do
  gl.get('/user', query: { sudo: 'rb-nobody' })
end

exit($failures.zero? ? 0 : 1)
