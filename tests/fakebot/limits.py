"""Telegram's flood limits on a clock that can run faster than real time.

The rule (sliding windows, every window must have room; a refused request takes no room):
- per chat: at most `per_chat` messages in any `per_chat_window` seconds (default 2 in 2 s: about one a second,
  with a burst of two tolerated);
- per group or supergroup, in addition: at most `per_group` in any `per_group_window` seconds (default 20 in 60 s);
- for the whole bot: at most `overall` in any `overall_window` seconds (default 30 in 1 s).
Counted: sends and edits (see `RATE_LIMITED_METHODS` in server.py). deleteMessage, answerCallbackQuery,
sendChatAction and reads are not counted.

Time: the windows are measured in "Telegram seconds" on a `ScaledClock` (or, in-process, on the test's
`ManualClock`, shared with the bot: see `manual.py`). With `speed=60` a Telegram minute passes in one real second. A refused request gets `retry_after = max(1, ceil(wait / speed))`: the wait in *real*
seconds, rounded up, so a bot that simply sleeps `retry_after` seconds is always right (aiogram's retry_after is
an int, so one real second is the shortest wait a fast test will see).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol


class TelegramClock(Protocol):
    """Telegram's time as the fake reads it: :class:`ScaledClock` (real time × speed), or a test's
    ``tests.fakebot.manual.ManualClock`` (moved by hand, shared with the bot)."""

    speed: float

    def now(self) -> float: ...

    def to_real(self, seconds: float) -> float: ...

    async def sleep(self, seconds: float) -> None: ...

    async def wait(self, event: asyncio.Event, seconds: float) -> bool: ...


class ScaledClock:
    """Monotonic "Telegram time" in seconds: real time × speed, plus any manual advance."""

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.speed = speed
        self._origin = time.monotonic()
        self._offset = 0.0
        self._frozen_at: float | None = None

    def now(self) -> float:
        if self._frozen_at is not None:
            return self._frozen_at + self._offset
        return (time.monotonic() - self._origin) * self.speed + self._offset

    def freeze(self) -> None:
        """Stop Telegram time (only `advance` moves it) so that a test can count precisely."""
        if self._frozen_at is None:
            self._frozen_at = (time.monotonic() - self._origin) * self.speed

    def resume(self) -> None:
        """Let Telegram time flow again from where it stood."""
        if self._frozen_at is not None:
            self._origin = time.monotonic() - self._frozen_at / self.speed
            self._frozen_at = None

    def advance(self, seconds: float) -> None:
        """Jump Telegram time forward (e.g. to let every window drain at once)."""
        self._offset += seconds

    def to_real(self, seconds: float) -> float:
        return seconds / self.speed

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of Telegram time (real time / speed; a frozen clock is not waited for)."""
        await asyncio.sleep(max(0.0, self.to_real(seconds)))

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait until ``event`` is set (True), at most ``seconds`` of Telegram time (False)."""
        try:
            await asyncio.wait_for(event.wait(), max(0.0, self.to_real(seconds)))
        except TimeoutError:
            return False
        return True


@dataclass(frozen=True)
class Limits:
    """Message counts and windows (Telegram seconds); `enabled=False` turns the limiter off."""

    per_chat: int = 2
    per_chat_window: float = 2.0
    per_group: int = 20
    per_group_window: float = 60.0
    overall: int = 30
    overall_window: float = 1.0
    enabled: bool = True

    @classmethod
    def off(cls) -> Limits:
        return cls(enabled=False)


class _Window:
    def __init__(self, capacity: int, length: float) -> None:
        self.capacity = capacity
        self.length = length
        self.stamps: deque[float] = deque()

    def wait(self, now: float) -> float:
        """Telegram seconds until one more message fits (0 when it fits now)."""
        while self.stamps and self.stamps[0] <= now - self.length:
            self.stamps.popleft()
        if len(self.stamps) < self.capacity:
            return 0.0
        oldest_to_expire = self.stamps[len(self.stamps) - self.capacity]
        return oldest_to_expire + self.length - now


class RateLimiter:
    """Decides whether a counted request to a chat may go now; remembers the ones that did."""

    def __init__(self, limits: Limits, clock: TelegramClock) -> None:
        self.limits = limits
        self.clock = clock
        self._windows: dict[Hashable, _Window] = {}

    def _window(self, key: Hashable, capacity: int, length: float) -> _Window:
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(capacity, length)
        return window

    def _applicable(self, chat_id: int, is_group: bool) -> list[_Window]:
        limits = self.limits
        windows = [
            self._window(("chat", chat_id), limits.per_chat, limits.per_chat_window),
            self._window("overall", limits.overall, limits.overall_window),
        ]
        if is_group:
            windows.append(self._window(("group", chat_id), limits.per_group, limits.per_group_window))
        return windows

    def acquire(self, chat_id: int, *, is_group: bool) -> int | None:
        """Take a slot and return None, or return retry_after (real seconds, >= 1) and take nothing."""
        if not self.limits.enabled:
            return None
        now = self.clock.now()
        windows = self._applicable(chat_id, is_group)
        wait = max(window.wait(now) for window in windows)
        if wait > 0:
            return max(1, math.ceil(self.clock.to_real(wait) - 1e-9))
        for window in windows:
            window.stamps.append(now)
        return None
