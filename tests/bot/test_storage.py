"""The SQLite storage on a real file: migrations, WAL, one move per version (a guarded batch), one transaction
per batch with the deferred rows riding along, statements off the event loop's thread, one game per chat."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.games import plugin_of
from bot.model.game import Actor, Game, GameMode, GameStatus, Move, Person, Seat
from bot.storage import Batch, Database, repo
from bot.storage.db import RIDE_WITHIN
from bot.storage.migrations import MIGRATIONS
from bot.storage.tx import Deferred, GuardError, Journal
from engine.core import GameRecord
from tests.bot.conftest import ROOT


def _cancelled(game_id: int) -> Batch:
    batch = Batch()
    batch.add("UPDATE games SET status = 'cancelled' WHERE id = ?", (game_id,))
    return batch


def _game(db: Database, chat_id: int = -100) -> Game:
    """A new lobby, its id given by the database."""
    return Game(
        db.next_game_id(),
        "konchinka",
        GameMode.GROUP,
        GameStatus.LOBBY,
        chat_id,
        0,
        1,
        {"target": 5},
        60,
        "ru",
        0.0,
        expires_at=100.0,
    )


async def _lobby(db: Database, chat_id: int = -100) -> int:
    batch = Batch()
    game = _game(db, chat_id)
    repo.insert_game(batch, game)
    await db.write(batch)
    return game.id


def _user(user_id: int, name: str = "Аня") -> Person:
    return Person(user_id, name, None, "ru")


async def test_a_new_database_is_migrated_to_the_latest_schema_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "bot.sqlite3"
    db = await Database.open(path)
    try:
        assert path.exists()
        assert await db.schema_version() == len(MIGRATIONS)
        assert (await db.journal_mode()).lower() == "wal"
    finally:
        await db.close()
    again = await Database.open(path)  # reopening applies nothing twice
    try:
        assert await again.schema_version() == len(MIGRATIONS)
    finally:
        await again.close()


async def test_a_move_is_stored_once_per_version_and_the_record_keeps_the_start(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        lobby = _game(db)
        party = plugin_of("konchinka").new_party({"target": 5}, 2, seed=7)
        dealt = dataclasses.replace(lobby, status=GameStatus.PLAYING, party=party)
        batch = Batch()
        repo.insert_game(batch, dealt)
        await db.write(batch)
        first, code = party.after(0)
        batch = Batch()
        repo.save_game(batch, dataclasses.replace(dealt, party=first), was=0)
        repo.add_move(batch, dealt.id, 0, Move(code, 0, Actor.PLAYER, 1.0))
        await db.write(batch)
        # A second move decided for version 0 fails its guard, and takes its move row down with it.
        other, other_code = party.after(1)
        batch = Batch()
        repo.save_game(batch, dataclasses.replace(dealt, party=other), was=0)
        repo.add_move(batch, dealt.id, 0, Move(other_code, 0, Actor.PLAYER, 2.0))
        with pytest.raises(GuardError):
            await db.write(batch)
        stored = await repo.get_game(db, dealt.id)
        assert stored is not None and stored.version == 1
        assert stored.record == GameRecord("konchinka", party.record().options, 7), "the start, not the moves"
        assert await repo.moves_of(db, dealt.id) == [Move(code, 0, Actor.PLAYER, 1.0)]
        assert await repo.record_of(db, dealt.id) == first.record()
    finally:
        await db.close()


async def test_a_batch_runs_one_statement_per_table_in_one_transaction(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _lobby(db)
        transactions, statements = db.transactions, db.statements
        batch = Batch()
        for user_id, name in ((1, "Аня"), (2, "Борис"), (3, "Вера")):
            repo.upsert_user(batch, _user(user_id, name), started=True)
        repo.insert_seats(batch, game_id, [Seat(i, i + 1, "x") for i in range(3)])
        for update_id in range(10):
            repo.mark_processed(batch, update_id, 0.0)
        assert len(batch) == 3
        await db.write(batch)
        assert db.transactions - transactions == 1
        assert db.statements - statements == 2 + 3  # BEGIN, three executemany, COMMIT
        assert len(await repo.seats_of(db, game_id)) == 3
        assert len(await repo.users_by_id(db, [1, 2, 3, 4])) == 3
        before = db.transactions
        await db.write(Batch())
        assert db.transactions == before, "nothing to write: no transaction"
    finally:
        await db.close()


async def test_deferred_rows_ride_with_the_next_transaction_or_get_their_own(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        marks: Deferred[int, float] = Deferred(db, repo.mark_processed)
        marks.put(1, 0.0)
        marks.put(2, 0.0)
        assert marks.get(1) == (0.0,) and marks.get(3) is None
        before = db.transactions
        batch = Batch()
        repo.upsert_user(batch, _user(5))
        await db.write(batch)
        assert db.transactions == before + 1, "the deferred rows rode along"
        assert len(marks) == 0 and await repo.is_processed(db, 1) and await repo.is_processed(db, 2)
        marks.put(3, 0.0)
        await asyncio.sleep(RIDE_WITHIN)
        deadline = time.monotonic() + 10  # their transaction runs on SQLite's thread: later on a busy machine
        while len(marks) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert len(marks) == 0 and await repo.is_processed(db, 3), (
            "alone, they get a transaction of their own"
        )
        assert db.transactions == before + 2
        # A transaction that fails keeps them for the next one.
        marks.put(4, 0.0)
        with pytest.raises(RuntimeError):
            async with db.tx() as tx:
                await tx.execute("DELETE FROM users")
                raise RuntimeError("crash mid-transaction")
        assert marks.get(4) == (0.0,)
        await db.write(Batch())
        assert await repo.is_processed(db, 4) and await repo.get_user(db, 5) is not None
    finally:
        await db.close()


class _Killed:
    """A run killed before any transaction: its deferred rows never ride."""

    def add_rider(self, rider: object) -> None:
        pass

    def ride_soon(self) -> None:
        pass

    def set_aside(self) -> None:
        pass


def _marks_journal(path: Path) -> Journal[int, float]:
    return Journal(path, lambda at: at, lambda _, at: float(str(at)))


async def test_a_journal_keeps_deferred_rows_a_kill_would_lose_until_they_are_stored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The values a kill caught before they rode (a run that ends without storing them) wait again in the next
    run, read back from the journal (a line cut short skipped), and ride with its first transaction; the journal
    then starts again. A journal that cannot be written is given up, said once, and the rows still ride."""
    path, journal = tmp_path / "bot.sqlite3", tmp_path / "bot.sqlite3-marks"
    marks: Deferred[int, float] = Deferred(_Killed(), repo.mark_processed, _marks_journal(journal))
    marks.put(1, 10.0)
    marks.put(2, 20.0)
    marks.put(1, 11.0)
    with journal.open("ab") as file:
        file.write(b"[3, 3")  # the line being written as the kill came
    db = await Database.open(path)
    try:
        again: Deferred[int, float] = Deferred(db, repo.mark_processed, _marks_journal(journal))
        assert again.items() == [(1, 11.0), (2, 20.0)]
        await db.write(Batch())
        assert await repo.is_processed(db, 1) and await repo.is_processed(db, 2)
        assert len(again) == 0 and journal.read_bytes() == b""
        again.put(4, 40.0)
        assert journal.read_bytes() == b"[4, 40.0]\n"

        journal.unlink()
        journal.mkdir()  # not a file any more: it cannot be written
        again.put(5, 50.0)
        again.put(6, 60.0)
        await db.write(Batch())
        assert await repo.is_processed(db, 5) and await repo.is_processed(db, 6)
        assert sum("cannot be written" in r.getMessage() for r in caplog.records) == 1
    finally:
        await db.close()


async def test_a_row_sqlite_cannot_store_is_set_aside_with_one_line_and_every_later_write_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An update's mark whose id is beyond SQLite's 64 bits never rides: set aside as it comes, in one line and a
    metric, so the transactions after it store their own rows and the other marks (before: each of them failed
    with ``OverflowError``, every later one too)."""
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        marks: Deferred[int, float] = Deferred(db, repo.mark_processed)
        marks.put(10**30, 1.0)
        marks.put(1, 2.0)
        for user_id in range(5, 8):
            batch = Batch()
            repo.upsert_user(batch, _user(user_id))
            await db.write(batch)
        assert [await repo.get_user(db, u) is not None for u in range(5, 8)] == [True] * 3
        assert await repo.is_processed(db, 1) and len(marks) == 0
        assert db.rows_set_aside == 1
        aside = [r for r in caplog.records if "cannot be stored" in r.getMessage()]
        assert len(aside) == 1 and aside[0].levelno == logging.WARNING, caplog.text
    finally:
        await db.close()


async def test_a_damaged_journal_is_read_a_line_at_a_time_each_damaged_line_skipped_in_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Lines a disk or a hand damaged — a key that is a list, JSON nested too deep, a number SQLite cannot store,
    a line of megabytes, not JSON at all — are skipped, said in one warning; the good lines around them wait
    again and ride with the first transaction (before: the first one stopped the start with an exception)."""
    journal = tmp_path / "bot.sqlite3-marks"
    lines = [
        b"[1, 10.0]",
        b"[[1, 2], 3.0]",
        b"[" * 20_000 + b"]" * 20_000,
        b"[100000000000000000000000000000000, 4.0]",
        b'["' + b"x" * 3_000_000 + b'", 5.0]',
        b"not json",
        b"[2, 20.0]",
    ]
    journal.write_bytes(b"".join(line + b"\n" for line in lines))
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        marks: Deferred[int, float] = Deferred(db, repo.mark_processed, _marks_journal(journal))
        assert marks.items() == [(1, 10.0), (2, 20.0)]
        damaged = [r for r in caplog.records if "damaged" in r.getMessage()]
        assert len(damaged) == 1 and "5 damaged lines" in damaged[0].getMessage(), caplog.text
        await db.write(Batch())
        assert await repo.is_processed(db, 1) and await repo.is_processed(db, 2)
    finally:
        await db.close()


JOURNAL_READER = """
import sys
from pathlib import Path
from bot.storage.tx import Journal

def memory(name):
    status = Path("/proc/self/status").read_text().splitlines()
    return next(int(line.split()[1]) for line in status if line.startswith(name + ":"))

journal = Journal(Path(sys.argv[1]), lambda at: at, lambda _, at: float(str(at)))
before = memory("VmRSS")
entries = list(journal.read())
print(entries, (memory("VmHWM") - before) // 1024)
"""
"""Reads a journal and prints what it held and by how many MB its peak resident memory (``VmHWM``, this
process's own: ``ru_maxrss`` keeps the forking parent's) passed what was resident before."""
DAMAGE = 96 * 1024 * 1024
"""Bytes of zeros a crash left in the journal (a file system that lost its data writes zeros)."""


def test_a_huge_damaged_journal_is_read_within_a_few_megabytes(tmp_path: Path) -> None:
    """96 MB of zeros among good lines: a child process reads it growing its peak memory by a few megabytes at
    most (before: the whole file and its lines, ~190 MB; 300 MB took 2 GB and an OOM kill under the 768 MB
    limit)."""
    journal = tmp_path / "bot.sqlite3-marks"
    with journal.open("wb") as file:
        file.write(b"[1, 10.0]\n")
        for _ in range(DAMAGE // (1 << 20)):
            file.write(bytes(1 << 20))
        file.write(b"\n[2, 20.0]\n")
    done = subprocess.run(
        [sys.executable, "-c", JOURNAL_READER, str(journal)],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    entries, grown = done.stdout.rsplit(" ", 1)
    assert entries == "[(1, 10.0), (2, 20.0)]", done.stdout
    assert int(grown) < 16, f"the peak grew by {grown} MB"


async def test_no_statement_runs_on_the_event_loops_thread(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    threads: set[int] = set()
    try:
        await db.trace(lambda _sql: threads.add(threading.get_ident()))
        game_id = await _lobby(db)
        batch = Batch()
        repo.upsert_user(batch, _user(5))
        await db.write(batch)
        await repo.get_game(db, game_id)
        assert threads and threading.get_ident() not in threads
    finally:
        await db.close()


async def test_the_moves_table_refuses_a_second_move_for_one_version(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _lobby(db)
        insert = (
            "INSERT INTO moves (game_id, version, action, seat, actor, at) VALUES (?, 0, ?, 0, 'player', 0)"
        )
        async with db.tx() as tx:
            await tx.execute(insert, (game_id, "l:2c"))
        with pytest.raises(sqlite3.IntegrityError):
            async with db.tx() as tx:
                await tx.execute(insert, (game_id, "l:3c"))
    finally:
        await db.close()


async def test_a_failed_transaction_leaves_nothing_behind(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        with pytest.raises(RuntimeError):
            async with db.tx() as tx:
                batch = Batch()
                repo.upsert_user(batch, _user(5))
                await tx.run(batch)
                raise RuntimeError("crash mid-transaction")
        assert await repo.get_user(db, 5) is None
    finally:
        await db.close()


async def test_one_active_game_per_chat_and_topic(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _lobby(db, chat_id=-5)
        with pytest.raises(sqlite3.IntegrityError):
            await _lobby(db, chat_id=-5)
        await _lobby(db, chat_id=-6)  # another chat is free
        await db.write(_cancelled(game_id))
        await _lobby(db, chat_id=-5)  # the cancelled game no longer counts
    finally:
        await db.close()


async def test_an_update_is_marked_processed_once(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        assert not await repo.is_processed(db, 42)
        for at in (1.0, 2.0):
            batch = Batch()
            repo.mark_processed(batch, 42, at)
            await db.write(batch)
        assert await repo.is_processed(db, 42)
        assert await repo.processed_since(db, 0.0) == [42]
        assert await repo.processed_since(db, 1.5) == [], "the first mark stays"
    finally:
        await db.close()


async def test_lobby_seats_close_their_gaps(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _lobby(db)
        seats = [Seat(i, i + 1, name) for i, name in enumerate(("Аня", "Борис", "Вера"))]
        batch = Batch()
        repo.insert_seats(batch, game_id, seats)
        await db.write(batch)
        batch = Batch()
        repo.replace_seats(batch, game_id, [seats[0], dataclasses.replace(seats[2], seat=1)])
        await db.write(batch)
        assert [(s.seat, s.name) for s in await repo.seats_of(db, game_id)] == [(0, "Аня"), (1, "Вера")]
    finally:
        await db.close()


async def test_a_transaction_cancelled_while_it_begins_leaves_the_database_usable(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:

        async def hold() -> None:
            async with db.tx():
                await asyncio.sleep(10)

        task = asyncio.create_task(hold())
        await asyncio.sleep(0)  # it is now waiting for its BEGIN, which the connection's thread runs anyway
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with db.tx() as tx:
            await tx.execute("INSERT INTO processed_updates (update_id, at) VALUES (1, 0)")
        assert await db.one("SELECT update_id FROM processed_updates") is not None
    finally:
        await db.close()
