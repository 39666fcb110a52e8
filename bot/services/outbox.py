"""The outbox: the only place that sends, edits and deletes game messages in Telegram.

Handlers and the game service never wait for Telegram. They state what a message should look like now
(:meth:`Outbox.show` for a *live* message — the group table, a lobby, a player's hand — identified by a slot
name) or queue a one-off message (:meth:`Outbox.post`, stored in the ``outbox`` table in the same transaction
as the move that caused it, so it survives a crash). One worker per chat then talks to Telegram:

- live messages are coalesced: while a chat waits for its turn at the rate limit, newer content for a slot
  replaces older, so only the newest state goes out; content equal to what the message already shows is not
  sent at all, and 400 «message is not modified» counts as success;
- ``renew=True`` deletes the old live message and sends a new one, so its owner gets a notification;
- rates: at most one call per ``chat_interval`` per chat, ``group_per_minute`` per group chat and
  ``global_per_second`` for the whole bot (sliding windows, with a small safety margin); a 429 is waited out
  (``retry_after``) and the call re-queued; the calls to groups still inside their minute windows are handed
  over to the next run through the database at :meth:`Outbox.stop`, so a restart does not spend a group's budget
  twice;
- 403 (the user never opened the bot, or blocked it): the chat's queue is dropped and ``on_forbidden`` tells
  the service, which shows a «start the bot» link in the group and lets the AFK rules run;
- a network failure, a request left unanswered past ``REQUEST_TIMEOUT`` or a 5xx: the call is tried again, with
  backoff, for as long as it takes — a notice stays in the database until it is sent, a live message until it
  is delivered or newer content for its slot replaces it. Only a refusal (4xx) drops a message.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import hashlib
import logging
import sqlite3
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Final

from aiogram import Bot
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import InlineKeyboardMarkup, LinkPreviewOptions

from bot.services.clock import Clock
from bot.storage import Database, LiveMessage, Notice, repo

log = logging.getLogger(__name__)

SAFETY: Final = 1.05
"""Our windows are this much longer than Telegram's, so jitter never tips a call over the limit ..."""
JITTER: Final = 0.01
"""... plus this many real seconds (requests reach Telegram a little later or earlier than we count them)."""
REQUEST_TIMEOUT: Final = 10.0
"""Clock seconds an outbox call may take before it counts as lost and is tried again (aiogram's default, 60 real
seconds, would hold the chat's queue that long behind one hung request) ..."""
MIN_REQUEST_TIMEOUT: Final = 2
"""... but never less than this many real seconds (a busy machine answers slowly, and a send that timed out
after Telegram executed it shows twice)."""
BACKOFF: Final = (1.0, 30.0)
"""Clock seconds before a chat's first retry after a failure, and the most, doubling in between."""
NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)
TOPIC_CLOSED: Final = "TOPIC_CLOSED"
"""Telegram's refusal to post in a closed forum topic."""
KNOWN_CACHED: Final = 5000
"""Live messages whose id and content are kept in memory (the most recently used); the rest are read from the
database when needed."""
SWEEP_EVERY: Final = 60.0
"""Seconds of the bot's clock between two sweeps of the rate windows that have emptied."""

ForbiddenHook = Callable[[int], Awaitable[None]]
MigrateHook = Callable[[int, int], Awaitable[None]]
"""Told (old chat id, new chat id) when a call finds that a group was upgraded to a supergroup."""


@dataclass(frozen=True, slots=True)
class OutboxLimits:
    chat_interval: float = 1.0
    group_per_minute: int = 20
    global_per_second: int = 30


def digest(text: str, markup: InlineKeyboardMarkup | None) -> str:
    """A fingerprint of a message's content: equal fingerprints need no edit."""
    payload = text + "\x00" + (markup.model_dump_json(exclude_none=True) if markup else "")
    return hashlib.blake2b(payload.encode(), digest_size=12).hexdigest()


def is_group(chat_id: int) -> bool:
    return chat_id < 0


@dataclass(slots=True)
class _Live:
    slot: str
    chat_id: int
    thread_id: int
    text: str
    markup: InlineKeyboardMarkup | None
    renew: bool
    only_existing: bool = False
    """Update the message if it was ever sent; never send a new one."""

    @property
    def digest(self) -> str:
        return digest(self.text, self.markup)


@dataclass(slots=True)
class _Queue:
    order: deque[str | int] = field(default_factory=deque)
    """Slots (str) of live messages and ids (int) of notices, in the order they were asked for."""
    lives: dict[str, _Live] = field(default_factory=dict)
    notices: dict[int, Notice] = field(default_factory=dict)
    worker: asyncio.Task[None] | None = None
    failures: int = 0
    """Failed calls in a row (network, timeout, 5xx): how long the chat waits before the next try."""


class _Window:
    def __init__(self, capacity: int, length: float, margin: float) -> None:
        self.capacity = capacity
        self.length = length * SAFETY + margin
        self.stamps: deque[float] = deque()

    def wait(self, now: float) -> float:
        while self.stamps and self.stamps[0] <= now - self.length:
            self.stamps.popleft()
        if len(self.stamps) < self.capacity:
            return 0.0
        return self.stamps[len(self.stamps) - self.capacity] + self.length - now


class RateLimiter:
    """Sliding windows per chat, per group and for the whole bot, on the bot's clock."""

    def __init__(self, limits: OutboxLimits, clock: Clock) -> None:
        self.limits = limits
        self.clock = clock
        self._windows: dict[tuple[str, int], _Window] = {}
        self._margin = JITTER * clock.speed
        self._global = _Window(limits.global_per_second, 1.0, self._margin)
        self._swept = clock.now()

    def __len__(self) -> int:
        return len(self._windows)

    def sweep(self) -> None:
        """Forget the windows of chats with no call left inside them (they are made again when needed)."""
        now = self.clock.now()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        for key, window in list(self._windows.items()):
            window.wait(now)
            if not window.stamps:
                del self._windows[key]

    def _for(self, chat_id: int) -> list[_Window]:
        windows = [self._global]
        if self.limits.chat_interval > 0:
            key = ("chat", chat_id)
            if key not in self._windows:
                self._windows[key] = _Window(1, self.limits.chat_interval, self._margin)
            windows.append(self._windows[key])
        if is_group(chat_id):
            windows.append(self._group_window(chat_id))
        return windows

    def _group_window(self, chat_id: int) -> _Window:
        key = ("group", chat_id)
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(self.limits.group_per_minute, 60.0, self._margin)
        return window

    def group_stamps(self) -> list[tuple[int, float]]:
        """The calls to group chats still inside their minute windows, as (chat id, stamp)."""
        now = self.clock.now()
        stamps: list[tuple[int, float]] = []
        for key, window in self._windows.items():
            if key[0] == "group":
                window.wait(now)  # forgets the stamps that left the window
                stamps.extend((key[1], stamp) for stamp in window.stamps)
        return stamps

    def add_group_stamps(self, stamps: Iterable[tuple[int, float]]) -> None:
        """Calls to groups made by a previous run: they count against the same minute windows here."""
        for chat_id, stamp in stamps:
            if is_group(chat_id):
                bisect.insort(self._group_window(chat_id).stamps, stamp)

    def wait_for(self, chat_id: int) -> float:
        now = self.clock.now()
        return max(w.wait(now) for w in self._for(chat_id))

    async def acquire(self, chat_id: int) -> float:
        """Wait until one more call to ``chat_id`` fits every window, and take its place; the place's stamp."""
        self.sweep()
        while True:
            wait = self.wait_for(chat_id)
            if wait <= 0:
                now = self.clock.now()
                for window in self._for(chat_id):
                    window.stamps.append(now)
                return now
            await self.clock.sleep(wait + 0.001)

    def restamp(self, chat_id: int, stamp: float) -> None:
        """Move a place taken at ``stamp`` to now, once the call is answered.

        Telegram counts a call when it arrives, which may be later than we took its place (a slow network, a
        busy event loop); counting it at the answer instead keeps our windows behind Telegram's, never ahead.
        """
        now = self.clock.now()
        for window in self._for(chat_id):
            stamps = window.stamps
            for i in range(len(stamps) - 1, -1, -1):
                if stamps[i] == stamp:
                    del stamps[i]
                    bisect.insort(stamps, now)
                    break


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
        self.calls: Counter[str] = Counter()
        """Calls made, by method name (``send``, ``edit``, ``delete``), refusals (``429``, ``403``) and
        ``failed`` calls (network, timeout, 5xx) that are tried again."""
        self.request_timeout = max(MIN_REQUEST_TIMEOUT, round(clock.real(REQUEST_TIMEOUT)))
        """Real seconds (aiogram wants an int)."""
        self._queues: dict[int, _Queue] = {}
        self._known: OrderedDict[str, LiveMessage] = OrderedDict()
        """A cache of the ``live_messages`` table (see :meth:`_recall`)."""
        self._refused: set[int] = set()
        """Chats that answered 403: nothing more is sent there until :meth:`allow`."""
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False

    async def start(self) -> None:
        """Load the live messages, the notices a previous run left unsent, and its recent calls to groups."""
        async with self.db.tx() as tx:
            notices = await repo.pending_notices(tx)
            handed_over = await repo.take_rate_stamps(tx)
        self.limiter.add_group_stamps(handed_over)
        self.post(notices)

    async def stop(self) -> None:
        self._closed = True
        for queue in self._queues.values():
            if queue.worker is not None:
                queue.worker.cancel()
        for queue in list(self._queues.values()):
            if queue.worker is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await queue.worker
        try:
            async with self.db.tx() as tx:
                await repo.put_rate_stamps(tx, self.limiter.group_stamps())
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
    ) -> None:
        """The live message ``slot`` should now read ``text``; ``renew`` re-sends it (a notification).

        ``only_existing``: change the message if it was ever sent, but send none if it was not.
        """
        queue = self._queue(chat_id)
        pending = queue.lives.get(slot)
        if pending is not None:
            pending.text, pending.markup = text, markup
            pending.renew = pending.renew or renew
            pending.thread_id = thread_id
            pending.only_existing = pending.only_existing and only_existing
        else:
            queue.lives[slot] = _Live(slot, chat_id, thread_id, text, markup, renew, only_existing)
            queue.order.append(slot)
        self._kick(chat_id, queue)

    def post(self, notices: Iterable[Notice]) -> None:
        """Queue notices already stored in the ``outbox`` table (see :func:`repo.add_notice`)."""
        for notice in notices:
            queue = self._queue(notice.chat_id)
            if notice.id in queue.notices:
                continue
            queue.notices[notice.id] = notice
            queue.order.append(notice.id)
            self._kick(notice.chat_id, queue)

    def allow(self, chat_id: int) -> None:
        """The person opened the bot again: their chat may be written to."""
        self._refused.discard(chat_id)

    def refuse(self, chat_id: int) -> None:
        """Nothing more goes to ``chat_id`` (the bot was removed from the group) until :meth:`reopen`."""
        self._refused.add(chat_id)
        queue = self._queues.get(chat_id)
        if queue is not None:
            self._kick(chat_id, queue)  # the worker drops what is queued

    def is_refused(self, chat_id: int) -> bool:
        return chat_id in self._refused

    async def reopen(self, chat_id: int) -> None:
        """The bot is back in the group: it may post there again, and the notices kept for it go out."""
        self._refused.discard(chat_id)
        async with self.db.tx() as tx:
            notices = [n for n in await repo.pending_notices(tx) if n.chat_id == chat_id]
        self.post(notices)

    async def migrate(self, old: int, new: int) -> None:
        """Group ``old`` became supergroup ``new``: nothing more goes to ``old``; its notices go to ``new``.

        Its live messages stay behind in the old chat (they cannot be edited any more): their slots are
        forgotten, so the next look of each is sent to the new chat as a new message.
        """
        self._refused.add(old)
        async with self.db.tx() as tx:
            await repo.move_notices(tx, old, new)
            await repo.forget_live_in_chat(tx, old)
            notices = [n for n in await repo.pending_notices(tx) if n.chat_id == new]
        for slot in [slot for slot, known in self._known.items() if known.chat_id == old]:
            del self._known[slot]
        old_queue = self._queues.get(old)
        if old_queue is not None:
            self._kick(old, old_queue)  # the worker drops what was still queued for the old id
        self.post(notices)

    async def say(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0
    ) -> None:
        """A one-off message (a reply to a command): stored, then sent within the chat's limits."""
        if chat_id in self._refused:
            return  # the bot may not write there; a reply kept for later would come out of place
        dumped = markup.model_dump_json(exclude_none=True) if markup else None
        async with self.db.tx() as tx:
            notice_id = await repo.add_notice(tx, chat_id, thread_id, text, dumped, self.clock.now())
        self.post([Notice(notice_id, chat_id, thread_id, text, dumped)])

    async def adopt(self, slot: str, chat_id: int, message_id: int) -> None:
        """Make an existing message (e.g. the one whose button started a game) the live message of ``slot``."""
        await self._remember(LiveMessage(slot, chat_id, message_id, ""))

    def message_id(self, slot: str) -> int | None:
        """The id of the live message ``slot`` if it is among those cached in memory."""
        known = self._known.get(slot)
        return known.message_id if known else None

    def __len__(self) -> int:
        """The chats with a queue (a chat's queue goes once it is empty)."""
        return len(self._queues)

    def is_pending(self, chat_id: int | None = None) -> bool:
        if chat_id is not None:
            queue = self._queues.get(chat_id)
            return bool(queue and queue.order)
        return any(q.order for q in self._queues.values())

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait (real seconds) until every queued message went out."""
        await asyncio.wait_for(self._idle.wait(), timeout)

    # --- the workers ---------------------------------------------------------------------------------------

    def _queue(self, chat_id: int) -> _Queue:
        queue = self._queues.get(chat_id)
        if queue is None:
            queue = self._queues[chat_id] = _Queue()
        return queue

    def _kick(self, chat_id: int, queue: _Queue) -> None:
        if self._closed:
            return
        self._idle.clear()
        if queue.worker is None or queue.worker.done():
            queue.worker = asyncio.create_task(self._work(chat_id, queue), name=f"outbox:{chat_id}")

    def _settle(self) -> None:
        if not any(q.order for q in self._queues.values()):
            self._idle.set()

    async def _work(self, chat_id: int, queue: _Queue) -> None:
        try:
            while queue.order:
                if chat_id in self._refused:
                    await self._drop_queue(chat_id, queue)
                    break
                head = queue.order[0]
                if isinstance(head, str) and not self._needs_call(
                    queue.lives[head], await self._recall(head)
                ):
                    queue.order.popleft()
                    queue.lives.pop(head)
                    continue
                stamp = await self.limiter.acquire(chat_id)
                if not queue.order:
                    break
                head = queue.order.popleft()
                item: _Live | Notice = (
                    queue.lives.pop(head) if isinstance(head, str) else queue.notices.pop(head)
                )
                try:
                    if isinstance(item, Notice):
                        await self._deliver_notice(item)
                    elif self._needs_call(item, await self._recall(item.slot)):
                        await self._deliver_live(item)
                except TelegramRetryAfter as exc:
                    self.calls["429"] += 1
                    log.warning("429 in chat %s: waiting %s s", chat_id, exc.retry_after)
                    self._requeue(queue, item)
                    await asyncio.sleep(exc.retry_after)
                except TelegramForbiddenError:
                    self.calls["403"] += 1
                    await self._forbidden(chat_id, queue)
                except (TelegramNetworkError, TelegramServerError, ClientDecodeError) as exc:
                    self._requeue(queue, item)
                    await self._back_off(chat_id, queue, exc)
                    continue
                except TelegramMigrateToChat as exc:
                    log.warning("chat %s was upgraded to %s", chat_id, exc.migrate_to_chat_id)
                    if self.on_migrated is not None:
                        await self.on_migrated(chat_id, exc.migrate_to_chat_id)
                except TelegramAPIError as exc:
                    if isinstance(item, Notice) and TOPIC_CLOSED in exc.message:
                        # Kept in the database: it goes out when the topic reopens (see :meth:`reopen`).
                        log.info(
                            "topic %s of chat %s is closed: notice %s kept", item.thread_id, chat_id, item.id
                        )
                        continue
                    log.warning("dropped a message to chat %s: %s", chat_id, exc.message)
                    if isinstance(item, Notice):
                        async with self.db.tx() as tx:
                            await repo.drop_notice(tx, item.id)
                else:
                    if queue.failures:
                        log.info("chat %s reachable again after %d failed calls", chat_id, queue.failures)
                        queue.failures = 0
                finally:
                    self.limiter.restamp(chat_id, stamp)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("outbox worker for chat %s failed", chat_id)
        finally:
            if queue.worker is asyncio.current_task():
                queue.worker = None
            if queue.order and not self._closed:
                self._kick(chat_id, queue)
            elif not queue.order and queue.worker is None and self._queues.get(chat_id) is queue:
                del self._queues[chat_id]  # an idle chat costs no memory; show() or post() makes a new queue
            self._settle()

    @staticmethod
    def _requeue(queue: _Queue, item: _Live | Notice) -> None:
        if isinstance(item, Notice):
            queue.notices[item.id] = item
            queue.order.appendleft(item.id)
            return
        newer = queue.lives.get(item.slot)
        if newer is not None:
            newer.renew = newer.renew or item.renew  # newer content replaces the refused one, renewal kept
        else:
            queue.lives[item.slot] = item
            queue.order.appendleft(item.slot)

    async def _back_off(self, chat_id: int, queue: _Queue, exc: Exception) -> None:
        """A call failed on the way (not refused): wait, longer each time in a row, before the chat's next try."""
        self.calls["failed"] += 1
        queue.failures += 1
        wait = min(BACKOFF[0] * 2 ** (queue.failures - 1), BACKOFF[1])
        if queue.failures == 1:
            log.warning("chat %s: a call failed (%s); trying again until it goes through", chat_id, exc)
        await self.clock.sleep(wait)

    async def _drop_queue(self, chat_id: int, queue: _Queue) -> None:
        queue.order.clear()
        queue.lives.clear()
        queue.notices.clear()
        if is_group(chat_id):
            return  # a group's notices (results, deal ends) wait in the database for the bot's return
        async with self.db.tx() as tx:
            await repo.drop_notices_for_chat(tx, chat_id)

    async def _forbidden(self, chat_id: int, queue: _Queue) -> None:
        self._refused.add(chat_id)
        await self._drop_queue(chat_id, queue)
        if self.on_forbidden is not None:
            try:
                await self.on_forbidden(chat_id)
            except Exception:
                log.exception("on_forbidden hook failed for chat %s", chat_id)

    @staticmethod
    def _needs_call(live: _Live, known: LiveMessage | None) -> bool:
        if known is None:
            return not live.only_existing
        return live.renew or known.chat_id != live.chat_id or known.digest != live.digest

    async def _recall(self, slot: str) -> LiveMessage | None:
        """The live message ``slot`` as last sent, from memory or else from the database."""
        known = self._known.get(slot)
        if known is not None:
            self._known.move_to_end(slot)
            return known
        async with self.db.tx() as tx:
            known = await repo.get_live(tx, slot)
        if known is not None:
            self._cache(known)
        return known

    def _cache(self, message: LiveMessage) -> None:
        self._known[message.slot] = message
        self._known.move_to_end(message.slot)
        while len(self._known) > KNOWN_CACHED:
            self._known.popitem(last=False)

    async def _deliver_live(self, live: _Live) -> None:
        known = await self._recall(live.slot)
        can_edit = known is not None and known.chat_id == live.chat_id and not live.renew
        if known is not None and can_edit and await self._edit(known, live):
            await self._remember(LiveMessage(live.slot, live.chat_id, known.message_id, live.digest))
            return
        if known is not None:
            await self._delete(known)
            self._known.pop(live.slot, None)  # gone: if the send below fails, the next try only sends
        message_id = await self._send(live.chat_id, live.thread_id, live.text, live.markup)
        await self._remember(LiveMessage(live.slot, live.chat_id, message_id, live.digest))

    async def _deliver_notice(self, notice: Notice) -> None:
        markup = InlineKeyboardMarkup.model_validate_json(notice.markup) if notice.markup else None
        await self._send(notice.chat_id, notice.thread_id, notice.text, markup)
        async with self.db.tx() as tx:
            await repo.drop_notice(tx, notice.id)

    async def _remember(self, message: LiveMessage) -> None:
        self._cache(message)
        async with self.db.tx() as tx:
            await repo.put_live(tx, message)

    async def _send(
        self,
        chat_id: int,
        thread_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
    ) -> int:
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

    async def _edit(self, known: LiveMessage, live: _Live) -> bool:
        """Edit in place; False when the message is gone and a new one must be sent."""
        self.calls["edit"] += 1
        try:
            await self.bot.edit_message_text(
                text=live.text,
                chat_id=known.chat_id,
                message_id=known.message_id,
                reply_markup=live.markup,
                link_preview_options=NO_PREVIEW,
                request_timeout=self.request_timeout,
            )
        except TelegramBadRequest as exc:
            if "not modified" in exc.message:
                return True
            log.info("cannot edit %s (%s): sending it anew", live.slot, exc.message)
            return False
        return True

    async def _delete(self, known: LiveMessage) -> None:
        self.calls["delete"] += 1
        try:
            await self.bot.delete_message(
                known.chat_id, known.message_id, request_timeout=self.request_timeout
            )
        except TelegramBadRequest as exc:
            # Too old to delete (48 h) or already gone: at least take its buttons away.
            log.info("cannot delete %s: %s", known.slot, exc.message)
            with contextlib.suppress(TelegramBadRequest):
                self.calls["edit"] += 1
                await self.limiter.acquire(known.chat_id)
                await self.bot.edit_message_reply_markup(
                    chat_id=known.chat_id,
                    message_id=known.message_id,
                    reply_markup=None,
                    request_timeout=self.request_timeout,
                )
