"""Drives the reference server with gitlabracadabra (Debian's gitlabracadabra, 1.x): members and shares from YAML.

Run by perl-gitlabracadabra.spec.ts with GITLAB_URL and GITLAB_TOKEN (the administrator's). Writes a
python-gitlab configuration and three action files into a temporary folder and runs the gitlabracadabra
command on them: the first creates users, groups (one a subgroup), a project, their members and their
shares with a group; the same file again must change nothing; the third changes access levels, removes
unknown members and re-shares at another level. gitlabracadabra finds users with GET /users?username=,
namespaces with GET /namespaces/:id, shares through shared_with_groups (group_full_path), and manages
members with the members API's list, add, edit and remove. After each run the result is read back with
python-gitlab. Prints one JSON line per check: {"form", "via", "ok", "detail"}.
"""

import json
import os
import subprocess
import sys
import tempfile

import gitlab

URL = os.environ["GITLAB_URL"]
TOKEN = os.environ["GITLAB_TOKEN"]
failures = 0


def emit(form, ok, detail=""):
    global failures
    if not ok:
        failures += 1
    print(json.dumps({"form": form, "via": "gitlabracadabra", "ok": ok, "detail": detail[-1500:]}), flush=True)


def user(name):
    return f"""rk-{name}:
  type: user
  create_object: true
  name: Rk {name}
  email: rk-{name}@example.com
  password: Secret-pass-123
  skip_confirmation: true
  skip_reconfirmation: true
"""


FIRST = "".join(user(n) for n in ("alice", "bob", "carol")) + """
rk-shared/:
  create_object: true
  name: rk-shared
  visibility: private
rk-top/:
  create_object: true
  name: rk-top
  visibility: private
  members:
    rk-alice: developer
  groups:
    rk-shared: reporter
rk-top/rk-sub/:
  create_object: true
  name: rk-sub
  members:
    rk-bob: maintainer
rk-top/app:
  create_object: true
  name: app
  description: A project made by gitlabracadabra
  initialize_with_readme: true
  members:
    rk-carol: developer
  groups:
    rk-shared: developer
"""

SECOND = """
rk-top/:
  members:
    root: owner
    rk-alice: maintainer
  groups:
    rk-shared: developer
rk-top/rk-sub/:
  unknown_members: delete
  members:
    root: owner
    rk-carol: guest
rk-top/app:
  unknown_members: delete
  members:
    rk-bob: reporter
  groups:
    rk-shared: reporter
"""


def run(folder, name, text):
    """Runs gitlabracadabra on an action file; answers its exit code and log."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    done = subprocess.run(["gitlabracadabra", "-c", os.path.join(folder, "gitlab.cfg"), "-v", path], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def changes(log):
    """The log lines that change something (gitlabracadabra says what it does at INFO; "NOT …" what it leaves)."""
    return [line for line in log.splitlines() if "NOT " not in line and any(word in line for word in ("Adding", "Changing", "Removing member", "Sharing", "Unsharing", "Creating"))]


def problems(log):
    return [line for line in log.splitlines() if line.startswith(("ERROR", "Traceback")) or ("WARNING" in line and "NOT Removing member: root" not in line)]


gl = gitlab.Gitlab(URL, private_token=TOKEN)


def members_of(obj):
    return {m.username: m.access_level for m in obj.members.list(get_all=True)}


def shares_of(obj):
    return {s["group_full_path"]: s["group_access_level"] for s in obj.shared_with_groups}


def expect_state(form, actual, wanted):
    emit(form, actual == wanted, f"{actual} != {wanted}" if actual != wanted else "")


with tempfile.TemporaryDirectory() as folder:
    with open(os.path.join(folder, "gitlab.cfg"), "w") as f:
        f.write(f"[global]\ndefault = reference\n[reference]\nurl = {URL}\nprivate_token = {TOKEN}\n")

    code, log = run(folder, "first.yml", FIRST)
    emit("set-up: users, groups, subgroup, project from YAML", code == 0 and not problems(log), "\n".join(problems(log)) or f"exit {code}")
    top, sub, app = gl.groups.get("rk-top"), gl.groups.get("rk-top/rk-sub"), gl.projects.get("rk-top/app")
    expect_state("POST /groups/:id/members", members_of(top), {"root": 50, "rk-alice": 30})
    expect_state("POST /groups/:id/members", members_of(sub), {"root": 50, "rk-bob": 40})
    expect_state("POST /projects/:id/members", members_of(app), {"rk-carol": 30})
    expect_state("set-up: POST /groups/:id/share, POST /projects/:id/share", (shares_of(top), shares_of(app)), ({"rk-shared": 20}, {"rk-shared": 30}))
    emit("set-up: namespace, description", app.namespace["full_path"] == "rk-top" and app.description == "A project made by gitlabracadabra", f"{app.namespace} {app.description!r}")

    code, log = run(folder, "first.yml", FIRST)
    emit("GET /groups/:id/members", code == 0 and not changes(log) and not problems(log), "\n".join(changes(log) + problems(log)) or f"exit {code}")
    emit("GET /projects/:id/members", code == 0 and not changes(log), "the same file again changes nothing")

    code, log = run(folder, "second.yml", SECOND)
    emit("set-up: changes from YAML", code == 0 and not problems(log), "\n".join(problems(log)) or f"exit {code}")
    top, sub, app = gl.groups.get("rk-top"), gl.groups.get("rk-top/rk-sub"), gl.projects.get("rk-top/app")
    expect_state("PUT /groups/:id/members/:user_id", members_of(top), {"root": 50, "rk-alice": 40})
    expect_state("DELETE /groups/:id/members/:user_id", members_of(sub), {"root": 50, "rk-carol": 10})
    expect_state("PUT /projects/:id/members/:user_id", members_of(app), {"rk-bob": 20})
    emit("DELETE /projects/:id/members/:user_id", "rk-carol" not in members_of(app), "unknown_members: delete")
    expect_state("set-up: DELETE …/share/:group_id, POST …/share", (shares_of(top), shares_of(app)), ({"rk-shared": 30}, {"rk-shared": 20}))

sys.exit(1 if failures else 0)
