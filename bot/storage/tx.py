"""A transaction of the database: what it writes (a :class:`Batch` of statements with their rows, and
:class:`Deferred` rows that wait to ride along with the next transaction, kept meanwhile in a :class:`Journal`
where a kill cannot lose them), and an open :class:`Tx` for the changes that must read between their writes."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final, Generic, Protocol, TypeVar

import aiosqlite

from engine.core import JSONValue

log = logging.getLogger(__name__)

Params = Sequence[object] | Mapping[str, object]
K = TypeVar("K")
V = TypeVar("V")


class Riders(Protocol):
    """The database as deferred rows see it."""

    def add_rider(self, rider: Deferred[K, V]) -> None: ...

    def ride_soon(self) -> None: ...

    def set_aside(self) -> None:
        """A row that cannot be stored was set aside (counted: a metric)."""


class GuardError(RuntimeError):
    """A guarded statement changed another number of rows than it had to (e.g. a game no longer at the version
    a move was drawn for): the whole transaction is rolled back. Not a fault of the database: what was written
    was not what the writer knew."""


@dataclass(slots=True)
class _Statement:
    rows: list[Params] = field(default_factory=list)
    changes: int | None = 0
    """The rows all executions together must change (None: any number)."""


class Batch:
    """The writes of one transaction. Rows of the same statement run together as one ``executemany``; the
    statements run in the order each was first added."""

    def __init__(self) -> None:
        self._statements: dict[str, _Statement] = {}

    def add(self, sql: str, params: Params = (), *, changes: int | None = None) -> None:
        """One execution of ``sql``; ``changes``: the rows it must change, or the transaction fails."""
        statement = self._statements.get(sql)
        if statement is None:
            statement = self._statements[sql] = _Statement()
        statement.rows.append(params)
        if changes is None or statement.changes is None:
            statement.changes = None
        else:
            statement.changes += changes

    def __bool__(self) -> bool:
        return bool(self._statements)

    def __len__(self) -> int:
        """The statements it runs (each an ``executemany`` over its rows)."""
        return len(self._statements)

    def items(self) -> Iterable[tuple[str, list[Params], int | None]]:
        for sql, statement in self._statements.items():
            yield sql, statement.rows, statement.changes

    def unstorable(self) -> str:
        """Why SQLite could not bind a value of these rows (see :func:`unstorable`); "" when it can bind all."""
        for statement in self._statements.values():
            for params in statement.rows:
                problem = unstorable(params)
                if problem:
                    return problem
        return ""


SQLITE_INTEGERS: Final = range(-(2**63), 2**63)
"""The integers SQLite stores (64 bits, signed); binding another fails the whole transaction (``OverflowError``)."""


def unstorable(params: Params) -> str:
    """Why SQLite could not bind one of ``params`` — an integer beyond 64 bits, text that is not UTF-8 (a lone
    surrogate) —; "" when it can bind them all."""
    for value in params.values() if isinstance(params, Mapping) else params:
        if isinstance(value, int) and value not in SQLITE_INTEGERS:
            return f"the integer {str(value)[:24]}… is beyond SQLite's 64 bits"
        if isinstance(value, str):
            try:
                value.encode()
            except UnicodeEncodeError:
                return "text that is not UTF-8 (a lone surrogate)"
    return ""


JOURNAL_REWRITTEN_PAST: Final = 64 * 1024
"""Bytes past which a journal that never empties (values keep coming while others are stored) is written anew
with only what still waits."""
JOURNAL_LINE_LIMIT: Final = 64 * 1024
"""Bytes a journal's line may take when read back (the bot writes lines of a few dozen): a longer one is
damaged, skipped without being read whole."""


def _skip_line(file: BinaryIO) -> None:
    """Read past the rest of the current line, a piece at a time."""
    while piece := file.readline(JOURNAL_LINE_LIMIT):
        if piece.endswith(b"\n"):
            return


class Journal(Generic[K, V]):
    """A file beside the database where a :class:`Deferred`'s values are written the moment they come, one JSON
    line ``[key, value]`` each: appended, not synced (a SIGKILL loses nothing the kernel has taken; a power cut
    may lose the last lines, as it may the database's last commits). Started again once all it holds is stored.

    A restart reads it back (a line cut short by the kill is skipped): what the last run had not stored yet waits
    again, and rides with the first transaction. A file that cannot be written (a full or read-only disk) is
    given up with one log line: the values then only wait in memory, as they would without it."""

    def __init__(
        self, path: Path, encode: Callable[[V], JSONValue], decode: Callable[[K, JSONValue], V]
    ) -> None:
        self.path = path
        self._encode = encode
        self._decode = decode
        self.size = 0
        """Bytes in the file (0: nothing to start again)."""
        self.broken = False

    def read(self, refuse: Callable[[K, V], str] = lambda _k, _v: "") -> Iterator[tuple[K, V]]:
        """What the file holds, oldest first, a line at a time: a line longer than :data:`JOURNAL_LINE_LIMIT` is
        passed over in pieces of that size, never held whole. A damaged line — not JSON, nested too deep, not
        ``[key, value]``, a value the decoder refuses, or one ``refuse`` says why it must not wait again (SQLite
        could not store it: :meth:`Deferred.unstorable`) — is skipped, all of them said in one warning; the last
        line, cut short by a kill, silently."""
        damaged = 0
        try:
            with open(self.path, "rb") as file:
                while line := file.readline(JOURNAL_LINE_LIMIT):
                    if not line.endswith(b"\n") and len(line) == JOURNAL_LINE_LIMIT:
                        damaged += 1
                        _skip_line(file)
                        continue
                    entry = self._entry(line)
                    if entry is not None and not refuse(*entry):
                        yield entry
                    elif line.endswith(b"\n") and line.strip():  # not the last line a kill cut short
                        damaged += 1
                self.size = file.tell()
        except FileNotFoundError:
            return
        except OSError as exc:
            self._give_up(exc)
            return
        if damaged:
            log.warning("the journal %s had %d damaged lines: skipped", self.path, damaged)

    def _entry(self, line: bytes) -> tuple[K, V] | None:
        """One line's ``(key, value)``, None if it is damaged."""
        try:
            key, value = json.loads(line)
            hash(key)
            return key, self._decode(key, value)
        except (ValueError, TypeError, LookupError, RecursionError, AttributeError):
            return None

    def append(self, key: K, value: V) -> None:
        self._write("ab", [(key, value)])

    def rewrite(self, entries: Iterable[tuple[K, V]]) -> None:
        """Hold only ``entries`` (none: an empty file)."""
        self.size = 0
        self._write("wb", entries)

    def _write(self, mode: str, entries: Iterable[tuple[K, V]]) -> None:
        if self.broken:
            return
        data = b"".join(
            json.dumps([k, self._encode(v)], ensure_ascii=False).encode() + b"\n" for k, v in entries
        )
        try:
            with open(self.path, mode) as file:
                file.write(data)
            self.size += len(data)
        except OSError as exc:
            self._give_up(exc)

    def _give_up(self, exc: OSError) -> None:
        log.warning(
            "the journal %s cannot be written (%s): what waits to be stored is in memory only", self.path, exc
        )
        self.broken = True


class Deferred(Generic[K, V]):
    """Rows that may wait a moment before they are stored: the newest value for each key, written with the next
    transaction of the database (or one of their own after :data:`bot.storage.db.RIDE_WITHIN`).

    ``write`` adds one key's value to a batch. Until it has committed, a value stays here (:meth:`get` sees it),
    and a transaction that fails leaves it for the next one. With a ``journal`` the values waiting also survive a
    kill: a restart finds them there, waiting again.
    """

    def __init__(
        self, db: Riders, write: Callable[[Batch, K, V], None], journal: Journal[K, V] | None = None
    ) -> None:
        self._db = db
        self._write = write
        self._values: dict[K, tuple[int, V]] = {}
        self._stamp = 0
        self._journal = journal
        db.add_rider(self)
        if journal is not None:
            for key, value in journal.read(self.unstorable):
                self._stamp += 1
                self._values[key] = (self._stamp, value)
            if self._values:
                db.ride_soon()

    def put(self, key: K, value: V) -> None:
        """``key``'s value, to be stored with the next transaction; one SQLite cannot store (an id beyond 64
        bits) is set aside at once, said in one line, so it never rides (it would fail every transaction)."""
        problem = self.unstorable(key, value)
        if problem:
            self._db.set_aside()
            log.warning(
                "a row of %s cannot be stored (%s): set aside",
                getattr(self._write, "__name__", "deferred rows"),
                problem,
            )
            return
        self._stamp += 1
        self._values[key] = (self._stamp, value)
        if self._journal is not None:
            self._journal.append(key, value)
        self._db.ride_soon()

    def unstorable(self, key: K, value: V) -> str:
        """Why SQLite could not store ``key``'s row with ``value`` (:func:`unstorable`); "" when it can."""
        trial = Batch()
        self._write(trial, key, value)
        return trial.unstorable()

    def discard(self, key: K) -> None:
        """``key``'s waiting value is no longer to be stored (a newer write of the same row took its place)."""
        if self._values.pop(key, None) is not None and self._journal is not None and self._journal.size:
            self._journal.rewrite(self.items())

    def get(self, key: K) -> tuple[V] | None:
        """``(value,)`` if a value for ``key`` waits to be stored, else None."""
        found = self._values.get(key)
        return None if found is None else (found[1],)

    def __len__(self) -> int:
        return len(self._values)

    def items(self) -> list[tuple[K, V]]:
        """Every key and value waiting to be stored."""
        return [(key, value) for key, (_, value) in self._values.items()]

    def take(self, batch: Batch) -> int:
        """Add every waiting value to ``batch``; the stamp to hand to :meth:`stored` once it committed."""
        for key, (_, value) in self._values.items():
            self._write(batch, key, value)
        return self._stamp

    def stored(self, stamp: int) -> None:
        """The values taken at ``stamp`` are in the database (newer ones for the same keys stay)."""
        self._values = {k: v for k, v in self._values.items() if v[0] > stamp}
        journal = self._journal
        if (
            journal is not None
            and journal.size
            and (not self._values or journal.size > JOURNAL_REWRITTEN_PAST)
        ):
            journal.rewrite(self.items())


Row = sqlite3.Row


class Reader(Protocol):
    """The database or an open transaction: what a query needs."""

    async def one(self, sql: str, params: Params = ...) -> Row | None: ...

    async def all(self, sql: str, params: Params = ...) -> list[Row]: ...


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
