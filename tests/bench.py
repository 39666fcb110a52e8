"""Engine benchmarks: random-playout throughput, the worst single-move enumeration time, and the bot players'
playouts per second through the compiled kernel and in pure Python side by side (:mod:`tests.bench_playouts`).

    python -m tests.bench [--json] [--seconds S] [--seed N] [--game NAME]

For each game and player count, whole parties are played from seeded states choosing uniformly among *all*
legal actions through the public API (``legal_actions`` then ``apply``), and the figure is whole deals per
second on one core. A second pass times every ``legal_actions`` call and reports the slowest one. Where a
target is set, the run also reports the ratio to it, and where the tests hold a straightforward baseline
implementation of the game (``BASELINES``) it is measured in the same run and the ratio to it is reported.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from engine.core import Game, make_game
from engine.core import games as engine_games
from tests.bench_playouts import lines, run_playouts
from tests.engine.konchinka_baseline import make_baseline_game

BASELINES: dict[str, Callable[[Mapping[str, Any]], Game]] = {"konchinka": make_baseline_game}
"""Game name -> the factory of its straightforward implementation (the tests' oracle)."""


@dataclass(frozen=True)
class Case:
    game: str
    options: dict[str, Any]
    players: int
    target_deals_per_s: float | None = None


CASES = (
    Case("konchinka", {"players": 2}, 2, 3000.0),
    Case("konchinka", {"players": 3}, 3),
    Case("konchinka", {"players": 4}, 4),
    Case("konchinka", {"players": 2, "variant": "points"}, 2),
    Case("king", {}, 4, 2000.0),
)


@dataclass
class Result:
    game: str
    options: dict[str, Any]
    players: int
    deals: int
    moves: int
    seconds: float
    deals_per_s: float
    moves_per_s: float
    worst_enumeration_ms: float
    max_legal_actions: int
    target_deals_per_s: float | None = None
    ratio_to_target: float | None = None
    baseline_deals_per_s: float | None = None
    ratio_to_baseline: float | None = None


def _throughput(game: Game, seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole parties of uniformly random play for about ``seconds``: (deals, moves, elapsed)."""
    rng = random.Random(seed)
    deals = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    party = 0
    while time.perf_counter() < deadline:
        state = game.new_initial_state(seed * 100_003 + party)
        party += 1
        choice = rng.choice
        while not state.is_terminal:
            state.apply(choice(state.legal_actions()))
            moves += 1
        deals += state.deals_completed
    return deals, moves, time.perf_counter() - start


def _worst_enumeration(name: str, options: dict[str, Any], parties: int, seed: int) -> tuple[float, int]:
    """The slowest single ``legal_actions`` call (ms) and the most actions offered, over some parties."""
    game = make_game(name, options)
    rng = random.Random(seed)
    worst = 0.0
    most = 0
    clock = time.perf_counter
    for party in range(parties):
        state = game.new_initial_state(seed * 7_919 + party)
        while not state.is_terminal:
            fresh = state.clone()  # a clone has no cached enumeration: time the real work
            t0 = clock()
            actions = fresh.legal_actions()
            elapsed = clock() - t0
            worst = max(worst, elapsed)
            most = max(most, len(actions))
            state.apply(rng.choice(state.legal_actions()))
    return worst * 1000.0, most


def run(seconds: float, seed: int, games: set[str] | None = None) -> list[Result]:
    hosted = engine_games()
    results = []
    for case in CASES:
        if case.game not in hosted or (games and case.game not in games):
            continue
        deals, moves, elapsed = _throughput(make_game(case.game, case.options), seconds, seed)
        worst_ms, most = _worst_enumeration(case.game, case.options, 20, seed)
        result = Result(
            game=case.game,
            options=case.options,
            players=case.players,
            deals=deals,
            moves=moves,
            seconds=round(elapsed, 3),
            deals_per_s=round(deals / elapsed, 1),
            moves_per_s=round(moves / elapsed, 1),
            worst_enumeration_ms=round(worst_ms, 3),
            max_legal_actions=most,
        )
        if case.target_deals_per_s:
            result.target_deals_per_s = case.target_deals_per_s
            result.ratio_to_target = round(result.deals_per_s / case.target_deals_per_s, 2)
        baseline = BASELINES.get(case.game)
        if baseline is not None:
            b_deals, _, b_elapsed = _throughput(baseline(case.options), seconds, seed)
            result.baseline_deals_per_s = round(b_deals / b_elapsed, 1)
            result.ratio_to_baseline = round(result.deals_per_s / result.baseline_deals_per_s, 2)
        results.append(result)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per case (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args(argv)
    games = set(args.game) if args.game else None
    results = run(args.seconds, args.seed, games)
    playouts = run_playouts(max(args.seconds / 3.0, 0.2), args.seed, games)
    if args.json:
        report = {
            "python": sys.version.split()[0],
            "results": [asdict(r) for r in results],
            "playouts": [asdict(p) for p in playouts],
        }
        print(json.dumps(report, indent=2))
        return 0
    for r in results:
        opts = ",".join(f"{k}={v}" for k, v in r.options.items())
        line = (
            f"{r.game:10} {opts:28} {r.deals_per_s:9.1f} deals/s {r.moves_per_s:10.1f} moves/s"
            f"  worst enumeration {r.worst_enumeration_ms:.3f} ms (max {r.max_legal_actions} actions)"
        )
        if r.ratio_to_target is not None:
            line += f"  target {r.target_deals_per_s:.0f}: x{r.ratio_to_target}"
        if r.ratio_to_baseline is not None:
            line += f"  baseline {r.baseline_deals_per_s:.1f}: x{r.ratio_to_baseline}"
        print(line)
    print()
    for line in lines(playouts):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
