"""What the bot needs before it can run, each checked with a short timeout and a clear verdict.

Every failure becomes a :class:`StartupError`: one line saying what went wrong and which setting to fix, and
the process exit code for that cause (``python -m bot`` and ``python -m bot check`` share them). Whatever was
opened before the failure is closed again, so the process can exit at once.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Final

from aiogram import Bot
from aiogram.exceptions import (
    AiogramError,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramUnauthorizedError,
)
from aiogram.types import User

from bot.i18n import LOCALES_DIR, Locale, ftl_files
from bot.settings import ExitCode, StartupError
from bot.storage import Database

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


async def open_database(path: Path) -> Database:
    """The migrated database at ``path``, or a :class:`StartupError` naming ``DATABASE_PATH``."""
    try:
        return await Database.open(path)
    except (OSError, sqlite3.Error) as exc:
        raise StartupError(
            ExitCode.DATABASE,
            f"cannot open the database {path}: {_reason(exc)} "
            "(set DATABASE_PATH to a file in a folder the bot may write to)",
        ) from exc


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
