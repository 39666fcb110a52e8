"""The panel: a subject bot player against a panel of opponent tables, side by side, and a rating over the pool.

    python -m engine.panel --game GAME [--games N] [--seed S] [--subjects hard[,baseline]] [--players P]
        [--jobs J] [--rounds B] [--iterations N] [--steps N] [--option KEY=VALUE ...] [--json]

The tables (``P`` seats: the subject and ``P − 1`` opponents): three «любитель» (``normal``), three «новичок»
(``easy``), three of each of the game's variants of «любитель» (:mod:`engine.ai.variants`: opponents that
deviate the way people do), with three seats or more two mixed tables (``normal``, ``easy`` and the first variant;
the other variants), and «мастер» itself (``hard``). Every table plays the same ``N`` parties: the arena's
duplicate deals (groups of ``P`` parties share a seed, :func:`engine.arena.party_seed`) with the seats rotated
(party ``k`` moves every player ``k`` seats on), so each table and each subject meets the same cards from every
position. For each table the subject's mean score (95% t interval), its win rate (Wilson) and its decision CPU
time (p95, max) are printed; with two subjects also their paired difference, party by party.

The rating: every party of every table gives a result for each pair of seats held by different players (the
higher final score wins the pair, equal scores tie); the Bradley–Terry model is fitted to all of them
(:mod:`engine.bradley_terry`), on the Elo scale with «любитель» at 0, with 95% intervals from a bootstrap over
the duplicate deals (every party of every table dealt from one seed is resampled together).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai import Level, choose_action
from engine.ai.players import bot_players, choose_baseline_action, choose_variant_action
from engine.arena import build_options, parse_option, party_seed, player_rng
from engine.bradley_terry import Result, bootstrap, fit
from engine.core import JSONValue, make_game
from engine.stats import mean_interval, percentile, wilson_interval

LEVELS = frozenset(level.value for level in Level)
BASELINE = "baseline"
ANCHOR = Level.NORMAL.value


@dataclass(frozen=True, slots=True)
class Table:
    """One table of the panel: its name and the opponents the subject meets there."""

    name: str
    opponents: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PanelSpec:
    """Everything a worker needs to play one party of the panel."""

    game: str
    options: dict[str, JSONValue]
    seed: int
    group: int
    """The duplicate deal: parties of every table with the same group were dealt from the same seed."""
    seats: tuple[str, ...]
    iterations: int | None = None
    steps: int | None = None


@dataclass(slots=True)
class PanelResult:
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    win_shares: tuple[float, ...]
    group: int
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)


def panel_tables(players: int, variants: Sequence[str]) -> list[Table]:
    """The panel's tables for ``players`` seats and the game's ``variants`` (in their order)."""
    k = players - 1
    tables = [Table(f"{k}×normal", ("normal",) * k), Table(f"{k}×easy", ("easy",) * k)]
    tables += [Table(f"{k}×{name}", (name,) * k) for name in variants]
    if k >= 2:
        first = ("normal", "easy", *variants)[:k]
        rest = tuple(variants[1 : 1 + k])
        tables.append(Table("mixed:" + "+".join(first), first))
        if len(rest) == k:
            tables.append(Table("mixed:" + "+".join(rest), rest))
    tables.append(Table(f"{k}×hard", ("hard",) * k))
    return tables


def table_specs(
    game: str,
    options: dict[str, JSONValue],
    subject: str,
    table: Table,
    games: int,
    seed: int,
    iterations: int | None = None,
    steps: int | None = None,
) -> list[PanelSpec]:
    """The parties of ``subject`` at ``table``: the duplicate deals, every player moved ``k`` seats on in the
    party ``k`` of its group."""
    seating = (subject, *table.opponents)
    n = len(seating)
    return [
        PanelSpec(
            game,
            options,
            party_seed(seed, k // n),
            k // n,
            tuple(seating[(i - k) % n] for i in range(n)),
            iterations,
            steps,
        )
        for k in range(games)
    ]


def choose(spec: PanelSpec, name: str, view: object, rng: Any) -> object:
    """The action of the player ``name`` (a level, ``baseline`` or a variant of «любитель»)."""
    if name == BASELINE:
        return choose_baseline_action(view, rng, iterations=spec.iterations, steps=spec.steps)
    if name in LEVELS:
        return choose_action(view, Level(name), rng, iterations=spec.iterations, steps=spec.steps)
    return choose_variant_action(view, name, rng)


def play_party(spec: PanelSpec) -> PanelResult:
    """Play one whole party of the panel and collect each seat's score and each player's decision CPU time."""
    state = make_game(spec.game, spec.options).new_initial_state(spec.seed)
    rngs = [player_rng(spec.seed, seat) for seat in range(len(spec.seats))]
    cpu: dict[str, list[float]] = {name: [] for name in spec.seats}
    while not state.is_terminal:
        player = state.current_player
        c0 = time.thread_time()
        action = choose(spec, spec.seats[player], state.view(player), rngs[player])
        cpu[spec.seats[player]].append((time.thread_time() - c0) * 1000.0)
        state.apply(action)
    outcome = state.outcome
    assert outcome is not None
    winners = set(outcome.winners)
    shares = tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(len(spec.seats)))
    return PanelResult(spec.seats, tuple(outcome.scores), shares, spec.group, cpu)


def run(specs: Sequence[PanelSpec], jobs: int = 1) -> list[PanelResult]:
    """Play the parties, in ``jobs`` processes when more than one; results come back in the specs' order."""
    if jobs <= 1 or len(specs) <= 1:
        return [play_party(spec) for spec in specs]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return list(pool.imap(play_party, specs, chunksize=1))


# ------------------------------------------------------------------------------------------------- the report


def subject_line(subject: str, results: Sequence[PanelResult]) -> dict[str, Any]:
    """The subject's mean score, win rate and decision CPU time over ``results`` (one table's parties)."""
    scores, wins, cpu = [], 0.0, []
    for r in results:
        mine = [i for i, name in enumerate(r.seats) if name == subject]
        scores.append(statistics.fmean(r.scores[i] for i in mine))
        wins += sum(r.win_shares[i] for i in mine) / len(mine)
        cpu.extend(r.cpu_ms.get(subject, []))
    mean, lo, hi = mean_interval(scores)
    wlo, whi = wilson_interval(wins, len(results))
    return {
        "games": len(results),
        "mean_score": round(mean, 3),
        "mean_score_ci95": [round(lo, 3), round(hi, 3)],
        "win_rate": round(wins / len(results), 4) if results else 0.0,
        "win_rate_ci95": [round(wlo, 4), round(whi, 4)],
        "decision_cpu_ms_p95": round(percentile(cpu, 95), 2),
        "decision_cpu_ms_max": round(max(cpu, default=0.0), 2),
    }


def paired(first: str, second: str, a: Sequence[PanelResult], b: Sequence[PanelResult]) -> dict[str, Any]:
    """``first`` − ``second`` party by party, over the same deals and seating (mean score, 95% t interval)."""
    diffs = [
        statistics.fmean(x.scores[i] for i, n in enumerate(x.seats) if n == first)
        - statistics.fmean(y.scores[i] for i, n in enumerate(y.seats) if n == second)
        for x, y in zip(a, b, strict=True)
    ]
    mean, lo, hi = mean_interval(diffs)
    return {"mean_score_gain": round(mean, 3), "mean_score_gain_ci95": [round(lo, 3), round(hi, 3)]}


def pair_results(result: PanelResult) -> list[Result]:
    """Each pair of seats held by different players: the higher final score wins, equal scores tie."""
    out: list[Result] = []
    seats = result.seats
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i] != seats[j]:
                a, b = result.scores[i], result.scores[j]
                out.append((seats[i], seats[j], 1.0 if a > b else 0.5 if a == b else 0.0))
    return out


def rating(results: Sequence[PanelResult], rounds: int, seed: int) -> dict[str, Any]:
    """The Bradley–Terry rating of every player of the pool (Elo scale, «любитель» 0) with bootstrap intervals
    over the duplicate deals."""
    groups: dict[int, list[Result]] = {}
    for r in results:
        groups.setdefault(r.group, []).extend(pair_results(r))
    every = [x for g in groups.values() for x in g]
    point = fit(every, ANCHOR)
    spread = bootstrap(list(groups.values()), rounds, seed, ANCHOR)
    return {
        "pairs": len(every),
        "deals": len(groups),
        "rounds": rounds,
        "ratings": {
            name: {"elo": round(point[name], 1), "ci95": [round(x, 1) for x in spread[name]]}
            for name in sorted(point, key=lambda name: -point[name])
        },
    }


def panel(
    game: str,
    options: dict[str, JSONValue],
    subjects: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    rounds: int = 200,
    iterations: int | None = None,
    steps: int | None = None,
) -> dict[str, Any]:
    """Play the whole panel for every subject and report it (a JSON object)."""
    players = make_game(game, options).num_players
    tables = panel_tables(players, list(bot_players()[game].variants))
    keys = [(subject, table) for subject in subjects for table in tables]
    specs = {key: table_specs(game, options, key[0], key[1], games, seed, iterations, steps) for key in keys}
    flat = [spec for key in keys for spec in specs[key]]
    played = iter(run(flat, jobs))
    results = {key: [next(played) for _ in specs[key]] for key in keys}
    report: dict[str, Any] = {
        "game": game,
        "options": options,
        "games": games,
        "seed": seed,
        "subjects": list(subjects),
        "tables": [
            {
                "table": table.name,
                "opponents": list(table.opponents),
                "subjects": {s: subject_line(s, results[(s, table)]) for s in subjects},
                **(
                    {
                        "paired": paired(
                            subjects[0],
                            subjects[1],
                            results[(subjects[0], table)],
                            results[(subjects[1], table)],
                        )
                    }
                    if len(subjects) == 2
                    else {}
                ),
            }
            for table in tables
        ],
    }
    report["rating"] = rating([r for key in keys for r in results[key]], rounds, seed)
    return report


def print_report(report: dict[str, Any]) -> None:
    subjects = report["subjects"]
    print(
        f"{report['game']} {json.dumps(report['options'], ensure_ascii=False)}: {report['games']} games a table"
        f" (duplicate deals, seats rotated), seed {report['seed']}, {report.get('seconds', 0)} s"
    )
    for s in subjects:
        print(f"{s}:  {'table':<38} {'mean score [95%]':<26} {'win rate [95%]':<24} cpu ms p95 / max")
        for t in report["tables"]:
            line = t["subjects"][s]
            lo, hi = line["mean_score_ci95"]
            wlo, whi = line["win_rate_ci95"]
            score = f"{line['mean_score']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            win = f"{line['win_rate']:.1%} [{wlo:.1%}, {whi:.1%}]"
            cpu = f"{line['decision_cpu_ms_p95']:.1f} / {line['decision_cpu_ms_max']:.1f}"
            print(f"      {t['table']:<38} {score:<26} {win:<24} {cpu}")
    if len(subjects) == 2:
        print(f"paired {subjects[0]} − {subjects[1]}, mean score a game, the same deals and seats:")
        for t in report["tables"]:
            p = t["paired"]
            lo, hi = p["mean_score_gain_ci95"]
            print(f"      {t['table']:<38} {p['mean_score_gain']:+.2f} [{lo:+.2f}, {hi:+.2f}]")
    r = report["rating"]
    print(
        f"rating (Bradley–Terry over {r['pairs']} pairwise results of {r['deals']} duplicate deals, Elo scale,"
        f" normal = 0; 95% bootstrap over the deals, {r['rounds']} rounds):"
    )
    for name, x in r["ratings"].items():
        lo, hi = x["ci95"]
        print(f"      {name:<14} {x['elo']:+7.1f} [{lo:+.1f}, {hi:+.1f}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.panel", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(bot_players()))
    parser.add_argument("--games", type=int, default=20, help="parties a table (duplicate deals)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--subjects", default="hard", help="one or two players, e.g. hard,baseline")
    parser.add_argument("--players", type=int, default=None, help="seats (a game for a varying number)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--rounds", type=int, default=200, help="bootstrap rounds of the rating")
    parser.add_argument("--iterations", type=int, default=None, help="hard, baseline: worlds per decision")
    parser.add_argument("--steps", type=int, default=None, help="hard, baseline: playout steps per decision")
    parser.add_argument("--option", action="append", type=parse_option, help="extra game option KEY=VALUE")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    variants = set(bot_players()[args.game].variants)
    subjects = [s.strip() for s in args.subjects.split(",")]
    known = LEVELS | {BASELINE} | variants
    if not 1 <= len(subjects) <= 2 or any(s not in known for s in subjects):
        parser.error(f"--subjects: one or two of {', '.join(sorted(known))}")
    given = list(args.option or [])
    seats = args.players or make_game(args.game, dict(given)).num_players
    try:
        options = build_options(args.game, seats, given)
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()
    report = panel(
        args.game,
        options,
        subjects,
        args.games,
        args.seed,
        args.jobs,
        args.rounds,
        args.iterations,
        args.steps,
    )
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
