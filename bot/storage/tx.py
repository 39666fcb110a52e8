"""An open transaction of the database, for the changes that must read between their writes."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiosqlite

from bot.storage.batch import Batch, Params

Row = sqlite3.Row


@dataclass(frozen=True, slots=True)
class Statements:
    """How a transaction runs its statements on the database's connection (the database hands them over, so a
    transaction needs nothing else of it): one statement, one query, one batch."""

    call: Callable[[str, Params], Awaitable[aiosqlite.Cursor]]
    fetch: Callable[[str, Params], Awaitable[list[Row]]]
    run: Callable[[Batch], Awaitable[None]]


class Tx:
    """An open transaction for the steps that must read between writes (opening a game: its new id). It begins
    (``BEGIN IMMEDIATE``) with its first statement, so one that runs none costs nothing."""

    def __init__(self, statements: Statements, begin: Callable[[], Awaitable[None]]) -> None:
        self._db = statements
        self._begin = begin
        self.writes = 0

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        await self._begin()
        self.writes += 1
        cursor = await self._db.call(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; the new row id."""
        await self._begin()
        self.writes += 1
        cursor = await self._db.call(sql, params)
        if cursor.lastrowid is None:
            raise RuntimeError("INSERT produced no row id")
        return cursor.lastrowid

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        await self._begin()
        return await self._db.fetch(sql, params)

    async def run(self, batch: Batch) -> None:
        """The batch's statements, inside this transaction."""
        if batch:
            await self._begin()
            self.writes += 1
            await self._db.run(batch)
