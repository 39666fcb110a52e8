"""Who gets the bot's next call: the chat whose most urgent message has waited longest, within every limit.

One loop hands out the bot's ~30 calls a second. Each chat with something pending has a place in line (see
:meth:`ChatQueue.rank`): the time its most urgent message was asked for, moved later by a head start per
:class:`Priority` (a turn notice goes before a hand, a hand before a group table; old messages are
deleted in batches, only while the budget has room) and never earlier than the chat's previous call — so
chats take turns, and a table that waited long enough goes before a newer hand: nothing starves. A chat is
skipped while its own windows (one call a second, 20 a minute into a group) are full, while a call to it is on
its way, while it backs off, or while all it has is a paced table whose time has not come.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from bot.clock import Clock
from bot.delivery.outbox.limits import RateLimiter
from bot.delivery.outbox.queue import ChatQueue

log = logging.getLogger(__name__)

SPARE_FOR_CLEANUP: Final = 0.1
"""Old messages are deleted only while at least this share of the bot's second is unused (else not at all: a
chat's old turn messages then stay, and go in one call once there is room)."""
CLEANUP_POLL: Final = 0.25
"""Clock seconds between two looks whether the bot has calls to spare for deleting old messages."""
IDLE_WAKE: Final = 60.0
"""Clock seconds the loop sleeps when nothing is pending (it is woken by new work anyway)."""

Serve = Callable[[ChatQueue, float], Awaitable[None]]
"""Makes one call for a chat, given the stamp of the place taken for it."""


class CallScheduler:
    def __init__(self, limiter: RateLimiter, clock: Clock, serve: Serve) -> None:
        self.limiter = limiter
        self.clock = clock
        self.serve = serve
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

    def pick(self, now: float) -> tuple[ChatQueue | None, float]:
        """The chat to call now, if any; else the clock seconds until one may be ready."""
        best: ChatQueue | None = None
        best_rank = 0.0
        soonest = IDLE_WAKE
        cleanup_allowed = (
            self.limiter.global_room(now) >= self.limiter.limits.global_per_second * SPARE_FOR_CLEANUP
        )
        for queue in self.queues.values():
            if queue.busy or not queue:
                continue
            if queue.has_items:
                key = queue.next_key(now)
                if key is None:  # only a paced table, whose time has not come
                    soonest = min(soonest, queue.next_time() - now)
                    continue
                if queue.is_held(key, self.unsent):
                    continue
            elif queue.deletions_due() > now:
                soonest = min(soonest, queue.deletions_due() - now)
                continue
            if queue.retry_at > now:
                soonest = min(soonest, queue.retry_at - now)
                continue
            wait = self.limiter.chat_wait(queue.chat_id, now)
            if wait > 0:
                soonest = min(soonest, wait)
                continue
            if not queue.has_items and not cleanup_allowed:
                soonest = min(soonest, CLEANUP_POLL)
                continue
            rank = queue.rank(queue.served)
            if best is None or rank < best_rank:
                best, best_rank = queue, rank
        return best, soonest

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
        queue, soonest = self.pick(now)
        if queue is None:
            if not self.is_pending() and not any(q.busy for q in self.queues.values()):
                self.idle_event.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.clock.real(soonest + 0.001))
            return
        stamp = self.limiter.take(queue.chat_id, now)
        queue.busy = True
        queue.served = now
        task = asyncio.create_task(self._call(queue, stamp), name=f"outbox:{queue.chat_id}")
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _call(self, queue: ChatQueue, stamp: float) -> None:
        try:
            await self.serve(queue, stamp)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("outbox call to chat %s failed", queue.chat_id)
        finally:
            queue.busy = False
            self.settle(queue)
            if not self._closed:
                self._wake.set()
