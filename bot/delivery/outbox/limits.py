"""The outbox's rate windows: per chat, per group and for the whole bot, on the bot's clock."""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from bot.clock import Clock

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

    def wait(self, now: float) -> float:
        while self.stamps and self.stamps[0] <= now - self.length:
            self.stamps.popleft()
        taken = len(self.stamps) + self.in_flight
        if taken < self.capacity:
            return 0.0
        expiring = taken - self.capacity  # this many answered calls must leave the window first
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

    def _for_chat(self, chat_id: int) -> list[_Window]:
        windows = []
        if self.limits.chat_interval > 0:
            key = ("chat", chat_id)
            if key not in self._windows:
                self._windows[key] = _Window(1, self.limits.chat_interval, self._margin)
            windows.append(self._windows[key])
        if is_group(chat_id):
            windows.append(self._group_window(chat_id))
        return windows

    def _for(self, chat_id: int) -> list[_Window]:
        return [self._global, *self._for_chat(chat_id)]

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

    def chat_wait(self, chat_id: int, now: float) -> float:
        """Clock seconds until one more call to ``chat_id`` fits its own windows (the bot's aside)."""
        key = ("chat", chat_id)
        window = self._windows.get(key)
        wait = window.wait(now) if window is not None else 0.0
        if is_group(chat_id):
            group = self._windows.get(("group", chat_id))
            if group is not None:
                wait = max(wait, group.wait(now))
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

    def take(self, chat_id: int, now: float) -> float:
        """Take a place for one call to ``chat_id`` in every window, held until :meth:`restamp` or
        :meth:`release`: a call still on its way (a slow network, a busy event loop) never leaves a window."""
        self.sweep()
        for window in self._for(chat_id):
            window.in_flight += 1
        return now

    def release(self, chat_id: int, stamp: float) -> None:
        """Give back a place that no call used."""
        for window in self._for(chat_id):
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

    def restamp(self, chat_id: int, stamp: float) -> None:
        """Count the call given a place by :meth:`take` from now on, now that it is answered.

        Telegram counts a call when it arrives, which may be later than we took its place (a slow network, a
        busy event loop); counting it at the answer instead keeps our windows behind Telegram's, never ahead.
        """
        now = self.clock.now()
        for window in self._for(chat_id):
            if window.in_flight > 0:
                window.in_flight -= 1
                bisect.insort(window.stamps, now)
