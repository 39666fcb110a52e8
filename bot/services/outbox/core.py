"""The outbox façade: what the service and the handlers ask for, and one call made for a chat.

Handlers and the game service never wait for Telegram. They state what a message should look like now
(:meth:`Outbox.show` for a *live* message — the group table, a lobby, a player's hand — identified by a slot
name) or queue a one-off message (:meth:`Outbox.post`, stored in the ``outbox`` table in the same transaction
as the move that caused it, so it survives a crash). The scheduler (``scheduler.py``) then decides which chat
gets the bot's next call:

- live messages are coalesced: while a chat waits, newer content for a slot replaces older, so only the newest
  state goes out; an edit is made only if the content differs from what Telegram last accepted for that
  message (content that returns to it costs nothing);
- ``renew=True`` sends a new message (its owner gets a notification); the old one is deleted later, in one
  ``deleteMessages`` call with the chat's other old messages, when the bot has calls to spare — at once if it
  still offers moves, else once a few have gathered (see ``queue.LAZY_BATCH``);
- ``paced=True`` (a group's table): at most one call per ``OutboxLimits.paced_interval`` for that message, the
  newest content, so fast moves leave room in the group's 20 a minute for its notices and lobbies;
- rates: at most one call per ``chat_interval`` per chat, ``group_per_minute`` per group chat and
  ``global_per_second`` for the whole bot; a 429 is waited out and the call re-queued; the calls to groups
  still inside their minute windows are handed over to the next run through the database at
  :meth:`Outbox.stop`, so a restart does not spend a group's budget twice;
- 403 (the user never opened the bot, or blocked it): the chat's queue is dropped and ``on_forbidden`` tells
  the service, which shows a «start the bot» link in the group and lets the AFK rules run;
- a network failure, a request left unanswered past ``REQUEST_TIMEOUT`` or a 5xx: the call is tried again, with
  backoff, for as long as it takes. Only a refusal (4xx) drops a message.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Final

from aiogram import Bot
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

from bot.services.clock import Clock
from bot.services.outbox.delivery import Courier, Edited
from bot.services.outbox.limits import OutboxLimits, RateLimiter, is_group
from bot.services.outbox.marks import Known, Marks
from bot.services.outbox.queue import ChatQueue, Item, Live, Priority, default_priority
from bot.services.outbox.scheduler import Scheduler
from bot.storage import Database, LiveMessage, Notice, repo
from bot.storage.db import Batch, Deferred

log = logging.getLogger(__name__)

REQUEST_TIMEOUT: Final = 10.0
"""Clock seconds an outbox call may take before it counts as lost and is tried again (aiogram's default, 60 real
seconds, would hold the chat's queue that long behind one hung request) ..."""
MIN_REQUEST_TIMEOUT: Final = 2
"""... but never less than this many real seconds (a busy machine answers slowly, and a send that timed out
after Telegram executed it shows twice)."""
BACKOFF: Final = (1.0, 30.0)
"""Clock seconds before a chat's first retry after a failure, and the most, doubling in between."""
TOPIC_CLOSED: Final = "TOPIC_CLOSED"
"""Telegram's refusal to post in a closed forum topic."""

ForbiddenHook = Callable[[int], Awaitable[None]]
MigrateHook = Callable[[int, int], Awaitable[None]]
"""Told (old chat id, new chat id) when a call finds that a group was upgraded to a supergroup."""


class Outbox:
    def __init__(
        self,
        bot: Bot,
        db: Database,
        clock: Clock,
        limits: OutboxLimits | None = None,
        on_forbidden: ForbiddenHook | None = None,
    ) -> None:
        self.bot = bot
        self.db = db
        self.clock = clock
        self.limiter = RateLimiter(limits or OutboxLimits(), clock)
        self.on_forbidden = on_forbidden
        self.on_migrated: MigrateHook | None = None
        self.request_timeout = max(MIN_REQUEST_TIMEOUT, round(clock.real(REQUEST_TIMEOUT)))
        """Real seconds (aiogram wants an int)."""
        self.courier = Courier(bot, self.request_timeout)
        self.scheduler = Scheduler(self.limiter, clock, self._serve)
        self.known = Known(db)
        self._notice_sent: Deferred[int, None] = Deferred(db, repo.drop_notice)
        """Notices sent (or refused), whose rows leave the ``outbox`` table with the next transaction."""
        """A cache of the ``live_messages`` table: each slot's message and the content Telegram accepted."""
        self._refused: set[int] = set()
        self._dropped: set[str] = set()
        """Slots dropped while a call was changing them: forgotten as soon as it lands."""
        self._forgetting: set[asyncio.Task[None]] = set()
        """Chats that answered 403: nothing more is sent there until :meth:`allow`."""
        self._idle = self.scheduler.idle_event
        """Set while nothing waits to be sent (the test helpers look at it)."""
        self.marks = Marks(self.limiter.limits.paced_interval)

    @property
    def calls(self) -> Counter[str]:
        """Calls made, by kind (``send``, ``edit``, ``delete``, ``429``, ``403``, ``not_modified``, ``failed``)."""
        return self.courier.calls

    async def start(self) -> None:
        """Load the notices a previous run left unsent, and its recent calls to groups."""
        async with self.db.tx() as tx:
            notices = await repo.pending_notices(tx)
            handed_over = await repo.take_rate_stamps(tx)
        self.limiter.add_group_stamps(handed_over)
        self.post(notices)

    async def stop(self) -> None:
        if self._forgetting:
            await asyncio.wait(set(self._forgetting), timeout=self.request_timeout)
        await self.scheduler.stop()
        try:
            batch = Batch()
            repo.put_rate_stamps(batch, self.limiter.group_stamps())
            await self.db.write(batch)
        except sqlite3.Error:
            log.exception("could not hand the groups' rate windows over to the next run")

    # --- asking for messages (never blocks) ------------------------------------------------------------

    def show(
        self,
        slot: str,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread_id: int = 0,
        renew: bool = False,
        only_existing: bool = False,
        priority: Priority | None = None,
        after: Iterable[int] = (),
        paced: bool = False,
    ) -> None:
        """The live message ``slot`` should now read ``text``; ``renew`` re-sends it (a notification).

        ``only_existing``: change the message if it was ever sent, but send none if it was not.
        ``priority``: how urgent (default: a table in a group; in a private chat a hand, or a turn if renewed);
        :attr:`Priority.TURN` content offers moves, so the message is deleted at once once replaced.
        ``after``: ids of notices to other chats this content must not overtake.
        ``paced``: at most one call per ``paced_interval`` for this message (a group's table).
        """
        queue = self.scheduler.queue(chat_id)
        pending = queue.lives.get(slot)
        if pending is not None:
            pending.change(text, markup)
            pending.renew = pending.renew or renew
            pending.thread_id = thread_id
            pending.only_existing = pending.only_existing and only_existing
            queue.behind_notices(slot)
        else:
            pending = queue.lives[slot] = Live(slot, chat_id, thread_id, text, markup, renew, only_existing)
        if after:
            pending.after = pending.after | frozenset(after)
        known = self.known.cache.get(slot)
        if known is not None and queue.flying != slot and not pending.needs_call(known):
            queue.discard(slot)  # back to what the message shows: nothing to do
            self.scheduler.settle(queue)
            return
        if priority is None:
            priority = default_priority(chat_id, renew)
        pending.armed = priority is Priority.TURN
        now = self.clock.now()
        pending.paced = paced and not renew
        queue.add(slot, now, priority, self.marks.ready(slot, now) if pending.paced else now)
        self.scheduler.kick()

    def drop(self, slot: str, chat_id: int) -> None:
        """The live message ``slot`` is no longer wanted (a reminder once its turn is over): never sent if still
        waiting; else deleted with the chat's other old messages, and the slot forgotten in the database too."""
        queue = self.scheduler.queue(chat_id)
        queue.discard(slot)
        if queue.flying == slot:
            self._dropped.add(slot)  # forgotten as soon as it lands
        else:
            task = asyncio.create_task(self._forget(slot), name=f"outbox:forget:{slot}")
            self._forgetting.add(task)
            task.add_done_callback(self._forgetting.discard)
        self.scheduler.settle(queue)

    async def live_messages(self, prefix: str) -> list[LiveMessage]:
        """The live messages whose slot starts with ``prefix``, as Telegram last accepted them."""
        return await self.known.with_prefix(prefix)

    def post(self, notices: Iterable[Notice], *, priority: Priority | None = None) -> None:
        """Queue notices already stored in the ``outbox`` table (see :func:`repo.add_notice`)."""
        now = self.clock.now()
        for notice in notices:
            queue = self.scheduler.queue(notice.chat_id)
            if notice.id in queue.notices:
                continue
            queue.notices[notice.id] = notice
            self.scheduler.unsent.add(notice.id)
            queue.add(notice.id, now, priority if priority is not None else default_priority(notice.chat_id))
            self.scheduler.kick()

    def tidy(self, chat_id: int) -> None:
        """A deal or the party is over: the chat's old messages that wait for a batch go soon."""
        queue = self.scheduler.queues.get(chat_id)
        if queue is not None:
            queue.tidy(self.clock.now())
            self.scheduler.kick()

    def allow(self, chat_id: int) -> None:
        """The person opened the bot again: their chat may be written to."""
        self._refused.discard(chat_id)

    def refuse(self, chat_id: int) -> None:
        """Nothing more goes to ``chat_id`` (the bot was removed from the group) until :meth:`reopen`."""
        self._refused.add(chat_id)
        if chat_id in self.scheduler.queues:
            self.scheduler.kick()  # the next call to it drops what is queued

    def is_refused(self, chat_id: int) -> bool:
        return chat_id in self._refused

    async def reopen(self, chat_id: int) -> None:
        """The bot is back in the group: it may post there again, and the notices kept for it go out."""
        self._refused.discard(chat_id)
        self.post(
            [n for n in await repo.pending_notices(self.db, chat_id) if self._notice_sent.get(n.id) is None]
        )

    def migrate(self, old: int, new: int) -> None:
        """Group ``old`` became supergroup ``new``: nothing more goes to ``old``.

        Its live messages stay behind in the old chat (they cannot be edited any more): their slots are
        forgotten, so the next look of each is sent to the new chat as a new message. The game service moves
        the stored notices to ``new`` and then :meth:`reopen` sends them.
        """
        self._refused.add(old)
        for slot in [slot for slot, known in self.known.cache.items() if known.chat_id == old]:
            self.known.forget(slot)
        if old in self.scheduler.queues:
            self.scheduler.kick()  # the next call drops what was still queued for the old id

    async def say(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread_id: int = 0,
        priority: Priority | None = None,
    ) -> None:
        """A one-off message (a reply to a command): stored, then sent within the chat's limits."""
        if chat_id in self._refused:
            return  # the bot may not write there; a reply kept for later would come out of place
        dumped = markup.model_dump_json(exclude_none=True) if markup else None
        notice = Notice(self.db.next_notice_id(), chat_id, thread_id, text, dumped)
        batch = Batch()
        repo.add_notice(batch, notice, self.clock.now())
        await self.db.write(batch)
        self.post([notice], priority=priority)

    def adopt(self, slot: str, chat_id: int, message_id: int) -> None:
        """Make an existing message (e.g. the one whose button started a game) the live message of ``slot``."""
        self.known.remember(LiveMessage(slot, chat_id, message_id, ""))

    def message_id(self, slot: str) -> int | None:
        """The id of the live message ``slot`` if it is among those cached in memory."""
        known = self.known.cache.get(slot)
        return known.message_id if known else None

    async def delete_stray(self, slot: str, chat_id: int, message_id: int) -> bool:
        """Delete ``message_id``, pressed as if it were live message ``slot`` but not it (a send whose answer a
        crash lost); False when it is ``slot``'s after all, or a call changing ``slot`` is on its way."""
        queue, known = self.scheduler.queues.get(chat_id), await self.known.recall(slot)
        if known is None or known.message_id == message_id or (queue is not None and queue.flying == slot):
            return False
        self.scheduler.queue(chat_id).doom(message_id, self.clock.now())
        self.scheduler.kick()
        return True

    async def adopt_newer(self, slot: str, chat_id: int, message_id: int) -> bool:
        """``message_id`` in ``chat_id`` was pressed as live message ``slot`` and is newer than the one known: a
        send whose mark a crash lost. It becomes the slot's message (the next look edits it) and the one known
        goes. False when nothing changed."""
        queue, known = self.scheduler.queues.get(chat_id), await self.known.recall(slot)
        if known is None or known.chat_id != chat_id or message_id <= known.message_id:
            return False
        if queue is not None and queue.flying == slot:
            return False
        self.known.remember(LiveMessage(slot, chat_id, message_id, ""))
        self.scheduler.queue(chat_id).doom(known.message_id, self.clock.now(), urgent=True)
        self.scheduler.kick()
        return True

    def __len__(self) -> int:
        """The chats with a queue (a chat's queue goes once it is empty)."""
        return len(self.scheduler.queues)

    def is_pending(self, chat_id: int | None = None) -> bool:
        if chat_id is not None:
            queue = self.scheduler.queues.get(chat_id)
            return bool(queue)
        return self.scheduler.is_pending()

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait (real seconds) until every queued message went out (old messages waiting for a batch: now)."""
        for chat_id in list(self.scheduler.queues):
            self.tidy(chat_id)
        await asyncio.wait_for(self.scheduler.idle(), timeout)

    # --- one call ------------------------------------------------------------------------------------------

    async def _serve(self, queue: ChatQueue, stamp: float) -> None:
        """Make the chat's next call in the place taken at ``stamp`` (given back if no call is needed)."""
        chat_id = queue.chat_id
        if chat_id in self._refused:
            self.limiter.release(chat_id, stamp)
            await self._drop_queue(queue)
            return
        key = queue.next_key(self.clock.now()) if queue.has_items else None
        if key is None:
            batch = queue.take_doomed(self.clock.now())
            if not batch:
                self.limiter.release(chat_id, stamp)
                return
            self.marks.forget(chat_id, batch)
            try:
                await self.courier.delete(chat_id, batch)
            except TelegramAPIError as exc:
                log.info("old messages in chat %s stay: %s", chat_id, exc)
            finally:
                self.limiter.restamp(chat_id, stamp)
            return
        item, asked = queue.pop(key)
        if isinstance(item, Live):
            try:
                known = await self.known.recall(item.slot)
            except sqlite3.Error as exc:
                self.limiter.release(chat_id, stamp)
                queue.put_back(item, asked)
                self._back_off(queue, exc)
                return
            if not item.needs_call(known):
                self.limiter.release(chat_id, stamp)
                return
        try:
            if isinstance(item, Notice):
                await self._deliver_notice(item)
            else:
                queue.flying = item.slot
                await self._deliver_live(item)
        except TelegramRetryAfter as exc:
            self.calls["429"] += 1
            log.warning("429 in chat %s: waiting %s s", chat_id, exc.retry_after)
            queue.put_back(item, asked)
            queue.retry_at = self.clock.now() + exc.retry_after * self.clock.speed
        except TelegramForbiddenError:
            self.calls["403"] += 1
            await self._forbidden(queue)
        except (TelegramNetworkError, TelegramServerError, ClientDecodeError) as exc:
            queue.put_back(item, asked)
            self._back_off(queue, exc)
        except TelegramMigrateToChat as exc:
            log.warning("chat %s was upgraded to %s", chat_id, exc.migrate_to_chat_id)
            if self.on_migrated is not None:
                await self.on_migrated(chat_id, exc.migrate_to_chat_id)
        except TelegramAPIError as exc:
            await self._refused_call(item, exc)
        else:
            if queue.failures:
                log.info("chat %s reachable again after %d failed calls", chat_id, queue.failures)
                queue.failures = 0
        finally:
            queue.flying = None
            if isinstance(item, Live) and item.slot in self._dropped:
                self._dropped.discard(item.slot)  # dropped, and the call did not land: never tried again
                queue.discard(item.slot)
            if isinstance(item, Notice) and item.id not in queue.notices:
                self.scheduler.unsent.discard(item.id)  # sent or dropped: what waited for it may go
            self.limiter.restamp(chat_id, stamp)

    async def _refused_call(self, item: Item, exc: TelegramAPIError) -> None:
        if isinstance(item, Notice) and TOPIC_CLOSED in exc.message:
            # Kept in the database: it goes out when the topic reopens (see :meth:`reopen`).
            log.info("topic %s of chat %s is closed: notice %s kept", item.thread_id, item.chat_id, item.id)
            return
        log.warning("dropped a message to chat %s: %s", item.chat_id, exc.message)
        if isinstance(item, Notice):
            self._notice_sent.put(item.id, None)

    def _back_off(self, queue: ChatQueue, exc: Exception) -> None:
        """A call failed on the way (not refused): wait, longer each time in a row, before the chat's next try."""
        self.calls["failed"] += 1
        queue.failures += 1
        wait = min(BACKOFF[0] * 2 ** (queue.failures - 1), BACKOFF[1])
        if queue.failures == 1:
            log.warning("chat %s: a call failed (%s); trying again until it goes through", queue.chat_id, exc)
        queue.retry_at = self.clock.now() + wait

    async def _drop_queue(self, queue: ChatQueue) -> None:
        self.scheduler.unsent.difference_update(queue.notices)
        queue.clear()
        if is_group(queue.chat_id):
            return  # a group's notices (results, deal ends) wait in the database for the bot's return
        batch = Batch()
        repo.drop_notices_for_chat(batch, queue.chat_id)
        await self.db.write(batch)

    async def _forbidden(self, queue: ChatQueue) -> None:
        self._refused.add(queue.chat_id)
        await self._drop_queue(queue)
        if self.on_forbidden is not None:
            try:
                await self.on_forbidden(queue.chat_id)
            except Exception:
                log.exception("on_forbidden hook failed for chat %s", queue.chat_id)

    async def _deliver_live(self, live: Live) -> None:
        if live.paced:
            self.marks.calling(live.slot, self.clock.now())
        known = await self.known.recall(live.slot)
        message_id: int | None = None
        if known is not None and known.chat_id == live.chat_id and not live.renew:
            edited = await self.courier.edit(known.chat_id, known.message_id, live.text, live.markup)
            if edited is not Edited.GONE:
                message_id = known.message_id
        if message_id is None:
            if known is not None:
                self.known.cache.pop(
                    live.slot, None
                )  # replaced: if the send below fails, the next try only sends
            message_id = await self.courier.send(live.chat_id, live.thread_id, live.text, live.markup)
            if known is not None:
                calm = self.marks.is_calm(known.chat_id, known.message_id)
                self.scheduler.queue(known.chat_id).doom(known.message_id, self.clock.now(), urgent=not calm)
        self.marks.delivered(live.chat_id, message_id, armed=live.armed)
        self.known.remember(LiveMessage(live.slot, live.chat_id, message_id, live.digest))
        if live.slot in self._dropped:
            self._dropped.discard(live.slot)
            await self._forget(live.slot)

    async def _forget(self, slot: str) -> None:
        """A dropped slot: its message joins the chat's old messages to delete, and the slot is forgotten."""
        try:
            known = await self.known.recall(slot)
        except sqlite3.Error:
            log.exception("could not forget the live message %s", slot)
            return
        self.known.forget(slot)
        if known is not None:
            self.scheduler.queue(known.chat_id).doom(known.message_id, self.clock.now())
            self.scheduler.kick()

    async def _deliver_notice(self, notice: Notice) -> None:
        markup = InlineKeyboardMarkup.model_validate_json(notice.markup) if notice.markup else None
        await self.courier.send(notice.chat_id, notice.thread_id, notice.text, markup)
        self._notice_sent.put(notice.id, None)  # stored with the database's next transaction
