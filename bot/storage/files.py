"""What can happen to the database file under the running bot, told apart, and the file written back.

:class:`Trouble` names the cases a failed transaction shows (another process holding the write lock, a file
that turned read-only, a full disk, a deleted file); :func:`copy_beside` and :func:`put_in_place` write a
database that was deleted while a connection still had it open back to its path, whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import enum
import errno
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

import aiosqlite

log = logging.getLogger(__name__)

LOOK_EVERY: Final = 1.0
"""Real seconds between two looks, after a commit, whether the database file is still there."""


class Trouble(enum.Enum):
    """Why the database cannot store anything now (the value names it in the log)."""

    BUSY = "locked by another process"
    READ_ONLY = "read-only"
    FULL = "full (no space left on the disk)"
    GONE = "deleted"


def trouble_of(exc: BaseException, path: Path | None = None) -> Trouble | None:
    """The trouble an error of SQLite shows, or None for an error of the bot's own (a guard, a constraint).

    SQLite says «disk I/O error» both for a file that is gone and for one it may no longer write (immutable,
    a file system remounted read-only: EPERM, EROFS); given the database's ``path``, a file still in its place
    that cannot be opened for writing is told read-only, not deleted."""
    if not isinstance(exc, sqlite3.Error):
        return None
    text = str(exc).lower()
    if is_busy(exc):
        return Trouble.BUSY
    if "readonly" in text or "read-only" in text:
        return Trouble.READ_ONLY
    if "full" in text:
        return Trouble.FULL
    if "disk i/o" in text or "unable to open" in text or "no such table" in text:
        if path is not None and is_read_only(path):
            return Trouble.READ_ONLY
        return Trouble.GONE
    return None


def is_read_only(path: Path) -> bool:
    """Whether the database at ``path`` is there but the bot may not write it: the file, its WAL or its
    shared-memory file refuses to open for writing (read-only mode, immutable, a read-only file system), or
    the folder refuses new files (the journal). A missing file is not read-only (it is gone)."""
    if not path.exists():
        return False
    if not os.access(path.parent, os.W_OK):
        return True
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            with file.open("r+b"):  # not os.access: root may write to any mode, yet not to an immutable file
                pass
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                return True
    return False


class TroubleLog:
    """The one line of the log a trouble gets as it begins (and a quiet one as it ends)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def failed(self, exc: sqlite3.Error, now: Trouble | None, *, full_wait: bool) -> Trouble | None:
        """A transaction failed with ``exc`` while the trouble was ``now``: the trouble from now on."""
        trouble = trouble_of(exc, self.path)
        if trouble is None or trouble is now:
            return now
        if trouble is Trouble.BUSY and not full_wait:
            return now  # a transaction that chose not to wait (deferred rows) proves nothing
        log.warning(
            "the database %s is %s (%s): presses are answered with an apology and nothing is stored until "
            "this is fixed",
            self.path,
            trouble.value,
            exc,
        )
        return trouble

    def recovered(self, now: Trouble | None) -> None:
        """A transaction committed: no trouble any more."""
        if now is not None:
            log.info("the database %s works again (it was %s)", self.path, now.value)


def file_identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` (device, inode), None when there is none."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def is_busy(exc: sqlite3.Error) -> bool:
    """The database is locked by someone else (worth another try), as opposed to full, read-only or broken."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


async def copy_beside(conn: aiosqlite.Connection, path: Path) -> Path:
    """A consistent copy of ``conn``'s database next to ``path`` (``<name>.restoring``); its path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(path.name + ".restoring")
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{fresh}{suffix}").unlink(missing_ok=True)
    # The copy is made on the connection's thread (aiosqlite's backup), into a plain connection it may use.
    copy = sqlite3.connect(fresh, isolation_level=None, check_same_thread=False)
    try:
        await conn.backup(copy)
    finally:
        copy.close()
    return fresh


def put_in_place(fresh: Path, path: Path) -> None:
    """The copy becomes the database at ``path`` (once every connection to the old file is closed)."""
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.replace(fresh, path)


class FileWatch:
    """Whether the database file at ``path`` is still the one the connection has open (not deleted, not
    replaced), looked at after a commit at most every :data:`LOOK_EVERY` — and that long after the last commit
    when none follows."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = file_identity(path)
        self.looked = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None
        self._looks: set[asyncio.Task[None]] = set()

    def remember(self) -> None:
        """The file at ``path`` now is the connection's."""
        self.file = file_identity(self.path)
        self.looked = time.monotonic()

    def is_due(self) -> bool:
        return time.monotonic() - self.looked >= LOOK_EVERY

    def is_replaced(self) -> bool:
        """Look: whether the file at ``path`` is not the connection's any more."""
        self.looked = time.monotonic()
        return file_identity(self.path) != self.file

    def look_later(self, look: Callable[[], Awaitable[None]]) -> None:
        """Run ``look`` once :data:`LOOK_EVERY` has passed (unless a look is already planned)."""
        if self._timer is not None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: the next commit looks
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(LOOK_EVERY, self._start, look, context=contextvars.Context())

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _start(self, look: Callable[[], Awaitable[None]]) -> None:
        self._timer = None

        async def run() -> None:
            await look()

        task = asyncio.get_running_loop().create_task(run(), name="db:look")
        self._looks.add(task)
        task.add_done_callback(self._looks.discard)
