"""The SQLite database: one aiosqlite connection, WAL mode, versioned migrations, serialized transactions.

All access goes through :meth:`Database.tx`: an ``asyncio.Lock`` serializes transactions on the single
connection (statements of two coroutines never interleave inside one transaction), ``BEGIN IMMEDIATE`` takes
the write lock at once, and the transaction commits on a normal exit or rolls back on an exception.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Final

import aiosqlite

from bot.storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)

Params = Sequence[object] | dict[str, object]


class Tx:
    """The statements of one transaction; ``writes`` counts the statements that may have changed something."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self.writes = 0

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        self.writes += 1
        cursor = await self._conn.execute(sql, params)
        try:
            return cursor.rowcount
        finally:
            await cursor.close()

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; the new row id."""
        self.writes += 1
        cursor = await self._conn.execute(sql, params)
        try:
            rowid = cursor.lastrowid
        finally:
            await cursor.close()
        if rowid is None:
            raise RuntimeError("INSERT produced no row id")
        return rowid

    async def one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        cursor = await self._conn.execute(sql, params)
        try:
            return await cursor.fetchone()
        finally:
            await cursor.close()

    async def all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        cursor = await self._conn.execute(sql, params)
        try:
            return list(await cursor.fetchall())
        finally:
            await cursor.close()

    async def many(self, sql: str, rows: Iterable[Params]) -> None:
        self.writes += 1
        await self._conn.executemany(sql, rows)


class Database:
    SCHEMA_VERSION: Final = len(MIGRATIONS)

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False
        self.path = path
        self.transactions = 0
        """Transactions begun so far (a figure for tests and benchmarks: how many a press costs)."""
        self.on_transaction: Callable[[], None] | None = None
        """Called as each transaction begins (tests attribute transactions to the update being handled)."""

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        """Open (creating its folder) and migrate the database at ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        db = cls(conn, path)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await db.migrate()
        except BaseException:
            # The connection's thread would keep the process alive: a database that cannot be used is closed.
            await db.close()
            raise
        return db

    async def close(self) -> None:
        """Close the connection (and its thread); closing twice is harmless."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._conn.close()

    async def schema_version(self) -> int:
        cursor = await self._conn.execute("PRAGMA user_version")
        row = await cursor.fetchone()
        await cursor.close()
        return int(row[0]) if row else 0

    async def journal_mode(self) -> str:
        cursor = await self._conn.execute("PRAGMA journal_mode")
        row = await cursor.fetchone()
        await cursor.close()
        return str(row[0]) if row else ""

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        async with self._lock:
            current = await self.schema_version()
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                log.info("applying database migration %d", number)
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(script):
                        await self._conn.execute(statement)
                    await self._conn.execute(f"PRAGMA user_version = {number}")
                except BaseException:
                    await self._conn.execute("ROLLBACK")
                    raise
                await self._conn.execute("COMMIT")

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[Tx]:
        async with self._lock:
            self.transactions += 1
            if self.on_transaction is not None:
                self.on_transaction()
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except asyncio.CancelledError:
                # The BEGIN was queued on the connection's thread and runs all the same: undo it before the lock
                # is let go, or every later transaction fails («cannot start a transaction within a transaction»).
                with suppress(sqlite3.Error):
                    await self._conn.execute("ROLLBACK")
                raise
            try:
                yield Tx(self._conn)
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]
