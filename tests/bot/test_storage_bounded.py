"""The database does not grow without bound: games nobody plays any more are ended (the chat told why), the live
messages of every game long over are forgotten — however many there are —, and the WAL is cut back on a schedule.

Run with the wall clock stepped a week at a time (the bot's clock starts at wall time, so a restart after a step
is a restart days later): solo games whose people never came back and lobbies that were cancelled; a week later
the solo games are ended as abandoned and the lobbies' messages forgotten, another week later the abandoned
games' messages too. Rows and sizes are printed."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.i18n import Locale, translator
from bot.storage import Batch, Database
from bot.storage.db import CHECKPOINT_EVERY, WAL_SIZE_LIMIT, WAL_TRUNCATE_PAST
from tests.bot.conftest import BotRunner, Running, open_lobby, start_solo_konchinka, turn_message
from tests.fakebot import FakeTelegram
from tests.fakebot.wallclock import SteppedWallClock
from tests.tiers import size

pytestmark = [
    pytest.mark.xdist_group("timing"),  # asserts on time: see tests/conftest.py
    pytest.mark.over_http("the bot's real Clock across restarts, the wall clock stepped by days"),
]

SOLO = size(12, 120)
"""Solo games left at the person's turn, never played again."""
LOBBIES = size(12, 120)
"""Group lobbies opened and cancelled."""
WEEK = 7 * 24 * 3600.0
DAY = 24 * 3600.0
ABANDONED = translator(Locale.RU).t("notice-abandoned", days=7)
DATABASE_BOUND = 1024 * 1024
"""Bytes the database and its WAL may hold at the end (they hold ~0.3 MB here; a game's history stays)."""


def _live_rows(db_path: Path) -> int:
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
        return int(
            conn.execute("SELECT count(*) FROM live_messages WHERE slot NOT GLOB '[rp]*'").fetchone()[0]
        )


def _sizes(db_path: Path) -> tuple[int, int]:
    wal = Path(f"{db_path}-wal")
    return db_path.stat().st_size, wal.stat().st_size if wal.exists() else 0


async def _pruned(tg: FakeTelegram, running: Running, db_path: Path, wanted: int) -> None:
    """Wait for the start-up's upkeep to leave at most ``wanted`` live rows of games."""
    await tg.wait_for(lambda: _live_rows(db_path) <= wanted, timeout=30, what=f"at most {wanted} live rows")
    await tg.settle()


@pytest.mark.timeout(size(120, 900))
async def test_abandoned_and_ended_games_are_ended_and_forgotten_and_the_wal_cut_back(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    with SteppedWallClock() as wall:
        running = await bot_runner(turn_timeout=0)
        people = [tg.add_user(f"Игрок {i}") for i in range(SOLO)]
        for user in people:
            await start_solo_konchinka(tg, user, opponents=1)
        await tg.wait_for(lambda: all(turn_message(u) for u in people), timeout=60, what="every solo turn")
        for i in range(LOBBIES):
            creator, other = tg.add_user(f"Создатель {i}"), tg.add_user(f"Гость {i}")
            group = tg.add_group(f"Группа {i}", [creator, other], admins=[creator])
            await open_lobby(tg, group, creator, [creator])
            await creator.send(group, "/cancel")
        await tg.settle()
        await running.stop()
        rows_at_first = _live_rows(db_path)
        print(f"after {SOLO} solo games left and {LOBBIES} lobbies cancelled: {rows_at_first} live rows")

        wall.step(8 * DAY)  # a week and a day later
        running = await bot_runner(turn_timeout=0)
        await tg.wait_for(
            lambda: all(ABANDONED in [m.text for m in u.private_chat.bot_messages()] for u in people),
            timeout=30,
            what="every abandoned game's notice",
        )
        await tg.wait_for(
            lambda: all(turn_message(u) is None for u in people),
            timeout=30,
            what="no abandoned game offering moves",
        )
        rows_in_play = 0
        async with running.app.db.tx() as tx:
            row = await tx.one("SELECT count(*) AS n FROM games WHERE status IN ('lobby', 'playing')")
            assert row is not None
            rows_in_play = int(row["n"])
        assert rows_in_play == 0
        lobby_rows = rows_at_first - _live_rows(db_path)
        print(f"a week later: the {SOLO} solo games ended as abandoned, {lobby_rows} lobby rows forgotten")
        await running.stop()

        wall.step(8 * DAY)
        running = await bot_runner(turn_timeout=0)
        await _pruned(tg, running, db_path, 0)
        await asyncio.sleep(0.2)
        database, wal = _sizes(db_path)
        print(f"two weeks later, running: 0 live rows of games; database {database} B, WAL {wal} B")
        assert wal <= WAL_SIZE_LIMIT
        assert database + wal <= DATABASE_BOUND
        await running.stop()


async def test_the_wal_is_cut_back_while_running_after_a_burst_that_held_it_open(tmp_path: Path) -> None:
    """A burst of big writes while a reader holds its snapshot (no checkpoint can copy the WAL back meanwhile),
    then ordinary commits one after another: the WAL file is cut back while the bot runs, not at its stop."""
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    try:
        reader = sqlite3.connect(path)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM games").fetchone()
        blob = "x" * 65536
        for _ in range(400):
            batch = Batch()
            batch.add("INSERT INTO outbox (chat_id, text, created_at) VALUES (1, ?, 0)", (blob,))
            await db.write(batch)
        reader.execute("COMMIT")
        reader.close()
        wal = Path(f"{path}-wal")
        peak = wal.stat().st_size
        for update_id in range(CHECKPOINT_EVERY + 1):
            batch = Batch()
            batch.add("INSERT INTO processed_updates (update_id, at) VALUES (?, 0)", (update_id,))
            await db.write(batch)
        # The checkpoint runs on its own thread (slower on a busy machine): a commit now and then until it has.
        deadline, more = time.monotonic() + 15, 0
        while True:
            more += 1
            batch = Batch()
            batch.add("INSERT INTO processed_updates (update_id, at) VALUES (?, 0)", (-more,))
            await db.write(batch)
            running = wal.stat().st_size
            if running <= WAL_SIZE_LIMIT or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        print(
            f"WAL after the burst {peak / 1e6:.1f} MB, after {CHECKPOINT_EVERY + 1 + more} more commits "
            f"{running / 1e6:.1f} MB"
        )
        assert peak > WAL_TRUNCATE_PAST
        assert running <= WAL_SIZE_LIMIT
        assert await db.truncate_wal() == running
        assert wal.stat().st_size == 0
    finally:
        await db.close()
