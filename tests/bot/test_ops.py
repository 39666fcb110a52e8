"""The operator's commands as an operator runs them (``python -m bot ...`` processes forked from the
``forkserver`` fixture's interpreter): ``check`` reads and never writes, ``migrate`` writes, a database of a
newer version is refused, ``backup`` needs no token and rotates its copies."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

from bot.settings import ExitCode
from bot.storage import Database
from tests.bot.conftest import bot_process_env
from tests.bot.test_startup import QUICK, assert_fails_fast, run_bot
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer


def schema_of(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def set_schema(path: Path, version: int) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {version}")


async def test_check_on_a_missing_database_creates_nothing_and_names_migrate(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    env = bot_process_env(tg, tmp_path / "data" / "bot.sqlite3")
    result = await run_bot(forkserver, env, tmp_path, "check")
    assert_fails_fast(result, ExitCode.DATABASE, "python -m bot migrate")
    assert "no database at" in result.errors[0]
    assert not (tmp_path / "data").exists()


async def test_check_leaves_an_older_database_as_it_is_and_migrate_brings_it_up_to_date(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    env = bot_process_env(tg, database)
    result = await run_bot(forkserver, env, tmp_path, "migrate")
    assert result.code == ExitCode.OK, result.stderr
    assert f"at schema version {Database.SCHEMA_VERSION}" in result.stdout
    set_schema(database, 1)  # as an older version of the bot left it (its tables are a subset)
    with contextlib.closing(sqlite3.connect(database)) as db:
        for table in ("rate_stamps", "chat_langs"):  # what the later migrations create
            db.execute(f"DROP TABLE {table}")
    stamp = database.stat().st_mtime_ns

    result = await run_bot(forkserver, env, tmp_path, "check")
    assert_fails_fast(result, ExitCode.DATABASE, "python -m bot migrate")
    assert "schema version 1, older than" in result.errors[0]
    assert schema_of(database) == 1 and database.stat().st_mtime_ns == stamp

    result = await run_bot(forkserver, env, tmp_path, "migrate")
    assert result.code == ExitCode.OK, result.stderr
    assert schema_of(database) == Database.SCHEMA_VERSION
    assert (await run_bot(forkserver, env, tmp_path, "check")).code == ExitCode.OK


async def test_a_database_of_a_newer_version_is_refused_by_check_migrate_and_start(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    env = bot_process_env(tg, database)
    assert (await run_bot(forkserver, env, tmp_path, "migrate")).code == ExitCode.OK
    newer = Database.SCHEMA_VERSION + 1
    set_schema(database, newer)
    for command in ("check", "migrate", "run"):
        result = await run_bot(forkserver, env, tmp_path, command)
        assert_fails_fast(result, ExitCode.DATABASE, f"schema version {newer}, newer than this bot's")
        assert schema_of(database) == newer
    assert tg.commands == {}  # the bot never got as far as setting its menus


async def test_backup_needs_no_token_takes_relative_paths_from_the_caller_and_keeps_the_newest(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    env = bot_process_env(tg, database)
    assert (await run_bot(forkserver, env, tmp_path, "migrate")).code == ExitCode.OK
    caller = tmp_path / "operator"
    caller.mkdir()
    checkout = tmp_path / "checkout"  # where scripts/run.sh runs the bot from
    checkout.mkdir()
    env = {k: v for k, v in env.items() if k != "BOT_TOKEN"} | {"CARDBOT_CALLER_DIR": str(caller)}
    names = [f"bot-{n}.sqlite3" for n in range(4)]
    for name in names:
        result = await run_bot(forkserver, env, checkout, "backup", f"backups/{name}", "--keep", "2")
        assert result.code == ExitCode.OK, result.stderr
        assert result.seconds < QUICK
        time.sleep(0.01)  # distinct times written
    assert sorted(p.name for p in (caller / "backups").iterdir()) == names[2:]
    assert not (checkout / "backups").exists()
    assert "deleted the old copy" in result.stdout

    # --keep beside the database itself is refused: it would count the live database as a copy.
    result = await run_bot(
        forkserver, env, checkout, "backup", str(database.with_name("x.sqlite3")), "--keep", "1"
    )
    assert_fails_fast(result, ExitCode.DATABASE, "a folder of their own")
    assert database.is_file() and not database.with_name("x.sqlite3").exists()
