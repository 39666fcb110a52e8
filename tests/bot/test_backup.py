"""``python -m bot backup PATH`` while the bot plays: every copy is a consistent database whose games replay."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.ops import backup
from bot.settings import ExitCode
from engine.core import GameRecord, replay
from tests.bot.conftest import BotRunner, bot_process_env, has_rematch, play_until, start_party
from tests.bot.test_startup import run_bot
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer

ROOT = Path(__file__).resolve().parents[2]


def assert_consistent(copy: Path) -> int:
    """Every game in the copy: its moves are stored once each, and its record's start with them replays.

    The number of moves checked.
    """
    checked = 0
    with contextlib.closing(sqlite3.connect(copy)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        games = db.execute("SELECT id, record, version FROM games WHERE record IS NOT NULL").fetchall()
        for game_id, text, version in games:
            record = GameRecord.from_json(text)
            moves = db.execute(
                "SELECT version, action FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
            ).fetchall()
            assert [v for v, _ in moves] == list(range(version)), game_id
            assert record.actions == (), "the record is the party's start: its moves are their rows"
            replay(
                dataclasses.replace(record, actions=tuple(a for _, a in moves))
            )  # raises on an illegal move
            checked += version
    return checked


async def test_backups_taken_during_a_party_are_consistent_and_replay(
    tg: FakeTelegram, bot_runner: BotRunner, forkserver: ForkServer, db_path: Path, tmp_path: Path
) -> None:
    await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await start_party(tg, group, anna, [anna, boris, vera])
    party = asyncio.create_task(
        play_until(tg, [anna, boris, vera], lambda: has_rematch(group.visible_messages()), timeout=120)
    )
    copies: list[Path] = []
    try:
        # Copies from a thread, as the command takes them, while this loop goes on writing the party's moves ...
        while not party.done():
            copy = tmp_path / "backups" / f"copy-{len(copies)}.sqlite3"
            await asyncio.to_thread(backup, db_path, copy)
            copies.append(copy)
            await tg.sleep(0.05)
    finally:
        await party
    # ... and the last one through the command line, as an operator takes it, with the bot still running.
    last = tmp_path / "backups" / f"copy-{len(copies)}.sqlite3"
    result = await run_bot(forkserver, bot_process_env(tg, db_path), tmp_path, "backup", str(last))
    assert result.code == ExitCode.OK, result.stderr
    assert "backup:" in result.stdout
    copies.append(last)
    assert len(copies) >= 5
    assert not list((tmp_path / "backups").glob("*.partial"))
    checked = [assert_consistent(copy) for copy in copies]
    assert checked[-1] > 0  # the copies were taken while moves were being written
    assert checked == sorted(checked)


async def test_backup_of_a_missing_database_fails_naming_database_path(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    env = bot_process_env(tg, tmp_path / "nowhere.sqlite3")
    result = await run_bot(forkserver, env, tmp_path, "backup", str(tmp_path / "copy.sqlite3"))
    assert result.code == ExitCode.DATABASE
    assert "DATABASE_PATH" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "copy.sqlite3").exists()


def test_a_backup_by_a_user_who_may_read_but_not_write_the_database_folder_says_so(tmp_path: Path) -> None:
    """SQLite alone says «attempt to write a readonly database» (a live database's reader writes its ``-shm``)."""
    data = tmp_path / "data"
    data.mkdir()
    database = data / "bot.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        db.commit()
    copy = tmp_path / "backups" / "copy.sqlite3"
    if os.geteuid() == 0:  # root without its capabilities: a user like any other for a folder it does not own
        os.chown(data, 65534, -1)
        os.chown(database, 65534, -1)
        as_user = ["setpriv", "--bounding-set=-all", "--"]
    else:
        as_user = []
    data.chmod(0o555)
    try:
        done = subprocess.run(
            [*as_user, sys.executable, "-m", "bot", "backup", str(copy)],
            env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(database)},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        data.chmod(0o755)
    assert done.returncode == ExitCode.DATABASE, done.stderr
    assert "readonly database" not in done.stderr
    assert f"may read the database but not write its folder {data}" in done.stderr
    assert "run the backup as the bot's own user" in done.stderr
    assert not copy.exists()
