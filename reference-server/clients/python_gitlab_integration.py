"""A small integration driven with python-gitlab, as an integrator's test would drive the reference server.

Run by python-gitlab-integration.spec.ts with GITLAB_URL and GITLAB_TOKEN (the administrator's). Creates a
project, commits files on a new branch through the files API, lists branches, commits (with ref_name and
path) and the tree, adds a member, then reads the server's request journal (GET /-/reference/requests)
and checks that every request it made is there. Prints one JSON line per check:
{"form": ..., "via": "manager" | "journal", "ok": true/false, "detail": ...}.
"""

import json
import os
import sys
import time
import warnings

import gitlab

warnings.simplefilter("ignore")

URL = os.environ["GITLAB_URL"]
TOKEN = os.environ["GITLAB_TOKEN"]

failures = 0


def check(form, via, fn):
    global failures
    try:
        detail = fn() or ""
        ok = True
    except Exception as e:  # every failure is a reported check, never a crash
        detail, ok = f"{type(e).__name__}: {e}", False
        failures += 1
    print(json.dumps({"form": form, "via": via, "ok": ok, "detail": detail}), flush=True)


def expect(condition, text):
    if not condition:
        raise AssertionError(text)


gl = gitlab.Gitlab(URL, private_token=TOKEN)
suffix = str(int(time.time() * 1000))
state = {}


def create_project():
    state["project"] = gl.projects.create({"name": f"integration-{suffix}", "initialize_with_readme": True})
    return state["project"].path_with_namespace


def commit_files():
    project = state["project"]
    project.files.create({"file_path": "src/app.py", "branch": "feature", "start_branch": "main", "content": "print('hi')\n", "commit_message": "Add the app"})
    project.files.create({"file_path": "docs/usage.md", "branch": "feature", "content": "# Usage\n", "commit_message": "Document it"})
    f = project.files.get(file_path="src/app.py", ref="feature")
    f.content = "print('hello')\n"
    f.save(branch="feature", commit_message="Say hello")


def list_branches():
    names = [b.name for b in state["project"].branches.list(all=True)]
    expect(names == ["feature", "main"], f"branches {names}, wanted feature and main")
    found = [b.name for b in state["project"].branches.list(search="feat")]
    expect(found == ["feature"], f"search=feat found {found}")
    feature = state["project"].branches.get("feature")
    expect(feature.commit["title"] == "Say hello", f"feature's head is {feature.commit['title']!r}")


def list_commits():
    project = state["project"]
    titles = [c.title for c in project.commits.list(ref_name="feature", all=True)]
    expect(titles[:3] == ["Say hello", "Document it", "Add the app"], f"commits on feature: {titles}")
    # python-gitlab's list() takes `path` as the URL to list, so the query's path goes in query_parameters.
    on_app = project.commits.list(query_parameters={"ref_name": "feature", "path": "src/app.py"}, all=True)
    expect([c.title for c in on_app] == ["Say hello", "Add the app"], f"commits on src/app.py: {[c.title for c in on_app]}")
    detail = project.commits.get(on_app[0].id)
    expect(detail.stats["total"] == 2, f"stats of the last commit: {detail.stats}")


def list_tree():
    tree = state["project"].repository_tree(ref="feature", recursive=True, all=True)
    paths = [(e["type"], e["path"]) for e in tree]
    expect(paths == [("tree", "docs"), ("tree", "src"), ("blob", "README.md"), ("blob", "docs/usage.md"), ("blob", "src/app.py")], f"tree {paths}")
    src = state["project"].repository_tree(path="src", ref="feature")
    expect([e["name"] for e in src] == ["app.py"], f"src holds {[e['name'] for e in src]}")


def add_member():
    user = gl.users.create({"username": f"member-{suffix}", "name": "Member", "email": f"member-{suffix}@example.com", "password": "Secret-12345"})
    member = state["project"].members.create({"user_id": user.id, "access_level": 30})
    expect(member.access_level == 30, f"member at {member.access_level}")


WANTED = [
    ("POST", "/api/v4/projects"),
    ("POST", "/api/v4/projects/:id/repository/files/:file_path"),
    ("PUT", "/api/v4/projects/:id/repository/files/:file_path"),
    ("GET", "/api/v4/projects/:id/repository/branches"),
    ("GET", "/api/v4/projects/:id/repository/branches/:branch"),
    ("GET", "/api/v4/projects/:id/repository/commits"),
    ("GET", "/api/v4/projects/:id/repository/commits/:sha"),
    ("GET", "/api/v4/projects/:id/repository/tree"),
    ("POST", "/api/v4/projects/:id/members"),
]


def journal():
    response = gl.session.get(f"{URL}/-/reference/requests", headers={"PRIVATE-TOKEN": TOKEN}, params={"path": "/api/v4/projects"})
    expect(response.status_code == 200, f"GET /-/reference/requests answered {response.status_code}")
    entries = response.json()
    seen = {(e["method"], e["route"]) for e in entries if 200 <= e["status"] < 300}
    missing = [f"{m} {r}" for m, r in WANTED if (m, r) not in seen]
    expect(not missing, f"not in the journal (with a 2xx status): {missing}")
    queries = [e["query"] for e in entries if e["route"] == "/api/v4/projects/:id/repository/commits"]
    expect(any(q.get("ref_name") == "feature" and q.get("path") == "src/app.py" for q in queries), f"no commits list with ref_name and path in {queries}")
    expect(not any(TOKEN in json.dumps(e) for e in entries), "the token appears in the journal")
    return f"{len(entries)} requests under /api/v4/projects"


check("create a project", "manager", create_project)
check("commit files on a new branch", "manager", commit_files)
check("list and get branches", "manager", list_branches)
check("list and get commits", "manager", list_commits)
check("list the tree", "manager", list_tree)
check("add a member", "manager", add_member)
check("the journal holds every request", "journal", journal)
sys.exit(1 if failures else 0)
