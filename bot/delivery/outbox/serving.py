"""Talking to Telegram for the outbox: one call for one chat, made when the call scheduler gives that chat its
turn — the chat's next pending item (a live message's newest look, a notice) or a batch of old messages to
delete — and what Telegram's answer means: a 429 waited out, a 403 that closes the chat, a network failure tried
again with back-off, a refusal that drops the message (a score sheet's picture refused goes as text in its place,
:mod:`bot.views.sheets.plain`), a group that became a supergroup.

Below :class:`ChatServer`: the calls themselves (:class:`TelegramCalls`: send, edit, delete, each counted; a send
whose answer never came may have been made all the same, so the next send that goes through in that chat clears
the lost copy; a text message's send and edit are :class:`SendText` and :class:`EditText`, which take the
keyboard as the JSON the content's fingerprint was made of and read of the answer the message's id alone) and
:class:`KeptResponsesSession`, an aiogram session that builds each ``Response[...]`` class once (pydantic keeps
them by weak reference only, and building one again costs about 3 ms of the loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
import ssl
from collections import Counter, deque
from enum import Enum
from typing import Any, Final, Protocol

import certifi
from aiogram import Bot
from aiogram.client.default import Default
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import (
    AiogramError,
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardMarkup,
    InputMediaDocument,
    InputMediaPhoto,
    LinkPreviewOptions,
    Message,
    MessageId,
)
from aiohttp import TCPConnector

from bot.clock import Clock
from bot.delivery.outbox.queue import (
    ChatQueue,
    Item,
    Live,
    LiveMessages,
    Media,
    SentMessages,
    SheetPhoto,
    game_of_slot,
)
from bot.delivery.outbox.reports import ChatForbidden, ChatMigrated, DeliveryReport
from bot.delivery.outbox.scheduler import CallScheduler, RateLimiter, is_group
from bot.storage import Database, LiveMessage, Notice
from bot.storage import repo as stored
from bot.storage.tx import Batch, Deferred
from bot.views.sheets import Picture, PictureCache
from bot.views.sheets.plain import sheet_text

log = logging.getLogger(__name__)

BACKOFF: Final = (1.0, 30.0)
"""Clock seconds before a chat's first retry after a failure, and the most, doubling in between."""
TOPIC_CLOSED: Final = "TOPIC_CLOSED"
"""Telegram's refusal to post in a closed forum topic."""


class OutboxParts(Protocol):
    """What a call needs of the outbox that owns it (:class:`~bot.delivery.outbox.core.Outbox` has it all)."""

    clock: Clock
    db: Database
    limiter: RateLimiter
    telegram: TelegramCalls
    live: LiveMessages
    sent: SentMessages
    notice_sent: Deferred[int, None]
    refused: set[int]
    dropped: set[str]
    reports: asyncio.Queue[DeliveryReport]

    @property
    def scheduler(self) -> CallScheduler: ...

    @property
    def calls(self) -> Counter[str]: ...


class ChatServer:
    def __init__(self, outbox: OutboxParts) -> None:
        self.outbox = outbox

    async def serve(self, queue: ChatQueue, stamp: float, message: bool = True) -> None:
        """Make the chat's next call in the place taken at ``stamp`` (given back if no call is needed); a place
        that is no ``message``'s (it was taken to delete old messages) deletes them, whatever came due since."""
        chat_id = queue.chat_id
        if chat_id in self.outbox.refused:
            self.outbox.limiter.release(chat_id, stamp, message=message)
            await self._drop_queue(queue)
            return
        key = queue.next_key(self.outbox.clock.now()) if queue.has_items and message else None
        if key is None:
            batch = queue.take_deletions(self.outbox.clock.now())
            if not batch:
                self.outbox.limiter.release(chat_id, stamp, message=message)
                return
            self.outbox.sent.forget(chat_id, batch)
            try:
                await self.outbox.telegram.delete(chat_id, batch)
            except TelegramAPIError as exc:
                log.info("old messages in chat %s stay: %s", chat_id, exc)
            finally:
                self.outbox.limiter.restamp(chat_id, stamp, message=message)
            return
        item, asked = queue.pop(key, self.outbox.clock.now())
        if isinstance(item, Live):
            try:
                known = await self.outbox.live.recall(item.slot)
            except sqlite3.Error as exc:
                self.outbox.limiter.release(chat_id, stamp)
                queue.put_back(item, asked)
                self._back_off(queue, exc)
                return
            if not item.needs_call(known):
                self.outbox.limiter.release(chat_id, stamp)
                return
        try:
            if isinstance(item, Notice):
                await self._deliver_notice(item)
            else:
                queue.sending = item.slot
                await self._deliver_live(item)
        except TelegramRetryAfter as exc:
            self.outbox.calls["429"] += 1
            log.warning("429 in chat %s: waiting %s s", chat_id, exc.retry_after)
            queue.put_back(item, asked)
            queue.retry_at = self.outbox.clock.now() + exc.retry_after * self.outbox.clock.speed
        except TelegramForbiddenError:
            self.outbox.calls["403"] += 1
            await self._forbidden(queue)
        except (TelegramNetworkError, TelegramServerError, ClientDecodeError) as exc:
            queue.put_back(item, asked)
            self._back_off(queue, exc)
        except TelegramMigrateToChat as exc:
            log.warning("chat %s was upgraded to %s", chat_id, exc.migrate_to_chat_id)
            self.outbox.reports.put_nowait(ChatMigrated(chat_id, exc.migrate_to_chat_id))
        except TelegramAPIError as exc:
            if self._picture_refused(item, exc):
                queue.put_back(item, asked)
            else:
                await self._refused_call(item, exc)
        else:
            if queue.failures:
                log.info("chat %s reachable again after %d failed calls", chat_id, queue.failures)
                queue.failures = 0
        finally:
            queue.sending = None
            if isinstance(item, Live) and item.slot in self.outbox.dropped:
                self.outbox.dropped.discard(
                    item.slot
                )  # dropped, and the call did not land: never tried again
                queue.discard(item.slot)
            if isinstance(item, Notice) and item.id not in queue.notices:
                self.outbox.scheduler.unsent.discard(item.id)  # sent or dropped: what waited for it may go
            self.outbox.limiter.restamp(chat_id, stamp)

    async def _refused_call(self, item: Item, exc: TelegramAPIError) -> None:
        if isinstance(item, Notice) and TOPIC_CLOSED in exc.message:
            # Kept in the database: it goes out when the topic reopens (see :meth:`reopen`).
            log.info("topic %s of chat %s is closed: notice %s kept", item.thread_id, item.chat_id, item.id)
            return
        log.warning("dropped a message to chat %s: %s", item.chat_id, exc.message)
        if isinstance(item, Notice):
            self.outbox.notice_sent.put(item.id, None)

    def _picture_refused(self, item: Item, exc: TelegramAPIError) -> bool:
        """Telegram refused a score sheet's picture (400): the sheet goes as text in its place at the chat's next
        turn, instead of the deal's sheet missing from the chat. False: the call is refused for good."""
        if not isinstance(item, Live) or not isinstance(item.media, SheetPhoto) or item.as_text:
            return False
        if not isinstance(exc, TelegramBadRequest) or TOPIC_CLOSED in exc.message:
            return False
        item.as_text = True
        self.outbox.calls["sheet_as_text"] += 1
        log.warning(
            "game %s: chat %s refused the score sheet's picture (%s); the sheet goes as text",
            game_of_slot(item.slot),
            item.chat_id,
            exc.message,
        )
        return True

    def _back_off(self, queue: ChatQueue, exc: Exception) -> None:
        """A call failed on the way (not refused): wait, longer each time in a row, before the chat's next try."""
        self.outbox.calls["failed"] += 1
        queue.failures += 1
        wait = min(BACKOFF[0] * 2 ** (queue.failures - 1), BACKOFF[1])
        if queue.failures == 1:
            log.warning("chat %s: a call failed (%s); trying again until it goes through", queue.chat_id, exc)
        queue.retry_at = self.outbox.clock.now() + wait

    async def _drop_queue(self, queue: ChatQueue) -> None:
        self.outbox.scheduler.unsent.difference_update(queue.notices)
        queue.clear()
        if is_group(queue.chat_id):
            return  # a group's notices (results, deal ends) wait in the database for the bot's return
        batch = Batch()
        stored.drop_notices_for_chat(batch, queue.chat_id)
        await self.outbox.db.write(batch)

    async def _forbidden(self, queue: ChatQueue) -> None:
        self.outbox.refused.add(queue.chat_id)
        await self._drop_queue(queue)
        self.outbox.reports.put_nowait(ChatForbidden(queue.chat_id))

    async def _deliver_live(self, live: Live) -> None:
        if live.paced:
            self.outbox.sent.calling(live.slot, self.outbox.clock.now())
        known = await self.outbox.live.recall(live.slot)
        message_id: int | None = None
        text, media = _content(live)
        if known is not None and known.chat_id == live.chat_id and not live.resend and not live.as_text:
            edited = await self.outbox.telegram.edit(
                known.chat_id, known.message_id, text, live.buttons, media
            )
            if edited is not Edited.GONE:
                message_id = known.message_id
        if message_id is None:
            if known is not None:
                self.outbox.live.cache.pop(
                    live.slot, None
                )  # replaced: if the send below fails, the next try only sends
            message_id = await self.outbox.telegram.send(
                live.chat_id, live.thread_id, text, live.buttons, media
            )
            if known is not None:
                no_moves = self.outbox.sent.offers_no_moves(known.chat_id, known.message_id)
                self.outbox.scheduler.queue(known.chat_id).delete_later(
                    known.message_id, self.outbox.clock.now(), urgent=not no_moves
                )
        self.outbox.sent.delivered(live.chat_id, message_id, offers_moves=live.offers_moves)
        self.outbox.live.remember(LiveMessage(live.slot, live.chat_id, message_id, live.digest))
        if live.slot in self.outbox.dropped:
            self.outbox.dropped.discard(live.slot)
            await self.forget(live.slot)

    async def forget(self, slot: str) -> None:
        """A dropped slot: its message joins the chat's old messages to delete, and the slot is forgotten."""
        try:
            known = await self.outbox.live.recall(slot)
        except sqlite3.Error:
            log.exception("could not forget the live message %s", slot)
            return
        self.outbox.live.forget(slot)
        if known is not None:
            self.outbox.scheduler.queue(known.chat_id).delete_later(known.message_id, self.outbox.clock.now())
            self.outbox.scheduler.kick()

    async def _deliver_notice(self, notice: Notice) -> None:
        await self.outbox.telegram.send(notice.chat_id, notice.thread_id, notice.text, notice.markup)
        self.outbox.notice_sent.put(notice.id, None)  # stored with the database's next transaction


NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)
LOST_COPIES_LOOKED_AT: Final = 5
"""Message ids before a send that went through, after one whose answer was lost, looked at for a lost copy."""
KNOWN_PER_CHAT: Final = 16


def _content(live: Live) -> tuple[str, Media | None]:
    """What a live message's call carries: its text and media, or a refused sheet's picture as text."""
    if live.as_text and isinstance(live.media, SheetPhoto):
        return sheet_text(live.media.sheet, live.text), None
    return live.text, live.media


def _keyboard(buttons: str | None) -> InlineKeyboardMarkup | None:
    """A keyboard's JSON as aiogram's own methods take it (a photo's, a document's)."""
    return InlineKeyboardMarkup.model_validate_json(buttons) if buttons else None


class Edited(Enum):
    DONE = "done"
    UNCHANGED = "unchanged"
    """Telegram answered «message is not modified»: it already shows this content."""
    GONE = "gone"
    """The message cannot be edited (deleted, too old): a new one must be sent."""


class TelegramCalls:
    """Makes one call at a time as asked; the outbox decides when."""

    def __init__(self, bot: Bot, request_timeout: int, pictures: PictureCache) -> None:
        self.bot = bot
        self.request_timeout = request_timeout
        self.pictures = pictures
        """Score sheets drawn, and the ``file_id`` each picture got: one drawing and one upload per content."""
        self.calls: Counter[str] = Counter()
        """Calls made, by method name (``send``, ``edit``, ``delete``), refusals (``429``, ``403``,
        ``not_modified``) and ``failed`` calls (network, timeout, 5xx) that are tried again; ``lost_copies``
        deleted."""
        self._sent: dict[int, deque[int]] = {}
        """The ids of the last messages sent in each chat."""
        self._unsure: dict[int, int] = {}
        """Chats where a send may have landed unanswered: the newest message id known before it."""

    async def _upload(self, media: Media) -> tuple[BufferedInputFile | str, Picture | None]:
        """What a photo or document call carries: a sheet's picture (drawn off the loop) by its ``file_id`` once
        Telegram has it, else its bytes; a text file's bytes."""
        if isinstance(media, SheetPhoto):
            picture = await self.pictures.picture_off_loop(media.sheet)
            known = self.pictures.file_id(picture)
            return known or BufferedInputFile(picture.png, picture.filename), picture
        return BufferedInputFile(media.text.encode(), media.name), None

    def _uploaded(self, picture: Picture | None, message: Message | bool) -> None:
        if picture is not None and isinstance(message, Message) and message.photo:
            self.pictures.remember(picture, message.photo[-1].file_id)

    async def send(
        self,
        chat_id: int,
        thread_id: int,
        text: str,
        buttons: str | None,
        media: Media | None = None,
    ) -> int:
        """Send a message (``buttons``: its keyboard's JSON); the new message's id."""
        self.calls["send"] += 1
        thread = thread_id or None
        try:
            message: Message | MessageId
            if media is None:
                message = await self.bot(
                    SendText(
                        chat_id=chat_id,
                        text=text,
                        message_thread_id=thread,
                        reply_markup=buttons,
                        link_preview_options=NO_PREVIEW,
                    ),
                    request_timeout=self.request_timeout,
                )
            else:
                upload, picture = await self._upload(media)
                if isinstance(media, SheetPhoto):
                    message = await self.bot.send_photo(
                        chat_id,
                        upload,
                        caption=text or None,
                        message_thread_id=thread,
                        reply_markup=_keyboard(buttons),
                        request_timeout=self.request_timeout,
                    )
                else:
                    message = await self.bot.send_document(
                        chat_id,
                        upload,
                        caption=text or None,
                        message_thread_id=thread,
                        reply_markup=_keyboard(buttons),
                        request_timeout=self.request_timeout,
                    )
                self._uploaded(picture, message)
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
        self,
        chat_id: int,
        message_id: int,
        text: str,
        buttons: str | None,
        media: Media | None = None,
    ) -> Edited:
        """Edit a message (``buttons``: its keyboard's JSON)."""
        self.calls["edit"] += 1
        try:
            if media is None:
                await self.bot(
                    EditText(
                        chat_id=chat_id,
                        message_id=message_id,
                        text=text,
                        reply_markup=buttons,
                        link_preview_options=NO_PREVIEW,
                    ),
                    request_timeout=self.request_timeout,
                )
            else:
                upload, picture = await self._upload(media)
                kind = InputMediaPhoto if isinstance(media, SheetPhoto) else InputMediaDocument
                edited = await self.bot.edit_message_media(
                    kind(media=upload, caption=text or None),
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=_keyboard(buttons),
                    request_timeout=self.request_timeout,
                )
                self._uploaded(picture, edited)
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


class SendText(TelegramMethod[MessageId]):
    """``sendMessage`` as the outbox makes it: of Telegram's answer it reads the new message's id alone, so the
    whole :class:`~aiogram.types.Message` the answer holds (its chat, sender, text and buttons) is never built —
    on a busy bot that costs the loop more than the rest of the call."""

    __returning__ = MessageId
    __api_method__ = "sendMessage"

    chat_id: int
    text: str
    message_thread_id: int | None = None
    parse_mode: str | Default | None = Default("parse_mode")
    link_preview_options: LinkPreviewOptions | None = None
    reply_markup: str | None = None
    """The inline keyboard's JSON, made once per content (the content's fingerprint is made of it too)."""


class EditText(TelegramMethod[MessageId | bool]):
    """``editMessageText`` as the outbox makes it: the edited message Telegram answers with is never read (see
    :class:`SendText`)."""

    __returning__ = MessageId | bool
    __api_method__ = "editMessageText"

    chat_id: int
    message_id: int
    text: str
    parse_mode: str | Default | None = Default("parse_mode")
    link_preview_options: LinkPreviewOptions | None = None
    reply_markup: str | None = None
    """The inline keyboard's JSON (see :class:`SendText`)."""


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The TLS context of every session the process makes: aiogram's own (the system's defaults, certifi's CA
    bundle), built once. Building one reads ~140 certificates, ~20 ms of CPU: a process that makes several sessions
    (``check`` before the bot, each bot a test starts) reads them once."""
    return ssl.create_default_context(cafile=certifi.where())


class KeptResponsesSession(AiohttpSession):
    """:class:`AiohttpSession` whose response classes, once built, live as long as the session, and whose TLS
    context is the process's (:func:`tls_context`)."""

    def __init__(self, *, limit: int = 100, **kwargs: Any) -> None:
        # AiohttpSession.__init__ as it is, but for the context it would build each time (and the proxy, which the
        # bot never sets); tests/bot/test_outbox_fair.py compares the two, so an aiogram that sets more shows.
        BaseSession.__init__(self, **kwargs)
        self._session = None
        self._connector_type = TCPConnector
        self._connector_init = {"ssl": tls_context(), "limit": limit, "ttl_dns_cache": 3600}
        self._should_reset_connector = True
        self._proxy = None
        self.response_types: dict[Any, type[Response[Any]]] = {}
        """Each method's ``Response[...]`` class, by the type the method returns."""

    def check_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, content: str
    ) -> Response[TelegramType]:
        returning = method.__returning__
        if returning not in self.response_types:
            self.response_types[returning] = Response[returning]  # type: ignore[valid-type]
        return super().check_response(bot, method, status_code, content)
