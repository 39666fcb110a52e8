"""README's systemd install steps, run as written, give a running bot and a working backup.

The ``sh`` block under «systemd:» in README.md runs line by line in a scratch folder standing for ``/``: its paths
(``/srv/...``, ``/etc/systemd/system/``) are moved under it, the user ``cardbot`` is a fresh system user of this
machine (deleted afterwards), ``sudo -u USER`` is ``runuser -u USER --`` and a bare ``sudo`` is nothing (the test
is root). Only three lines are not run as such: the clone's ``REPOSITORY-URL`` is a snapshot of this checkout (its
tracked files as they are now), the editor's line is the operator's edit (the token and the fake Bot API's
address into ``.env``), and ``systemctl`` (no systemd runs here) is replaced by ``systemd-analyze verify`` of the
units installed, where that tool is present, and by starting each unit's ``ExecStart`` as systemd would: as its
``User=`` from its ``WorkingDirectory=``, everything read-only but its ``ReadWritePaths=`` (a missing path is
systemd's 226/NAMESPACE unless written with ``-``), in a mount namespace of its own.

``scripts/run.sh`` builds ``.venv``: in the slow tier (``FULL_TESTS=1``) for real, from the package index; on
every run its interpreter is a stand-in (as in ``tests/test_run_script.py``) whose ``.venv/bin/python`` runs the
system's Python 3 on this test's installed dependencies, so no index is needed.
"""

from __future__ import annotations

import asyncio
import configparser
import contextlib
import os
import re
import secrets
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.settings import ExitCode
from tests.bot.conftest import SPEED
from tests.bot.test_container_backup import _copy_for_user
from tests.fakebot import FakeTelegram
from tests.fakebot.limits import Limits
from tests.tiers import FULL

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = Path("/usr/bin/python3")
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
NAMESPACE = 226
"""systemd's exit status when it cannot set up a unit's mount namespace (a ``ReadWritePaths=`` path missing)."""


def recipe() -> list[str]:
    """The lines of README's systemd install block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\*\*systemd:\*\*.*?```sh\n(.*?)```", readme, flags=re.S)
    assert block, "README's «systemd:» paragraph has a ```sh block of install steps"
    return [line for line in block.group(1).splitlines() if line.strip()]


@dataclass
class Scratch:
    """The scratch folder standing for ``/``, and the user standing for ``cardbot``."""

    root: Path
    user: str

    def path(self, text: str) -> str:
        """``text`` with README's absolute paths moved into the scratch root, and its user name replaced."""
        text = re.sub(r"(?<![\w./])/(srv|etc/systemd)/", lambda m: f"{self.root}/{m.group(1)}/", text)
        return re.sub(r"(?<![\w./-])cardbot(?![\w.-])", self.user, text)

    @property
    def checkout(self) -> Path:
        return self.root / "srv" / "cardbot"


@pytest.fixture
def scratch() -> Iterator[Scratch]:
    if os.geteuid() != 0:
        pytest.skip("the recipe creates a system user and changes owners: it needs root")
    for tool in ("useradd", "userdel", "runuser", "setpriv", "unshare", "git"):
        if shutil.which(tool, path=PATH) is None:
            pytest.skip(f"the recipe needs {tool}, not on this machine")
    if not SYSTEM_PYTHON.is_file():
        pytest.skip(
            f"the recipe's run.sh builds .venv with the system's Python 3 ({SYSTEM_PYTHON}): not here"
        )
    root = Path(tempfile.mkdtemp(prefix="cardbot-recipe-", dir="/tmp"))
    root.chmod(0o755)  # a system user must reach its home inside
    for system_folder in ("srv", "etc/systemd/system"):  # what a Debian machine has before the recipe
        (root / system_folder).mkdir(parents=True)
    user = f"cbt{secrets.token_hex(4)}"
    try:
        yield Scratch(root, user)
    finally:
        subprocess.run(["userdel", user], capture_output=True, check=False)
        shutil.rmtree(root, ignore_errors=True)


PERSON = {"NAME": "cardbot tests", "EMAIL": "tests@cardbot.invalid"}
"""Who the snapshot's commit says made it (a machine without a git identity can make it too)."""


def snapshot(into: Path) -> Path:
    """A bare repository holding this checkout's tracked files as they are now (committed or not)."""
    # A commit of the tracked files as they are, made through an index of its own (``git stash create`` refreshes
    # the checkout's index under its lock, and failed now and then beside another test's git).
    who = {f"GIT_{role}_{part}": value for role in ("AUTHOR", "COMMITTER") for part, value in PERSON.items()}
    env = {**os.environ, **who, "GIT_INDEX_FILE": str(into / "index")}

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True, env=env
        ).stdout.strip()

    git("read-tree", "HEAD")
    git("add", "--update")
    commit = git("commit-tree", git("write-tree"), "-p", "HEAD", "-m", "the checkout as it is")
    bare = into / "cardbot.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    subprocess.run(
        ["git", "push", "-q", str(bare), f"{commit}:refs/heads/main"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    subprocess.run(["git", "-C", str(bare), "symbolic-ref", "HEAD", "refs/heads/main"], check=True)
    return bare


def stand_in_python(scratch: Scratch) -> Path:
    """``run.sh``'s ``PYTHON`` for the quick run: ``-m venv DIR`` makes a ``DIR/bin/python`` that runs the system's
    Python of this minor version on this test's dependencies (``pip`` installs nothing; where the bot's user cannot
    reach them, a copy under the scratch root stands in); anything else is the system's Python."""
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if not system.is_file():
        pytest.skip(f"the quick run's .venv runs this test's packages on the system's {system}: not here")
    site = []
    for n, folder in enumerate(sorted({sysconfig.get_paths()[key] for key in ("purelib", "platlib")})):
        if not reachable(Path(folder)):
            copy = scratch.root / "opt" / f"site-packages-{n}"
            _copy_for_user(Path(folder), copy)
            folder = str(copy)
        site.append(folder)
    tools = scratch.root / "tools"
    tools.mkdir()
    venv_python = tools / "venv-python"
    venv_python.write_text(
        "#!/bin/sh\n"
        'if [ "$1 $2" = "-m pip" ]; then exit 0; fi\n'
        f'PYTHONPATH="$(dirname "$0")/../..:{":".join(site)}" exec {system} "$@"\n',
        encoding="utf-8",
    )
    python = tools / "python3"
    python.write_text(
        "#!/bin/sh\n"
        'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp '
        + f'{venv_python} "$3/bin/python"; exit; fi\n'
        f'exec {system} "$@"\n',
        encoding="utf-8",
    )
    for script in (tools, venv_python, python):
        script.chmod(0o755)
    return python


def reachable(path: Path) -> bool:
    """A user of no group of this machine's may read ``path`` and enter it."""
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    return subprocess.run([*as_nobody, "test", "-r", str(path), "-a", "-x", str(path)]).returncode == 0


def sh(scratch: Scratch, line: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One recipe line, as the operator's shell would run it (as root, from the scratch root or its ``cd``)."""
    line = re.sub(r"\bsudo -u (\S+) ", r"runuser -u \1 -- ", line)
    line = re.sub(r"(^|&& )sudo ", r"\1", line)
    return subprocess.run(
        ["bash", "-c", line], env=env, capture_output=True, text=True, timeout=600, cwd=env["PWD"]
    )


def run_recipe(scratch: Scratch, tg: FakeTelegram, log: list[str]) -> None:
    env = {"PATH": PATH, "HOME": str(scratch.root), "LANG": "C.UTF-8", "PWD": str(scratch.root)}
    if not FULL:
        env["PYTHON"] = str(stand_in_python(scratch))
    source = snapshot(scratch.root)
    for line in recipe():
        line = scratch.path(line.replace("REPOSITORY-URL", str(source)))
        if line.startswith("cd "):
            env["PWD"] = shlex.split(line)[1]
            log.append(f"$ {line}")
            continue
        if re.search(r"\bsystemctl\b", line):
            log.append(f"$ {line}   # not run: no systemd here; the units are verified and started below")
            continue
        if re.search(r"\beditor\b", line):  # the operator's edit
            dotenv = scratch.checkout / ".env"
            with dotenv.open("a", encoding="utf-8") as file:
                file.write(f"\nBOT_TOKEN={tg.token}\nTELEGRAM_API_URL={tg.base_url}\nBOT_THINKERS=0\n")
            log.append(f"$ {line}   # the operator's edit: BOT_TOKEN and TELEGRAM_API_URL (the fake Bot API)")
            continue
        if (
            "git clone" in line
        ):  # the repository is another's, and git trusts a local one only of its own user
            subprocess.run(["chown", "-R", f"{scratch.user}:", str(source)], check=True)
        done = sh(scratch, line, env)
        log.append(f"$ {line}\n{done.stdout}{done.stderr}[exit {done.returncode}]")
        assert done.returncode == 0, "\n".join(log)


@dataclass
class Unit:
    user: str
    workdir: Path
    command: list[str]
    writable: list[str]

    @classmethod
    def read(cls, path: Path) -> Unit:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(path, encoding="utf-8")
        service = parser["Service"]
        assert service["ProtectSystem"] == "strict"
        return cls(
            service["User"],
            Path(service["WorkingDirectory"]),
            shlex.split(service["ExecStart"].replace("%%", "%")),
            service.get("ReadWritePaths", "").split(),
        )

    def start(self, scratch: Scratch) -> subprocess.Popen[str]:
        """The unit's command as systemd starts it: its user, its folder, a clean environment, everything under
        the scratch root read-only but ``ReadWritePaths=`` (``-``: skipped when missing)."""
        mounts = [f"mount --bind {scratch.root} {scratch.root}", f"mount -o remount,bind,ro {scratch.root}"]
        for entry in self.writable:
            path = Path(entry.removeprefix("-"))
            if not path.exists():
                if entry.startswith("-"):
                    continue
                mounts = [f"echo 'Failed to set up mount namespacing: {path}: No such file or directory' >&2"]
                mounts.append(f"exit {NAMESPACE}")
                break
            mounts += [f"mount --bind {path} {path}", f"mount -o remount,bind,rw {path}"]
        run_as = [
            "setpriv",
            f"--reuid={self.user}",
            f"--regid={self.user}",
            "--init-groups",
            "--no-new-privs",
        ]
        inner = (
            " && ".join(mounts)
            + " && cd "
            + shlex.quote(str(self.workdir))
            + " && exec "
            + shlex.join(
                [*run_as, "env", "-i", f"PATH={PATH}", "LANG=C.UTF-8", f"HOME={self.workdir}", *self.command]
            )
        )
        return subprocess.Popen(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c", inner],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )


def wait_for_line(process: subprocess.Popen[str], words: str, seconds: float) -> list[str]:
    """The process's standard error up to the line holding ``words``; fails if it ends first."""
    assert process.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    os.set_blocking(process.stderr.fileno(), False)
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if line:
            lines.append(line.rstrip("\n"))
            if words in line:
                return lines
            continue
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"no «{words}» within {seconds} s (exit {process.poll()}):\n" + "\n".join(lines))


async def test_readme_s_systemd_steps_give_a_running_bot_and_working_backups(
    scratch: Scratch, capsys: pytest.CaptureFixture[str]
) -> None:
    tg = FakeTelegram(speed=SPEED, limits=Limits())
    await tg.start()
    log: list[str] = []
    try:  # in a thread: this loop serves the fake Bot API meanwhile
        await asyncio.to_thread(install_and_start, scratch, tg, log)
    finally:
        await tg.stop()
        with capsys.disabled():
            print("\n--- README's systemd steps, as run ---\n" + "\n".join(log))


def install_and_start(scratch: Scratch, tg: FakeTelegram, log: list[str]) -> None:
    run_recipe(scratch, tg, log)
    installed = scratch.root / "etc" / "systemd" / "system"
    units = sorted(installed.iterdir())
    assert {u.name for u in units} == {"cardbot.service", "cardbot-backup.service", "cardbot-backup.timer"}
    for unit in units:  # the installed units name this scratch root, as the real ones name /
        unit.write_text(scratch.path(unit.read_text(encoding="utf-8")), encoding="utf-8")
    verify = shutil.which("systemd-analyze", path=PATH)
    if verify is None:
        log.append("systemd-analyze verify: skipped (systemd-analyze is not on this machine)")
    else:
        verified = subprocess.run(
            [verify, "verify", *map(str, units)], capture_output=True, text=True, env={"PATH": PATH}
        )
        log.append(
            f"$ systemd-analyze verify {' '.join(u.name for u in units)}\n{verified.stdout}{verified.stderr}"
        )
        assert verified.returncode == 0, "\n".join(log)
    bot, backup = Unit.read(installed / "cardbot.service"), Unit.read(installed / "cardbot-backup.service")
    for path in bot.writable + backup.writable:  # present, or written with `-`
        assert path.startswith("-") or Path(path).is_dir(), f"ReadWritePaths {path}: missing, no `-`"

    running = bot.start(scratch)
    try:
        lines = wait_for_line(running, " started; mode polling", 120)
        log.append("cardbot.service: " + lines[-1])
        done = backup.start(scratch)
        out, err = done.communicate(timeout=120)
        log.append(f"cardbot-backup.service: {out}{err}[exit {done.returncode}]")
        assert done.returncode == 0, "\n".join(log)
    finally:
        running.send_signal(signal.SIGTERM)
        rest = running.communicate(timeout=60)[1]
    log.append(f"cardbot.service stopped by SIGTERM: exit {running.returncode}")
    assert running.returncode == 0, rest
    copies = list((scratch.root / "srv" / "backups" / "cardbot").glob("bot-*.sqlite3"))
    assert len(copies) == 1
    with contextlib.closing(sqlite3.connect(copies[0])) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] > 0

    # The backup folder gone: the backup runs, fails with its exit code, and notes it for the metric.
    shutil.rmtree(scratch.root / "srv" / "backups" / "cardbot")
    done = backup.start(scratch)
    out, err = done.communicate(timeout=120)
    log.append(f"cardbot-backup.service, its folder deleted: {err.strip()} [exit {done.returncode}]")
    assert done.returncode == ExitCode.DATABASE, err
    assert (scratch.checkout / "data" / "bot.sqlite3.last-backup-failure").is_file()

    # The data folder gone (a disk not mounted): the bot's own exit code and one line, not systemd's 226.
    data = scratch.checkout / "data"
    data.rename(data.with_name("data.away"))
    try:
        done = bot.start(scratch)
        out, err = done.communicate(timeout=120)
    finally:
        data.with_name("data.away").rename(data)
    log.append(f"cardbot.service, its data folder gone: {err.strip()} [exit {done.returncode}]")
    assert done.returncode == ExitCode.DATABASE, err
    assert len([line for line in err.splitlines() if " ERROR " in line]) == 1 and "Traceback" not in err
    assert str(data) in err
