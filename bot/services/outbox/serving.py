"""One call for one chat, made when the call scheduler gives that chat its turn: the chat's next pending item
(a live message's newest look, a notice) or a batch of old messages to delete; and what Telegram's answer
means — a 429 waited out, a 403 that closes the chat, a network failure tried again with back-off, a refusal
that drops the message, a group that became a supergroup."""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING, Final

from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import InlineKeyboardMarkup

from bot.services.outbox.delivery import Edited
from bot.services.outbox.limits import is_group
from bot.services.outbox.queue import ChatQueue, Item, Live
from bot.storage import LiveMessage, Notice, repo
from bot.storage.batch import Batch

if TYPE_CHECKING:
    from bot.services.outbox.core import Outbox

log = logging.getLogger(__name__)

BACKOFF: Final = (1.0, 30.0)
"""Clock seconds before a chat's first retry after a failure, and the most, doubling in between."""
TOPIC_CLOSED: Final = "TOPIC_CLOSED"
"""Telegram's refusal to post in a closed forum topic."""


class ChatServer:
    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox

    async def serve(self, queue: ChatQueue, stamp: float) -> None:
        """Make the chat's next call in the place taken at ``stamp`` (given back if no call is needed)."""
        chat_id = queue.chat_id
        if chat_id in self.outbox.refused:
            self.outbox.limiter.release(chat_id, stamp)
            await self._drop_queue(queue)
            return
        key = queue.next_key(self.outbox.clock.now()) if queue.has_items else None
        if key is None:
            batch = queue.take_deletions(self.outbox.clock.now())
            if not batch:
                self.outbox.limiter.release(chat_id, stamp)
                return
            self.outbox.sent.forget(chat_id, batch)
            try:
                await self.outbox.telegram.delete(chat_id, batch)
            except TelegramAPIError as exc:
                log.info("old messages in chat %s stay: %s", chat_id, exc)
            finally:
                self.outbox.limiter.restamp(chat_id, stamp)
            return
        item, asked = queue.pop(key)
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
                queue.flying = item.slot
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
            if self.outbox.on_migrated is not None:
                await self.outbox.on_migrated(chat_id, exc.migrate_to_chat_id)
        except TelegramAPIError as exc:
            await self._refused_call(item, exc)
        else:
            if queue.failures:
                log.info("chat %s reachable again after %d failed calls", chat_id, queue.failures)
                queue.failures = 0
        finally:
            queue.flying = None
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
        repo.drop_notices_for_chat(batch, queue.chat_id)
        await self.outbox.db.write(batch)

    async def _forbidden(self, queue: ChatQueue) -> None:
        self.outbox.refused.add(queue.chat_id)
        await self._drop_queue(queue)
        if self.outbox.on_forbidden is not None:
            try:
                await self.outbox.on_forbidden(queue.chat_id)
            except Exception:
                log.exception("on_forbidden hook failed for chat %s", queue.chat_id)

    async def _deliver_live(self, live: Live) -> None:
        if live.paced:
            self.outbox.sent.calling(live.slot, self.outbox.clock.now())
        known = await self.outbox.live.recall(live.slot)
        message_id: int | None = None
        if known is not None and known.chat_id == live.chat_id and not live.resend:
            edited = await self.outbox.telegram.edit(known.chat_id, known.message_id, live.text, live.markup)
            if edited is not Edited.GONE:
                message_id = known.message_id
        if message_id is None:
            if known is not None:
                self.outbox.live.cache.pop(
                    live.slot, None
                )  # replaced: if the send below fails, the next try only sends
            message_id = await self.outbox.telegram.send(live.chat_id, live.thread_id, live.text, live.markup)
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
        markup = InlineKeyboardMarkup.model_validate_json(notice.markup) if notice.markup else None
        await self.outbox.telegram.send(notice.chat_id, notice.thread_id, notice.text, markup)
        self.outbox.notice_sent.put(notice.id, None)  # stored with the database's next transaction
