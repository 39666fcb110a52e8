"""The operator's commands: ``python -m bot check``, ``migrate`` and ``backup PATH [--keep N]``.

``check`` answers "would the bot start here?" and changes nothing: the settings were read (``python -m bot``
exits with :attr:`ExitCode.SETTINGS` before this when they are wrong), the texts are found, the database opens
read-only and its schema is the one this code knows (a missing database, an older or a newer schema fail, naming
the command that fixes it), the Bot API answers and takes the token. The exit code says which check failed.
Run next to an older bot, it must not migrate that bot's live database under it.

``migrate`` creates the database or brings its schema up to date (the bot also does this at start), taking the
instance lock first: it refuses while a bot runs on the database.

``backup`` copies the database with SQLite's online backup API: the copy is one consistent snapshot even while
the bot writes (a plain file copy of a database in WAL mode can miss the newest transactions, or tear one). It
needs only ``DATABASE_PATH``; ``--keep N`` then deletes all but the newest N copies in the copy's folder.

Only ``check`` talks to Telegram: ``migrate`` and ``backup`` import no aiogram (seconds of CPU) and start at once.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from bot.backups import failure_stamp_of, note_backup, note_failure, stamp_of
from bot.instance import InstanceLock
from bot.settings import ExitCode, Settings, StartupError, StorageSettings
from bot.startup import (
    cannot_read,
    check_texts,
    newer_schema,
    open_database,
    refuse_read_only,
    schema_on_disk,
)
from bot.storage import Database

if TYPE_CHECKING:
    from aiogram.client.session.base import BaseSession

log = logging.getLogger(__name__)


async def check(settings: Settings, *, session: BaseSession | None = None) -> ExitCode:
    """Check the database and Telegram, printing one line for each; the exit code of the first failure.
    ``session``: the Bot API client's (see :func:`bot.telegram.make_bot`)."""

    from bot.telegram import ask_telegram, make_bot  # here, not above: migrate and backup import no aiogram

    print("settings: ok")
    try:
        texts = check_texts()
        print("texts: ok (" + ", ".join(f"{loc.value}: {count} files" for loc, count in texts.items()) + ")")
        version = inspect_database(settings.database_path)
        print(f"database: ok ({settings.database_path.resolve()}, schema version {version})")
        bot = make_bot(settings, session)
        try:
            me = await ask_telegram(bot)
        finally:
            await bot.session.close()
    except StartupError as error:
        log.error("%s", error.message)
        return error.code
    print(f"telegram: ok (@{me.username}, id {me.id})")
    return ExitCode.OK


def inspect_database(path: Path) -> int:
    """The schema version of the database at ``path``, read without writing anything; a :class:`StartupError`
    when it is missing, unreadable, or its schema is not exactly the one this code knows."""
    known = Database.SCHEMA_VERSION
    if not path.is_file():
        raise StartupError(
            ExitCode.DATABASE,
            f"no database at {path.resolve()}: check DATABASE_PATH, or create it with `python -m bot migrate` "
            "(the bot also creates it at its first start)",
        )
    refuse_read_only(path)  # the bot could not run on it
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            ok = conn.execute("PRAGMA quick_check").fetchone()
    except sqlite3.Error as exc:
        raise cannot_read(path, exc) from None
    if ok is None or ok[0] != "ok":
        raise StartupError(
            ExitCode.DATABASE,
            f"the database {path.resolve()} fails its integrity check ({ok}): restore a backup (README)",
        )
    if version > known:
        raise newer_schema(path, version)
    if version < known:
        raise StartupError(
            ExitCode.DATABASE,
            f"the database {path.resolve()} has schema version {version}, older than this bot's {known}: "
            "run `python -m bot migrate` (the bot also migrates it at start)",
        )
    return version


async def migrate(settings: StorageSettings) -> ExitCode:
    """Create the database or bring its schema up to date, unless a bot runs on it."""
    lock = InstanceLock(settings.database_path)
    try:
        lock.acquire(purpose="migrate the database under")
        before = schema_on_disk(settings.database_path)
        db = await open_database(settings.database_path, settings.database_busy_timeout)
        try:
            version = await db.schema_version()
        finally:
            await db.close()
    except StartupError as error:
        log.error("%s", error.message)
        return error.code
    finally:
        lock.release()
    print(
        f"migrate: {settings.database_path.resolve()} at schema version {version} "
        f"({version - before} migrations applied)"
    )
    return ExitCode.OK


def backup(source: Path, target: Path) -> int:
    """Copy the database at ``source`` to ``target`` as one consistent snapshot; the number of games in it.

    The copy is written beside ``target`` first and renamed into place when complete, so ``target`` never holds
    half a backup.
    """
    if not source.is_file():
        raise StartupError(ExitCode.DATABASE, f"no database at {source} (check DATABASE_PATH)")
    if target.resolve() == source.resolve():
        raise StartupError(ExitCode.DATABASE, f"the backup {target} would overwrite the database itself")
    if target.is_dir():
        raise StartupError(ExitCode.DATABASE, f"{target} is a folder: give the copy's file name in it")
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        with (
            contextlib.closing(sqlite3.connect(source, timeout=30)) as src,
            contextlib.closing(sqlite3.connect(partial)) as dst,
        ):
            src.backup(dst)  # all pages in one step: one read transaction, one snapshot
            ok = dst.execute("PRAGMA quick_check").fetchone()
            if ok is None or ok[0] != "ok":
                raise sqlite3.DatabaseError(f"the copy fails its integrity check: {ok}")
            games = int(dst.execute("SELECT count(*) FROM games").fetchone()[0])
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        if isinstance(exc, sqlite3.OperationalError) and not os.access(source.parent, os.W_OK | os.X_OK):
            raise StartupError(ExitCode.DATABASE, cannot_write_beside(source)) from exc
        raise StartupError(ExitCode.DATABASE, f"backup of {source} to {target} failed: {exc}") from exc
    return games


def cannot_write_beside(source: Path) -> str:
    """Why a user who may read the database but not write its folder cannot copy it: SQLite's reader of a
    database in WAL mode writes the ``-shm`` index beside it (SQLite itself says «attempt to write a readonly
    database»)."""
    folder = source.resolve().parent
    return (
        f"backup of {source.resolve()} failed: this user ({_user()}) may read the database but not write its "
        f"folder {folder}, and reading a live database needs that (its -shm file): run the backup as the bot's "
        "own user (README, «Backups and restore»)"
    )


def _user() -> str:
    uid = os.getuid()
    try:
        import pwd  # POSIX only

        return f"{pwd.getpwuid(uid).pw_name}, uid {uid}"
    except (ImportError, KeyError):
        return f"uid {uid}"


def rotate(target: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` copies beside ``target`` (files with its suffix, newest by time
    written); the ones deleted. Only copies: the live database and its ``-wal``/``-shm`` are never touched."""
    suffix = target.suffix or ".sqlite3"
    copies = sorted(
        (p for p in target.parent.glob(f"*{suffix}") if p.is_file()),
        key=lambda p: (p.stat().st_mtime, p.name),
        reverse=True,
    )
    gone = copies[keep:]
    for old in gone:
        old.unlink(missing_ok=True)
    return gone


def run_backup(settings: StorageSettings, target: Path, keep: int | None = None) -> ExitCode:
    source = settings.database_path
    try:
        if keep is not None and target.resolve().parent == source.resolve().parent:
            raise StartupError(
                ExitCode.DATABASE,
                f"--keep deletes older copies in {target.resolve().parent}, the database's own folder: "
                "put the backups in a folder of their own",
            )
        games = backup(source, target)
    except StartupError as error:
        log.error("%s", error.message)
        try:
            note_failure(source, error.message)
        except OSError as exc:  # the exit code still says it
            log.warning(
                "backup: cannot note the failure beside the database (%s): %s", failure_stamp_of(source), exc
            )
        return error.code
    print(f"backup: {source.resolve()} -> {target.resolve()} ({games} games, {target.stat().st_size} bytes)")
    try:
        note_backup(source, target)
    except OSError as exc:  # the copy is good: only the metric will not know of it
        log.warning("backup: cannot note the backup beside the database (%s): %s", stamp_of(source), exc)
    if keep is not None:
        for old in rotate(target, keep):
            print(f"backup: deleted the old copy {old}")
    return ExitCode.OK
