"""A database another process holds locked, or a full disk: every press is answered within Telegram's 15 s —
applied once the lock is let go in time, else with a short apology that changes nothing.

The lock is held for real seconds by another connection, over HTTP; a disk that refuses every write needs no other
process, and runs in-process."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.callbacks import MoveCb
from tests.bot.conftest import BotRunner, Running, game_row, turn_message, two_player_party
from tests.fakebot import FakeTelegram, FakeUser

# asserts on real time (the second chain): see tests/conftest.py
TIMING_2 = pytest.mark.xdist_group("timing-2")
HELD_BY_ANOTHER = pytest.mark.over_http(
    "another process holds SQLite's lock, for real seconds (SQLite's busy timeout)"
)
"""A test where another connection holds the lock runs over HTTP in real time; a disk that refuses every write
runs in-process on the manual clock."""

APOLOGY = "Не получилось"
READ_ONLY = "Ход не сделан: бот сейчас не может ничего сохранить"
SCALE = 0.25
"""Every wait runs at a quarter of production's: the bot waits 1.25 s for a lock (``DATABASE_BUSY_TIMEOUT``, 5 s in
production, and each of its other waits on the database with it), and Telegram takes an answer for 3.75 s (15 s).
The figures below are production's, times ``SCALE``."""
TELEGRAM_WAITS = 15.0 * SCALE


async def _hold_write_lock(db_path: Path, seconds: float) -> None:
    """Another process (here: another connection) holds the database's write lock for ``seconds``."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        await asyncio.sleep(seconds)
        conn.execute("COMMIT")
    finally:
        conn.close()


async def _party(tg: FakeTelegram, bot_runner: BotRunner) -> tuple[Running, str, FakeUser]:
    tg.callback_ttl = TELEGRAM_WAITS
    running, anna, boris, _group, game = await two_player_party(
        tg, bot_runner, database_busy_timeout=5.0 * SCALE
    )
    await tg.settle()
    return running, game, anna if turn_message(anna) else boris


async def _version(running: Running, game: str) -> int:
    return (await game_row(running, game)).version


async def _press_move(
    tg: FakeTelegram, mover: FakeUser, game: str, version: int
) -> tuple[bool, str | None, float]:
    """The move pressed: answered, the answer's text, and the seconds it took — in-process, the real ones or the
    clock's at its nominal speed, whichever are more (the bot waits for the database in real time, for the rest
    on its clock)."""
    message = turn_message(mover)
    assert message is not None
    started, on_the_clock = time.monotonic(), tg.monotonic()
    move = MoveCb(game=game, version=version, index=0).pack()  # a card's second tap
    answer = await mover.press(message, data=move, timeout=TELEGRAM_WAITS, force=True)
    took = max(time.monotonic() - started, tg.monotonic() - on_the_clock)
    return answer.answered, answer.text, took


@TIMING_2
@HELD_BY_ANOTHER
async def test_a_press_waiting_out_a_7_s_lock_is_applied(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    running, game, mover = await _party(tg, bot_runner)
    version = await _version(running, game)
    holder = asyncio.create_task(_hold_write_lock(db_path, 7.0 * SCALE))
    await asyncio.sleep(0.1 * SCALE)
    answered, text, _took = await _press_move(tg, mover, game, version)
    await holder
    assert answered and text is None
    assert await _version(running, game) == version + 1


@TIMING_2
@HELD_BY_ANOTHER
async def test_a_press_during_a_long_lock_gets_an_apology_in_time_and_changes_nothing(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    running, game, mover = await _party(tg, bot_runner)
    version = await _version(running, game)
    holder = asyncio.create_task(_hold_write_lock(db_path, 13.0 * SCALE))
    await asyncio.sleep(0.1 * SCALE)
    answered, text, took = await _press_move(tg, mover, game, version)
    assert answered and text is not None and text.startswith(APOLOGY)
    assert took < 14 * SCALE
    await holder
    assert await _version(running, game) == version
    # Pressed again once the database is free: played.
    answered, text, _took = await _press_move(tg, mover, game, version)
    assert answered and text is None
    assert await _version(running, game) == version + 1


async def test_a_press_the_database_cannot_write_gets_an_apology_and_changes_nothing(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """A full disk, or one the system remounted read-only: every write fails at once, not worth waiting for."""
    running, game, mover = await _party(tg, bot_runner)
    version = await _version(running, game)
    await running.app.db.all(
        "PRAGMA query_only = 1"
    )  # SQLite refuses every write: «attempt to write a readonly …»
    answered, text, took = await _press_move(tg, mover, game, version)
    assert answered and text is not None and text.startswith(READ_ONLY), text
    assert took < 3 * SCALE
    await running.app.db.all("PRAGMA query_only = 0")  # the disk has room again
    assert await _version(running, game) == version
    answered, text, _took = await _press_move(tg, mover, game, version)
    assert answered and text is None
    assert await _version(running, game) == version + 1
