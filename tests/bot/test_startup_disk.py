"""A start on a full or a read-only disk: ``run``, ``migrate`` and ``check`` each exit with the database's code
and one line that names the disk's trouble — no traceback, no «disk I/O error» — so a supervisor that restarts
on failure (and the operator reading the log) knows what to fix.

The disk is a real one: a small tmpfs mounted for the test, filled to the last byte, or remounted read-only
(skipped where this process may not mount).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.settings import ExitCode
from tests.bot.conftest import bot_process_env
from tests.bot.test_startup import run_bot
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer

pytestmark = pytest.mark.over_http(
    "python -m bot in a process of its own, against the fake Telegram over HTTP"
)


@contextlib.contextmanager
def small_disk(where: Path, size: str = "512k") -> Iterator[Path]:
    where.mkdir(parents=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> None:
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)


@pytest.mark.parametrize("trouble", ["full", "read-only"])
async def test_a_start_on_a_full_or_read_only_disk_exits_with_the_database_code_in_one_line(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path, trouble: str
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        database = disk / "data" / "bot.sqlite3"
        env = bot_process_env(tg, database)
        made = await run_bot(forkserver, env, tmp_path, "migrate")
        assert made.code == ExitCode.OK, made.stderr
        if trouble == "full":
            fill(disk)
            said = "is full (0 bytes free)"
        else:
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
            said = "is mounted read-only"
        for command in ("run", "migrate", "check"):
            result = await run_bot(forkserver, env, tmp_path, command)
            assert result.code == ExitCode.DATABASE, (command, result.stderr)
            assert "Traceback" not in result.stderr, result.stderr
            assert len(result.errors) == 1, result.stderr
            assert said in result.errors[0] and str(disk) in result.errors[0], (command, result.errors)
            assert "disk I/O error" not in result.errors[0]
