"""An open transaction of the database, for the changes that must read between their writes."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.storage.batch import Batch, Params

if TYPE_CHECKING:
    from bot.storage.db import Database

Row = sqlite3.Row


class Tx:
    """An open transaction for the steps that must read between writes (opening a game: its new id). It begins
    (``BEGIN IMMEDIATE``) with its first statement, so one that runs none costs nothing."""

    def __init__(self, db: Database, begin: Callable[[], Awaitable[None]]) -> None:
        self._db = db
        self._begin = begin
        self.writes = 0

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        await self._begin()
        self.writes += 1
        cursor = await self._db._call(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; the new row id."""
        await self._begin()
        self.writes += 1
        cursor = await self._db._call(sql, params)
        if cursor.lastrowid is None:
            raise RuntimeError("INSERT produced no row id")
        return cursor.lastrowid

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        await self._begin()
        return await self._db._fetch(sql, params)

    async def run(self, batch: Batch) -> None:
        """The batch's statements, inside this transaction."""
        if batch:
            await self._begin()
            self.writes += 1
            await self._db._run(batch)
