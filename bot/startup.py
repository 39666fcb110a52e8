"""What the bot needs before it can run, each checked with a short timeout and a clear verdict.

Every failure becomes a :class:`StartupError`: one line saying what went wrong and which setting to fix, and
the process exit code for that cause (``python -m bot`` and ``python -m bot check`` share them). Whatever was
opened before the failure is closed again, so the process can exit at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sqlite3
from pathlib import Path
from typing import Final

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import (
    AiogramError,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramUnauthorizedError,
)
from aiogram.types import User

from bot.delivery.outbox.serving import KeptResponsesSession
from bot.disk import disk_trouble
from bot.i18n import LOCALES_DIR, Locale, ftl_files
from bot.settings import ExitCode, Settings, StartupError
from bot.storage import Database
from bot.storage.db import BUSY_TIMEOUT

TELEGRAM_TIMEOUT: Final = 10.0
"""Seconds the start-up waits for each answer from the Bot API (a black-holed address never answers)."""


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


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
            else f"cannot open the database {path}: {_reason(exc)} "
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


def api_url(bot: Bot) -> str:
    return bot.session.api.base.split("/bot{token}", 1)[0]


async def ask_telegram(bot: Bot) -> User:
    """The bot's own user, or a :class:`StartupError`: Telegram unreachable or the token rejected."""
    url = api_url(bot)
    try:
        return await asyncio.wait_for(bot.me(), TELEGRAM_TIMEOUT)
    except TelegramUnauthorizedError as exc:
        raise StartupError(
            ExitCode.TOKEN,
            f"the Bot API at {url} rejected the token: {_reason(exc)} "
            "(set BOT_TOKEN to the bot's current token from @BotFather)",
        ) from exc
    except TelegramNotFound as exc:
        raise StartupError(
            ExitCode.TOKEN,
            f"the Bot API at {url} knows no bot with this token: {_reason(exc)} "
            "(check BOT_TOKEN, and TELEGRAM_API_URL if it is set)",
        ) from exc
    except (TimeoutError, TelegramNetworkError) as exc:
        reason = f"no answer in {TELEGRAM_TIMEOUT:g} s" if isinstance(exc, TimeoutError) else _reason(exc)
        raise StartupError(
            ExitCode.UNREACHABLE,
            f"cannot reach the Bot API at {url}: {reason} "
            "(check the network, or TELEGRAM_API_URL if it is set)",
        ) from exc
    except AiogramError as exc:
        raise StartupError(
            ExitCode.UNREACHABLE,
            f"the server at {url} does not answer like the Bot API: {_reason(exc)} "
            "(check TELEGRAM_API_URL, or unset it to use Telegram's)",
        ) from exc


def make_bot(settings: Settings) -> Bot:
    session = (
        KeptResponsesSession(api=TelegramAPIServer.from_base(settings.telegram_api_url))
        if settings.telegram_api_url
        else KeptResponsesSession()
    )
    return Bot(settings.token, session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML))
