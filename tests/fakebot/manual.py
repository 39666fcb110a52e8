"""Time moved by hand, for in-process tests: one clock for the bot and the fake Telegram, and a loop run until idle.

:class:`ManualClock` is a :class:`bot.clock.Clock` whose time moves only when the test waits: every ``sleep`` and
``wait`` of the bot (bot moves, turn limits, the outbox's pace, 429s, throttles) and of the fake Telegram (slow and
hung calls, a request's timeout) is a *sleeper* with a deadline, woken in deadline order as time passes it. It
keeps a nominal ``speed`` (60 in the e2e tests): what the bot and the fake count in "real seconds" (aiogram's
request timeouts, ``retry_after``, a test's ``timeout=5``) is ``speed`` clock seconds, as at that speed in real
time.

:class:`Driver` moves it. :meth:`Driver.settle` runs the loop until nothing is runnable: no callback ready, no
statement on SQLite's thread (``Database.pending``, counted through :meth:`Driver.watch`), no work in a thread of
the loop's default executor (``asyncio.to_thread``: :class:`CountingExecutor`), no task in a short pause of real
time (the database busy). Timers of real time that recur for as long as the bot runs (the health beat, the hourly
upkeep) and plain timers (the database's 0.5 s deferred flush) are not runnable: a settle does not wait for them.

:meth:`Driver.wait_for` is the tests' one way to wait (``tg.wait_for``, ``tg.settle``, ``tg.sleep``, a press waiting
for its answer): settle; if the predicate holds, return; else move the clock one step — to the next sleeper's
deadline, or to the earliest deadline of the waits under way if that comes first — and repeat. One step at a
time, by one waiter at a time, and never while another wait can return: several waits at once (presses
``gather``-ed, a press in a task while the test sleeps) see time pass as they would in real time, each returning
at its own moment. A wait fails at its deadline, at once when nothing sleeps that could change anything.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import heapq
import inspect
import itertools
import math
import threading
import time
from collections.abc import Callable, Iterator
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
    """The bot's clock (and Telegram's), whose time moves only by :meth:`move_to` (a :class:`Driver` moves it).

    ``now()`` starts at the wall time × ``speed``, as :class:`~bot.clock.Clock`'s does, so that stored times look
    like a real run's; a restarted bot given the same clock goes on from where the first one stopped."""

    def __init__(self, speed: float = 1.0, *, start: float | None = None) -> None:
        super().__init__(speed)
        self._now = time.time() * speed if start is None else start
        self._sleepers: list[_Sleeper] = []
        self._seq = itertools.count()
        self._parked: set[asyncio.Task[Any]] = set()

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

    def move_to(self, target: float) -> None:
        """Time jumps to ``target`` (never back); the sleepers due by then are woken, in deadline order."""
        self._now = max(self._now, target)
        self._wake_due()


def _awaits(task: asyncio.Task[Any]) -> list[FrameType]:
    """The frames of a task's chain of awaits, outermost first (through ``async with`` an asynccontextmanager: the
    generator it steps is found in the frame that awaits it)."""
    coro: Any = task.get_coro()
    frames: list[FrameType] = []
    while coro is not None:
        frame = (
            getattr(coro, "cr_frame", None)
            or getattr(coro, "gi_frame", None)
            or getattr(coro, "ag_frame", None)
        )
        if frame is not None:
            frames.append(frame)
        inner = (
            getattr(coro, "cr_await", None)
            or getattr(coro, "gi_yieldfrom", None)
            or getattr(coro, "ag_await", None)
        )
        if inner is not None and frame is not None and type(inner).__name__.startswith("async_generator_a"):
            inner = _stepped_generator(frame)
        coro = inner
    return frames


def _stepped_generator(frame: FrameType) -> Any:
    """The async generator a frame awaits a step of (``asend``/``athrow`` do not say which): one of its locals, or a
    local's ``gen`` (contextlib's ``_AsyncGeneratorContextManager``), that is running."""
    for value in frame.f_locals.values():
        for candidate in (value, getattr(value, "gen", None)):
            if inspect.isasyncgen(candidate) and candidate.ag_running:
                return candidate
    return None


def _pauses_in_real_time(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` waits in ``asyncio.sleep`` called below its own coroutine: a pause of real time before it
    tries again (the database busy), which it will come out of — unlike a loop that sleeps between its rounds for
    as long as the process runs (the health beat, the hourly upkeep: ``asyncio.sleep`` in the task's own
    coroutine), which a settle does not wait for."""
    frames = _awaits(task)
    return len(frames) >= 3 and frames[-1].f_code is _SLEEP


_SLEEP: Final = asyncio.sleep.__code__
_SLEEP_ENDS: Final = asyncio.futures._set_result_unless_cancelled  # type: ignore[attr-defined]
"""The callback of the timer ``asyncio.sleep`` sets."""


def _where(task: asyncio.Task[Any]) -> str:
    """Where a task waits: the innermost frames of its chain of awaits, ``file:line in function`` < ..."""
    frames = [
        f"{f.f_code.co_filename.rsplit('/', 2)[-1]}:{f.f_lineno} in {f.f_code.co_name}" for f in _awaits(task)
    ]
    return " < ".join(reversed(frames[-4:])) if frames else f"{task.get_name()} (not started)"


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
        self._probes: list[Callable[[], int]] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        """Tasks the harness started and wants settled (updates being handled)."""
        self.executor: CountingExecutor | None = None
        self._elsewhere = 0
        """Work handed to other executors (a process pool) whose result is not back yet."""
        self._verdicts: dict[asyncio.Future[Any], bool] = {}
        """The sleeps of real time seen at the last settle, and whether each is a task's short pause."""
        self._settling: asyncio.Future[None] | None = None
        self._waiters: list[Waiter] = []
        self._turn = asyncio.Lock()

    def install(self) -> None:
        """Count the work the running loop hands to threads and processes (once per loop): its default executor's
        (:class:`CountingExecutor`: ``asyncio.to_thread``), and any other executor's through ``run_in_executor``
        (the bot players' process pool), each until its result is back on the loop."""
        loop = asyncio.get_running_loop()
        if self.executor is not None and self.executor.loop is loop:
            return
        self.executor = CountingExecutor(loop)
        loop.set_default_executor(self.executor)
        handing = loop.run_in_executor

        def run_in_executor(executor: Any, func: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
            future = handing(executor, func, *args)
            if executor is not None and executor is not self.executor:
                self._elsewhere += 1
                future.add_done_callback(self._back)
            return future

        loop.run_in_executor = run_in_executor  # type: ignore[method-assign,assignment]

    def _back(self, _: asyncio.Future[Any]) -> None:
        self._elsewhere -= 1

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

    def _pausing(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether a task waits out a short pause of real time (see :func:`_pauses_in_real_time`): looked for among
        the loop's timers of ``asyncio.sleep`` (few: the bot's own waits are on the clock), each sleep's task
        judged once."""
        judged: dict[asyncio.Future[Any], bool] = {}
        for timer in loop._scheduled:  # type: ignore[attr-defined]  # asyncio's heap of timers
            if timer.cancelled() or timer._callback is not _SLEEP_ENDS:
                continue
            sleep = timer._args[0]
            verdict = self._verdicts.get(sleep)
            if verdict is None:
                task = next((t for t in asyncio.all_tasks(loop) if t._fut_waiter is sleep), None)  # type: ignore[attr-defined]
                verdict = task is not None and _pauses_in_real_time(task)
            judged[sleep] = verdict
            if verdict:
                break
        self._verdicts = judged
        return any(judged.values())

    def _in_threads(self) -> int:
        executor = self.executor.active if self.executor is not None else 0
        return executor + self._elsewhere + sum(probe() for probe in self._probes)

    async def settle(self) -> None:
        """Run the loop until nothing is runnable: no ready callback, no work in a thread, no task in a short pause
        of real time (see :func:`_pauses_in_real_time`). Settles asked for meanwhile (two presses waited for at
        once) wait for this one: two settling side by side would each keep the other runnable."""
        if self._settling is not None and not self._settling.done():
            await asyncio.shield(self._settling)
            return
        self._settling = asyncio.get_running_loop().create_future()
        try:
            await self._settle()
        finally:
            self._settling.set_result(None)
            self._settling = None

    async def _settle(self) -> None:
        loop = asyncio.get_running_loop()
        ready = loop._ready  # type: ignore[attr-defined]  # asyncio's queue of callbacks to run next
        started = time.monotonic()
        quiet = 0
        while quiet < 2:
            await asyncio.sleep(0)
            if ready:
                quiet = 0
            elif self._in_threads() or self._pausing(loop):
                quiet = 0
                await asyncio.sleep(THREAD_POLL)
            else:
                quiet += 1
            if time.monotonic() - started > SETTLE_LIMIT:
                raise RuntimeError(
                    f"the loop never went idle in {SETTLE_LIMIT:g} real seconds: {self.describe()}"
                )

    def describe(self) -> str:
        """What is in flight, for a failure's message: the updates in hand, the other tasks not sleeping on the
        clock (where they wait), the work in threads, the sleepers."""
        busy = [t for t in self.tasks if not t.done()]
        parked = sum(1 for t in busy if self.clock.parks(t))
        deadline = self.clock.next_deadline()
        ahead = "none" if deadline is None else f"in {deadline - self.clock.now():.3f} clock s"
        stuck = [_where(t) for t in busy if not self.clock.parks(t)]
        current = asyncio.current_task()
        others = [
            f"{t.get_name()} at {_where(t)}"
            for t in asyncio.all_tasks()
            if t not in self.tasks and t is not current and not self.clock.parks(t)
        ]
        return (
            f"{len(busy)} updates in hand ({parked} sleeping on the clock"
            + (f"; the others waiting at {'; '.join(stuck)}" if stuck else "")
            + f"), {self._in_threads()} pieces of work in threads, {self.clock.sleepers} sleepers (the next {ahead})"
            + (f"; other tasks not on the clock: {'; '.join(others[:12])}" if others else "")
        )

    async def wait_for(self, predicate: Callable[[], object], timeout: float, what: str = "") -> None:
        """Until ``predicate()``; TimeoutError after ``timeout`` of the tests' real seconds (``timeout × speed``
        clock seconds), at once when nothing sleeps that could change anything."""
        waiter = Waiter(predicate, self.clock.now() + timeout * self.clock.speed)
        if not await self.wait(waiter):
            raise TimeoutError(
                f"condition not met within {timeout} s ({timeout * self.clock.speed:g} clock s"
                + ("; nothing slept that could change it" if waiter.alone else "")
                + f"): {what or predicate}; {self.describe()}"
            )

    async def sleep(self, seconds: float) -> None:
        """A test's pause of ``seconds`` (real seconds at the nominal speed): the clock moves that far, waking what
        sleeps on the way, each in its turn."""
        deadline = self.clock.now() + max(0.0, seconds) * self.clock.speed
        await self.wait(Waiter(lambda: self.clock.now() >= deadline, deadline))

    async def wait(self, waiter: Waiter) -> bool:
        """Until ``waiter.done()`` (True) or its deadline (False), moving the clock (see the module's docstring)."""
        self._waiters.append(waiter)
        try:
            while True:
                await self.settle()
                if waiter.done():
                    return True
                if self.clock.now() >= waiter.deadline:
                    return False
                async with self._turn:  # one waiter moves time at a time
                    await self.settle()
                    if waiter.done():
                        return True
                    if self.clock.now() >= waiter.deadline:
                        return False
                    if not any(w.can_go_on(self.clock.now()) for w in self._waiters if w is not waiter):
                        self._step(waiter)
        finally:
            self._waiters.remove(waiter)

    def _step(self, waiter: Waiter) -> None:
        """Time moves to the next moment something happens: a sleeper's deadline, a wait's deadline, the moment a
        wait's condition comes true by time alone."""
        moments = [w.deadline for w in self._waiters]
        moments += [m for w in self._waiters if w.wake_at is not None and (m := w.wake_at()) is not None]
        sleeper = self.clock.next_deadline()
        if sleeper is None and min(moments) >= waiter.deadline:
            waiter.alone = True
        self.clock.move_to(min(moments) if sleeper is None else min(sleeper, *moments))


@dataclass(eq=False)
class Waiter:
    """A wait under way: done when ``done()``, given up at ``deadline`` (clock seconds); ``wake_at()``: a moment at
    which ``done()`` becomes true by time alone (None: no such moment now)."""

    done: Callable[[], object]
    deadline: float
    wake_at: Callable[[], float | None] | None = None
    alone: bool = False
    """The clock jumped to the deadline with nothing sleeping on the way."""

    def can_go_on(self, now: float) -> bool:
        return bool(self.done()) or now >= self.deadline
