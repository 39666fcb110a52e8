"""One bot per database: a lock taken at start, held while the bot runs, released when the process ends.

Two bots on one database (and so, usually, one token) would both poll Telegram, each getting half of the
updates, and write over each other's games. The lock is an advisory ``flock`` on a file beside the database
(``bot.sqlite3.lock``): the kernel drops it when the process ends however it ends (even ``kill -9``), so a crash
never leaves a stale lock behind. The file holds the pid of the bot that took it, for the message.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from bot.disk import disk_trouble
from bot.settings import ExitCode, StartupError


class InstanceLock:
    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        self._fd: int | None = None

    def acquire(self, *, purpose: str = "run") -> None:
        """Take the lock, or a :class:`StartupError` (:attr:`ExitCode.INSTANCE`) naming the other bot's pid."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise self._cannot_write(exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise StartupError(
                ExitCode.INSTANCE,
                f"another bot runs on this database (pid {other}, database {self.path.with_suffix('')}): "
                f"stop it before you {purpose} this one; one database and one token serve one bot",
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:
            os.close(fd)
            raise self._cannot_write(exc) from None
        self._fd = fd

    def _cannot_write(self, exc: OSError) -> StartupError:
        disk = disk_trouble(self.path, exc)
        if disk:
            return StartupError(
                ExitCode.DATABASE,
                f"cannot write {self.path}: {disk} (free some space, or set DATABASE_PATH to a writable disk)",
            )
        return StartupError(
            ExitCode.DATABASE,
            f"cannot create {self.path}: {exc.strerror or exc} "
            "(set DATABASE_PATH to a file in a folder the bot may write to)",
        )

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing drops the flock
            self._fd = None
