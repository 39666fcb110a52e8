"""The pure-Python path of the bot players: ``CARDBOT_PURE_PYTHON=1`` forces it (as on a machine where no C compiler
built the kernel), the bot players' tests and an arena run pass on it, and it decides exactly as the kernel does.

Each test runs a fresh interpreter with the variable set, so the kernel is never loaded there.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.ai import Level, choose_action, kernel
from engine.ai.players import bot_players
from engine.core import make_game
from engine.king import KingView
from engine.king.ai import players as king_ai
from engine.konchinka.ai import players as konchinka_ai

ROOT = Path(__file__).resolve().parents[2]


def pure_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update({kernel.PURE_PYTHON_ENV: "1", "PYTHONPATH": str(ROOT)})
    return env


def run_pure(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=pure_env(), capture_output=True, text=True, timeout=timeout
    )


DECIDE = """
import json
from tests.engine.test_pure_python import backends, decide
print(json.dumps({"backends": backends(), "moves": decide()}))
"""


def backends() -> dict[str, str]:
    """Each game's path for its bot players' rollouts in this process (``"c"`` or ``"python"``)."""
    return {name: players.backend for name, players in bot_players().items()}


def decide() -> list[str]:
    """Today's «мастер» (the kernel's settings, whatever this process plays by default) on a few searched views,
    with a small budget."""
    moves = []
    for k, view in enumerate(searched_views()):
        module = king_ai if isinstance(view, KingView) else konchinka_ai
        action = module.hard_action(view, random.Random(k), iterations=6, master=module.KERNEL_MASTER)
        moves.append(action.code)
    return moves


def searched_views() -> list[object]:
    """Views of both games where «мастер» really searches, along parties of normal players."""
    views: list[object] = []
    for game, options, module in (
        ("konchinka", {"players": 2}, konchinka_ai),
        ("king", {}, king_ai),
    ):
        state = make_game(game, options).new_initial_state(7)
        rng = random.Random(7)
        found = step = 0
        while not state.is_terminal and found < 5:
            view = state.view(state.current_player)
            if step % 4 == 0 and len(module.candidates(view)) > 1:
                views.append(view)
                found += 1
            state.apply(choose_action(view, Level.NORMAL, rng))
            step += 1
    return views


def test_forced_pure_python_decides_exactly_as_the_kernel() -> None:
    done = run_pure("-c", DECIDE)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report["backends"].values()) == {"python"}
    here = decide()
    assert len(here) == 10
    assert report["moves"] == here, f"{backends()} here and python there differ"


@pytest.mark.slow
def test_the_bot_players_tests_and_an_arena_run_pass_in_pure_python() -> None:
    tests = run_pure(
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "tests/engine/test_ai.py",
        "tests/engine/test_ai_budget.py",
        "tests/engine/test_kernel.py",
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-3000:]
    assert " passed" in tests.stdout and "skipped" in tests.stdout  # the kernel's own tests skip there
    arena = run_pure(
        "-m",
        "engine.arena",
        "--game",
        "konchinka",
        "--seats",
        "hard,normal",
        "--parties",
        "2",
        "--seed",
        "5",
        "--option",
        "target=1",
        "--versus-baseline",
        "--json",
    )
    assert arena.returncode == 0, arena.stderr
    summary = json.loads(arena.stdout)
    assert summary["parties"] == 2 and summary["baseline_run"]["parties"] == 2
    assert set(summary["levels"]) == {"hard", "normal"}
