"""The machine's wall clock, stepped: what an NTP correction or a virtual machine's resume does to ``time.time``.

:class:`SteppedWallClock` replaces ``time.time`` and ``time.time_ns`` in this process (the bot under test, the
fake server and every library see the same step); ``time.monotonic`` and the event loop's clock, which never
step on a real machine either, are left alone. ``step(-120)`` sets the wall clock two minutes back at once.

Use it as a context manager (the real clock comes back on exit)::

    with SteppedWallClock() as wall:
        ...
        wall.step(-120)
"""

from __future__ import annotations

import time
from types import TracebackType


class SteppedWallClock:
    def __init__(self) -> None:
        self.offset = 0.0
        """Real seconds the wall clock is ahead of the true time (negative: behind)."""
        self._time = time.time
        self._time_ns = time.time_ns

    def step(self, seconds: float) -> None:
        """The wall clock jumps by ``seconds`` (real seconds; negative: back)."""
        self.offset += seconds

    def _now(self) -> float:
        return self._time() + self.offset

    def _now_ns(self) -> int:
        return self._time_ns() + int(self.offset * 1e9)

    def __enter__(self) -> SteppedWallClock:
        time.time = self._now
        time.time_ns = self._now_ns
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        time.time = self._time
        time.time_ns = self._time_ns
