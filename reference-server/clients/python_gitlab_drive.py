"""Drives the reference server with python-gitlab (3.x), as a GitLab client would.

Run by python-gitlab.spec.ts with GITLAB_URL, GITLAB_TOKEN (the administrator's) and
GITLAB_FIXTURES (the server's fixture manifest, JSON). Builds its own users, group and project
through the API, then exercises the 47 endpoint forms: through python-gitlab's managers where it
has them, through gl.http_* where it does not. Prints one JSON line per check:
{"form": ..., "via": "manager" | "http", "ok": true/false, "detail": ...}.
"""

import json
import os
import sys
import time
import warnings

import gitlab
from gitlab import exceptions as exc
from gitlab.utils import EncodedId

warnings.simplefilter("ignore")

URL = os.environ["GITLAB_URL"]
TOKEN = os.environ["GITLAB_TOKEN"]
FIXTURES = json.loads(os.environ.get("GITLAB_FIXTURES", "{}"))

FILE = "/projects/:id/repository/files/:file_path"
MIRRORS = "/projects/:id/remote_mirrors"
MIRROR = "/projects/:id/remote_mirrors/:mirror_id"

failures = 0


def emit(form, via, ok, detail):
    global failures
    if not ok:
        failures += 1
    print(json.dumps({"form": form, "via": via, "ok": ok, "detail": detail}), flush=True)


def check(form, via, fn):
    """Runs fn (which asserts); its return value is the detail. Returns fn's value, None on failure."""
    try:
        value = fn()
    except Exception as e:  # every failure is a reported check, never a crash
        emit(form, via, False, f"{type(e).__name__}: {e}")
        return None
    emit(form, via, True, value if isinstance(value, str) else "")
    return value


def expect_error(form, via, error_class, status, fn, message=None):
    """fn must raise error_class with response_code status (and error_message containing message)."""
    try:
        fn()
    except error_class as e:
        if e.response_code != status:
            emit(form, via, False, f"{error_class.__name__} with {e.response_code}, expected {status}: {e.error_message}")
        elif message is not None and message not in str(e.error_message):
            emit(form, via, False, f"{error_class.__name__} {status} with message {e.error_message!r}, expected {message!r}")
        else:
            emit(form, via, True, f"{error_class.__name__} {status}: {e.error_message}")
        return
    except Exception as e:
        emit(form, via, False, f"{type(e).__name__} instead of {error_class.__name__}: {e}")
        return
    emit(form, via, False, f"no error, expected {error_class.__name__} {status}")


def expect(condition, text):
    if not condition:
        raise AssertionError(text)


gl = gitlab.Gitlab(URL, private_token=TOKEN)


# --- Set-up through the API, as the administrator -------------------------------------------

def setup():
    gl.auth()
    expect(gl.user.username == "root" and gl.user.is_admin, f"current user {gl.user.username}")
    version, _revision = gl.version()
    expect(version.endswith("-ee"), f"version {version}")
    users = {}
    for name in ("ann", "bob", "cid", "dee", "eve", "own"):
        users[name] = gl.users.create({
            "email": f"py-{name}@example.com", "username": f"py-{name}", "name": f"Py {name}",
            "password": "Secret-pass-123", "skip_confirmation": True,
        })
    group = gl.groups.create({"name": "py-group", "path": "py-group", "visibility": "private"})
    project = gl.projects.create({"name": "py-project", "namespace_id": group.id, "initialize_with_readme": True, "visibility": "private"})
    return users, group, project


try:
    users, group, project = setup()
    emit("set-up: GET /user, GET /version, POST /users, POST /groups, POST /projects", "manager", True, "")
except Exception as e:
    emit("set-up: GET /user, GET /version, POST /users, POST /groups, POST /projects", "manager", False, f"{type(e).__name__}: {e}")
    sys.exit(1)

pid, gid = project.id, group.id


# --- Branches (set-up routes python-gitlab uses) ---------------------------------------------

def branch_main():
    branch = project.branches.get("main")
    expect(branch.name == "main" and len(branch.commit["id"]) == 40, f"branch {branch.attributes}")
    expect(branch.default is True and branch.protected is True and branch.merged is False, f"flags {branch.attributes}")
    expect(branch.can_push is True and branch.developers_can_push is False, f"push flags {branch.attributes}")
    expect(branch.web_url.endswith("/py-group/py-project/-/tree/main"), branch.web_url)
    return branch.commit["id"]


check("GET /projects/:id/repository/branches/:branch", "manager", branch_main)
check("POST /projects/:id/repository/branches", "manager",
      lambda: expect(project.branches.create({"branch": "feature", "ref": "main"}).name == "feature", "created"))
expect_error("GET /projects/:id/repository/branches/:branch", "manager", exc.GitlabGetError, 404,
             lambda: project.branches.get("no-such-branch"), "404 Branch Not Found")
check("HEAD /projects/:id/repository/branches/:branch", "http",
      lambda: gl.http_head(f"/projects/{pid}/repository/branches/main") is not None and "204 for an existing branch")
expect_error("HEAD /projects/:id/repository/branches/:branch", "http", exc.GitlabHttpError, 404,
             lambda: gl.http_head(f"/projects/{pid}/repository/branches/no-such-branch"))


def project_fields():
    read = gl.projects.get(pid)
    expect(read.http_url_to_repo.endswith("/py-group/py-project.git") and read.ssh_url_to_repo.endswith(":py-group/py-project.git"),
           f"{read.http_url_to_repo} {read.ssh_url_to_repo}")
    expect(read.archived is False and read.topics == [] and read.tag_list == [] and read.forks_count == 0 and read.star_count == 0
           and read.last_activity_at, f"fields {read.attributes}")


check("GET /projects/:id (the fields clients read)", "manager", project_fields)


# --- Repository files -----------------------------------------------------------------------

path = "docs/guide.md"
encoded = EncodedId(path)
blob = {}


def file_create():
    created = project.files.create({"file_path": path, "branch": "main", "content": "one\ntwo\n", "commit_message": "add guide",
                                    "author_name": "Ann", "author_email": "py-ann@example.com"})
    expect(created.file_path == path and created.branch == "main", f"created {created.attributes}")


def file_get():
    f = project.files.get(path, ref="main")
    expect(f.decode() == b"one\ntwo\n", f"content {f.decode()!r}")
    expect(len(f.blob_id) == 40 and f.file_name == "guide.md" and f.ref == "main", f"file {f.attributes}")
    blob["id"] = f.blob_id
    blob["last_commit_id"] = f.last_commit_id


def file_blame():
    ranges = project.files.blame(path, "main")
    expect([line for r in ranges for line in r["lines"]] == ["one", "two"], f"blame {ranges}")
    ranged = project.files.blame(path, "main", range={"start": 2, "end": 2})
    expect([line for r in ranged for line in r["lines"]] == ["two"], f"ranged blame {ranged}")


def file_raw():
    expect(project.files.raw(path, ref="main") == b"one\ntwo\n", "raw content")


def file_head(suffix):
    def run():
        headers = gl.http_head(f"/projects/{pid}/repository/files/{encoded}{suffix}", query_data={"ref": "main"})
        expect(headers.get("X-Gitlab-Blob-Id") == blob.get("id"), f"X-Gitlab-Blob-Id {headers.get('X-Gitlab-Blob-Id')}")
        expect(headers.get("X-Gitlab-File-Path") == path and headers.get("X-Gitlab-Ref") == "main", f"headers {dict(headers)}")
        if suffix != "/raw":
            expect(headers.get("Content-Type") == "application/json", f"Content-Type {headers.get('Content-Type')}")
    return run


def file_update():
    updated = project.files.update(path, {"branch": "main", "content": "one\nTWO\n", "commit_message": "edit guide"})
    expect(updated["file_path"] == path, f"updated {updated}")
    expect(project.files.raw(path, ref="main") == b"one\nTWO\n", "updated content")


def file_delete():
    project.files.delete(path, "main", "remove guide")
    try:
        project.files.get(path, ref="main")
    except exc.GitlabGetError as e:
        expect(e.response_code == 404, f"after delete: {e.response_code}")
        return
    raise AssertionError("the file is still there")


check(f"POST {FILE}", "manager", file_create)
check(f"GET {FILE}", "manager", file_get)
check(f"GET {FILE}/blame", "manager", file_blame)
check(f"GET {FILE}/raw", "manager", file_raw)
check(f"HEAD {FILE}", "http", file_head(""))
check(f"HEAD {FILE}/blame", "http", file_head("/blame"))
check(f"HEAD {FILE}/raw", "http", file_head("/raw"))
expect_error(f"POST {FILE}", "manager", exc.GitlabCreateError, 400,
             lambda: project.files.create({"file_path": path, "branch": "main", "content": "x", "commit_message": "again"}),
             "A file with this name already exists")
expect_error(f"PUT {FILE}", "manager", exc.GitlabUpdateError, 400,
             lambda: project.files.update(path, {"branch": "main", "content": "x", "commit_message": "c", "last_commit_id": "0" * 40}))
check(f"PUT {FILE}", "manager", file_update)
check(f"DELETE {FILE}", "manager", file_delete)
expect_error(f"GET {FILE}", "manager", exc.GitlabGetError, 404, lambda: project.files.get("nope.md", ref="main"), "404 File Not Found")
expect_error(f"GET {FILE}/raw", "manager", exc.GitlabGetError, 404, lambda: project.files.raw("nope.md", ref="main"))
expect_error(f"HEAD {FILE}", "http", exc.GitlabHttpError, 404,
             lambda: gl.http_head(f"/projects/{pid}/repository/files/nope.md", query_data={"ref": "main"}))


# --- Remote mirrors -------------------------------------------------------------------------

mirror_box = {}


def mirror_create():
    mirror = project.remote_mirrors.create({"url": "https://bot:s3cret@example.com/mirror.git", "enabled": True, "keep_divergent_refs": True})
    expect(mirror.url == "https://*****:*****@example.com/mirror.git", f"url {mirror.url}")
    expect(mirror.enabled is True and mirror.update_status == "none", f"mirror {mirror.attributes}")
    mirror_box["id"] = mirror.id


def mirror_list():
    mirrors = project.remote_mirrors.list()
    expect([m.id for m in mirrors] == [mirror_box["id"]], f"ids {[m.id for m in mirrors]}")
    mirror_box["object"] = mirrors[0]


def mirror_get():
    # gl.http_get parses the body only when Content-Type is exactly application/json.
    mirror = gl.http_get(f"/projects/{pid}/remote_mirrors/{mirror_box['id']}")
    expect(isinstance(mirror, dict), f"not parsed: {mirror!r}")
    expect(mirror["id"] == mirror_box["id"] and mirror["enabled"] is True, f"mirror {mirror}")


def mirror_update():
    mirror = mirror_box["object"]
    mirror.only_protected_branches = True
    mirror.save()
    expect(mirror.only_protected_branches is True, f"mirror {mirror.attributes}")


def mirror_sync():
    result = gl.http_post(f"/projects/{pid}/remote_mirrors/{mirror_box['id']}/sync")
    expect(result.status_code == 204 and "Content-Type" not in result.headers, f"{result.status_code} {dict(result.headers)}")
    status = None
    for _ in range(200):  # the push takes a moment (0.5 s on the reference server); up to 10 s
        status = gl.http_get(f"/projects/{pid}/remote_mirrors/{mirror_box['id']}")["update_status"]
        if status == "finished":
            return "update_status finished"
        time.sleep(0.05)
    raise AssertionError(f"update_status {status}")


def mirror_delete():
    result = gl.http_delete(f"/projects/{pid}/remote_mirrors/{mirror_box['id']}")
    expect(result.status_code == 204, f"status {result.status_code}")


check(f"POST {MIRRORS}", "manager", mirror_create)
check(f"GET {MIRRORS}", "manager", mirror_list)
check(f"GET {MIRROR}", "http", mirror_get)
check(f"PUT {MIRROR}", "manager", mirror_update)
check(f"POST {MIRROR}/sync", "http", mirror_sync)
check(f"DELETE {MIRROR}", "http", mirror_delete)
expect_error(f"GET {MIRROR}", "http", exc.GitlabHttpError, 404, lambda: gl.http_get(f"/projects/{pid}/remote_mirrors/{mirror_box['id']}"))
expect_error(f"POST {MIRRORS}", "manager", exc.GitlabCreateError, 400,
             lambda: project.remote_mirrors.create({"url": "not a url"}))


# --- Invitations ----------------------------------------------------------------------------

for kind, source in (("groups", group), ("projects", project)):
    email = f"py-new-{kind}@example.com"

    def invite(source=source, email=email):
        invitation = source.invitations.create({"email": email, "access_level": 30})
        expect(invitation.status == "success", f"invitation {invitation.attributes}")

    def pending(source=source, email=email):
        listed = source.invitations.list(query=email)
        expect([(i.invite_email, i.access_level) for i in listed] == [(email, 30)], f"listed {[i.attributes for i in listed]}")

    def update(source=source, email=email):
        updated = source.invitations.update(email, {"access_level": 40})
        expect(updated["access_level"] == 40, f"updated {updated}")

    def delete(source=source, email=email):
        source.invitations.delete(email)
        expect(source.invitations.list() == [], "invitations left")

    check(f"POST /{kind}/:id/invitations", "manager", invite)
    # The pending address in other letter case: the API answers 201 {"status": "error"}, which
    # python-gitlab raises as GitlabInvitationError (no HTTP status of its own).
    expect_error(f"POST /{kind}/:id/invitations", "manager", exc.GitlabInvitationError, None,
                 lambda source=source, email=email: source.invitations.create({"email": email.upper(), "access_level": 30}),
                 "already been taken")
    check(f"GET /{kind}/:id/invitations", "manager", pending)
    check(f"PUT /{kind}/:id/invitations/:email", "manager", update)
    check(f"DELETE /{kind}/:id/invitations/:email", "manager", delete)
    expect_error(f"DELETE /{kind}/:id/invitations/:email", "manager", exc.GitlabDeleteError, 404,
                 lambda source=source: source.invitations.delete("py-nobody@example.com"))


# --- Members --------------------------------------------------------------------------------

ann, bob, cid, dee, eve, own = (users[n] for n in ("ann", "bob", "cid", "dee", "eve", "own"))


def members_add_group():
    member = group.members.create({"user_id": bob.id, "access_level": 30, "expires_at": "2099-01-31"})
    expect(member.id == bob.id and member.access_level == 30 and member.expires_at == "2099-01-31", f"member {member.attributes}")


def members_add_project():
    member = project.members.create({"user_id": cid.id, "access_level": 20})
    expect(member.id == cid.id and member.access_level == 20, f"member {member.attributes}")


def members_list_group():
    expect(bob.id in [m.id for m in group.members.list(get_all=True)], "bob among the group's members")


def members_list_project():
    ids = [m.id for m in project.members.list(get_all=True)]
    expect(cid.id in ids and bob.id not in ids, f"direct project members {ids}")


def members_all_group():
    expect(bob.id in [m.id for m in group.members_all.list(get_all=True)], "bob among all group members")


def members_all_project():
    levels = {m.id: m.access_level for m in project.members_all.list(get_all=True)}
    expect(levels.get(bob.id) == 30 and levels.get(cid.id) == 20, f"levels {levels}")


def members_edit_group():
    member = group.members.get(bob.id)
    member.access_level = 40
    member.save()
    expect(group.members.get(bob.id).access_level == 40, "saved level")


def members_edit_project():
    updated = project.members.update(cid.id, {"access_level": 30})
    expect(updated["access_level"] == 30, f"updated {updated}")


def members_remove_project():
    project.members.delete(cid.id)
    try:
        project.members.get(cid.id)
    except exc.GitlabGetError as e:
        expect(e.response_code == 404, f"after delete {e.response_code}")
        return
    raise AssertionError("still a member")


def members_remove_group():
    group.members.create({"user_id": dee.id, "access_level": 10})
    group.members.get(dee.id).delete()
    expect(dee.id not in [m.id for m in group.members.list(get_all=True)], "dee still listed")


check("POST /groups/:id/members", "manager", members_add_group)
check("POST /projects/:id/members", "manager", members_add_project)
check("GET /groups/:id/members", "manager", members_list_group)
check("GET /projects/:id/members", "manager", members_list_project)
check("GET /groups/:id/members/all", "manager", members_all_group)
check("GET /projects/:id/members/all", "manager", members_all_project)
check("GET /groups/:id/members/:user_id", "manager", lambda: expect(group.members.get(bob.id).access_level == 30, "level 30"))
check("GET /projects/:id/members/:user_id", "manager", lambda: expect(project.members.get(cid.id).access_level == 20, "level 20"))
check("GET /groups/:id/members/all/:user_id", "manager", lambda: expect(group.members_all.get(bob.id).access_level == 30, "level 30"))
check("GET /projects/:id/members/all/:user_id", "manager", lambda: expect(project.members_all.get(bob.id).access_level == 30, "inherited 30"))
check("PUT /groups/:id/members/:user_id", "manager", members_edit_group)
check("PUT /projects/:id/members/:user_id", "manager", members_edit_project)
expect_error("POST /groups/:id/members", "manager", exc.GitlabCreateError, 409,
             lambda: group.members.create({"user_id": bob.id, "access_level": 30}), "Member already exists")
expect_error("POST /projects/:id/members", "manager", exc.GitlabCreateError, 400,
             lambda: project.members.create({"user_id": dee.id, "access_level": 99}))
check("DELETE /projects/:id/members/:user_id", "manager", members_remove_project)
check("DELETE /groups/:id/members/:user_id", "manager", members_remove_group)
expect_error("GET /groups/:id/members/:user_id", "manager", exc.GitlabGetError, 404, lambda: group.members.get(999999))
expect_error("DELETE /groups/:id/members/:user_id", "manager", exc.GitlabDeleteError, 404, lambda: group.members.delete(999999))


# --- Billable and pending members, approval, LDAP override (GitLab EE) ----------------------

def billable_setup():
    group.members.create({"user_id": ann.id, "access_level": 20})
    project.members.create({"user_id": eve.id, "access_level": 30})
    group.members.create({"user_id": own.id, "access_level": 50})


def billable_list():
    billable = {m.id: m for m in group.billable_members.list(get_all=True)}
    expect(ann.id in billable and eve.id in billable, f"billable {sorted(billable)}")
    # The administrator sees the real email; an owner sees the public one, here none (null).
    expect(billable[ann.id].email == "py-ann@example.com", f"admin sees {billable[ann.id].email!r}")
    token = own.personal_access_tokens.create({"name": "py-owner", "scopes": ["api"]}).token
    owner = gitlab.Gitlab(URL, private_token=token)
    seen = {m.id: m.attributes for m in owner.groups.get(gid, lazy=True).billable_members.list(get_all=True)}
    expect("email" in seen[ann.id] and seen[ann.id]["email"] is None, f"owner sees {seen[ann.id]}")
    billable_box["eve"] = billable[eve.id]


billable_box = {}


def billable_memberships():
    memberships = billable_box["eve"].memberships.list()
    expect([m.source_id for m in memberships] == [pid], f"memberships {[m.attributes for m in memberships]}")


def billable_indirect():
    indirect = gl.http_list(f"/groups/{gid}/billable_members/{eve.id}/indirect")
    expect(indirect == [], f"indirect {indirect}")


def billable_remove():
    group.billable_members.delete(eve.id)
    expect(eve.id not in [m.id for m in group.billable_members.list(get_all=True)], "eve still billable")


def member_state():
    result = gl.http_put(f"/groups/{gid}/members/{ann.id}/state", post_data={"state": "awaiting"})
    expect(result == {"success": True}, f"state {result}")


pending_box = {}


def pending_members():
    pending = gl.http_list(f"/groups/{gid}/pending_members")
    expect([p["username"] for p in pending] == ["py-ann"], f"pending {pending}")
    pending_box["id"] = pending[0]["id"]


def approve():
    # 204 with no body: gl.http_put would try to parse one, so the request goes through http_request
    # (an empty body declared as application/json, as python-gitlab sends it).
    result = gl.http_request("put", f"/groups/{gid}/members/{pending_box['id']}/approve")
    expect(result.status_code == 204 and "Content-Type" not in result.headers, f"{result.status_code} {dict(result.headers)}")
    expect(gl.http_list(f"/groups/{gid}/pending_members") == [], "still pending")


def approve_all():
    gl.http_put(f"/groups/{gid}/members/{bob.id}/state", post_data={"state": "awaiting"})
    result = gl.http_request("post", f"/groups/{gid}/members/approve_all")
    expect(result.status_code == 204, f"status {result.status_code}")
    expect(gl.http_list(f"/groups/{gid}/pending_members") == [], "still pending")


ldap = FIXTURES.get("ldap") or {}
ldap_gl = gitlab.Gitlab(URL, private_token=ldap.get("owner_token", "missing"))


def override_set():
    member = ldap_gl.http_post(f"/groups/{ldap['group_id']}/members/{ldap['user_id']}/override")
    expect(isinstance(member, dict) and member["id"] == ldap["user_id"] and member["override"] is True, f"member {member}")


def override_remove():
    result = ldap_gl.http_delete(f"/groups/{ldap['group_id']}/members/{ldap['user_id']}/override")
    expect(result.headers.get("Content-Type") == "application/json" and result.json()["override"] is False, f"{result.status_code} {result.text}")


check("set-up: billable members", "manager", billable_setup)
check("GET /groups/:id/billable_members", "manager", billable_list)
check("GET /groups/:id/billable_members/:user_id/memberships", "manager", billable_memberships)
check("GET /groups/:id/billable_members/:user_id/indirect", "http", billable_indirect)
check("DELETE /groups/:id/billable_members/:user_id", "manager", billable_remove)
check("PUT /groups/:id/members/:user_id/state", "http", member_state)
check("GET /groups/:id/pending_members", "http", pending_members)
check("PUT /groups/:id/members/:member_id/approve", "http", approve)
check("POST /groups/:id/members/approve_all", "http", approve_all)
check("POST /groups/:id/members/:user_id/override", "http", override_set)
check("DELETE /groups/:id/members/:user_id/override", "http", override_remove)
expect_error("PUT /groups/:id/members/:user_id/state", "http", exc.GitlabHttpError, 400,
             lambda: gl.http_put(f"/groups/{gid}/members/{ann.id}/state", post_data={"state": "sleeping"}))
expect_error("DELETE /groups/:id/billable_members/:user_id", "manager", exc.GitlabDeleteError, 400,
             lambda: group.billable_members.delete(999999), "No member found for the given user_id")


# --- Errors across the API -------------------------------------------------------------------

bad = gitlab.Gitlab(URL, private_token="glpat-not-a-real-token-000")
expect_error("GET /user", "manager", exc.GitlabAuthenticationError, 401, bad.auth, "401 Unauthorized")
expect_error("GET /projects/:id/members", "manager", exc.GitlabAuthenticationError, 401,
             lambda: bad.projects.get(pid, lazy=True).members.list())
expect_error("POST /users", "manager", exc.GitlabCreateError, 409,
             lambda: gl.users.create({"email": "py-other@example.com", "username": "py-ann", "name": "Again", "password": "Secret-pass-123"}),
             "Username has already been taken")
expect_error("GET /unknown route", "http", exc.GitlabHttpError, 404, lambda: gl.http_get("/no/such/route"), "404 Not Found")

sys.exit(1 if failures else 0)
