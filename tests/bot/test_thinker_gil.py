"""With no workers (``BOT_THINKERS=0``) a decision runs in a thread of the bot's process: the kernels let go of the
GIL while they search, so the event loop that serves every chat goes on meanwhile.

Each test ticks the loop every 10 ms while searches run in a thread and counts the ticks: a kernel that held the
GIL would stop the loop for each whole search, so the loop would tick only between searches. The work is a second
or more, so that another process taking the core for a tenth of a second (a loaded CI runner) cannot pass for a
search that holds the loop: the bounds are a third of the ticks the work's length allows, and (for one long
search) no pause of half of it.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import time
from collections.abc import Awaitable
from typing import Any

import pytest

from bot.pipeline.thinker import Thinker
from engine.ai import Level
from engine.king.ai.players import KERNEL_MASTER
from engine.konchinka.ai import kernel as konchinka_kernel
from tests.bot.test_thinker import views
from tests.engine.kernel_inputs import konchinka_positions
from tests.engine.test_kernel_built import require_kernels

pytestmark = pytest.mark.xdist_group("timing")  # compares times: see tests/conftest.py
TICK = 0.01
"""Seconds between two ticks of the loop."""
DECIDING = 0.6
"""Seconds of «мастер» decisions timed together, one after another: one takes 0.005-0.03 s since it reads its
worlds in the kernel, so a fixed number of them is too short to tell on a fast machine."""


async def _ticks_during(work: Awaitable[Any]) -> tuple[float, float, int]:
    """(the work's seconds, the longest pause of the loop meanwhile, the loop's ticks meanwhile)."""
    ticks: list[float] = []
    running = True

    async def tick() -> None:
        while running:
            ticks.append(time.perf_counter())
            await asyncio.sleep(TICK)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    await work
    ended = time.perf_counter()
    running = False
    await ticker
    during = [started] + [t for t in ticks if started < t < ended] + [ended]
    pause = max(b - a for a, b in itertools.pairwise(during))
    return ended - started, pause, len(during) - 2


async def test_a_kernel_search_in_a_thread_leaves_the_event_loop_running() -> None:
    require_kernels()
    c = importlib.import_module("engine.konchinka.ai._kernel")
    state = konchinka_positions()[0]
    encoded = konchinka_kernel.encode_konchinka(state)
    actions = tuple(konchinka_kernel.encode_konchinka_action(a) for a in state.legal_actions())
    assert len(actions) > 3

    def search() -> (
        None
    ):  # three plies deep: over a second (two: under a tenth, as short as a loaded core's pause)
        c.konchinka_values(encoded, state.current_player, actions, -1, 3)

    seconds, pause, ticks = await _ticks_during(asyncio.to_thread(search))
    print(f"search {seconds:.3f} s, the loop's longest pause {pause:.3f} s, {ticks} ticks")
    assert seconds > 0.5, "the search is too short to tell"
    assert pause < seconds / 2, "the search held the loop"
    assert ticks >= seconds / TICK / 3, "the loop hardly ran while the search did"


async def test_a_master_decision_with_no_workers_leaves_the_event_loop_running() -> None:
    require_kernels()
    # The kernel's own search inside the rollouts lets the GIL go, and so does its reading of the candidate worlds
    # (king_screen); what is left in Python gives it up between bytecodes every switch interval: the loop must run
    # through all of it.
    assert KERNEL_MASTER.depth >= 1
    view = list(views("king", {}, 6, seed=4, every=3))[
        5
    ]  # a card play of five candidates at the fourth trick: 0.06 s
    thinker = Thinker(0)

    async def decisions() -> None:  # many in a row: long enough to tell on a fast machine too
        start, seed = time.monotonic(), 5
        while time.monotonic() - start < DECIDING:
            await thinker.choose(view, Level.HARD, seed)
            seed += 1

    try:
        seconds, pause, ticks = await _ticks_during(decisions())
    finally:
        await thinker.close()
    print(f"decision {seconds:.3f} s, the loop's longest pause {pause:.3f} s, {ticks} ticks")
    assert ticks >= seconds / TICK / 3, "the loop hardly ran while the decisions did"
