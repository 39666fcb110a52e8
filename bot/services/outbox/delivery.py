"""The outbox's calls to Telegram: send, edit, delete; each counted in ``calls``."""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from enum import Enum
from typing import Final

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineKeyboardMarkup, LinkPreviewOptions

log = logging.getLogger(__name__)

NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)


class Edited(Enum):
    DONE = "done"
    UNCHANGED = "unchanged"
    """Telegram answered «message is not modified»: it already shows this content."""
    GONE = "gone"
    """The message cannot be edited (deleted, too old): a new one must be sent."""


class TelegramCalls:
    """Makes one call at a time as asked; the outbox decides when."""

    def __init__(self, bot: Bot, request_timeout: int) -> None:
        self.bot = bot
        self.request_timeout = request_timeout
        self.calls: Counter[str] = Counter()
        """Calls made, by method name (``send``, ``edit``, ``delete``), refusals (``429``, ``403``,
        ``not_modified``) and ``failed`` calls (network, timeout, 5xx) that are tried again."""

    async def send(self, chat_id: int, thread_id: int, text: str, markup: InlineKeyboardMarkup | None) -> int:
        self.calls["send"] += 1
        message = await self.bot.send_message(
            chat_id,
            text,
            message_thread_id=thread_id or None,
            reply_markup=markup,
            link_preview_options=NO_PREVIEW,
            request_timeout=self.request_timeout,
        )
        return message.message_id

    async def edit(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> Edited:
        self.calls["edit"] += 1
        try:
            await self.bot.edit_message_text(
                text=text,
                chat_id=chat_id,
                message_id=message_id,
                reply_markup=markup,
                link_preview_options=NO_PREVIEW,
                request_timeout=self.request_timeout,
            )
        except TelegramBadRequest as exc:
            if "not modified" in exc.message:
                self.calls["not_modified"] += 1
                return Edited.UNCHANGED
            log.info("cannot edit message %s in chat %s (%s)", message_id, chat_id, exc.message)
            return Edited.GONE
        return Edited.DONE

    async def delete(self, chat_id: int, message_ids: list[int]) -> None:
        """Delete old messages of one chat in one call (Telegram skips those already gone)."""
        self.calls["delete"] += 1
        try:
            await self.bot.delete_messages(chat_id, message_ids, request_timeout=self.request_timeout)
        except TelegramBadRequest as exc:
            # One of them is too old to delete (48 h): delete them one by one, the rest lose their buttons.
            log.info("cannot delete %d messages in chat %s: %s", len(message_ids), chat_id, exc.message)
            for message_id in message_ids:
                await self._delete_or_disarm(chat_id, message_id)

    async def _delete_or_disarm(self, chat_id: int, message_id: int) -> None:
        self.calls["delete"] += 1
        try:
            await self.bot.delete_message(chat_id, message_id, request_timeout=self.request_timeout)
        except TelegramBadRequest:
            with contextlib.suppress(TelegramBadRequest):
                self.calls["edit"] += 1
                await self.bot.edit_message_reply_markup(
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=None,
                    request_timeout=self.request_timeout,
                )
