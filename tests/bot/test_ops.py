"""The operator's commands: ``check`` reads and never writes, ``migrate`` writes, a database of a newer version is
refused, ``backup`` needs no token and rotates its copies.

In-process: ``check``, ``migrate`` and the start against the in-process fake Telegram (``bot.ops``, ``bot.app.run``:
:func:`tests.bot.test_startup.in_process`), ``backup`` as ``python -m bot backup`` (``main``: the ``python_m_bot``
fixture). One fresh interpreter shows that ``migrate`` and ``backup`` import no aiogram.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot import ops
from bot.app import run
from bot.settings import ExitCode
from bot.storage import Database
from bot.storage.migrations import MIGRATIONS
from tests.bot.conftest import PythonMBot, make_settings
from tests.bot.test_startup import QUICK, assert_ended, assert_fails_fast, in_process
from tests.fakebot import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


def schema_of(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrated(python_m_bot: PythonMBot, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A database made by ``python -m bot migrate`` in ``tmp_path/data``, and the environment for it (no token:
    ``migrate`` and ``backup`` need only ``DATABASE_PATH``)."""
    database = tmp_path / "data" / "bot.sqlite3"
    env = {"DATABASE_PATH": str(database)}
    assert python_m_bot(env, tmp_path, "migrate").code == ExitCode.OK
    return database, env


def set_schema(path: Path, version: int) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {version}")


async def test_check_on_a_missing_database_creates_nothing_and_names_migrate(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tg, tmp_path / "data" / "bot.sqlite3")
    result = await in_process(ops.check(settings, session=tg.session()), capsys, caplog)
    assert_ended(result, ExitCode.DATABASE, "python -m bot migrate")
    assert "no database at" in result.errors[0]
    assert not (tmp_path / "data").exists()


async def test_check_leaves_an_older_database_as_it_is_and_migrate_brings_it_up_to_date(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    settings = make_settings(tg, database)
    result = await in_process(ops.migrate(settings), capsys, caplog)
    assert result.code == ExitCode.OK, result.log
    assert f"at schema version {Database.SCHEMA_VERSION}" in result.stdout
    for made in database.parent.glob(database.name + "*"):  # the file, and a WAL left beside it
        made.unlink()
    with contextlib.closing(sqlite3.connect(database)) as db:  # as the first version of the bot left it
        db.executescript(MIGRATIONS[0])
    set_schema(database, 1)
    stamp = database.stat().st_mtime_ns

    result = await in_process(ops.check(settings, session=tg.session()), capsys, caplog)
    assert_ended(result, ExitCode.DATABASE, "python -m bot migrate")
    assert "schema version 1, older than" in result.errors[0]
    assert schema_of(database) == 1 and database.stat().st_mtime_ns == stamp

    result = await in_process(ops.migrate(settings), capsys, caplog)
    assert result.code == ExitCode.OK, result.log
    assert schema_of(database) == Database.SCHEMA_VERSION
    assert (await in_process(ops.check(settings, session=tg.session()), capsys, caplog)).code == ExitCode.OK


async def test_a_database_of_a_newer_version_is_refused_by_check_migrate_and_start(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tg, tmp_path / "data" / "bot.sqlite3")
    assert (await in_process(ops.migrate(settings), capsys, caplog)).code == ExitCode.OK
    newer = Database.SCHEMA_VERSION + 1
    set_schema(settings.database_path, newer)
    commands: list[Callable[[], Awaitable[int | None]]] = [
        lambda: ops.check(settings, session=tg.session()),
        lambda: ops.migrate(settings),
        lambda: run(settings, session=tg.session()),
    ]
    for command in commands:
        result = await in_process(command(), capsys, caplog)
        assert_ended(result, ExitCode.DATABASE, f"schema version {newer}, newer than this bot's")
        assert schema_of(settings.database_path) == newer
    assert tg.commands == {}  # the bot never got as far as setting its menus


def test_backup_needs_no_token_takes_relative_paths_from_the_caller_and_keeps_the_newest(
    python_m_bot: PythonMBot, tmp_path: Path
) -> None:
    database, env = migrated(python_m_bot, tmp_path)
    caller = tmp_path / "operator"
    caller.mkdir()
    checkout = tmp_path / "checkout"  # where scripts/run.sh runs the bot from
    checkout.mkdir()
    env |= {"CARDBOT_CALLER_DIR": str(caller)}
    names = [f"bot-{n}.sqlite3" for n in range(4)]
    for name in names:
        result = python_m_bot(env, checkout, "backup", f"backups/{name}", "--keep", "2")
        assert result.code == ExitCode.OK, result.stderr
        assert result.seconds < QUICK
        time.sleep(0.01)  # distinct times written
    assert sorted(p.name for p in (caller / "backups").iterdir()) == names[2:]
    assert not (checkout / "backups").exists()
    assert "deleted the old copy" in result.stdout

    # --keep beside the database itself is refused: it would count the live database as a copy.
    result = python_m_bot(env, checkout, "backup", str(database.with_name("x.sqlite3")), "--keep", "1")
    assert_fails_fast(result, ExitCode.DATABASE, "a folder of their own")
    assert database.is_file() and not database.with_name("x.sqlite3").exists()


def test_a_backup_to_a_folder_or_through_a_file_is_refused_in_one_line(
    python_m_bot: PythonMBot, tmp_path: Path
) -> None:
    database, env = migrated(python_m_bot, tmp_path)
    (tmp_path / "backups").mkdir()
    for path in ("backups", str(database / "copy.sqlite3")):
        assert_fails_fast(python_m_bot(env, tmp_path, "backup", path), ExitCode.DATABASE, path)
    # A trailing slash names a folder even where none exists yet: refused before anything is written.
    result = python_m_bot(env, tmp_path, "backup", "new/")
    assert result.code == 2 and "names a folder" in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backups", "data"]
    assert list((tmp_path / "backups").iterdir()) == []


def test_migrate_and_backup_start_without_importing_aiogram(tmp_path: Path) -> None:
    """``-X importtime`` in a fresh interpreter lists every module imported: the operator's database commands
    need no Telegram client (aiogram alone takes seconds of CPU to import)."""
    env = {k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "TELEGRAM_API_URL", "DATABASE_PATH")}
    env |= {"DATABASE_PATH": str(tmp_path / "bot.sqlite3"), "PYTHONPATH": str(ROOT)}
    for command in (["migrate"], ["backup", "copy.sqlite3"]):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "bot", *command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == ExitCode.OK, done.stderr
        imported = [
            line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "import time:" in line
        ]
        assert "bot.ops" in imported
        assert [m for m in imported if m.startswith(("aiogram", "aiohttp", "bot.telegram", "bot.app"))] == []
    assert (tmp_path / "copy.sqlite3").is_file()
