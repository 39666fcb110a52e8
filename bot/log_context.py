"""Which chat and update the log lines of an update's handling concern (:mod:`bot.logs`' JSON fields)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.logs import CHAT, UPDATE


class LogContext(BaseMiddleware):
    """The outermost middleware: sets :data:`bot.logs.UPDATE` and :data:`bot.logs.CHAT` for the update's task."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Update):
            UPDATE.set(event.update_id)
            chat = data.get("event_chat")
            CHAT.set(chat.id if chat is not None else None)
        return await handler(event, data)
