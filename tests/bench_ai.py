"""Bot player benchmark: the cost of one decision per game and level, and what ends the hard player's search.

    python -m tests.bench_ai [--json] [--positions N] [--seed S] [--budget work|legacy|open]

Positions come from parties played by normal players (every few decisions, only where the player to move has
a choice). Each is decided by every level, and the run reports per game and level the median and p99 of the
decision's wall time and of its CPU time (the thinking thread's own, which a busy machine does not inflate),
and for the hard level the playout steps and worlds searched and what stopped the search.

``--budget`` picks the hard player's budget: ``work`` (today's: worlds and playout steps, no clock),
``legacy`` (the former one: the worlds, or 300 ms of wall time, whichever came first) or ``open`` (the
worlds alone, to see what the step cap saves).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.ai import Level, choose_action
from engine.ai.search import SearchBudget, SearchResult
from engine.core import make_game
from engine.king import KingView
from engine.king.ai import players as king_ai
from engine.konchinka.ai import players as konchinka_ai
from engine.stats import percentile

GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("konchinka 2p", "konchinka", {"players": 2}),
    ("konchinka 3p points", "konchinka", {"players": 3, "variant": "points"}),
    ("king", "king", {}),
)
LEGACY_TIME_MS = 300.0


@dataclass
class Figures:
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    worlds: list[int] = field(default_factory=list)
    stopped_by: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"decisions": len(self.wall_ms)}
        for name, values in (("wall_ms", self.wall_ms), ("cpu_ms", self.cpu_ms)):
            out[f"{name}_p50"] = round(percentile(values, 50), 2)
            out[f"{name}_p99"] = round(percentile(values, 99), 2)
        if self.steps:
            out["steps_p50"] = round(percentile([float(s) for s in self.steps], 50))
            out["steps_p99"] = round(percentile([float(s) for s in self.steps], 99))
            out["worlds_p50"] = round(percentile([float(w) for w in self.worlds], 50))
            out["stopped_by"] = dict(sorted(self.stopped_by.items()))
        return out


def positions(game: str, options: dict[str, Any], count: int, seed: int) -> Iterator[Any]:
    """Views where the player to move has a choice, along parties of normal players."""
    found = party = 0
    while found < count:
        state = make_game(game, options).new_initial_state(seed * 1_009 + party)
        rng = random.Random(seed + party)
        party += 1
        step = 0
        while not state.is_terminal and found < count:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 1 and step % 5 == 0:
                found += 1
                yield view
            state.apply(choose_action(view, Level.NORMAL, rng))
            step += 1


def hard_budget(view: Any, mode: str) -> SearchBudget:
    module: Any = king_ai if isinstance(view, KingView) else konchinka_ai
    budget: SearchBudget = module.hard_budget(view)
    if mode == "legacy":
        return SearchBudget(worlds=budget.worlds, steps=None, time_ms=LEGACY_TIME_MS)
    if mode == "open":
        return SearchBudget(worlds=budget.worlds, steps=None, time_ms=None)
    return budget


def decide(view: Any, level: Level, seed: int, mode: str) -> tuple[float, float, SearchResult | None]:
    """(wall ms, CPU ms, the search or None) of one decision."""
    rng = random.Random(seed)
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    result: SearchResult | None = None
    if level is Level.HARD:
        module: Any = king_ai if isinstance(view, KingView) else konchinka_ai
        _, result = module.hard_search(view, rng, hard_budget(view, mode))
    else:
        choose_action(view, level, rng)
    return (time.perf_counter() - wall0) * 1000.0, (time.thread_time() - cpu0) * 1000.0, result


def run(count: int, seed: int, mode: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, game, options in GAMES:
        figures = {level: Figures() for level in Level}
        for k, view in enumerate(positions(game, options, count, seed)):
            for level in Level:
                wall, cpu, result = decide(view, level, seed * 7 + k, mode)
                f = figures[level]
                f.wall_ms.append(wall)
                f.cpu_ms.append(cpu)
                if result is not None:
                    f.steps.append(result.steps)
                    f.worlds.append(result.worlds)
                    f.stopped_by[result.stopped_by] = f.stopped_by.get(result.stopped_by, 0) + 1
        out[label] = {level.value: figures[level].summary() for level in Level}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench_ai", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--positions", type=int, default=60, help="positions per game (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", choices=["work", "legacy", "open"], default="work")
    args = parser.parse_args(argv)
    results = run(args.positions, args.seed, args.budget)
    if args.json:
        print(json.dumps({"budget": args.budget, "results": results}, ensure_ascii=False, indent=2))
        return 0
    print(f"hard budget: {args.budget}")
    for label, levels in results.items():
        for level, s in levels.items():
            line = (
                f"{label:20} {level:7} {s['decisions']:4} decisions  wall p50 {s['wall_ms_p50']:8.2f} "
                f"p99 {s['wall_ms_p99']:8.2f} ms  cpu p50 {s['cpu_ms_p50']:8.2f} p99 {s['cpu_ms_p99']:8.2f} ms"
            )
            if "steps_p50" in s:
                line += f"  steps p50 {s['steps_p50']} p99 {s['steps_p99']}  worlds p50 {s['worlds_p50']}"
                line += f"  stopped by {s['stopped_by']}"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
