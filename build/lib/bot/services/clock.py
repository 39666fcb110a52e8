"""The bot's clock: wall time that may run faster than real time.

Every delay of the bot (bot-move pauses, AFK limits, lobby expiry, rate limits, 429 waits) goes through one
:class:`Clock`, so a test can run the whole bot ``speed`` times faster against an accelerated fake server.
``now()`` is derived from the wall clock, so deadlines stored in the database stay meaningful after a restart.
"""

from __future__ import annotations

import asyncio
import time


class Clock:
    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("clock speed must be positive")
        self.speed = speed

    def now(self) -> float:
        """Seconds of this clock (wall time scaled by ``speed``)."""
        return time.time() * self.speed

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.speed)

    def real(self, seconds: float) -> float:
        """How many real seconds ``seconds`` of this clock take."""
        return max(0.0, seconds) / self.speed
