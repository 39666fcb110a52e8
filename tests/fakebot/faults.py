"""Network faults the fake server can switch on for a while: 5xx answers, requests that hang, slow answers.

A fault covers a window of Telegram time (see :class:`ScaledClock`) and a set of methods (by default every
method but getUpdates, so that updates keep arriving while the bot's own calls fail). Which requests meet a fault
is decided when they arrive:

- ``ERROR``: the call is not executed and is answered ``code`` — as JSON ``{"ok": false, "error_code": 502,
  "description": "Bad Gateway"}`` the way the Bot API answers, or as the HTML page of a proxy in front of it;
- ``HANG``: the call is not executed and never answered: the connection stays open until the server stops (the
  bot has to give up on it by its own request timeout; in-process, the request's timeout runs out on the test's
  clock);
- ``SLOW``: the call is executed after ``delay`` Telegram seconds;
- ``GARBLE``: the call is not executed and is answered 200 with a body that is not JSON (a proxy or a broken
  connection cut it short);
- ``LOSE``: the call **is** executed, but its answer never comes back (the connection stays open until the
  server stops): the bot cannot tell it from a call that never arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from tests.fakebot.limits import TelegramClock

GATEWAY_PAGE = (
    "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
)
"""What a proxy in front of the Bot API answers when the API behind it is down: not JSON."""
HANG_POLL = 0.05
"""Real seconds between two looks whether the client of a hung HTTP request has given up on it."""
REASONS = {
    400: "Bad Request: IMAGE_PROCESS_FAILED",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


class FaultKind(StrEnum):
    ERROR = "error"
    HANG = "hang"
    SLOW = "slow"
    GARBLE = "garble"
    LOSE = "lose"


@dataclass(frozen=True, slots=True)
class Fault:
    kind: FaultKind
    methods: frozenset[str] | None
    """Method names as Telegram spells them; None: every method but getUpdates."""
    until: float
    """Telegram time at which the fault ends."""
    code: int = 502
    is_html: bool = False
    delay: float = 0.0

    def covers(self, method: str, now: float) -> bool:
        if now >= self.until:
            return False
        if self.methods is None:
            return method != "getUpdates"
        return method in self.methods


class Faults:
    """The faults switched on now, and what they did (for assertions)."""

    def __init__(self, clock: TelegramClock) -> None:
        self.clock = clock
        self._active: list[Fault] = []
        self._stopped = asyncio.Event()
        self.errors = 0
        self.hangs = 0
        self.delays = 0
        self.garbled = 0
        self.lost = 0

    def add(
        self,
        kind: FaultKind,
        seconds: float,
        methods: tuple[str, ...],
        *,
        code: int = 502,
        is_html: bool = False,
        delay: float = 0.0,
    ) -> Fault:
        chosen = frozenset(methods) if methods else None
        fault = Fault(kind, chosen, self.clock.now() + seconds, code, is_html, delay)
        self._active.append(fault)
        return fault

    def clear(self) -> None:
        self._active.clear()

    def stop(self) -> None:
        """The server stops: hung requests end (their connections close)."""
        self._stopped.set()

    def is_active(self) -> bool:
        now = self.clock.now()
        self._active = [f for f in self._active if f.until > now]
        return bool(self._active)

    def find(self, method: str) -> Fault | None:
        now = self.clock.now()
        self._active = [f for f in self._active if f.until > now]
        return next((f for f in self._active if f.covers(method, now)), None)

    async def hang(self, gone: Callable[[], bool] | asyncio.Event = lambda: False) -> None:
        """Leave a request unanswered until the server stops, or until its client gave up: ``gone()`` says so (an
        HTTP connection, looked at every :data:`HANG_POLL` real seconds), or the event ``gone`` is set (a request
        made in-process, given up on the test's clock)."""
        if isinstance(gone, asyncio.Event):
            waits = {asyncio.ensure_future(self._stopped.wait()), asyncio.ensure_future(gone.wait())}
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in waits:
                    waiting.cancel()
            return
        while not self._stopped.is_set() and not gone():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), HANG_POLL)

    async def delay(self, fault: Fault) -> None:
        self.delays += 1
        await self.clock.sleep(fault.delay)
