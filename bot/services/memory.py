"""What the game service keeps in memory, bounded: per-game locks and a cache of game states.

Both hold only what is in use. A game's lock exists while someone holds it or waits for it (so a forged game id
leaves nothing behind); a state is cached while its game is active and was touched recently, at most
``limit`` of them, and is rebuilt from the database record (the plug-in's ``restore``) when needed again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Final, Generic, Protocol, TypeVar

STATES_CACHED: Final = 1000
"""At most this many game states stay in memory (the most recently used)."""
STATE_IDLE: Final = 3600.0
"""A state untouched for this long (seconds of the bot's clock) leaves memory."""


@dataclass(slots=True)
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Holders and waiters: the entry goes when the last one leaves."""


class GameLocks:
    """``async with locks[game_id]:`` — one lock per game, kept only while in use."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, game_id: int) -> _Held:
        return _Held(self._entries, game_id)


class _Held:
    def __init__(self, entries: dict[int, _Entry], game_id: int) -> None:
        self._entries = entries
        self._game_id = game_id

    async def __aenter__(self) -> None:
        entry = self._entries.get(self._game_id)
        if entry is None:
            entry = self._entries[self._game_id] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        entry = self._entries[self._game_id]
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and self._entries.get(self._game_id) is entry:
            del self._entries[self._game_id]


class Finishable(Protocol):
    @property
    def is_terminal(self) -> bool: ...


StateT = TypeVar("StateT", bound=Finishable)


class StateCache(Generic[StateT]):
    """Game states by game id: the most recently used, untouched for less than ``idle``; finished ones never."""

    def __init__(
        self, now: Callable[[], float], limit: int = STATES_CACHED, idle: float = STATE_IDLE
    ) -> None:
        self._now = now
        self._limit = limit
        self._idle = idle
        self._states: OrderedDict[int, tuple[StateT, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._states

    def get(self, game_id: int) -> StateT | None:
        found = self._states.get(game_id)
        if found is None:
            return None
        self._states[game_id] = (found[0], self._now())
        self._states.move_to_end(game_id)
        return found[0]

    def __setitem__(self, game_id: int, state: StateT) -> None:
        if state.is_terminal:
            self._states.pop(game_id, None)
        else:
            self._states[game_id] = (state, self._now())
            self._states.move_to_end(game_id)
        self._evict()

    def pop(self, game_id: int) -> None:
        self._states.pop(game_id, None)

    def _evict(self) -> None:
        oldest = self._now() - self._idle
        while self._states:
            game_id, (_, touched) = next(iter(self._states.items()))
            if len(self._states) <= self._limit and touched > oldest:
                break
            del self._states[game_id]
