"""Backups in the container, without Docker: the image's own commands, run as its unprivileged user.

The machine has no Docker engine, so this does what the engine would, with the commands read from the files
that ship: the runtime stage's ``RUN`` that makes the folders (as root, as ``docker build`` does), a fresh named
volume on ``/backups`` (it takes the image folder's owner — here it is that folder), the compose ``backup``
service's entrypoint as uid 10001 (``setpriv``, the image's ``USER cardbot``), and the README's restore command
as that user. ``/data`` and ``/backups`` live in a folder owned by root, as a volume's mount point is. The user
runs the checkout's code and this environment's packages, as the image's venv holds them; where they are out of
its reach (a checkout in a folder only root may enter, as a fresh clone's CI may make), a copy stands in. Skipped
where this process cannot switch users (not root, or no ``setpriv``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import site
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
UID = 10001


@pytest.fixture
def image_root() -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to act as the image's user")
    root = Path(tempfile.mkdtemp(prefix="image-"))
    root.chmod(0o755)  # owned by root: the user may enter, not write
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _in_image(command: str, root: Path) -> str:
    """A command of the image's with its absolute folders moved under ``root``."""
    command = re.sub(r"(?<![\w/])/(data|backups)\b", lambda m: f"{root}/{m.group(1)}", command)
    return command.replace("cardbot:cardbot", f"{UID}:{UID}")


def _folders_command() -> str:
    """The runtime stage's commands that make the bot's folders, from the Dockerfile."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    run = next(line for line in text.splitlines() if line.startswith("RUN ") and "useradd" in line)
    steps = [s.strip() for s in run.removeprefix("RUN ").split("&&")]
    return " && ".join(s for s in steps if s.startswith(("mkdir", "chown", "chmod")))


def _reachable(path: Path) -> bool:
    """The image's user may read ``path`` (and enter it, or run it): every folder above it lets that user in."""
    as_user = ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups"]
    probe = ["test", "-r", str(path), "-a", "-x", str(path)]
    return subprocess.run([*as_user, *probe], capture_output=True).returncode == 0


def _copy_for_user(source: Path, target: Path) -> None:
    """``source``'s tree (links followed, no compiled files) at ``target``, where the image's user may read it:
    each file a hard link where the file system allows and the file is readable by all, else a copy."""

    def link(src: str, dst: str) -> None:
        if os.stat(src).st_mode & 0o004:
            with contextlib.suppress(OSError):
                os.link(src, dst)
                return
        shutil.copy2(src, dst)
        os.chmod(dst, os.stat(dst).st_mode | 0o444)

    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"), copy_function=link)
    for folder, _, _ in os.walk(target):
        os.chmod(folder, 0o755)


def _image_packages(root: Path) -> list[str]:
    """The image's venv for its user: the project's packages (``bot``, its texts inside, and ``engine``) and this
    environment's site-packages — each where it is, or a copy under ``root`` where the user cannot reach it."""
    project = ROOT
    if not all(_reachable(ROOT / package) for package in ("bot", "locales", "engine")):
        project = root / "opt" / "project"
        if not project.exists():
            for package in ("bot", "engine"):
                _copy_for_user(ROOT / package, project / package)
    packages = [str(project)]
    for n, folder in enumerate(site.getsitepackages()):
        copy = root / "opt" / f"site-packages-{n}"
        if not copy.exists() and not _reachable(Path(folder)):
            _copy_for_user(Path(folder), copy)
        packages.append(str(copy) if copy.exists() else folder)
    return packages


def _interpreter() -> str:
    """This Python's executable, or the system's of the same minor version when the image's user cannot run it."""
    real = Path(sys.executable).resolve()
    if _reachable(real):
        return str(real)
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if not system.exists():
        pytest.skip(f"{real} is out of the image user's reach and there is no {system}")
    return str(system)


def _as_user(command: str, root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # The image's `python` is its venv's; here: a Python the user may run (this one's interpreter may live
    # behind a folder only root may enter) with the project and this environment's packages, where it reads them.
    tools = root / "bin"
    if not tools.exists():
        tools.mkdir()
        (tools / "python").write_text(f'#!/bin/sh\nexec "{_interpreter()}" "$@"\n', encoding="utf-8")
        (tools / "python").chmod(0o755)
        (tools / "pycache").mkdir()
        os.chown(tools / "pycache", UID, UID)
    environment = {
        "PATH": f"{tools}:/usr/bin:/bin",
        "PYTHONPATH": os.pathsep.join(_image_packages(root)),
        "PYTHONPYCACHEPREFIX": str(root / "bin" / "pycache"),  # compiled once, not at every start
        "HOME": str(root / "data"),
        **env,
    }
    return subprocess.run(
        ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups", "sh", "-c", command],
        env=environment,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.long
def test_the_backup_service_writes_to_its_volume_as_the_images_user_and_the_readme_restores_it(
    image_root: Path,
) -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["backup"]
    assert "cardbot-backups:/backups" in service["volumes"] and "cardbot-data:/data" in service["volumes"]
    env = {k: _in_image(v, image_root) for k, v in service["environment"].items()}

    made = subprocess.run(
        ["sh", "-c", _in_image(_folders_command(), image_root)], capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    for folder in ("data", "backups"):
        assert (image_root / folder).stat().st_uid == UID, folder

    # The bot, as the image's user, creates its database on the data volume and plays a little.
    migrated = _as_user("exec python -m bot migrate", image_root, env)
    assert migrated.returncode == 0, migrated.stderr
    database = image_root / "data" / "bot.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute("CREATE TABLE IF NOT EXISTS played (n INTEGER)")
        db.execute("INSERT INTO played VALUES (42)")
    os.chown(database, UID, UID)

    # The compose service's own entrypoint (compose turns $$ into $), as the image's user.
    entrypoint = service["entrypoint"]
    assert entrypoint[:2] == ["sh", "-c"]
    backed = _as_user(_in_image(entrypoint[2].replace("$$", "$"), image_root), image_root, env)
    assert backed.returncode == 0, backed.stderr
    copies = sorted((image_root / "backups").glob("bot-*.sqlite3"))
    assert len(copies) == 1, backed.stdout
    assert (image_root / "data" / "bot.sqlite3.last-backup").exists()  # what the metric reads

    # The database is lost (and the bot stopped); the README's restore command brings the copy back.
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute("DELETE FROM played")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    restore = re.search(r"docker compose run --rm --entrypoint sh backup -c '([^']+)'", readme)
    assert restore is not None, "the README's Docker restore command"
    command = restore.group(1).replace("COPY.sqlite3", copies[0].name)
    restored = _as_user(_in_image(command, image_root), image_root, env)
    assert restored.returncode == 0, restored.stderr
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT n FROM played").fetchall() == [(42,)]
    assert not (image_root / "data" / "bot.sqlite3-wal").exists()
