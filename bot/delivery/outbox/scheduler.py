"""Who gets the bot's next call: the chat whose most urgent message has waited longest, within every limit.

One loop hands out the bot's ~30 calls a second. Each chat with something pending has a place in line (see
:meth:`ChatQueue.rank`): the time its most urgent message was asked for, moved later by a head start per
:class:`Priority` (a turn notice goes before a hand, a hand before a group table; old messages are
deleted in batches, only while the budget has room) and never earlier than the chat's previous call — so
chats take turns, and a table that waited long enough goes before a newer hand: nothing starves. A chat is
skipped while its own windows (one call a second, 20 a minute into a group — of which an answer to a member
leaves the games :meth:`~bot.delivery.outbox.queue.ChatQueue.kept_for_games`) are full, while a call to it is on
its way, while it backs off, or while all it has is a paced table whose time has not come.

The rate windows it keeps to (:class:`RateLimiter`: per chat, per group and for the whole bot, on the bot's
clock) are below it.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import contextvars
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Final

from bot.clock import Clock
from bot.delivery.outbox.queue import ChatQueue, Priority

log = logging.getLogger(__name__)

SPARE_FOR_CLEANUP: Final = 0.1
"""Old messages are deleted only while at least this share of the bot's second is unused (else not at all: a
chat's old turn messages then stay, and go in one call once there is room)."""
CLEANUP_POLL: Final = 0.25
"""Clock seconds between two looks whether the bot has calls to spare for deleting old messages."""
IDLE_WAKE: Final = 60.0
"""Clock seconds the loop sleeps when nothing is pending (it is woken by new work anyway)."""

Serve = Callable[[ChatQueue, float, bool], Awaitable[None]]
"""Makes one call for a chat, given the stamp of the place taken for it and whether that place counts as a message
(else it was taken for deleting old messages: see :meth:`RateLimiter.take`)."""


Tell = Callable[[int, list[int]], None]
"""Marks members' questions in a chat as coming (their answers wait): the chat and the messages that asked."""


class CallScheduler:
    def __init__(self, limiter: RateLimiter, clock: Clock, serve: Serve, tell: Tell | None = None) -> None:
        self.limiter = limiter
        self.clock = clock
        self.serve = serve
        self.tell = tell
        self.queues: dict[int, ChatQueue] = {}
        self.unsent: set[int] = set()
        """Notices queued or on their way (a live message may wait for one, see :attr:`Live.after`)."""
        self._wake = asyncio.Event()
        self.idle_event = asyncio.Event()
        self.idle_event.set()
        self._loop: asyncio.Task[None] | None = None
        self._calls: set[asyncio.Task[None]] = set()
        self._closed = False

    def queue(self, chat_id: int) -> ChatQueue:
        queue = self.queues.get(chat_id)
        if queue is None:
            queue = self.queues[chat_id] = ChatQueue(chat_id)
        return queue

    def kick(self) -> None:
        """Something was queued (or a chat became free): look for the next call."""
        if self._closed:
            return
        self.idle_event.clear()
        self._wake.set()
        if self._loop is None or self._loop.done():
            # A context of its own: the loop serves every chat and must not carry the update (or the game) that
            # happened to start it, nor pass them on to its calls.
            self._loop = asyncio.create_task(self._run(), name="outbox", context=contextvars.Context())

    def settle(self, queue: ChatQueue) -> None:
        """Forget an empty, idle chat (it costs no memory); notice when nothing at all is left."""
        if not queue and not queue.busy and self.queues.get(queue.chat_id) is queue:
            del self.queues[queue.chat_id]
        if not any(q or q.busy for q in self.queues.values()):
            self.idle_event.set()

    def is_pending(self) -> bool:
        return any(self.queues.values())

    async def idle(self) -> None:
        await self.idle_event.wait()

    async def stop(self) -> None:
        self._closed = True
        tasks = [t for t in (self._loop, *self._calls) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def pick(self, now: float) -> tuple[ChatQueue | None, float, bool]:
        """The chat to call now, if any; else the clock seconds until one may be ready; and whether its call sends or
        edits a message (else it deletes old ones)."""
        best: ChatQueue | None = None
        best_key: str | int | None = None
        best_rank = 0.0
        wake_at = now + IDLE_WAKE
        cleanup_allowed = (
            self.limiter.global_room(now) >= self.limiter.limits.global_per_second * SPARE_FOR_CLEANUP
        )
        for queue in self.queues.values():
            until = queue.idle_until
            if until > now:  # found waiting, and unchanged since (most chats, most of the time)
                if until < wake_at:
                    wake_at = until
                continue
            if queue.busy or not queue:
                continue
            if queue.ready:
                key = queue.ready_key
            else:
                until, key = self._look(queue, now)
                if until > now:
                    wake_at = min(wake_at, until)
                    continue
            if key is None:  # old messages to delete
                if not cleanup_allowed:
                    wake_at = min(wake_at, now + CLEANUP_POLL)
                    continue
            elif queue.is_held(key, self.unsent):
                continue
            rank = queue.rank(queue.served)
            # A tie goes to the chat served longer ago: a chat served at the moment its call was asked for would
            # otherwise go again before chats never served.
            if best is None or rank < best_rank or (rank == best_rank and queue.served < best.served):
                best, best_key, best_rank = queue, key, rank
        return best, wake_at - now, best_key is not None

    def _look(self, queue: ChatQueue, now: float) -> tuple[float, str | int | None]:
        """The clock time the chat's next call may go (a paced table's time, old messages' batch, a back-off, the
        chat's rate windows) and its item (None: old messages to delete). The queue remembers what time cannot
        undo until it changes: passed over until then, or ready (unless an item ahead of the one found comes due
        later and would go first)."""
        key = queue.next_key(now) if queue.has_items else None
        if key is not None:
            until = now
        elif queue.has_items:  # only a paced table, whose time has not come
            until = queue.next_time()
        else:
            until = queue.deletions_due()
        wait = self.limiter.chat_wait(queue.chat_id, now, message=key is not None)
        until = max(until, queue.retry_at, now + wait)
        if key is not None and queue.asked[key][1] is Priority.ASKED and is_group(queue.chat_id):
            # beyond their own share, answers to members leave the games their places; a game's message that
            # comes due meanwhile (a paced table) goes first, so the chat is looked at again by then
            beyond = now + self.limiter.chat_wait(queue.chat_id, now, keep=queue.kept_for_games(now))
            held = min(queue.share_back(now), beyond)
            if held > until:
                until = min(held, max(until, queue.games_due()))
        if queue.questions and self.tell is not None:
            # answers that have waited a few seconds mark their questions as coming; the chat is looked at
            # again when the next will have
            due, later = queue.questions_due(now)
            if due:
                self.tell(queue.chat_id, due)
            if until > now:
                until = min(until, later)
        if until > now:
            queue.idle_until = until
        elif queue.goes_first(key):
            queue.ready, queue.ready_key = True, key
        return until, key

    async def _run(self) -> None:
        while not self._closed:
            try:
                await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox's scheduler failed; going on")
                await self.clock.sleep(1.0)

    async def _step(self) -> None:
        self._wake.clear()
        now = self.clock.now()
        wait = self.limiter.global_wait(now)
        if wait > 0:
            await self.clock.sleep(wait + 0.001)
            return
        queue, soonest, message = self.pick(now)
        if queue is None:
            if not self.is_pending() and not any(q.busy for q in self.queues.values()):
                self.idle_event.set()
            await self.clock.wait(self._wake, soonest + 0.001)
            return
        stamp = self.limiter.take(queue.chat_id, now, message=message)
        queue.busy = True
        queue.served = now
        task = asyncio.create_task(self._call(queue, stamp, message), name=f"outbox:{queue.chat_id}")
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _call(self, queue: ChatQueue, stamp: float, message: bool) -> None:
        try:
            await self.serve(queue, stamp, message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("outbox call to chat %s failed", queue.chat_id)
        finally:
            queue.busy = False
            queue.changed()
            self.settle(queue)
            if not self._closed:
                self._wake.set()


SAFETY: Final = 1.05
"""Our windows are this much longer than Telegram's, so jitter never tips a call over the limit ..."""
JITTER: Final = 0.01
"""... plus this many real seconds (requests reach Telegram a little later or earlier than we count them)."""
SWEEP_EVERY: Final = 60.0
"""Seconds of the bot's clock between two sweeps of the rate windows that have emptied."""


@dataclass(frozen=True, slots=True)
class OutboxLimits:
    chat_interval: float = 1.0
    group_per_minute: int = 20
    global_per_second: int = 30
    paced_interval: float = 5.0
    """Clock seconds between two calls for one paced message (a group's table): at most 12 of the group's 20
    calls a minute, however fast the moves come; the rest stay for deal ends, the party's end and lobbies."""


def is_group(chat_id: int) -> bool:
    return chat_id < 0


IN_FLIGHT_WAIT: Final = 0.05
"""Clock seconds to look again when a window is full of calls still on their way (each answer wakes us too)."""


class _Window:
    def __init__(self, capacity: int, length: float, margin: float) -> None:
        self.capacity = capacity
        self.length = length * SAFETY + margin
        self.stamps: deque[float] = deque()
        self.in_flight = 0
        """Calls on their way: each holds a place until it is answered (then it counts from the answer on)."""

    def wait(self, now: float, keep: int = 0) -> float:
        """Clock seconds until one more call fits, leaving ``keep`` places free for others."""
        while self.stamps and self.stamps[0] <= now - self.length:
            self.stamps.popleft()
        taken = len(self.stamps) + self.in_flight
        capacity = max(1, self.capacity - keep)
        if taken < capacity:
            return 0.0
        expiring = taken - capacity  # this many answered calls must leave the window first
        if expiring >= len(self.stamps):
            return IN_FLIGHT_WAIT
        return self.stamps[expiring] + self.length - now


class RateLimiter:
    """Sliding windows per chat, per group and for the whole bot, on the bot's clock.

    The scheduler asks :meth:`chat_wait` (may this chat be written to now?) and :meth:`global_wait` (is there
    room in the bot's second?) and then :meth:`take` a place; :meth:`acquire` does all three, waiting.
    """

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
            if not window.stamps and not window.in_flight:
                del self._windows[key]

    def _for_chat(self, chat_id: int, message: bool = True) -> list[_Window]:
        windows = []
        if self.limits.chat_interval > 0:
            key = ("chat", chat_id)
            if key not in self._windows:
                self._windows[key] = _Window(1, self.limits.chat_interval, self._margin)
            windows.append(self._windows[key])
        if is_group(chat_id) and message:
            windows.append(self._group_window(chat_id))
        return windows

    def _for(self, chat_id: int, message: bool = True) -> list[_Window]:
        return [self._global, *self._for_chat(chat_id, message)]

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
        """Calls to groups made by a previous run: they count against the same minute windows here. A stamp
        later than now (the wall clock set back between the runs) counts as made now: it cannot hold the window
        for longer than a window lasts."""
        now = self.clock.now()
        for chat_id, stamp in stamps:
            if is_group(chat_id):
                bisect.insort(self._group_window(chat_id).stamps, min(stamp, now))

    def chat_wait(self, chat_id: int, now: float, *, keep: int = 0, message: bool = True) -> float:
        """Clock seconds until one more call to ``chat_id`` fits its own windows (the bot's aside); ``keep``:
        leaving that many places of a group's minute free (for its games); ``message=False``: a call that deletes
        (it takes no place of a group's minute, see :meth:`take`)."""
        key = ("chat", chat_id)
        window = self._windows.get(key)
        wait = window.wait(now) if window is not None else 0.0
        if is_group(chat_id) and message:
            group = self._windows.get(("group", chat_id))
            if group is not None:
                wait = max(wait, group.wait(now, keep))
        return wait

    def global_wait(self, now: float) -> float:
        """Clock seconds until the bot's own window has room for one more call."""
        return self._global.wait(now)

    def global_room(self, now: float) -> int:
        """How many more calls the bot's window takes right now."""
        self._global.wait(now)
        return self._global.capacity - len(self._global.stamps)

    def wait_for(self, chat_id: int) -> float:
        now = self.clock.now()
        return max(self.global_wait(now), self.chat_wait(chat_id, now))

    def take(self, chat_id: int, now: float, *, message: bool = True) -> float:
        """Take a place for one call to ``chat_id`` in every window, held until :meth:`restamp` or
        :meth:`release`: a call still on its way (a slow network, a busy event loop) never leaves a window.

        ``message=False``: a call that deletes old messages. Telegram's 20 a minute into a group are messages
        sent (and, in practice, edited); a deletion sends none, and Telegram's fake (``tests/fakebot/limits.py``)
        counts it in no window either, so it takes no place of the group's minute. It keeps the chat's one call a
        second and the bot's 30 a second all the same: no figure for deletions is published, and those cost a
        table at most a second."""
        self.sweep()
        for window in self._for(chat_id, message):
            window.in_flight += 1
        return now

    def release(self, chat_id: int, stamp: float, *, message: bool = True) -> None:
        """Give back a place that no call used."""
        for window in self._for(chat_id, message):
            window.in_flight = max(0, window.in_flight - 1)

    async def acquire(self, chat_id: int) -> float:
        """Wait until one more call to ``chat_id`` fits every window, and take its place; the place's stamp."""
        while True:
            wait = self.wait_for(chat_id)
            if wait <= 0:
                now = self.clock.now()
                for window in self._for(chat_id):
                    window.stamps.append(now)
                return now
            await self.clock.sleep(wait + 0.001)

    def restamp(self, chat_id: int, stamp: float, *, message: bool = True) -> None:
        """Count the call given a place by :meth:`take` from now on, now that it is answered.

        Telegram counts a call when it arrives, which may be later than we took its place (a slow network, a
        busy event loop); counting it at the answer instead keeps our windows behind Telegram's, never ahead.
        """
        now = self.clock.now()
        for window in self._for(chat_id, message):
            if window.in_flight > 0:
                window.in_flight -= 1
                bisect.insort(window.stamps, now)
