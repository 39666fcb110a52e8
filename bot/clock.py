"""The bot's clock: seconds that may run faster than real time, and never jump.

Every delay of the bot (bot-move pauses, AFK limits, lobby expiry, rate limits, throttles, back-off, 429 waits)
goes through one :class:`Clock`, so a test can run the whole bot ``speed`` times faster against an accelerated
fake server.

The clock reads the wall clock once, when it is made, and from then on advances with the monotonic clock. So
``now()`` is wall time as far as anything stored is concerned — a deadline or a time written by one run compares
with what the next run reads — while a step of the machine's wall clock (an NTP correction, a virtual machine
resumed) moves nothing inside a run: no window stalls for the size of a step back, no timer fires early for a
step forward. A step is noticed and logged once; the run keeps its own time until it restarts.

What the clock measured is kept in :class:`Buckets`: a histogram's counts, read by the metrics when scraped.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
import time
from typing import Final

log = logging.getLogger(__name__)

STEP_NOTICED: Final = 2.0
"""Real seconds the wall clock may drift from the bot's before a step is logged."""
STEP_LOOK_EVERY: Final = 60.0
"""Real seconds between two looks whether the wall clock stepped."""


class Clock:
    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("clock speed must be positive")
        self.speed = speed
        self._wall = time.time()
        self._origin = time.monotonic()
        self._looked = self._origin
        self._stepped = 0.0
        """The wall clock's step last logged (real seconds)."""

    def now(self) -> float:
        """Seconds of this clock: wall time when it was made, plus monotonic time since, scaled by ``speed``."""
        elapsed = time.monotonic() - self._origin
        if elapsed + self._origin - self._looked >= STEP_LOOK_EVERY:
            self._look_for_a_step(elapsed)
        return (self._wall + elapsed) * self.speed

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.speed)

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait until ``event`` is set (True) or ``seconds`` of this clock have passed (False)."""
        try:
            await asyncio.wait_for(event.wait(), max(0.0, seconds) / self.speed)
        except TimeoutError:
            return False
        return True

    def real(self, seconds: float) -> float:
        """How many real seconds ``seconds`` of this clock take."""
        return max(0.0, seconds) / self.speed

    def _look_for_a_step(self, elapsed: float) -> None:
        self._looked = self._origin + elapsed
        step = time.time() - (self._wall + elapsed)
        if abs(step - self._stepped) >= STEP_NOTICED:
            self._stepped = step
            log.warning(
                "the system clock moved by %+.0f s against the monotonic clock; the bot keeps its own time "
                "(windows and timers go on unchanged) until it restarts",
                step,
            )


class Buckets:
    """A histogram's counts (cumulative when read), as Prometheus's text format wants them."""

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value

    def cumulative(self) -> list[tuple[str, float]]:
        running, out = 0, []
        for bound, count in zip((*map(str, self.bounds), "+Inf"), self.counts, strict=True):
            running += count
            out.append((bound, float(running)))
        return out
