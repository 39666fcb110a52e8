"""Time moved by hand, for in-process tests: one clock for the bot and the fake Telegram, and a loop run until idle.

:class:`ManualClock` is a :class:`bot.clock.Clock` whose time moves only when :meth:`ManualClock.advance_to` moves
it: every ``sleep`` and ``wait`` of the bot (bot moves, turn limits, the outbox's pace, 429s, throttles) and of the
fake Telegram (slow and hung calls, a request's timeout) is a *sleeper* with a deadline, woken in deadline order as
time passes it, the loop run until idle after each (so a sleeper woken at 10 s that sleeps 1 s more wakes at 11 s,
before one due at 12 s). It keeps a nominal ``speed`` (60 in the e2e tests): what the bot and the fake count in
"real seconds" (aiogram's request timeouts, ``retry_after``, a test's ``timeout=5``) is ``speed`` clock seconds,
as it is at that speed in real time.

:class:`Driver` runs the loop until nothing is runnable (:meth:`Driver.settle`): no callback ready, no statement
on SQLite's thread (``Database.pending``, counted through :meth:`Driver.watch`), no work in a thread of the loop's
default executor (``asyncio.to_thread``: :class:`CountingExecutor`). Timers of real time (the health beat, hourly
upkeep, the database's 0.5 s deferred flush) are not runnable: they do not hold a settle up, and nothing here waits
for them. :meth:`Driver.wait_for` is the tests' one way to wait: settle; if the predicate holds, return; else
advance the clock to the next sleeper's deadline (never past the timeout) and repeat.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import heapq
import itertools
import math
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Final

from bot.clock import Clock

THREAD_POLL = 0.0005
"""Real seconds between two looks whether the work in a thread (SQLite's, the executor's) is done."""
SETTLE_LIMIT = 60.0
"""Real seconds a settle may take before it fails: the loop never went idle (something spins)."""


@dataclass(order=True)
class _Sleeper:
    deadline: float
    seq: int
    future: asyncio.Future[None] = field(compare=False)


class ManualClock(Clock):
    """The bot's clock (and Telegram's), whose time moves only by :meth:`advance` / :meth:`advance_to`.

    ``now()`` starts at the wall time × ``speed``, as :class:`~bot.clock.Clock`'s does, so that stored times look
    like a real run's; a restarted bot given the same clock goes on from where the first one stopped."""

    def __init__(self, speed: float = 1.0, *, start: float | None = None) -> None:
        super().__init__(speed)
        self._now = time.time() * speed if start is None else start
        self._sleepers: list[_Sleeper] = []
        self._seq = itertools.count()
        self._parked: set[asyncio.Task[Any]] = set()
        self.settle: Callable[[], Awaitable[None]] = _yield
        """Run between two wake-ups while time advances (the :class:`Driver` sets its own)."""
        self.woken = 0
        """Sleepers woken so far (by time; a sleeper cancelled or whose event came first is not counted)."""

    # --- the clock the bot reads --------------------------------------------------------------------------
    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if not seconds > 0:  # zero, negative (or NaN): a yield, as asyncio.sleep(0)
            await asyncio.sleep(0)
            return
        timer = self.timer(seconds)
        with self._parking():
            try:
                await timer
            finally:
                timer.cancel()

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        if event.is_set():
            return True
        if not seconds > 0:
            await asyncio.sleep(0)
            return event.is_set()
        waiting = asyncio.ensure_future(event.wait())
        timer = self.timer(seconds)
        either: set[asyncio.Future[Any]] = {waiting, timer}
        with self._parking():
            try:
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiting.cancel()
                timer.cancel()
        return event.is_set()

    def timer(self, seconds: float) -> asyncio.Future[None]:
        """A future done once ``seconds`` of this clock have passed (cancel it to leave; infinite: never)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if math.isfinite(seconds):
            heapq.heappush(self._sleepers, _Sleeper(self._now + max(0.0, seconds), next(self._seq), future))
        return future

    @contextlib.contextmanager
    def _parking(self) -> Iterator[None]:
        task = asyncio.current_task()
        if task is not None:
            self._parked.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._parked.discard(task)

    def to_real(self, seconds: float) -> float:
        """The fake Telegram's name for :meth:`real`: "real" seconds at the nominal speed."""
        return seconds / self.speed

    def wall(self) -> float:
        """Wall-clock seconds as this clock tells them (for dates)."""
        return self._now / self.speed

    # --- moving time ----------------------------------------------------------------------------------------
    def next_deadline(self) -> float | None:
        """When the next sleeper wakes (None: nobody sleeps on this clock)."""
        while self._sleepers and self._sleepers[0].future.done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0].deadline if self._sleepers else None

    @property
    def sleepers(self) -> int:
        self.next_deadline()
        return sum(1 for s in self._sleepers if not s.future.done())

    def parks(self, task: asyncio.Task[Any]) -> bool:
        """Whether ``task`` waits on this clock now (in ``sleep`` or ``wait``)."""
        return task in self._parked

    def _wake_due(self) -> None:
        while self._sleepers and self._sleepers[0].deadline <= self._now:
            sleeper = heapq.heappop(self._sleepers)
            if not sleeper.future.done():
                sleeper.future.set_result(None)
                self.woken += 1

    async def advance_to(self, target: float) -> None:
        """Move time to ``target``, waking the sleepers on the way in deadline order, the loop settled after each
        (a sleeper woken on the way may sleep again, and wake before ``target`` too)."""
        while True:
            await self.settle()
            deadline = self.next_deadline()
            if deadline is None or deadline > target:
                break
            self._now = max(self._now, deadline)
            self._wake_due()
        self._now = max(self._now, target)

    async def advance(self, seconds: float) -> None:
        """Move time ``seconds`` (clock seconds) forward; see :meth:`advance_to`."""
        await self.advance_to(self._now + max(0.0, seconds))


def _awaits(task: asyncio.Task[Any]) -> list[FrameType]:
    """The frames of a task's chain of awaits, outermost first."""
    coro: Any = task.get_coro()
    frames: list[FrameType] = []
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            frames.append(frame)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return frames


def _pauses_in_real_time(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` waits in ``asyncio.sleep`` called below its own coroutine: a pause of real time before it
    tries again (the database busy), which it will come out of — unlike a loop that sleeps between its rounds for
    as long as the process runs (the health beat, the hourly upkeep: ``asyncio.sleep`` in the task's own
    coroutine), which a settle does not wait for."""
    frames = _awaits(task)
    return len(frames) >= 3 and frames[-1].f_code is _SLEEP


_SLEEP: Final = asyncio.sleep.__code__


def _where(task: asyncio.Task[Any]) -> str:
    """Where a task waits: the innermost frames of its chain of awaits, ``file:line in function`` < ..."""
    frames = [
        f"{f.f_code.co_filename.rsplit('/', 2)[-1]}:{f.f_lineno} in {f.f_code.co_name}" for f in _awaits(task)
    ]
    return " < ".join(reversed(frames[-4:])) if frames else f"{task.get_name()} (not started)"


async def _yield() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


class CountingExecutor(concurrent.futures.ThreadPoolExecutor):
    """The loop's default executor (``asyncio.to_thread``, ``run_in_executor(None, ...)``) that counts the work it
    has, so that a settle waits for it. A piece of work stops counting only on the loop, after the callback that
    hands its result to the loop is queued there: once :attr:`active` is 0, the awaiting task is runnable or ran."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(thread_name_prefix="inprocess")
        self.loop = loop
        self.active = 0
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        outer: concurrent.futures.Future[Any] = concurrent.futures.Future()
        with self._lock:
            self.active += 1

        def run() -> None:
            if not outer.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                outer.set_exception(exc)
            else:
                outer.set_result(result)  # its callbacks (asyncio's hand-over to the loop) run here, first

        try:
            inner = super().submit(run)
        except BaseException:
            self._finished()
            raise
        inner.add_done_callback(lambda _: self._finished_soon())
        return outer

    def _finished_soon(self) -> None:
        try:
            self.loop.call_soon_threadsafe(self._finished)
        except RuntimeError:  # the loop is closed: nobody settles any more
            self._finished()

    def _finished(self) -> None:
        with self._lock:
            self.active -= 1


class Driver:
    """Runs the loop until idle, and waits by moving the :class:`ManualClock` (see the module's docstring)."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        clock.settle = self.settle
        self._probes: list[Callable[[], int]] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        """Tasks the harness started and wants settled (updates being handled)."""
        self.executor: CountingExecutor | None = None

    def install(self) -> None:
        """Count the running loop's default executor's work (once per loop)."""
        loop = asyncio.get_running_loop()
        if self.executor is None or self.executor.loop is not loop:
            self.executor = CountingExecutor(loop)
            loop.set_default_executor(self.executor)

    def watch(self, probe: Callable[[], int]) -> Callable[[], None]:
        """Count ``probe()`` (e.g. a database's statements on SQLite's thread) as work a settle waits for; the
        returned function stops watching."""
        self._probes.append(probe)
        return lambda: self._probes.remove(probe) if probe in self._probes else None

    def track(self, task: asyncio.Task[Any]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        """The end of a test: the updates still in hand cancelled, the executor's threads let go."""
        tasks = [t for t in self.tasks if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)

    def _in_threads(self) -> int:
        executor = self.executor.active if self.executor is not None else 0
        return executor + sum(probe() for probe in self._probes)

    async def settle(self) -> None:
        """Run the loop until nothing is runnable: no ready callback, no work in a thread."""
        loop = asyncio.get_running_loop()
        ready = loop._ready  # type: ignore[attr-defined]  # asyncio's queue of callbacks to run next
        started = time.monotonic()
        quiet = 0
        while quiet < 2:
            await asyncio.sleep(0)
            if ready:
                quiet = 0
            elif self._in_threads() or any(_pauses_in_real_time(t) for t in asyncio.all_tasks(loop)):
                quiet = 0
                await asyncio.sleep(THREAD_POLL)
            else:
                quiet += 1
            if time.monotonic() - started > SETTLE_LIMIT:
                raise RuntimeError(
                    f"the loop never went idle in {SETTLE_LIMIT:g} real seconds: {self.describe()}"
                )

    def describe(self) -> str:
        """What is in flight, for a failure's message."""
        busy = [t for t in self.tasks if not t.done()]
        parked = sum(1 for t in busy if self.clock.parks(t))
        deadline = self.clock.next_deadline()
        ahead = "none" if deadline is None else f"in {deadline - self.clock.now():.3f} clock s"
        stuck = [_where(t) for t in busy if not self.clock.parks(t)]
        return (
            f"{len(busy)} updates in hand ({parked} sleeping on the clock"
            + (f"; the others waiting at {', '.join(stuck)}" if stuck else "")
            + f"), {self._in_threads()} pieces of work in threads, {self.clock.sleepers} sleepers (the next {ahead})"
        )

    async def step(self, until: float) -> bool:
        """Settle, then advance to the next sleeper's deadline, or to ``until`` if that comes first (clock
        seconds); False when time stands at ``until`` already and nothing is left to wake before."""
        await self.settle()
        deadline = self.clock.next_deadline()
        now = self.clock.now()
        if now >= until:
            return False
        await self.clock.advance_to(until if deadline is None else min(deadline, until))
        return True

    async def wait_for(self, predicate: Callable[[], object], timeout: float, what: str = "") -> None:
        """Until ``predicate()``: settle, look, move the clock to the next wake-up; ``timeout`` in the tests' real
        seconds (``timeout × speed`` clock seconds). TimeoutError when the deadline passed, or at once (the clock
        moved to the deadline) when nothing sleeps that could change anything."""
        deadline = self.clock.now() + timeout * self.clock.speed
        while True:
            await self.settle()
            if predicate():
                return
            if self.clock.now() >= deadline:
                raise TimeoutError(
                    f"condition not met within {timeout} s ({timeout * self.clock.speed:g} clock s): "
                    f"{what or predicate}; {self.describe()}"
                )
            if self.clock.next_deadline() is None:
                await self.clock.advance_to(deadline)
                if predicate():
                    return
                raise TimeoutError(
                    f"condition not met, and nothing sleeps that could change it: {what or predicate}; "
                    f"{self.describe()}"
                )
            await self.step(deadline)

    async def sleep(self, seconds: float) -> None:
        """A test's pause of ``seconds`` (real seconds at the nominal speed): the clock moves that far."""
        await self.clock.advance(seconds * self.clock.speed)
        await self.settle()
