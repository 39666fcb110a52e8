"""One bot per database: a lock taken at start, held while the bot runs, released when the process ends.

Two bots on one database (and so, usually, one token) would both poll Telegram, each getting half of the
updates, and write over each other's games. The lock is an advisory ``flock`` on the database file itself (found
through any symlinks, and created empty when there is none yet), so two paths to one file — a symlink or a hard
link — meet on the same lock: the kernel keys it by the file (device and inode), not by its name. A second
``flock`` on a file beside the database (``bot.sqlite3.lock``, beside the resolved path) holds the pid of the bot
that took it, for the message. The kernel drops both when the process ends however it ends (even ``kill -9``), so
a crash never leaves a stale lock behind. SQLite's own locks are POSIX record locks, which ``flock`` does not
touch (Linux keeps the two apart).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from bot.disk import disk_trouble
from bot.settings import ExitCode, StartupError


def _flock_holder(fd: int) -> str | None:
    """The pid holding a ``flock`` on the file open at ``fd``, from ``/proc/locks`` (Linux); None elsewhere."""
    st = os.fstat(fd)
    wanted = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        lines = Path("/proc/locks").read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; lines of waiters carry "->"
        if len(fields) >= 6 and fields[1] == "FLOCK" and "->" not in fields and fields[5] == wanted:
            return fields[4]
    return None


class InstanceLock:
    def __init__(self, database: Path) -> None:
        self.database = database.resolve()  # a symlink's target: the file the bot would write
        self.path = self.database.with_name(self.database.name + ".lock")
        self._fds: list[int] = []

    def acquire(self, *, purpose: str = "run") -> None:
        """Take the lock, or a :class:`StartupError` (:attr:`ExitCode.INSTANCE`) naming the other bot's pid."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            pid_fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise self._cannot_write(exc) from None
        try:
            # read-only is enough for flock, and a read-only database file still gets its lock (the bot then
            # says the file is read-only; it does not start a second writer)
            db_fd = os.open(self.database, os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError as exc:
            os.close(pid_fd)
            raise self._cannot_write(exc, self.database) from None
        for fd in (db_fd, pid_fd):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                written = os.pread(pid_fd, 32, 0).decode(errors="replace").strip()
                other = _flock_holder(fd) or written or "unknown"
                os.close(db_fd)
                os.close(pid_fd)
                raise StartupError(
                    ExitCode.INSTANCE,
                    f"another bot runs on this database (pid {other}, database {self.database}): "
                    f"stop it before you {purpose} this one; one database and one token serve one bot",
                ) from None
        try:
            os.ftruncate(pid_fd, 0)
            os.pwrite(pid_fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:
            os.close(db_fd)
            os.close(pid_fd)
            raise self._cannot_write(exc) from None
        self._fds = [pid_fd, db_fd]

    def _cannot_write(self, exc: OSError, path: Path | None = None) -> StartupError:
        path = path or self.path
        disk = disk_trouble(path, exc)
        if disk:
            return StartupError(
                ExitCode.DATABASE,
                f"cannot write {path}: {disk} (free some space, or set DATABASE_PATH to a writable disk)",
            )
        return StartupError(
            ExitCode.DATABASE,
            f"cannot create {path}: {exc.strerror or exc} "
            "(set DATABASE_PATH to a file in a folder the bot may write to)",
        )

    def release(self) -> None:
        if self._fds:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fds[0], 0)
            for fd in self._fds:
                os.close(fd)  # closing drops the flock
            self._fds = []
