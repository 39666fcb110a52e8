"""The SQLite database through aiosqlite: one connection, WAL mode, versioned migrations, few trips.

Every statement runs on aiosqlite's own thread, never on the event loop's: a slow disk, a checkpoint or a full
volume stalls that thread, not the loop that answers every press. A trip there and back costs CPU (the thread
hand-off), so the bot makes few of them:

- :meth:`Database.write` runs a :class:`Batch` — the writes a change gathered — as one transaction in one
  trip: ``BEGIN IMMEDIATE``, one ``executemany`` per statement (every row of a table at once), ``COMMIT``;
- rows that may wait a moment (what the outbox delivered, updates that changed nothing) are :class:`Deferred`:
  they ride with the next transaction, or one of their own after :data:`RIDE_WITHIN` (the outbox's are in a
  journal file meanwhile, so a kill loses none); reads of a running game come from the service's cache.

An ``asyncio.Lock`` keeps transactions whole on the single connection (another coroutine's statements never land
inside one). A write lock held by another process is waited out on the loop (``asyncio.sleep`` between tries,
up to ``busy_timeout``), never by blocking the connection's thread; checkpoints — copying the WAL back into the
database file, with its fsync — run on a second connection of their own.

Trouble with the database is one case (:mod:`bot.storage.files`), logged once as it begins. A transaction
waits at most its patience in all, its place in the queue included: a lock held elsewhere never adds up.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, Final

import aiosqlite

from bot.clock import Buckets
from bot.storage.files import FileWatch, Trouble, TroubleLog, copy_beside, is_busy, put_in_place, trouble_of
from bot.storage.migrations import MIGRATIONS
from bot.storage.tx import Batch, Deferred, GuardError, Params, Row, Statements, Tx

log = logging.getLogger(__name__)


BUSY_TIMEOUT: Final = 5.0
"""Real seconds a transaction waits for a write lock another process holds before it fails («locked»); the
setting ``DATABASE_BUSY_TIMEOUT`` (tests make it shorter, and every wait below with it)."""
BUSY_PAUSES: Final = (0.001, 0.05)
"""The first and the longest pause between two tries to take a held lock (doubling in between)."""
CHECKPOINT_EVERY: Final = 500
"""Commits between two checkpoints (SQLite's own would come every ~1000 pages written)."""
WAL_SIZE_LIMIT: Final = 4 * 1024 * 1024
"""Bytes the WAL file is cut back to when a checkpoint has copied all of it and writing starts over at its
beginning (``journal_size_limit``): without it, the file keeps the size of its busiest moment."""
WAL_TRUNCATE_PAST: Final = 4 * WAL_SIZE_LIMIT
"""A WAL larger than this after a passive checkpoint (writers never let one copy it back whole) gets a TRUNCATE
checkpoint at once: it waits for the writers' quiet moment, copies all of it and empties the file."""
RIDE_WITHIN: Final = 0.5
"""Real seconds deferred rows wait for a transaction to ride along with before they get one of their own."""
TX_BUCKETS: Final = (0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
"""Upper bounds (seconds) of the histogram of transaction times (a metric)."""
BUSY_PROBE: Final = 0.1
"""The share of ``busy_timeout`` a transaction waits for the lock once one has waited the whole ``busy_timeout``
for it in vain (0.5 s): while the trouble lasts, updates are refused within moments instead of each waiting the
whole timeout in turn."""

# --- the connection --------------------------------------------------------------------------------------


class Database:
    SCHEMA_VERSION: Final = len(MIGRATIONS)

    def __init__(self, conn: aiosqlite.Connection, path: Path, busy_timeout: float) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False
        self._closing = False
        """Set as :meth:`close` begins: no flush of deferred rows of their own starts after (close stores them)."""
        self.path = path
        self.busy_timeout = busy_timeout
        self.busy_probe = busy_timeout * BUSY_PROBE
        self.transactions = 0
        """Transactions begun so far (a figure for tests, benchmarks and the operator: what a press costs)."""
        self.tx_seconds = Buckets(TX_BUCKETS)
        """How long each transaction held the connection (its lock taken to its end)."""
        self.statements = 0
        """Statements sent to SQLite so far (``executemany``, ``BEGIN``, ``COMMIT``, one tried again: once each)."""
        self.ridden = 0
        """Of those, the ones storing deferred rows that rode along (a transaction's own work is the rest)."""
        self.rows_set_aside = 0
        """Deferred rows set aside because SQLite cannot store them (a metric)."""
        self.pending = 0
        """Statements on SQLite's thread now, whose answers the loop awaits (tests wait until none is)."""
        self.on_transaction: Callable[[], None] | None = None
        """Called as each transaction begins (tests attribute transactions to the update being handled)."""
        self._riders: list[Deferred[object, object]] = []
        self._ride: asyncio.TimerHandle | None = None
        self._flush: asyncio.Task[None] | None = None
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._checkpointer: aiosqlite.Connection | None = None
        self.notice_ids = 0
        """The last id given to a notice of the ``outbox`` table (ids are given here, so a batch can hold them)."""
        self.game_ids = 0
        """The last id given to a game (likewise: a new game's decision names it before it is stored)."""
        self.trouble: Trouble | None = None
        """The trouble the database is in now (None: it works)."""
        self.troubles = TroubleLog(path)
        self.watch = FileWatch(path)

    @classmethod
    async def open(cls, path: Path | str, *, busy_timeout: float = BUSY_TIMEOUT) -> Database:
        """Open (creating its folder) and migrate the database at ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # While opening (a crashed run's WAL may need recovery), SQLite itself waits out a lock, on its thread.
        conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
        db = cls(conn, path, busy_timeout)
        try:
            await db._set_up()
            await db.migrate()
            await db._call("PRAGMA busy_timeout=0")  # from now on the loop waits, not SQLite's thread
            db.watch.remember()
            rows = await db._fetch(
                "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0), "
                "COALESCE((SELECT MAX(id) FROM outbox), 0)) AS last"
            )
            db.notice_ids = int(rows[0]["last"])
            rows = await db._fetch(
                "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0), "
                "COALESCE((SELECT MAX(id) FROM games), 0)) AS last"
            )
            db.game_ids = int(rows[0]["last"])
        except BaseException:
            await db.close()
            raise
        return db

    async def _set_up(self) -> None:
        self._conn.row_factory = sqlite3.Row
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "wal_autocheckpoint=0"):
            await self._call(f"PRAGMA {pragma}")
        await self._call(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")

    async def close(self) -> None:
        """Store what waits (deferred rows), then close the connections whatever that storing met; closing twice
        is harmless."""
        self._closing = True
        if self._ride is not None:
            self._ride.cancel()
            self._ride = None
        self.watch.cancel()
        # A flush of their own under way ends first (its trouble, if any, is said as it began).
        if self._flush is not None and not self._flush.done():
            await asyncio.wait([self._flush])
        if not self._closed and any(len(r) for r in self._riders):
            try:
                await self.write(Batch())
            except (sqlite3.Error, ValueError):
                pass  # the trouble was said as it began; the journals keep what waited
            except Exception as exc:
                log.warning("could not store what waited at close (the journals keep it): %r", exc)
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._checkpoint is not None:
                with contextlib.suppress(Exception):
                    await self._checkpoint
            if self._checkpointer is not None:
                with contextlib.suppress(Exception):
                    await self._checkpointer.close()
            await self._conn.close()

    async def trace(self, callback: Callable[[str], None]) -> None:
        """Call ``callback`` with every statement SQLite runs, on the thread that runs it (tests, debugging)."""
        await self._conn.set_trace_callback(callback)

    async def on_progress(self, handler: Callable[[], int], every: int) -> None:
        """Call ``handler`` every ``every`` steps of SQLite's machine, on its thread (tests: a disk that stalls)."""
        await self._conn.set_progress_handler(handler, every)

    # --- reading ---------------------------------------------------------------------------------------------

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, read outside any transaction of this connection."""
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._lock:
            self._check_open()
            return await self._fetch(sql, params)

    async def schema_version(self) -> int:
        rows = await self.all("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def journal_mode(self) -> str:
        rows = await self.all("PRAGMA journal_mode")
        return str(rows[0][0]) if rows else ""

    # --- writing ---------------------------------------------------------------------------------------------

    def next_notice_id(self) -> int:
        self.notice_ids += 1
        return self.notice_ids

    def next_game_id(self) -> int:
        """A new game's id (one bot per database, so ids given here are never given twice)."""
        self.game_ids += 1
        return self.game_ids

    async def write(self, batch: Batch, *, patience: float | None = None) -> None:
        """Store ``batch`` in one transaction, with the deferred rows waiting to ride along (rows of the same
        statement in one ``executemany``); nothing at all when both are empty. A guard that fails
        (:class:`GuardError`) or any error rolls everything back. ``patience``: as for :meth:`tx`.

        The whole transaction — ``BEGIN IMMEDIATE``, every statement, ``COMMIT`` — is one trip to SQLite's thread
        (:func:`_write_through`), not one a statement: each trip costs the loop a thread hand-off."""
        async with self._turn(patience) as deadline:
            self._check_open()
            own = len(batch)
            stamps = [rider.take(batch) for rider in self._riders]
            if batch:
                self._begin()
                await self._write_in_one_trip(batch, deadline)
                self.ridden += len(batch) - own
            await self._committed(stamps, begun=bool(batch))

    @asynccontextmanager
    async def tx(self, batch: Batch | None = None, *, patience: float | None = None) -> AsyncIterator[Tx]:
        """An explicit transaction (``BEGIN IMMEDIATE`` … ``COMMIT``) that first writes ``batch`` and the
        deferred rows; it begins with its first statement (at once when rows wait), and rolls back on an
        exception. ``patience``: real seconds it waits for a write lock another process holds (``busy_timeout``
        when None)."""
        async with self._turn(patience) as deadline, self._transaction(batch, deadline) as tx:
            yield tx

    @asynccontextmanager
    async def _turn(self, patience: float | None) -> AsyncIterator[float]:
        """The connection's lock, held for one transaction; the monotonic deadline until which a lock another
        process holds is waited for. The database's trouble is told as it begins and as it ends."""
        # The default patience counts the place in the queue too (behind a lock held elsewhere, waits add up);
        # a chosen one (deferred rows: none) waits its turn as usual, then that long for the lock.
        held = self.trouble is Trouble.BUSY
        queue = self.busy_probe if held else self.busy_timeout
        started = time.monotonic()
        try:
            async with asyncio.timeout(queue):  # not wait_for: it may swallow a cancellation
                await self._lock.acquire()
        except TimeoutError:
            exc = sqlite3.OperationalError("database is locked (the transactions ahead wait for it)")
            # Unless the lock was let go while this one queued: a backlog then, not a new trouble.
            if not (held and self.trouble is None):
                self.trouble = self.troubles.failed(exc, self.trouble, full_wait=patience is None)
            raise exc from None
        if patience is None:
            deadline = started + queue
        else:
            deadline = time.monotonic() + (min(patience, self.busy_probe) if held else patience)
        holding = time.perf_counter()
        try:
            yield deadline
        except sqlite3.Error as exc:
            self.trouble = self.troubles.failed(exc, self.trouble, full_wait=patience is None)
            raise
        finally:
            self._lock.release()
            self.tx_seconds.observe(time.perf_counter() - holding)

    @asynccontextmanager
    async def _transaction(self, batch: Batch | None, deadline: float) -> AsyncIterator[Tx]:
        """:meth:`tx` once the connection's lock is held: the lock another process holds waited for until
        ``deadline`` (monotonic)."""
        self._check_open()
        riding = batch if batch is not None else Batch()
        own = len(riding)
        stamps = [rider.take(riding) for rider in self._riders]
        begun = False

        async def begin() -> None:
            nonlocal begun
            if begun:
                return
            begun = True
            self._begin()
            await self._busy_retry("BEGIN IMMEDIATE", max(0.0, deadline - time.monotonic()))
            if riding:
                await self._run(riding)
                self.ridden += len(riding) - own

        try:
            if riding:
                await begin()
            yield Tx(Statements(self._call, self._fetch, self._run), begin)
            if begun:
                await self._busy_retry("COMMIT")
        except BaseException:
            if begun:
                await self._rollback()
            raise
        await self._committed(stamps, begun=begun)

    def _begin(self) -> None:
        self.transactions += 1
        if self.on_transaction is not None:
            self.on_transaction()

    async def _committed(self, stamps: list[int], *, begun: bool) -> None:
        """A transaction ended well: the deferred rows it took (at ``stamps``) are stored; if it wrote anything,
        the trouble is over, a checkpoint may be due and the file is looked at."""
        for rider, stamp in zip(self._riders, stamps, strict=True):
            rider.stored(stamp)
        if begun:
            if self.trouble is not None:
                self.troubles.recovered(self.trouble)
                self.trouble = None
            self._commits += 1
            if self._commits % CHECKPOINT_EVERY == 0:
                self._start_checkpoint()
            if self.watch.is_due():
                await self._look_at_the_file()
            else:  # no commit may come for a while (everyone thinking): look once the time has come all the same
                self.watch.look_later(self._look_later)

    async def _look_later(self) -> None:
        async with self._lock:
            if not self._closed:
                await self._look_at_the_file()

    # --- trouble -------------------------------------------------------------------------------------------

    async def _look_at_the_file(self) -> None:
        """Whether the database file is still the one this connection has open; if it was deleted (or
        replaced), write the open database back to its path — every game with it — and go on there."""
        if not self.watch.is_replaced():
            return
        log.warning(
            "the database %s was deleted while the bot ran: %s; writing it back from the open connection",
            self.path,
            Trouble.GONE.value,
        )
        try:
            await self._write_back()
        except (OSError, sqlite3.Error) as exc:
            log.error(
                "could not write the database %s back (%s); it is kept in memory until a restart",
                self.path,
                exc,
            )
            self.watch.remember()  # not again on every commit

    async def _write_back(self) -> None:
        fresh = await copy_beside(self._conn, self.path)
        # The old connections go first: closing one unlinks its WAL by name, which must not be the new one's.
        if self._checkpointer is not None:
            with contextlib.suppress(Exception):
                await self._checkpointer.close()
            self._checkpointer = None
        with contextlib.suppress(sqlite3.Error, ValueError):
            await self._conn.close()
        put_in_place(fresh, self.path)
        self._conn = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout)
        await self._set_up()
        await self._call("PRAGMA busy_timeout=0")
        self.watch.remember()
        log.info("the database %s is written back; the bot goes on with it", self.path)

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        async with self._lock:
            rows = await self._fetch("PRAGMA user_version")
            current = int(rows[0][0]) if rows else 0
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                log.info("applying database migration %d", number)
                await self._busy_retry("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(script):
                        await self._call(statement)
                    await self._call(f"PRAGMA user_version = {number}")
                    await self._busy_retry("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise

    # --- deferred rows ---------------------------------------------------------------------------------------

    def add_rider(self, rider: Deferred[Any, Any]) -> None:
        self._riders.append(rider)

    def set_aside(self) -> None:
        self.rows_set_aside += 1

    def ride_soon(self) -> None:
        """Deferred rows are waiting: unless a transaction takes them first, one of their own comes soon."""
        if self._ride is not None or self._closing:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: the next transaction takes them
            # A context of its own: the rows are nobody's update (a test counts transactions by update).
            loop = asyncio.get_running_loop()
            self._ride = loop.call_later(RIDE_WITHIN, self._start_flush, context=contextvars.Context())

    def _start_flush(self) -> None:
        self._ride = None
        if self._closing or (self._flush is not None and not self._flush.done()):
            return
        self._flush = asyncio.get_running_loop().create_task(self._flush_deferred(), name="db:deferred")

    async def _flush_deferred(self) -> None:
        try:
            # Nobody waits for these rows: while another process holds the lock, they try again later rather
            # than hold the connection (and every press queued behind it) for a whole busy timeout.
            await self.write(Batch(), patience=0.0)
        except (sqlite3.Error, ValueError) as exc:
            level = logging.DEBUG if trouble_of(exc) is not None else logging.WARNING  # logged as it began
            log.log(level, "could not store the delivered messages' marks (tried again soon): %s", exc)
            if any(len(r) for r in self._riders):
                self.ride_soon()

    # --- one trip to SQLite's thread -------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")

    @contextlib.contextmanager
    def _away(self) -> Iterator[None]:
        """A statement on SQLite's thread (counted in :attr:`pending` while the loop awaits it)."""
        self.pending += 1
        try:
            yield
        finally:
            self.pending -= 1

    async def _call(self, sql: str, params: Params = ()) -> aiosqlite.Cursor:
        self.statements += 1
        with self._away():
            return await self._conn.execute(sql, params)

    async def _fetch(self, sql: str, params: Params = ()) -> list[Row]:
        self.statements += 1
        with self._away():
            rows = await self._conn.execute_fetchall(sql, params)
        return list(rows)

    async def _run(self, batch: Batch) -> None:
        for sql, rows, changes in batch.items():
            self.statements += 1
            with self._away():
                cursor = await self._conn.executemany(sql, rows)
            _guard(sql, cursor.rowcount, changes)

    async def _write_in_one_trip(self, batch: Batch, deadline: float) -> None:
        """The whole transaction of ``batch`` on SQLite's thread at once; while another process holds the write
        lock, tried again whole (nothing of it was stored) until ``deadline`` (monotonic)."""
        self.statements += len(batch) + 2  # BEGIN, an executemany per statement, COMMIT
        await self._while_busy(lambda: self._on_thread(partial(_write_through, batch=batch)), deadline)

    async def _on_thread(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """``work`` with the connection, on SQLite's thread, in one trip however many statements it runs (aiosqlite
        runs its own helpers so; it offers no public call for one of ours)."""
        conn = self._conn
        await conn._execute(work, conn._conn)  # type: ignore[no-untyped-call]

    async def _busy_retry(self, sql: str, patience: float | None = None) -> None:
        """Run ``sql``; while another process holds the lock it needs, try again for up to ``patience`` seconds
        (``busy_timeout`` when None)."""
        deadline = time.monotonic() + (self.busy_timeout if patience is None else patience)
        self.statements += 1
        await self._while_busy(lambda: self._conn.execute(sql), deadline)

    async def _while_busy(self, work: Callable[[], Awaitable[object]], deadline: float) -> None:
        """``work`` (a trip to SQLite's thread); while another process holds the lock it needs, tried again whole,
        after pauses growing from ``BUSY_PAUSES[0]`` to ``BUSY_PAUSES[1]``, until ``deadline`` (monotonic)."""
        pause = BUSY_PAUSES[0]
        while True:
            try:
                with self._away():
                    await work()
                return
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, BUSY_PAUSES[1])

    async def _rollback(self) -> None:
        if self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error, ValueError):
                self.statements += 1
                with self._away():
                    await self._conn.execute("ROLLBACK")

    # --- checkpoints ---------------------------------------------------------------------------------------

    def _start_checkpoint(self) -> None:
        if self._closed or (self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint(), name="checkpoint")

    async def _run_checkpoint(self, mode: str = "PASSIVE") -> None:
        """Copy the WAL back into the database file, on a connection (and thread) of its own: writers go on
        (``TRUNCATE`` waits for them, then empties the WAL file)."""
        try:
            with self._away():
                if self._checkpointer is None:
                    self._checkpointer = await aiosqlite.connect(
                        self.path, isolation_level=None, timeout=self.busy_timeout
                    )
                await self._checkpointer.execute(f"PRAGMA wal_checkpoint({mode})")
                wal = Path(f"{self.path}-wal")
                if mode == "PASSIVE" and wal.exists() and wal.stat().st_size > WAL_TRUNCATE_PAST:
                    await self._checkpointer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (sqlite3.Error, ValueError) as exc:
            log.warning("WAL checkpoint failed (tried again later): %s", exc)

    async def truncate_wal(self) -> int:
        """Checkpoint the whole WAL and cut its file to nothing (the hourly upkeep); its size before (bytes)."""
        wal = Path(f"{self.path}-wal")
        size = wal.stat().st_size if wal.exists() else 0
        if self._closed:
            return size
        if self._checkpoint is not None and not self._checkpoint.done():
            await asyncio.wait({self._checkpoint})
        self._checkpoint = task = asyncio.get_running_loop().create_task(self._run_checkpoint("TRUNCATE"))
        await asyncio.wait({task})
        return size


def _write_through(conn: sqlite3.Connection, batch: Batch) -> None:
    """On SQLite's thread: ``BEGIN IMMEDIATE``, the batch's statements (one ``executemany`` each, its guard
    checked), ``COMMIT``; rolled back on any failure, so it can be tried again whole."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for sql, rows, changes in batch.items():
            _guard(sql, conn.executemany(sql, rows).rowcount, changes)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


def _guard(sql: str, changed: int, changes: int | None) -> None:
    """A guarded statement must have changed ``changes`` rows (None: any number)."""
    if changes is not None and changed != changes:
        raise GuardError(f"{sql.split(' WHERE ')[0]}: changed {changed} rows, not {changes}")


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]
