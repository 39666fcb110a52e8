"""The SQLite storage on a real file: migrations, WAL, one move per version, one game per chat, updates once."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Actor, Database, GameMode, GameStatus, repo
from bot.storage.migrations import MIGRATIONS
from bot.storage.repo import StaleVersionError
from engine.core import GameRecord


async def _lobby(db: Database, chat_id: int = -100) -> int:
    async with db.tx() as tx:
        return await repo.insert_game(
            tx,
            kind="konchinka",
            mode=GameMode.GROUP,
            status=GameStatus.LOBBY,
            chat_id=chat_id,
            thread_id=0,
            creator_id=1,
            options={"target": 5},
            turn_timeout=60,
            lang="ru",
            now=0.0,
            expires_at=100.0,
        )


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


async def test_a_move_is_stored_once_per_version_with_the_record(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _lobby(db)
        record = GameRecord("konchinka", {"players": 2}, seed=7)
        async with db.tx() as tx:
            await repo.start_game(tx, game_id, record)
        first = GameRecord("konchinka", {"players": 2}, seed=7, actions=("l:2c",))
        async with db.tx() as tx:
            await repo.record_move(tx, game_id, 0, first, "l:2c", 0, Actor.PLAYER, 1.0)
        with pytest.raises(StaleVersionError):
            async with db.tx() as tx:
                other = GameRecord("konchinka", {"players": 2}, seed=7, actions=("l:3c",))
                await repo.record_move(tx, game_id, 0, other, "l:3c", 0, Actor.PLAYER, 2.0)
        async with db.tx() as tx:
            game = await repo.get_game(tx, game_id)
            moves = await repo.moves_of(tx, game_id)
        assert game is not None and game.version == 1 and game.record == first
        assert moves == [(0, "l:2c", 0, Actor.PLAYER)]
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
                await repo.upsert_user(tx, 5, "Аня", None, "ru")
                raise RuntimeError("crash mid-transaction")
        async with db.tx() as tx:
            assert await repo.get_user(tx, 5) is None
    finally:
        await db.close()


async def test_one_active_game_per_chat_and_topic(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _lobby(db, chat_id=-5)
        with pytest.raises(sqlite3.IntegrityError):
            await _lobby(db, chat_id=-5)
        await _lobby(db, chat_id=-6)  # another chat is free
        async with db.tx() as tx:
            await repo.set_status(tx, game_id, GameStatus.CANCELLED, 1.0)
        await _lobby(db, chat_id=-5)  # the cancelled game no longer counts
    finally:
        await db.close()


async def test_an_update_is_marked_processed_once(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        async with db.tx() as tx:
            assert not await repo.is_processed(tx, 42)
            assert await repo.mark_processed(tx, 42, 1.0)
            assert not await repo.mark_processed(tx, 42, 2.0)
            assert await repo.is_processed(tx, 42)
    finally:
        await db.close()


async def test_lobby_seats_close_their_gaps(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _lobby(db)
        async with db.tx() as tx:
            for user_id, name in ((1, "Аня"), (2, "Борис"), (3, "Вера")):
                await repo.add_seat(tx, game_id, user_id, name, None)
            await repo.remove_seat(tx, game_id, 1)
            seats = await repo.seats_of(tx, game_id)
        assert [(s.seat, s.name) for s in seats] == [(0, "Аня"), (1, "Вера")]
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
        async with db.tx() as tx:
            assert await tx.one("SELECT update_id FROM processed_updates") is not None
    finally:
        await db.close()
