"""What the bot needs before it can run, each checked with a short timeout and a clear verdict: its texts and its
database here, Telegram in :mod:`bot.telegram` (this module imports no aiogram: ``migrate`` and ``backup`` start
in a fraction of a second).

Every failure becomes a :class:`StartupError`: one line saying what went wrong and which setting to fix, and
the process exit code for that cause (``python -m bot`` and ``python -m bot check`` share them). Whatever was
opened before the failure is closed again, so the process can exit at once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path

from bot.disk import disk_trouble
from bot.i18n import LOCALES_DIR, Locale, ftl_files
from bot.settings import ExitCode, StartupError
from bot.storage import Database
from bot.storage.db import BUSY_TIMEOUT


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (its type's name when it has none)."""
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


def unexpected(exc: BaseException) -> str:
    """An exception no start-up check foresaw, on one line: its type, the line of the bot's code it came from
    (the innermost of its traceback, ``bot/storage/repo.py:465``) and its message."""
    where = ""
    tb = exc.__traceback__
    package = Path(__file__).resolve().parent
    while tb is not None:
        path = Path(tb.tb_frame.f_code.co_filename)
        if path.is_relative_to(package):
            where = f" at {path.relative_to(package.parent)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return f"unexpected {type(exc).__name__}{where}: {one_line(exc)[:300]}"


def check_texts() -> dict[Locale, int]:
    """The number of text files of each locale, or a :class:`StartupError` when a locale has none."""
    found = {locale: len(ftl_files(locale)) for locale in Locale}
    missing = [locale.value for locale, count in found.items() if not count]
    if missing:
        raise StartupError(
            ExitCode.INSTALL,
            f"no texts for {', '.join(missing)} in {LOCALES_DIR}: the installation is incomplete "
            "(reinstall the package: its wheel carries locales/ as bot/locales)",
        )
    return found


def schema_on_disk(path: Path) -> int:
    """The schema version of the database at ``path``, read without writing anything; 0 when there is none."""
    if not path.is_file():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:
        raise cannot_read(path, exc) from None


def cannot_read(path: Path, exc: sqlite3.Error) -> StartupError:
    disk = disk_trouble(path, exc)
    if disk:
        return StartupError(
            ExitCode.DATABASE,
            f"cannot read the database {path.resolve()}: {disk} "
            "(free some space, or set DATABASE_PATH to a writable disk)",
        )
    return StartupError(
        ExitCode.DATABASE, f"cannot read the database {path.resolve()}: {exc} (check DATABASE_PATH)"
    )


def newer_schema(path: Path, found: int) -> StartupError:
    return StartupError(
        ExitCode.DATABASE,
        f"the database {path.resolve()} has schema version {found}, newer than this bot's "
        f"{Database.SCHEMA_VERSION}: a newer version of the bot wrote it, and this one could misread it. Run the "
        "newer version, or restore the backup taken before the upgrade (README: «Upgrades»)",
    )


async def open_database(path: Path, busy_timeout: float = BUSY_TIMEOUT) -> Database:
    """The migrated database at ``path``, or a :class:`StartupError` naming ``DATABASE_PATH``; a database a newer
    version of the bot migrated (a rollback) is refused, untouched."""
    found = schema_on_disk(path)
    if found > Database.SCHEMA_VERSION:
        raise newer_schema(path, found)
    refuse_read_only(path)
    try:
        return await Database.open(path, busy_timeout=busy_timeout)
    except (OSError, sqlite3.Error) as exc:
        disk = disk_trouble(path, exc)
        raise StartupError(
            ExitCode.DATABASE,
            f"cannot open the database {path}: {disk} (free some space, or set DATABASE_PATH to a writable disk)"
            if disk
            else f"cannot open the database {path}: {one_line(exc)} "
            "(set DATABASE_PATH to a file in a folder the bot may write to)",
        ) from None


def refuse_read_only(path: Path) -> None:
    """A :class:`StartupError` naming ``DATABASE_PATH`` when the bot could not write the database."""
    read_only = _read_only(path)
    disk = disk_trouble(path) if read_only else ""
    if disk:
        raise StartupError(
            ExitCode.DATABASE,
            f"cannot open the database {path}: {disk} (remount it read-write, or set DATABASE_PATH to a "
            "writable disk)",
        )
    if read_only:
        raise StartupError(
            ExitCode.DATABASE,
            f"cannot open the database {path}: {read_only} is read-only "
            "(set DATABASE_PATH to a file in a folder the bot may write to, or make them writable)",
        )


def _read_only(path: Path) -> str:
    """What of the database (the file, or its folder, where SQLite keeps its journal) the bot may not write
    to; "" when it may (a missing file or folder is made by the bot)."""
    if path.parent.exists() and not os.access(path.parent, os.W_OK):
        return "its folder"
    try:
        with path.open("r+b"):  # not os.access: root may write to any mode, yet not to an immutable file
            pass
    except FileNotFoundError:
        pass
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return "the file"
    return ""
