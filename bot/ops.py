"""The operator's commands: ``python -m bot check`` and ``python -m bot backup PATH``.

``check`` answers "would the bot start here?": the settings were read (``python -m bot`` exits with
:attr:`ExitCode.SETTINGS` before this when they are wrong), the database opens and is migrated, the Bot API
answers and takes the token; before those, the texts are found (an incomplete installation). The exit code says which check failed; it also serves as the container's health
check.

``backup`` copies the database with SQLite's online backup API: the copy is one consistent snapshot even while
the bot writes (a plain file copy of a database in WAL mode can miss the newest transactions, or tear one).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from pathlib import Path

from bot.settings import ExitCode, Settings, StartupError
from bot.startup import ask_telegram, check_texts, open_database

log = logging.getLogger(__name__)


async def check(settings: Settings) -> ExitCode:
    """Check the database and Telegram, printing one line for each; the exit code of the first failure."""
    from bot.app import make_bot

    print("settings: ok")
    try:
        texts = check_texts()
        print("texts: ok (" + ", ".join(f"{loc.value}: {count} files" for loc, count in texts.items()) + ")")
        db = await open_database(settings.database_path)
        try:
            version = await db.schema_version()
        finally:
            await db.close()
        print(f"database: ok ({settings.database_path}, schema version {version})")
        bot = make_bot(settings)
        try:
            me = await ask_telegram(bot)
        finally:
            await bot.session.close()
    except StartupError as error:
        log.error("%s", error.message)
        return error.code
    print(f"telegram: ok (@{me.username}, id {me.id})")
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
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
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
        partial.unlink(missing_ok=True)
        raise StartupError(ExitCode.DATABASE, f"backup of {source} to {target} failed: {exc}") from exc
    return games


def run_backup(settings: Settings, target: Path) -> ExitCode:
    try:
        games = backup(settings.database_path, target)
    except StartupError as error:
        log.error("%s", error.message)
        return error.code
    print(f"backup: {settings.database_path} -> {target} ({games} games, {target.stat().st_size} bytes)")
    return ExitCode.OK
