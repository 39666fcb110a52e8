"""The SQLite database: one connection used from the event loop, WAL mode, versioned migrations, serialized
transactions.

All access goes through :meth:`Database.tx`: an ``asyncio.Lock`` serializes transactions on the single
connection (statements of two coroutines never interleave inside one transaction), ``BEGIN IMMEDIATE`` takes
the write lock at once, and the transaction commits on a normal exit or rolls back on an exception.

Statements run on the event loop's own thread: on a small database they take microseconds, far less than a trip
to a worker thread and back (aiosqlite's way, ~0.1 ms of CPU a statement). The two things that can take long
never block the loop: waiting for a write lock held by another process is done with ``asyncio.sleep`` (the
connection's own busy timeout is 0; :data:`BUSY_TIMEOUT` as before), and checkpoints — copying the WAL back
into the database file, with its fsync — run in a worker thread on a connection of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final

from bot.storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)

Params = Sequence[object] | dict[str, object]

BUSY_TIMEOUT: Final = 5.0
"""Real seconds a transaction waits for a write lock another process holds before it fails («locked»)."""
BUSY_PAUSES: Final = (0.001, 0.05)
"""The first and the longest pause between two tries to take a held lock (doubling in between)."""
CHECKPOINT_EVERY: Final = 500
"""Commits between two checkpoints (SQLite's own would come every ~1000 pages written, on the loop)."""


def _is_busy(exc: sqlite3.Error) -> bool:
    """The database is locked by someone else (worth another try), as opposed to full, read-only or broken."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class Tx:
    """The statements of one transaction; ``writes`` counts the statements that may have changed something."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.writes = 0

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        self.writes += 1
        cursor = self._conn.execute(sql, params)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; the new row id."""
        self.writes += 1
        cursor = self._conn.execute(sql, params)
        try:
            rowid = cursor.lastrowid
        finally:
            cursor.close()
        if rowid is None:
            raise RuntimeError("INSERT produced no row id")
        return rowid

    async def one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        cursor = self._conn.execute(sql, params)
        try:
            row: sqlite3.Row | None = cursor.fetchone()
            return row
        finally:
            cursor.close()

    async def all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        cursor = self._conn.execute(sql, params)
        try:
            return list(cursor.fetchall())
        finally:
            cursor.close()

    async def many(self, sql: str, rows: Iterable[Params]) -> None:
        self.writes += 1
        self._conn.executemany(sql, rows).close()


class Database:
    SCHEMA_VERSION: Final = len(MIGRATIONS)

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False
        self.path = path
        self.transactions = 0
        """Transactions begun so far (a figure for tests and benchmarks: how many a press costs)."""
        self.on_transaction: Callable[[], None] | None = None
        """Called as each transaction begins (tests attribute transactions to the update being handled)."""
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._checkpointer: sqlite3.Connection | None = None

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        """Open (creating its folder) and migrate the database at ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # While opening (a crashed run's WAL may need recovery), SQLite itself waits out a lock, as it always did.
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT)
        db = cls(conn, path)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL").close()
            conn.execute("PRAGMA synchronous=NORMAL").close()
            conn.execute("PRAGMA foreign_keys=ON").close()
            conn.execute("PRAGMA wal_autocheckpoint=0").close()
            await db.migrate()
            conn.execute("PRAGMA busy_timeout=0").close()  # from now on the loop waits, not SQLite
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        """Close the connection (after a checkpoint on its way); closing twice is harmless."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._checkpoint is not None:
                with contextlib.suppress(Exception):
                    await self._checkpoint
            if self._checkpointer is not None:
                self._checkpointer.close()
            self._conn.close()

    async def schema_version(self) -> int:
        row = self._conn.execute("PRAGMA user_version").fetchone()
        return int(row[0]) if row else 0

    async def journal_mode(self) -> str:
        row = self._conn.execute("PRAGMA journal_mode").fetchone()
        return str(row[0]) if row else ""

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        async with self._lock:
            current = await self.schema_version()
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                log.info("applying database migration %d", number)
                await self._begin()
                try:
                    for statement in _statements(script):
                        self._conn.execute(statement).close()
                    self._conn.execute(f"PRAGMA user_version = {number}").close()
                    await self._commit()
                except BaseException:
                    self._rollback()
                    raise

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[Tx]:
        async with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            self.transactions += 1
            if self.on_transaction is not None:
                self.on_transaction()
            await self._begin()
            try:
                yield Tx(self._conn)
                await self._commit()
            except BaseException:
                self._rollback()
                raise
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0:
            self._start_checkpoint()

    async def _begin(self) -> None:
        await self._busy_retry("BEGIN IMMEDIATE")

    async def _commit(self) -> None:
        await self._busy_retry("COMMIT")

    async def _busy_retry(self, sql: str) -> None:
        """Run ``sql``; while another process holds the lock it needs, try again for up to :data:`BUSY_TIMEOUT`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_TIMEOUT
        pause = BUSY_PAUSES[0]
        while True:
            try:
                self._conn.execute(sql).close()
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or loop.time() >= deadline:
                    raise
            await asyncio.sleep(min(pause, max(0.0, deadline - loop.time())))
            pause = min(pause * 2, BUSY_PAUSES[1])

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK").close()

    # --- checkpoints ---------------------------------------------------------------------------------------

    def _start_checkpoint(self) -> None:
        if self._closed or (self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint(), name="checkpoint")

    async def _run_checkpoint(self) -> None:
        try:
            await asyncio.to_thread(self._checkpoint_now)
        except sqlite3.Error as exc:
            log.warning("WAL checkpoint failed (tried again later): %s", exc)

    def _checkpoint_now(self) -> None:
        """Copy the WAL back into the database file (on a worker thread; writers go on meanwhile)."""
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT
            )
        self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").close()


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]
