"""The hard players' playouts per second on both paths of each game's kernel (:mod:`engine.ai.kernel`), side by side.

Positions come from parties of normal players (where the player to move has a choice). For each case — a game
and a rollout kind, as «мастер» and the first release's «мастер» play them — every legal action of a position is
played out (one playout: the action and its rollout), through the compiled kernel and through the pure-Python
reference, for about the same time each; the figures are playouts and steps per second on one core and the
ratio of the two paths. ``python -m tests.bench`` prints them after the engine's own figures.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from engine.ai import Level, choose_action
from engine.core import make_game
from engine.king import KingState, Phase
from engine.king.ai import kernel as king_kernel
from engine.konchinka.ai import kernel as konchinka_kernel


@dataclass(frozen=True)
class PlayoutCase:
    label: str
    game: str
    options: dict[str, Any]
    depth: int
    plies: int | None = None


PLAYOUT_CASES = (
    PlayoutCase("king, depth 0", "king", {}, 0),
    PlayoutCase("king, depth 1", "king", {}, 1),
    PlayoutCase("konchinka 2p, 8 plies, depth 0", "konchinka", {"players": 2}, 0, 8),
    PlayoutCase("konchinka 2p, deal's end, depth 0", "konchinka", {"players": 2}, 0, None),
)


@dataclass
class PlayoutResult:
    label: str
    backend: str
    """The backend this process would use (``c`` or ``python``); the python path is measured either way."""
    c_playouts_per_s: float | None
    python_playouts_per_s: float
    c_steps_per_s: float | None
    python_steps_per_s: float
    ratio: float | None


def positions(case: PlayoutCase, count: int, seed: int) -> list[Any]:
    """States with a choice to make (Кинг: in the play phase), along parties of normal players."""
    out: list[Any] = []
    party = 0
    while len(out) < count:
        state = make_game(case.game, case.options).new_initial_state(seed * 101 + party)
        rng = random.Random(party)
        party += 1
        step = 0
        while not state.is_terminal and len(out) < count:
            playing = not isinstance(state, KingState) or state.phase is Phase.PLAY
            if playing and len(state.legal_actions()) > 1 and step % 3 == 0:
                out.append(state.clone())
            state.apply(choose_action(state.view(state.current_player), Level.NORMAL, rng))
            step += 1
    return out


def _measure(case: PlayoutCase, states: list[Any], pure: bool, seconds: float) -> tuple[float, float]:
    """(playouts per second, steps per second) of one path, cycling through ``states`` for ``seconds``."""
    playouts = steps = 0
    clock = time.thread_time
    start = clock()
    k = 0
    while True:
        state = states[k % len(states)]
        k += 1
        legal = list(state.legal_actions())
        me = state.current_player
        if case.game == "king":
            _, used = king_kernel.king_values(state, me, legal, case.depth, pure=pure)
        else:
            _, used = konchinka_kernel.konchinka_values(state, me, legal, case.plies, case.depth, pure=pure)
        playouts += len(legal)
        steps += used
        elapsed = clock() - start
        if elapsed >= seconds and k >= len(states):
            return playouts / elapsed, steps / elapsed


def run_playouts(seconds: float, seed: int, games: set[str] | None = None) -> list[PlayoutResult]:
    results = []
    for case in PLAYOUT_CASES:
        if games and case.game not in games:
            continue
        states = positions(case, 12, seed)
        py_playouts, py_steps = _measure(case, states, True, seconds)
        c_playouts = c_steps = ratio = None
        backend = (king_kernel if case.game == "king" else konchinka_kernel).BACKEND
        if backend == "c":
            c_playouts, c_steps = _measure(case, states, False, seconds)
            ratio = round(c_playouts / py_playouts, 1)
        results.append(
            PlayoutResult(
                label=case.label,
                backend=backend,
                c_playouts_per_s=None if c_playouts is None else round(c_playouts),
                python_playouts_per_s=round(py_playouts),
                c_steps_per_s=None if c_steps is None else round(c_steps),
                python_steps_per_s=round(py_steps),
                ratio=ratio,
            )
        )
    return results


def lines(results: list[PlayoutResult]) -> list[str]:
    out = [f"{'playouts per second, one core':36} {'C kernel':>12} {'pure Python':>12} {'ratio':>7}"]
    for r in results:
        c = "not built" if r.c_playouts_per_s is None else f"{r.c_playouts_per_s:,.0f}"
        ratio = "" if r.ratio is None else f"x{r.ratio}"
        out.append(f"{r.label:36} {c:>12} {r.python_playouts_per_s:>12,.0f} {ratio:>7}")
    return out
