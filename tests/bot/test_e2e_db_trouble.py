"""A database another process holds locked, or a full disk: every press is answered within Telegram's 15 s —
applied once the lock is let go in time, else with a short apology that changes nothing.

While a lock is held the bot's clock runs at ``LOCKED_SPEED``: the database's busy timeout and the bot's window
for trying again are clock seconds, so the locks are too."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import MoveCb
from tests.bot.conftest import BotRunner, Running, game_row, turn_message, two_player_party
from tests.fakebot import FakeTelegram, FakeUser

pytestmark = pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py

APOLOGY = "Не получилось"
LOCKED_SPEED = 1.0
"""Real time: faster, the deferred rows' flush (``bot.storage.db.RIDE_WITHIN``, real seconds) comes at other
moments of the lock, takes the database while a press waits to try again, and the press's second try ends past
the bot's window (at 2 and 4 the long lock's press was applied, not refused)."""
TELEGRAM_LIMIT = 15.0
"""Clock seconds: Telegram's time to answer a press (the fake server's is 15 real seconds)."""


async def _hold_write_lock(db_path: Path, seconds: float) -> None:
    """Another process (here: another connection) holds the database's write lock for ``seconds``."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        await asyncio.sleep(seconds)
        conn.execute("COMMIT")
    finally:
        conn.close()


async def _party(tg: FakeTelegram, bot_runner: BotRunner, **overrides: Any) -> tuple[Running, str, FakeUser]:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner, **overrides)
    await tg.settle()
    return running, game, anna if turn_message(anna) else boris


async def _version(running: Running, game: str) -> int:
    return (await game_row(running, game)).version


async def _press_move(mover: FakeUser, game: str, version: int) -> tuple[bool, str | None, float]:
    message = turn_message(mover)
    assert message is not None
    started = time.monotonic()
    answer = await mover.press(message, data=MoveCb(game=game, version=version, index=0).pack(), timeout=15)
    return answer.answered, answer.text, time.monotonic() - started


async def test_a_press_waiting_out_a_7_s_lock_is_applied(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    running, game, mover = await _party(tg, bot_runner, clock_speed=LOCKED_SPEED)
    version = await _version(running, game)
    holder = asyncio.create_task(_hold_write_lock(db_path, running.app.clock.real(7.0)))
    await asyncio.sleep(0.1)
    answered, text, _took = await _press_move(mover, game, version)
    await holder
    assert answered and text is None
    assert await _version(running, game) == version + 1


async def test_a_press_during_a_long_lock_gets_an_apology_in_time_and_changes_nothing(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    running, game, mover = await _party(tg, bot_runner, clock_speed=LOCKED_SPEED)
    version = await _version(running, game)
    clock = running.app.clock
    holder = asyncio.create_task(_hold_write_lock(db_path, clock.real(13.0)))
    await asyncio.sleep(0.1)
    answered, text, took = await _press_move(mover, game, version)
    assert answered and text is not None and text.startswith(APOLOGY)
    assert took < clock.real(TELEGRAM_LIMIT - 1)
    await holder
    assert await _version(running, game) == version
    # Pressed again once the database is free: played.
    answered, text, _took = await _press_move(mover, game, version)
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
    answered, text, took = await _press_move(mover, game, version)
    assert answered and text is not None and text.startswith(APOLOGY), text
    assert took < 3
    await running.app.db.all("PRAGMA query_only = 0")  # the disk has room again
    assert await _version(running, game) == version
    answered, text, _took = await _press_move(mover, game, version)
    assert answered and text is None
    assert await _version(running, game) == version + 1
