"""The database and the event loop: a write lock held by another process is waited out without blocking the
loop, and the WAL is copied back into the database file as the bot writes."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.storage import Batch, Database, repo
from bot.storage.db import CHECKPOINT_EVERY

pytestmark = pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py


async def test_a_held_write_lock_is_waited_out_while_the_loop_goes_on(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    other = sqlite3.connect(tmp_path / "bot.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())

        async def write() -> float:
            batch = Batch()
            repo.mark_processed(batch, 7, 0.0)
            await db.write(batch)
            return time.monotonic()

        writer = asyncio.create_task(write())
        await asyncio.sleep(0.5)
        assert not writer.done(), "the lock is held: the transaction waits"
        assert ticks >= 20, "meanwhile the loop went on"
        released = time.monotonic()
        other.execute("COMMIT")
        written = await asyncio.wait_for(writer, 2.0)
        assert written - released < 0.5
        ticker.cancel()
        assert await repo.is_processed(db, 7)
    finally:
        other.close()
        await db.close()


async def test_the_wal_is_checkpointed_into_the_database_file_as_the_bot_writes(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    try:
        before = path.stat().st_size
        for update_id in range(CHECKPOINT_EVERY):
            batch = Batch()
            repo.mark_processed(batch, update_id, float(update_id))
            await db.write(batch)
        for _ in range(100):
            if path.stat().st_size > before:
                break
            await asyncio.sleep(0.05)
        assert path.stat().st_size > before, "the rows reached the database file, not only the WAL"
    finally:
        await db.close()
    check = sqlite3.connect(path)
    try:
        assert check.execute("SELECT COUNT(*) FROM processed_updates").fetchone()[0] == CHECKPOINT_EVERY
    finally:
        check.close()
