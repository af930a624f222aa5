"""The fixtures python-gitlab's functional tests use, against the reference server.

python-gitlab's own tests/functional/conftest.py boots a GitLab in Docker, makes a token with
`gitlab-rails runner` and wipes the instance; pytest runs here with --noconftest and this module as
a plugin (-p reference_server_fixtures) instead. The fixtures make the same objects theirs do, with
the same calls (names from uuid4, a project without a README, a user with a password), on the
server named by GITLAB_URL with the administrator's token GITLAB_TOKEN. The server is new for the
run, so nothing is wiped first; what a fixture made is deleted after it, as theirs do.
"""

import os
import pathlib
import subprocess
import sys
import uuid
from dataclasses import dataclass

import pytest

import gitlab


@pytest.fixture(scope="session")
def gitlab_url() -> str:
    return os.environ["GITLAB_URL"]


@pytest.fixture(scope="session")
def gitlab_token() -> str:
    return os.environ["GITLAB_TOKEN"]


@pytest.fixture(scope="session")
def fixture_dir(pytestconfig: pytest.Config) -> pathlib.Path:
    """Their tests/functional/conftest.py's: tests/functional/fixtures of the source tree (avatar.png)."""
    return pathlib.Path(pytestconfig.rootpath) / "tests" / "functional" / "fixtures"


@pytest.fixture(scope="session")
def gl(gitlab_url: str, gitlab_token: str) -> gitlab.Gitlab:
    instance = gitlab.Gitlab(gitlab_url, private_token=gitlab_token)
    instance.auth()
    return instance


@pytest.fixture(scope="session")
def gitlab_config(gitlab_url: str, gitlab_token: str, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The CLI's configuration file, as theirs writes it (readable by its owner only: it holds the token)."""
    config_file = tmp_path_factory.mktemp("cli") / "python-gitlab.cfg"
    config_file.touch(mode=0o600)
    config_file.write_text(
        f"[global]\ndefault = local\ntimeout = 60\n\n[local]\nurl = {gitlab_url}\nprivate_token = {gitlab_token}\napi_version = 4\n",
        encoding="utf-8",
    )
    return config_file


@dataclass
class CliResult:
    """What pytest-console-scripts' script_runner.run answers, as far as the tests read it."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def success(self) -> bool:
        return self.returncode == 0


@pytest.fixture
def gitlab_cli(gitlab_config: pathlib.Path):
    """Runs the `gitlab` CLI of the python-gitlab under test (python -m gitlab, the same entry point
    as the console script) with the configuration file, as their cli/conftest.py does through
    pytest-console-scripts, which Debian does not package."""

    def _gitlab_cli(subcommands) -> CliResult:
        command = [sys.executable, "-m", "gitlab", "--config-file", str(gitlab_config), *map(str, subcommands)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        return CliResult(done.returncode, done.stdout, done.stderr)

    return _gitlab_cli


@pytest.fixture(scope="module")
def group(gl: gitlab.Gitlab):
    _id = uuid.uuid4().hex
    group = gl.groups.create({"name": f"test-group-{_id}", "path": f"group-{_id}"})
    yield group
    delete_if_present(group)


@pytest.fixture(scope="module")
def project(gl: gitlab.Gitlab):
    project = gl.projects.create(name=f"test-project-{uuid.uuid4().hex}")
    yield project
    delete_if_present(project)


@pytest.fixture(scope="module")
def project_file(project):
    return project.files.create(
        {"file_path": "README", "branch": "main", "content": "Initial content", "commit_message": "Initial commit"}
    )


@pytest.fixture(scope="module")
def user(gl: gitlab.Gitlab):
    _id = uuid.uuid4().hex
    user = gl.users.create(
        email=f"user{_id}@email.com", username=f"user{_id}", name=f"User {_id}", password="E4596f8be406Bc3a14a4ccdb1df80587"
    )
    yield user
    delete_if_present(user)


def delete_if_present(obj) -> None:
    """Deletes what a fixture made unless a test already did (theirs: helpers.safe_delete)."""
    try:
        obj.delete()
    except gitlab.exceptions.GitlabDeleteError as error:
        if error.response_code != 404:
            raise
