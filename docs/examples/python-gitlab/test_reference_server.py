"""python-gitlab against the reference server: a pytest fixture starts it once with a seed, each test
starts from the seeded state (POST /-/reference/reset), and the server stops at the end of the session.

    GITLAB_REFERENCE_SERVER="npx gitlab-reference-server" python3 -m pytest docs/examples/python-gitlab
"""

import os
import pathlib
import re
import shlex
import subprocess

import gitlab
import pytest
import requests

ADMIN_TOKEN = "glpat-example-admin-00001"
SEED = pathlib.Path(__file__).parent.parent / "seed.yaml"


@pytest.fixture(scope="session")
def reference_server():
    command = shlex.split(os.environ.get("GITLAB_REFERENCE_SERVER", "npx gitlab-reference-server"))
    server = subprocess.Popen(
        [*command, "--port", "0", "--admin-token", ADMIN_TOKEN, "--seed", str(SEED)],
        stdout=subprocess.PIPE,
        text=True,
    )
    # The first line names the URL: "GitLab reference server listening on http://127.0.0.1:PORT (...".
    url = re.search(r"listening on (\S+)", server.stdout.readline()).group(1)
    yield url
    server.terminate()
    server.wait(timeout=30)


@pytest.fixture
def gl(reference_server):
    requests.post(f"{reference_server}/-/reference/reset", headers={"PRIVATE-TOKEN": ADMIN_TOKEN}).raise_for_status()
    return gitlab.Gitlab(reference_server, private_token=ADMIN_TOKEN)


def test_reads_the_seeded_project(gl):
    project = gl.projects.get("demo/app")
    assert project.files.get("README.md", ref="main").decode() == b"# app\n"
    assert [m.username for m in gl.groups.get("demo").members.list()] == ["alice"]


def test_changes_stay_in_their_test(gl):
    gl.groups.get("demo").members.get(gl.users.list(username="alice")[0].id).delete()
    assert gl.groups.get("demo").members.list() == []


def test_a_seeded_users_token(gl, reference_server):
    alice = gitlab.Gitlab(reference_server, private_token="glpat-example-alice-000001")
    alice.auth()
    assert alice.user.username == "alice"
    # The test before removed alice from demo; the reset gave her membership back.
    assert [m.username for m in gl.groups.get("demo").members.list()] == ["alice"]
