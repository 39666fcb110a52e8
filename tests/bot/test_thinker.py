"""The thinker: bot players decide in worker processes, the same way as in-process, however busy the machine."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.pipeline.thinker import Thinker, decision_seed, think
from bot.settings import Settings
from engine.ai import Level, choose_action
from engine.core import make_game
from engine.king import KingView
from engine.king.ai import players as king_ai
from engine.konchinka.ai import players as konchinka_ai

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (("konchinka", {"players": 3}), ("king", {}))
TOKEN = "123456789:" + "A" * 35


def views(game: str, options: dict[str, Any], count: int, seed: int, every: int = 7) -> Iterator[Any]:
    """Views with a choice to make, along one party of normal players."""
    state = make_game(game, options).new_initial_state(seed)
    rng = random.Random(seed)
    step = found = 0
    while not state.is_terminal and found < count:
        view = state.view(state.current_player)
        if len(view.legal_actions) > 1 and step % every == 0:
            found += 1
            yield view
        state.apply(choose_action(view, Level.NORMAL, rng))
        step += 1


def searched_views(count: int) -> list[Any]:
    """Views of both games where the hard player really searches (more than one candidate after its filters)."""
    out: list[Any] = []
    for game, options in GAMES:
        module: Any = king_ai if game == "king" else konchinka_ai
        found = 0
        for view in views(game, options, 40, seed=5, every=3):
            _, result = module.hard_search(view, random.Random(0), module.hard_budget(view, worlds=2))
            if result is not None:
                out.append(view)
                found += 1
                if found == count:
                    break
    return out


@pytest.mark.parametrize("game,options", GAMES, ids=[g for g, _ in GAMES])
def test_views_and_actions_pickle_and_decide_alike_at_every_level(game: str, options: dict[str, Any]) -> None:
    checked = 0
    for k, view in enumerate(views(game, options, 4, seed=3)):
        copy = pickle.loads(pickle.dumps(view))
        assert copy == view
        for level in Level:
            extra = {"iterations": 8} if level is Level.HARD else {}
            action = choose_action(view, level, random.Random(k), **extra)
            again = choose_action(copy, level, random.Random(k), **extra)
            assert again == action
            assert pickle.loads(pickle.dumps(action)) == action
            assert pickle.loads(pickle.dumps(level)) is level
            checked += 1
    assert checked == 4 * len(Level)


def test_decision_seed_is_a_fixed_mix_of_game_seed_and_move() -> None:
    assert decision_seed(42, 7) == decision_seed(42, 7)
    seeds = {decision_seed(s, m) for s in range(5) for m in range(50)}
    assert len(seeds) == 250
    # Not Python's salted hash: another interpreter with another hash seed computes the same number.
    code = "from bot.pipeline.thinker import decision_seed; print(decision_seed(123, 45))"
    env = {**os.environ, "PYTHONHASHSEED": "977"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert int(out.stdout) == decision_seed(123, 45)


def _burn(stop: threading.Event) -> None:
    x = 0
    while not stop.is_set():
        x = (x * 31 + 7) % 1_000_003


async def test_same_decisions_in_process_and_in_the_pool_while_the_cpu_is_busy() -> None:
    cases = [
        (view, level, decision_seed(11, k)) for k, view in enumerate(searched_views(1)) for level in Level
    ]
    assert any(isinstance(v, KingView) for v, _, _ in cases) and not all(
        isinstance(v, KingView) for v, _, _ in cases
    )
    expected = [think(view, level, seed) for view, level, seed in cases]

    inline = Thinker(0)
    assert [await inline.choose(v, lv, s) for v, lv, s in cases] == expected
    await inline.close()

    pool = Thinker(2)
    await pool.start()
    stop = threading.Event()
    burners = [threading.Thread(target=_burn, args=(stop,), daemon=True) for _ in range(2)]
    for b in burners:
        b.start()
    try:
        # Twice as many decisions at once as there are workers, against two threads burning the CPU.
        got = await asyncio.gather(*(pool.choose(v, lv, s) for v, lv, s in cases + cases))
    finally:
        stop.set()
        for b in burners:
            b.join()
        await pool.close()
    assert list(got) == expected + expected


def _pool_workers() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.pid is not None]


async def test_a_killed_worker_is_survived_and_the_pool_rebuilt(caplog: pytest.LogCaptureFixture) -> None:
    view = searched_views(1)[0]
    seed = decision_seed(5, 3)
    expected = think(view, Level.HARD, seed)
    thinker = Thinker(1)
    await thinker.start()
    try:
        workers = _pool_workers()
        assert len(workers) == 1
        os.kill(workers[0].pid or 0, signal.SIGKILL)
        workers[0].join(5)
        with caplog.at_level(logging.WARNING, logger="bot.pipeline.thinker"):
            assert await thinker.choose(view, Level.HARD, seed) == expected
        assert thinker.rebuilds == 1
        assert any("pool broken" in r.getMessage() for r in caplog.records)
        # The rebuilt pool decides again, in a new worker.
        assert await thinker.choose(view, Level.HARD, seed) == expected
        assert [p.pid for p in _pool_workers()] != [workers[0].pid]
        assert thinker.rebuilds == 1
    finally:
        await thinker.close()
    assert not _pool_workers()
    with pytest.raises(RuntimeError):
        await thinker.choose(view, Level.HARD, seed)


@pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py
async def test_no_workers_means_a_thread_of_this_process() -> None:
    view = next(views("konchinka", {"players": 2}, 1, seed=9))
    thinker = Thinker(0)
    await thinker.start()
    assert not _pool_workers()
    started = time.perf_counter()
    assert await thinker.choose(view, Level.NORMAL, 1) == think(view, Level.NORMAL, 1)
    assert time.perf_counter() - started < 5
    await thinker.close()


def test_bot_thinkers_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.delenv("BOT_THINKERS", raising=False)
    assert Settings(_env_file=None).bot_thinkers == min(2, os.cpu_count() or 1)  # type: ignore[call-arg]
    monkeypatch.setenv("BOT_THINKERS", "0")
    assert Settings(_env_file=None).bot_thinkers == 0  # type: ignore[call-arg]
    monkeypatch.setenv("BOT_THINKERS", "-1")
    with pytest.raises(ValueError):
        Settings(_env_file=None)  # type: ignore[call-arg]


ORPHAN_PROBE = """
import asyncio, multiprocessing, sys
from bot.pipeline.thinker import Thinker

async def main() -> None:
    thinker = Thinker(2)
    await thinker.start()
    print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone, only not yet reaped
        return stat.read().split()[2] != "Z"


def test_workers_end_when_the_bot_is_killed() -> None:
    """A bot killed with SIGKILL cannot stop its pool; its workers must not live on as orphans."""
    bot = subprocess.Popen([sys.executable, "-c", ORPHAN_PROBE], stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None
        children = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(children) >= 2 and all(_alive(pid) for pid in children)
    finally:
        bot.kill()
        bot.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in children)
