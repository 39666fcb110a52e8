"""One lock per game, kept only while in use: it exists while someone holds it or waits for it, so a forged game
id leaves nothing behind."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import TracebackType


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
