"""Answers worth keeping: work that says the same whenever it is asked (a hint is seeded by the game and its
version, a finished party's review by its record), done once however often — and by however many at once — it is
asked, and kept for the next asking."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """The results of the last ``size`` keys' work; a key asked again while its work runs waits for that work.
    Work that fails is not kept (the next asking tries again); an asker that goes away (a closed page) does not
    stop the work others wait for."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._done: OrderedDict[K, V] = OrderedDict()
        self._running: dict[K, asyncio.Task[V]] = {}
        self.made = 0
        """How many times the work was done (not found kept, nor running)."""

    async def get(self, key: K, make: Callable[[], Coroutine[Any, Any, V]]) -> V:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        task = self._running.get(key)
        if task is None:
            task = asyncio.create_task(make())
            self._running[key] = task
            self.made += 1
            task.add_done_callback(lambda t: self._finished(key, t))
        return await asyncio.shield(task)

    def _finished(self, key: K, task: asyncio.Task[V]) -> None:
        self._running.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        self._done[key] = task.result()
        while len(self._done) > self.size:
            self._done.popitem(last=False)
