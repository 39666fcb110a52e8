"""The bot's client of the Bot API, and the start-up's question to it: is Telegram there, and does it take the
token? (:mod:`bot.startup` checks the rest; ``python -m bot migrate`` and ``backup`` need neither, and import no
aiogram.)"""

from __future__ import annotations

import asyncio
from typing import Final

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
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
from bot.settings import ExitCode, Settings, StartupError
from bot.startup import one_line

TELEGRAM_TIMEOUT: Final = 10.0
"""Seconds the start-up waits for each answer from the Bot API (a black-holed address never answers)."""


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
            f"the Bot API at {url} rejected the token: {one_line(exc)} "
            "(set BOT_TOKEN to the bot's current token from @BotFather)",
        ) from exc
    except TelegramNotFound as exc:
        raise StartupError(
            ExitCode.TOKEN,
            f"the Bot API at {url} knows no bot with this token: {one_line(exc)} "
            "(check BOT_TOKEN, and TELEGRAM_API_URL if it is set)",
        ) from exc
    except (TimeoutError, TelegramNetworkError) as exc:
        reason = f"no answer in {TELEGRAM_TIMEOUT:g} s" if isinstance(exc, TimeoutError) else one_line(exc)
        raise StartupError(
            ExitCode.UNREACHABLE,
            f"cannot reach the Bot API at {url}: {reason} "
            "(check the network, or TELEGRAM_API_URL if it is set)",
        ) from exc
    except AiogramError as exc:
        raise StartupError(
            ExitCode.UNREACHABLE,
            f"the server at {url} does not answer like the Bot API: {one_line(exc)} "
            "(check TELEGRAM_API_URL, or unset it to use Telegram's)",
        ) from exc


def make_bot(settings: Settings, session: BaseSession | None = None) -> Bot:
    """The bot's client of the Bot API at ``settings.telegram_api_url`` (Telegram's when unset), or on ``session``
    when one is given (a test's in-process Telegram)."""
    if session is None:
        session = (
            KeptResponsesSession(api=TelegramAPIServer.from_base(settings.telegram_api_url))
            if settings.telegram_api_url
            else KeptResponsesSession()
        )
    return Bot(settings.token, session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML))
