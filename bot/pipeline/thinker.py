"""The bot players' thinking, off the event loop: decisions run in a pool of worker processes.

The search of the hard level (and the «💡 Подсказка» and «🔍 Разбор партии» built on it) is mostly Python;
in threads it would hold the GIL of the process that serves every chat. A :class:`Thinker` sends each searching decision (a view, a level and a seed, all picklable) to a
``ProcessPoolExecutor`` whose workers start by ``spawn`` (never a fork of the running event loop), end with the bot and are
warmed up by :meth:`Thinker.start`. The budget of a decision is work, not time (see
:mod:`engine.ai.search`), so the same view and seed give the same action in the pool, in-process, idle or
busy. A worker that dies (a crash in the compiled kernel, the OOM killer, a SIGKILL) never takes the bot with it:
the pool is rebuilt and the work is done again in a fresh worker; if that one dies too, a bot player's move is
made by the normal level's rule-based policy (pure Python, no search, no kernel) and a hint or review is
refused (:class:`ThinkerUnavailable`). Never is the work that killed a worker run in the bot's own process. Each
such event is logged once and counted (``worker_deaths``, ``fallbacks``; the metrics). With no workers
(``BOT_THINKERS=0``) decisions run in a thread of the bot's own process; the kernels let go of the GIL while they
search, so the event loop goes on meanwhile.

``CARDBOT_TEST_THINKER_HOOK`` is for the tests only: in a worker, ``crash`` aborts every searching decision, hint and review (as a
crash in the kernel would), and ``hold:<path>`` makes the first decision write its worker's pid to ``<path>`` and
sleep (to be killed in the middle of it).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Final, TypeVar

from bot.clock import Buckets
from engine.ai import Level, choose_action
from engine.ai.advice import Advice
from engine.ai.players import advise
from engine.ai.review import Review, review_party
from engine.core import GameRecord, Player

T = TypeVar("T")

log = logging.getLogger(__name__)

START_METHOD = "spawn"
"""How workers start: fresh interpreters, children of the bot itself, so they inherit no event loop, lock or
socket, and can see when the bot is gone (a forkserver and its workers would outlive a bot killed with SIGKILL)."""
ORPHAN_CHECK_EVERY = 0.5
"""Seconds between a worker's checks that the bot that started it is still alive."""
WORKER_NICENESS: Final = 10
"""How much lower the workers' scheduling priority is than the bot's: a search keeps every core busy for tens of
milliseconds, and while it does, the process that answers presses must not wait for a core (on two cores shared
by the bot and two workers, a press's answer waited up to a second at G = 200)."""
DECISION_BUCKETS: Final = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Upper bounds (seconds) of the histogram of bot players' decision times (a metric)."""


SEARCHING_LEVELS = frozenset({Level.HARD})
"""Levels whose decisions go to the workers; the others are rule-based, cost well under a millisecond (less
than the trip to a worker) and are decided on the spot."""


def decision_seed(game_seed: int, move: int) -> int:
    """The seed of the decision at ``move`` (the state's version) of the game seeded ``game_seed``.

    A fixed mix (not Python's salted ``hash``), so a replayed game gets the same decisions in any process.
    """
    digest = hashlib.blake2b(f"{game_seed}/{move}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


TEST_HOOK_ENV: Final = "CARDBOT_TEST_THINKER_HOOK"


class ThinkerUnavailable(RuntimeError):
    """The work killed a worker twice in a row (a fresh one included): it is not tried a third time."""


def _test_hook() -> None:
    """What ``CARDBOT_TEST_THINKER_HOOK`` asks of a worker (nothing in the bot's own process)."""
    hook = os.environ.get(TEST_HOOK_ENV, "")
    if not hook or multiprocessing.parent_process() is None:
        return
    if hook == "crash":
        os.abort()
    if hook.startswith("hold:"):
        try:
            fd = os.open(hook[5:], os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            return  # held once already: this decision is made
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        time.sleep(60)


def think(view: object, level: Level, seed: int, budget_ms: float | None = None) -> object:
    """One decision, as a worker makes it: the action of a ``level`` bot player for ``view``."""
    _test_hook()
    return choose_action(view, Level(level), random.Random(seed), budget_ms=budget_ms)


def fallback_action(view: object, seed: int) -> object:
    """The move of a bot player whose decision killed two workers: the normal level's rule-based choice (pure
    Python and well under a millisecond: no search, no compiled kernel)."""
    return choose_action(view, Level.NORMAL, random.Random(seed))


def advice_for(view: object, seed: int) -> Advice:
    """«💡 Подсказка», as a worker makes it: the «мастер» decision from ``view`` (``seed`` as for
    :func:`think`) and why."""
    _test_hook()
    return advise(view, random.Random(seed))


def review_of(record: GameRecord, player: Player) -> Review:
    """«🔍 Разбор партии», as a worker makes it: ``player``'s moves where «мастер» would have gained most."""
    _test_hook()
    return review_party(record, player)


def _worker_init(bot_pid: int) -> None:
    """A worker leaves Ctrl-C to the bot, which stops the pool itself (no tracebacks from every worker), gives
    way to the bot's own process when the cores are short (:data:`WORKER_NICENESS`), and ends itself once the bot
    is gone (killed without a chance to stop its pool, it would leave orphans)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_exit_with, args=(bot_pid,), name="orphan-check", daemon=True).start()


def _exit_with(bot_pid: int) -> None:
    while os.getppid() == bot_pid:
        time.sleep(ORPHAN_CHECK_EVERY)
    os._exit(0)


def _warm_up(pause: float) -> int:
    """Runs once in each new worker: imports are done, and the pause keeps one worker from taking every call."""
    from engine.core import games

    games()  # every game imported (and registered) once, not in the first decision
    time.sleep(pause)
    return multiprocessing.current_process().pid or 0


class Thinker:
    """Makes bot players' decisions in ``workers`` processes (0: in a thread of this process).

    ``budget_ms`` is an optional wall-clock cap per decision, off (None) by default: a capped decision may
    differ under load, which is what the work budget is there to avoid.
    """

    def __init__(self, workers: int, *, budget_ms: float | None = None) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 or more")
        self.workers = workers
        self.budget_ms = budget_ms
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self.rebuilds = 0
        """How many times a broken pool was replaced (for tests and logs)."""
        self.worker_deaths = 0
        """How many times work met a dead worker (each is retried once in a fresh one)."""
        self.fallbacks = 0
        """How many pieces of work killed a fresh worker too: a move then played by the fallback policy, a hint
        or review refused."""
        self.decisions = Buckets(DECISION_BUCKETS)
        """How long the searching bot players' decisions took, the wait for a worker included."""

    @property
    def in_process(self) -> bool:
        return self.workers == 0

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context(START_METHOD)
        return ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),)
        )

    async def start(self) -> None:
        """Start the workers and wait until each has imported the engine (the first decision is then quick)."""
        if self.in_process or self._closed:
            return
        if self._pool is None:
            self._pool = self._new_pool()
        try:
            await self._warm(self._pool)
        except Exception:
            log.exception("bot player workers could not start; bot players think in this process instead")
            pool, self._pool = self._pool, None
            pool.shutdown(wait=False, cancel_futures=True)
            self.workers = 0

    async def _warm(self, pool: ProcessPoolExecutor) -> None:
        loop = asyncio.get_running_loop()
        calls = [loop.run_in_executor(pool, _warm_up, 0.05) for _ in range(self.workers)]
        await asyncio.gather(*calls)

    async def choose(self, view: object, level: Level, seed: int) -> object:
        """The action of a ``level`` bot player for ``view``, decided by ``seed`` alone (not by load or place)."""
        if self._closed:
            raise RuntimeError("the thinker is closed")
        if Level(level) not in SEARCHING_LEVELS:
            return think(view, level, seed, self.budget_ms)
        started = time.perf_counter()
        try:
            return await self._run(
                think, view, level, seed, self.budget_ms, fallback=lambda: fallback_action(view, seed)
            )
        finally:
            self.decisions.observe(time.perf_counter() - started)

    async def advise(self, view: object, seed: int) -> Advice:
        """«💡 Подсказка»: what «мастер» plays from ``view`` with ``seed`` (as :meth:`choose` would), and why."""
        return await self._run(advice_for, view, seed)

    async def review(self, record: GameRecord, player: Player) -> Review:
        """«🔍 Разбор партии» of ``player`` in the finished party of ``record`` (a second or two of a worker)."""
        return await self._run(review_of, record, player)

    async def _run(self, work: Callable[..., T], *args: object, fallback: Callable[[], T] | None = None) -> T:
        """``work(*args)`` in a worker (in a thread of this process when there are none). A dead worker: once
        more in a fresh one; dead again: ``fallback()`` (cheap, on this thread), or :class:`ThinkerUnavailable`."""
        if self._closed:
            raise RuntimeError("the thinker is closed")
        if self.in_process:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._pool is None:
                self._pool = self._new_pool()
            pool = self._pool
            try:
                result = await loop.run_in_executor(pool, work, *args)
            except BrokenProcessPool:
                self.worker_deaths += 1
                self._replace(pool)
                continue
            if attempt == 2:
                log.warning(
                    "bot player pool broken (a worker died in %s): rebuilt, and the work done again in a fresh "
                    "worker",
                    work.__name__,
                )
            return result
        self.fallbacks += 1
        if fallback is None:
            log.error(
                "bot player pool broken twice by one %s (a fresh worker died too): refused", work.__name__
            )
            raise ThinkerUnavailable(work.__name__)
        log.error(
            "bot player pool broken twice by one %s (a fresh worker died too): the fallback policy plays it",
            work.__name__,
        )
        return fallback()

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Swap a broken pool for a new one, once however many decisions met it."""
        broken.shutdown(wait=False, cancel_futures=True)
        if self._pool is broken and not self._closed:
            self._pool = self._new_pool()
            self.rebuilds += 1

    async def close(self) -> None:
        """Stop the workers (a decision still running in one is abandoned)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
