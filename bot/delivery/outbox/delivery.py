"""The outbox's calls to Telegram: send, edit, delete; each counted in ``calls``.

A send whose answer never came (a timeout: the network lost it on the way back) may have been made all the
same; the outbox sends again, and the chat would show the message twice — a second «your turn» with live
buttons. So a send that failed on the way leaves a mark, and the next send in that chat that goes through clears
the few message ids between the chat's newest known message and the new one: a message there that proves to be
the bot's own (its buttons can be taken off) is the lost copy and is deleted; anything else (the person's own
messages) is left alone.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter, deque
from enum import Enum
from typing import Final

from aiogram import Bot
from aiogram.exceptions import AiogramError, TelegramAPIError, TelegramBadRequest
from aiogram.types import InlineKeyboardMarkup, LinkPreviewOptions

log = logging.getLogger(__name__)

NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)
LOST_COPIES_LOOKED_AT: Final = 5
"""Message ids before a send that went through, after one whose answer was lost, looked at for a lost copy."""
KNOWN_PER_CHAT: Final = 16


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
        ``not_modified``) and ``failed`` calls (network, timeout, 5xx) that are tried again; ``lost_copies``
        deleted."""
        self._sent: dict[int, deque[int]] = {}
        """The ids of the last messages sent in each chat."""
        self._unsure: dict[int, int] = {}
        """Chats where a send may have landed unanswered: the newest message id known before it."""

    async def send(self, chat_id: int, thread_id: int, text: str, markup: InlineKeyboardMarkup | None) -> int:
        self.calls["send"] += 1
        try:
            message = await self.bot.send_message(
                chat_id,
                text,
                message_thread_id=thread_id or None,
                reply_markup=markup,
                link_preview_options=NO_PREVIEW,
                request_timeout=self.request_timeout,
            )
        except TelegramAPIError as exc:
            if not isinstance(exc, TelegramBadRequest) and chat_id in self._sent:
                self._unsure.setdefault(chat_id, max(self._sent[chat_id]))
            raise
        except AiogramError:
            if chat_id in self._sent:
                self._unsure.setdefault(chat_id, max(self._sent[chat_id]))
            raise
        sent = self._sent.setdefault(chat_id, deque(maxlen=KNOWN_PER_CHAT))
        sent.append(message.message_id)
        before = self._unsure.pop(chat_id, None)
        if before is not None:
            await self._clear_lost_copies(chat_id, before, message.message_id)
        return message.message_id

    async def _clear_lost_copies(self, chat_id: int, before: int, sent: int) -> None:
        """Delete the bot's own messages between ``before`` and ``sent`` that it never heard of."""
        known = self._sent.get(chat_id, ())
        for message_id in range(max(before + 1, sent - LOST_COPIES_LOOKED_AT), sent):
            if message_id in known:
                continue
            try:
                self.calls["edit"] += 1
                await self.bot.edit_message_reply_markup(
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=None,
                    request_timeout=self.request_timeout,
                )
            except (TelegramAPIError, AiogramError):
                continue  # someone else's message, one without buttons, or no answer: left as it is
            with contextlib.suppress(TelegramAPIError, AiogramError):
                self.calls["delete"] += 1
                await self.bot.delete_message(chat_id, message_id, request_timeout=self.request_timeout)
                self.calls["lost_copies"] += 1
                log.info(
                    "chat %s: deleted message %s, a copy sent while an answer was lost", chat_id, message_id
                )

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
