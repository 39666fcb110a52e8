"""scripts/run.sh installs only when it must: no .venv, a .venv of another Python, or a changed pyproject.toml or
requirements.lock; it installs the lock's versions, and relative paths among its arguments are the caller's.

The script runs for real on a copy of the project; the interpreters it calls are small stand-ins that log what
they were asked (``-m venv``, ``-m pip ...``, ``-m bot ...``) and hand every ``-c`` snippet to this Python, so
no package index is needed and each run takes milliseconds.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.tiers import FULL

ROOT = Path(__file__).resolve().parents[1]
INSTALL = [
    "-m pip install --quiet --require-hashes --no-deps -r requirements.lock",
    "-m pip install --quiet --no-deps -e .",
]


def _script(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/usr/bin/env bash\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root / "project"
        self.log = root / "calls.log"
        (self.root / "scripts").mkdir(parents=True)
        shutil.copy(ROOT / "scripts" / "run.sh", self.root / "scripts" / "run.sh")
        (self.root / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
        (self.root / "requirements.lock").write_text("aiogram==3.31.0 --hash=sha256:00\n", encoding="utf-8")
        self.venv_python = root / "stubs" / "venv-python"
        _script(
            self.venv_python,
            f'if [ "$1" = "-c" ]; then exec "{sys.executable}" "$@"; fi\n'
            f'echo "$*" >>"{self.log}"\necho "$CARDBOT_CALLER_DIR" >"{root / "caller"}"\n',
        )
        self.python = root / "stubs" / "python3"
        _script(
            self.python,
            f'if [ "$1 $2" = "-m venv" ]; then\n    mkdir -p "$3/bin" && cp "{self.venv_python}" "$3/bin/python"\n'
            f'    echo "venv" >>"{self.log}"\n    exit 0\nfi\nexec "{sys.executable}" "$@"\n',
        )

    def run(self, *args: str, cwd: Path | None = None) -> list[str]:
        self.log.unlink(missing_ok=True)
        env = {k: v for k, v in os.environ.items() if k != "CARDBOT_CALLER_DIR"} | {
            "PYTHON": str(self.python)
        }
        subprocess.run(
            ["bash", str(self.root / "scripts" / "run.sh"), *args],
            cwd=cwd,
            env=env,
            check=True,
            capture_output=True,
            timeout=60,
        )
        return self.log.read_text(encoding="utf-8").splitlines()


def test_the_first_run_builds_the_environment_and_later_runs_install_nothing(tmp_path: Path) -> None:
    project = Project(tmp_path)
    assert project.run() == ["venv", *INSTALL, "-m bot"]
    assert project.run("check") == ["-m bot check"]
    assert project.run() == ["-m bot"]


def test_a_changed_pyproject_is_installed_once(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.run()
    with (project.root / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write('dependencies = ["aiogram>=3.20,<4"]\n')
    assert project.run() == [*INSTALL, "-m bot"]
    assert project.run() == ["-m bot"]


def test_a_venv_made_by_another_python_is_rebuilt(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.run()
    _script(project.root / ".venv" / "bin" / "python", 'echo "3.99"\n')
    assert project.run() == ["venv", *INSTALL, "-m bot"]
    assert project.run() == ["-m bot"]


def test_a_failed_install_is_tried_again_next_time(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.run()
    (project.root / "pyproject.toml").write_text('[project]\nname = "y"\n', encoding="utf-8")
    broken = project.root / ".venv" / "bin" / "python"
    working = broken.read_text(encoding="utf-8")
    _script(broken, working.removeprefix("#!/usr/bin/env bash\n") + "exit 1\n")
    env = {**os.environ, "PYTHON": str(project.python)}
    failed = subprocess.run(["bash", str(project.root / "scripts" / "run.sh")], env=env, capture_output=True)
    assert failed.returncode != 0
    broken.write_text(working, encoding="utf-8")
    assert project.run() == [*INSTALL, "-m bot"]


def test_a_changed_lock_is_installed_once(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.run()
    (project.root / "requirements.lock").write_text("aiogram==3.32.0 --hash=sha256:01\n", encoding="utf-8")
    assert project.run() == [*INSTALL, "-m bot"]
    assert project.run() == ["-m bot"]


def test_the_bot_learns_the_folder_the_script_was_run_in(tmp_path: Path) -> None:
    """``backup backups/x.sqlite3`` run from the operator's folder lands there, not in the checkout."""
    project = Project(tmp_path)
    elsewhere = tmp_path / "operator"
    elsewhere.mkdir()
    project.run()
    assert project.run("backup", "backups/x.sqlite3", cwd=elsewhere) == ["-m bot backup backups/x.sqlite3"]
    assert (tmp_path / "caller").read_text(encoding="utf-8").strip() == str(elsewhere)


def _machine_notice(line: str) -> bool:
    """pip's own notes about this machine's pip configuration (a find-links folder that is missing), not ours."""
    return line.startswith("WARNING: Location ") and "is ignored" in line


def _fresh_checkout(where: Path) -> Path:
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, where / name)
    return where


def venv_with_pip(target: Path, cache: pytest.Cache | None) -> None:
    """``venv.create(target, with_pip=True)``, as run.sh's ``python3 -m venv .venv`` makes it. ensurepip installing
    pip costs ~3.5 CPU-s: the first such environment made here is kept in pytest's cache (one for this Python and
    its bundled pip) and copied after (a tenth of that); without the cache, made each time."""
    if cache is None:
        venv.create(target, with_pip=True)
        return
    import ensurepip

    key = f"{sys.executable} {sys.version} pip {ensurepip.version()}\n"
    kept = cache.mkdir("run-script-venv")
    if (kept / "key").exists() and (kept / "key").read_text(encoding="utf-8") == key:
        shutil.copytree(kept / "venv", target, symlinks=True)
        return
    venv.create(target, with_pip=True)
    shutil.rmtree(kept / "venv", ignore_errors=True)
    (kept / "key").unlink(missing_ok=True)
    shutil.copytree(target, kept / "venv", symlinks=True)
    (kept / "key").write_text(key, encoding="utf-8")  # last: a copy cut short is made again


@pytest.mark.long
def test_installing_the_bot_as_run_sh_does_prints_nothing(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """run.sh's own install of the bot (``pip install --quiet --no-deps -e .`` with its environment) into a fresh
    environment, on a fresh copy of the checkout: no setuptools warnings (there were ~135 lines of them)."""
    script = (ROOT / "scripts" / "run.sh").read_text(encoding="utf-8")
    assert "--upgrade pip" not in script  # the venv's own pip: nothing unpinned from the index
    line = next(li.strip() for li in script.splitlines() if "pip install" in li and "-e ." in li)
    checkout = _fresh_checkout(tmp_path / "checkout")
    venv_with_pip(checkout / ".venv", getattr(request.config, "cache", None))
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "PIP_DISABLE_PIP_VERSION_CHECK")
    }
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"  # as run.sh exports it
    done = subprocess.run(
        ["bash", "-c", line], cwd=checkout, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    printed = [
        li for li in (done.stdout + done.stderr).splitlines() if li.strip() and not _machine_notice(li)
    ]
    assert printed == [], "\n".join(printed[:40])


@pytest.mark.slow
@pytest.mark.skipif(
    not FULL, reason="installs every dependency into a fresh .venv: the slow tier only (FULL_TESTS=1)"
)
def test_the_first_run_on_a_fresh_clone_prints_one_line_before_the_bot(tmp_path: Path) -> None:
    checkout = _fresh_checkout(tmp_path / "checkout")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONWARNINGS", "PIP_", "CARDBOT_"))}
    done = subprocess.run(
        ["bash", "scripts/run.sh", "--help"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    printed = [li for li in done.stderr.splitlines() if li.strip() and not _machine_notice(li)]
    assert printed == ["run.sh: installing the bot and its dependencies into .venv"], printed
    assert done.stdout.startswith("usage: python -m bot")
