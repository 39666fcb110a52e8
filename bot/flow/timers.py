"""Each active game's timer: a task that sleeps until its game has something due, or until it is poked, and then
runs the step the service gave it (see :meth:`bot.flow.service.GameService._on_timer`). It knows nothing of
games: the step says how long to sleep next (None: the game needs no timer any more)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from bot.clock import Clock
from bot.flow.store import Match

log = logging.getLogger(__name__)

AFTER_A_FAILURE: Final = 5.0
"""Clock seconds a timer whose step failed sleeps before it tries again."""

Step = Callable[[int, Match | None], Awaitable[float | None]]
"""Do what is due in a game now (given the game as its last change committed it, if known); the clock seconds
until the next thing is due, or None."""


class TurnTimers:
    def __init__(self, clock: Clock, step: Step) -> None:
        self.clock = clock
        self._step = step
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wakes: dict[int, asyncio.Event] = {}
        self._fresh: dict[int, Match] = {}
        """The game as its last change committed it, handed over by :meth:`poke`: a step that finds nothing due
        in it needs no read of its own."""
        self._closed = False

    def __len__(self) -> int:
        return len(self._tasks)

    def poke(self, game_id: int, fresh: Match | None = None) -> None:
        """Something changed in this game (``fresh``: the game as that change committed it, if known): its timer
        looks again at what is due."""
        if self._closed:
            return
        if fresh is not None:
            self._fresh[game_id] = fresh
        else:
            self._fresh.pop(game_id, None)
        wake = self._wakes.get(game_id)
        task = self._tasks.get(game_id)
        if task is not None and not task.done() and wake is not None:
            wake.set()
            return
        wake = self._wakes[game_id] = asyncio.Event()
        # A context of its own: the timer outlives the update that started it and must not mark it processed.
        self._tasks[game_id] = asyncio.create_task(
            self._run(game_id, wake), name=f"game:{game_id}", context=contextvars.Context()
        )

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, game_id: int, wake: asyncio.Event) -> None:
        try:
            while not self._closed:
                wake.clear()
                try:
                    delay = await self._step(game_id, self._fresh.pop(game_id, None))
                except Exception:
                    log.exception("game %s: its timer failed", game_id)
                    delay = AFTER_A_FAILURE
                if delay is None:
                    return
                if delay <= 0:
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), self.clock.real(delay))
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
                self._wakes.pop(game_id, None)
