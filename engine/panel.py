"""The panel: a subject bot player against a panel of opponent tables, side by side, and a rating over the pool.

    python -m engine.panel --game GAME [--games N] [--min-games M] [--score-width W] [--win-width W] [--seed S]
        [--subjects hard[,baseline]] [--players P] [--jobs J] [--rounds B] [--iterations N] [--steps N]
        [--option KEY=VALUE ...] [--json]

The tables (``P`` seats: the subject and ``P − 1`` opponents): ``P − 1`` «любитель» (``normal``), ``P − 1``
«новичок» (``easy``), ``P − 1`` of each of the game's variants of «любитель» (:mod:`engine.ai.variants`:
opponents that deviate the way people do), with three seats or more two mixed tables (``normal``, ``easy`` and
the first variant; the other variants), and «мастер» itself (``hard``). Every table is dealt the same duplicate
deals, in the same order: a deal is ``P`` parties from one seed (:func:`engine.arena.party_seed`) with the seats
rotated (party ``k`` moves every player ``k`` seats on), so each table and each subject meets the same cards from
every position. A table plays whole deals, at least ``M`` games and at most ``N`` (default 400 and 400), and
between the two stops as soon as its subject's mean score interval is within ± ``--score-width`` points or its
win-rate interval within ± ``--win-width`` (sequential: the width is checked after every deal). A party in which
every seat is the subject (the table of «мастер» against itself) is the same party whatever the rotation: it is
played once a deal, and that table — whose score and win rate are known without playing — plays ``M`` games for
its decision times alone. The tables are played in their order, in ``J`` worker processes (default: the cores),
and each table's lines are printed as soon as it has played enough.

For each table: the subject's mean score and win rate with 95% intervals that count the deals, not the parties
(a deal's parties share its cards; the deal's mean is the unit: a t interval for the score, Wilson's with Kish's
effective number of parties for the win rate, :func:`share_interval`), and its decision CPU time (p95, max: the
deciding thread's CPU, over every decision with more than one legal action); with two subjects their paired
difference, deal by deal.

The rating: every party of every table gives a result for each pair of seats held by different players (the
higher final score wins the pair, equal scores tie); the Bradley–Terry model is fitted to all of them
(:mod:`engine.bradley_terry`), on the Elo scale with «любитель» at 0, with 95% intervals from a bootstrap over
the duplicate deals (every party of every table dealt from one seed is resampled together).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, TextIO

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
    """Play one whole party of the panel and collect each seat's score and each player's decision CPU time (the
    deciding thread's, of every decision with more than one legal action)."""
    state = make_game(spec.game, spec.options).new_initial_state(spec.seed)
    rngs = [player_rng(spec.seed, seat) for seat in range(len(spec.seats))]
    cpu: dict[str, list[float]] = {name: [] for name in spec.seats}
    while not state.is_terminal:
        player = state.current_player
        choices = len(state.legal_actions())
        c0 = time.thread_time()
        action = choose(spec, spec.seats[player], state.view(player), rngs[player])
        spent = (time.thread_time() - c0) * 1000.0
        if choices > 1:  # a single legal action is answered at once: no decision to time
            cpu[spec.seats[player]].append(spent)
        state.apply(action)
    outcome = state.outcome
    assert outcome is not None
    winners = set(outcome.winners)
    shares = tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(len(spec.seats)))
    return PanelResult(spec.seats, tuple(outcome.scores), shares, spec.group, cpu)


# ------------------------------------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class Precision:
    """When a table has played enough: at least ``min_games`` parties a subject, at most ``max_games``, and in
    between until the subject's mean score interval is at most ``score_width`` either side of the mean (in the
    game's points) or its win-rate interval at most ``win_width`` either side (a share), whichever is given and
    met first. Only whole duplicate deals count. With neither width given every table plays ``max_games``."""

    min_games: int
    max_games: int
    score_width: float | None = None
    win_width: float | None = None

    def is_met(self, lines: Sequence[dict[str, Any]], mirrors: Sequence[bool] = ()) -> bool:
        """Whether the table whose subjects' lines are ``lines`` has played enough (every subject's line; a
        subject that plays only itself there, ``mirrors``, needs no more than ``min_games``)."""
        if not lines or any(line["games"] < self.min_games for line in lines):
            return False
        if all(line["games"] >= self.max_games for line in lines):
            return True
        mirrored = list(mirrors) or [False] * len(lines)
        return all(m or self._narrow(line) for line, m in zip(lines, mirrored, strict=True))

    def _narrow(self, line: dict[str, Any]) -> bool:
        score = self.score_width is not None and _half(line["mean_score_ci95"]) <= self.score_width
        win = self.win_width is not None and _half(line["win_rate_ci95"]) <= self.win_width
        return score or win


def _half(interval: Sequence[float]) -> float:
    return (interval[1] - interval[0]) / 2.0


@dataclass(slots=True)
class TableRun:
    """One table's parties for every subject, dealt a duplicate deal at a time until its :class:`Precision` is
    met. A deal's parties that are the same party (every seat held by the same player, e.g. «мастер» against
    «мастер»: the seats rotated change nothing) are played once."""

    table: Table
    subjects: tuple[str, ...]
    deals: list[list[PanelSpec]]
    """Per duplicate deal, the parties of every subject (the first subject's, then the next one's)."""
    started: int = 0
    stopped: bool = False
    queued: list[tuple[int, int]] = field(default_factory=list)
    """(deal, party) of the started deals not yet handed to a worker."""
    in_flight: int = 0
    results: dict[int, dict[int, PanelResult]] = field(default_factory=dict)
    same: dict[int, dict[int, int]] = field(default_factory=dict)
    """Per started deal, each party that repeats an earlier one -> the party played in its stead."""

    def next_party(self) -> tuple[int, int] | None:
        """The (deal, party) to play next, starting a new deal when the table has not played enough."""
        if not self.queued and not self.stopped and self.started < len(self.deals):
            self._start(self.started)
            self.started += 1
        if not self.queued:
            return None
        self.in_flight += 1
        return self.queued.pop(0)

    def _start(self, deal: int) -> None:
        seen: dict[tuple[int, tuple[str, ...]], int] = {}
        repeats: dict[int, int] = {}
        for i, spec in enumerate(self.deals[deal]):
            first = seen.setdefault((spec.seed, spec.seats), i)
            if first != i:
                repeats[i] = first
            else:
                self.queued.append((deal, i))
        self.same[deal] = repeats
        self.results[deal] = {}

    def record(self, deal: int, party: int, result: PanelResult) -> bool:
        """Keep a party's result; True when it completes its deal."""
        self.in_flight -= 1
        got = self.results[deal]
        got[party] = result
        for repeat, first in self.same[deal].items():
            if first == party:
                got[repeat] = result
        return len(got) == len(self.deals[deal])

    @property
    def is_finished(self) -> bool:
        return (self.stopped or self.started == len(self.deals)) and not self.queued and not self.in_flight

    def played(self, subject: str) -> list[PanelResult]:
        """The subject's parties of every complete deal, in the deals' order."""
        n = len(self.table.opponents) + 1
        k = self.subjects.index(subject)
        out: list[PanelResult] = []
        for deal in sorted(self.results):
            got = self.results[deal]
            if len(got) == len(self.deals[deal]):
                out += [got[i] for i in range(k * n, (k + 1) * n)]
        return out

    def lines(self) -> list[dict[str, Any]]:
        return [subject_line(s, self.played(s)) for s in self.subjects]

    def mirrors(self) -> list[bool]:
        """For each subject, whether it plays only itself here: its score and win rate are then known without
        playing (every seat its own), and the table is played for its decision times alone."""
        return [set(self.table.opponents) == {s} for s in self.subjects]


class _Inline:
    """An executor that plays each party as it is handed one (``--jobs 1``)."""

    def submit(self, fn: Callable[[PanelSpec], PanelResult], spec: PanelSpec) -> Future[PanelResult]:
        future: Future[PanelResult] = Future()
        future.set_result(fn(spec))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        return None


def play_tables(
    runs: Sequence[TableRun],
    precision: Precision,
    jobs: int = 1,
    finished: Callable[[TableRun], None] | None = None,
) -> None:
    """Play every table's parties in ``jobs`` processes (the tables in their order, the next one's parties
    handed out while a table waits for its last results); ``finished`` is called with each table as soon as it
    has played enough."""
    executor: Executor | _Inline
    executor = (
        ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) if jobs > 1 else _Inline()
    )
    pending: dict[Future[PanelResult], tuple[TableRun, int, int]] = {}
    done_runs: set[int] = set()
    try:
        while len(done_runs) < len(runs):
            while len(pending) < jobs + 1:
                handed = next(((run, p) for run in runs if (p := run.next_party()) is not None), None)
                if handed is None:
                    break
                run, (deal, party) = handed
                pending[executor.submit(play_party, run.deals[deal][party])] = (run, deal, party)
            ready, _ = wait(pending, return_when=FIRST_COMPLETED) if pending else (set(), set())
            for future in ready:
                run, deal, party = pending.pop(future)
                if run.record(deal, party, future.result()) and not run.stopped:
                    run.stopped = precision.is_met(run.lines(), run.mirrors())
            for i, run in enumerate(runs):
                if i not in done_runs and run.is_finished:
                    done_runs.add(i)
                    if finished is not None:
                        finished(run)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


# ------------------------------------------------------------------------------------------------- the report


def by_deal(subject: str, results: Sequence[PanelResult]) -> dict[int, tuple[float, float]]:
    """Per duplicate deal: the subject's mean score and mean win share over the deal's parties (in each party
    the mean over the subject's seats). A deal's parties are not independent — the same cards, every seat
    taken in turn — so the deals are the units the intervals count."""
    parts: dict[int, list[tuple[float, float]]] = {}
    for r in results:
        mine = [i for i, name in enumerate(r.seats) if name == subject]
        score = statistics.fmean(r.scores[i] for i in mine)
        share = statistics.fmean(r.win_shares[i] for i in mine)
        parts.setdefault(r.group, []).append((score, share))
    return {
        deal: (statistics.fmean(s for s, _ in got), statistics.fmean(w for _, w in got))
        for deal, got in parts.items()
    }


def share_interval(shares: Sequence[float], parties: int) -> tuple[float, float]:
    """The 95% interval of a win rate from each deal's mean share: Wilson's, with the number of parties it is
    worth (Kish's effective size: the deals times the ratio of a single party's variance ``p(1 − p)`` to the
    deals' observed variance), between the number of deals and of parties; with no spread at all, the
    parties."""
    n = len(shares)
    if n == 0:
        return (0.0, 1.0)
    p = statistics.fmean(shares)
    spread = statistics.variance(shares) if n > 1 else 0.0
    worth = float(parties) if spread <= 0.0 or p in (0.0, 1.0) else n * p * (1.0 - p) / spread
    worth = min(float(parties), max(float(n), worth))
    return wilson_interval(p * worth, worth)


def subject_line(subject: str, results: Sequence[PanelResult]) -> dict[str, Any]:
    """The subject's mean score and win rate over ``results`` (one table's parties), with 95% intervals over the
    duplicate deals (:func:`by_deal`, :func:`share_interval`), and its decision CPU time."""
    deals = by_deal(subject, results)
    scores = [s for s, _ in deals.values()]
    shares = [w for _, w in deals.values()]
    cpu = [ms for r in results for ms in r.cpu_ms.get(subject, [])]
    mean, lo, hi = mean_interval(scores)
    wlo, whi = share_interval(shares, len(results))
    return {
        "games": len(results),
        "deals": len(deals),
        "mean_score": round(mean, 3),
        "mean_score_ci95": [round(lo, 3), round(hi, 3)],
        "win_rate": round(statistics.fmean(shares), 4) if shares else 0.0,
        "win_rate_ci95": [round(wlo, 4), round(whi, 4)],
        "decisions": len(cpu),
        "decision_cpu_ms_p95": round(percentile(cpu, 95), 2),
        "decision_cpu_ms_max": round(max(cpu, default=0.0), 2),
    }


def paired(first: str, second: str, a: Sequence[PanelResult], b: Sequence[PanelResult]) -> dict[str, Any]:
    """``first`` − ``second`` deal by deal, over the same deals and seating (mean score, 95% t interval over
    the deals both played)."""
    x, y = by_deal(first, a), by_deal(second, b)
    diffs = [x[deal][0] - y[deal][0] for deal in x if deal in y]
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


def table_deals(
    game: str,
    options: dict[str, JSONValue],
    subjects: Sequence[str],
    table: Table,
    deals: int,
    seed: int,
    iterations: int | None = None,
    steps: int | None = None,
) -> list[list[PanelSpec]]:
    """Per duplicate deal, the parties of every subject at ``table`` (:func:`table_specs`), subject by subject."""
    n = len(table.opponents) + 1
    every = [table_specs(game, options, s, table, deals * n, seed, iterations, steps) for s in subjects]
    return [[spec for specs in every for spec in specs[d * n : (d + 1) * n]] for d in range(deals)]


def table_entry(run: TableRun) -> dict[str, Any]:
    """The report of one table: its opponents, each subject's line and, with two subjects, their difference."""
    subjects = run.subjects
    entry: dict[str, Any] = {
        "table": run.table.name,
        "opponents": list(run.table.opponents),
        "subjects": {
            s: {**line, "itself": mirror}
            for s, line, mirror in zip(subjects, run.lines(), run.mirrors(), strict=True)
        },
    }
    if len(subjects) == 2:
        first, second = subjects
        entry["paired"] = paired(first, second, run.played(first), run.played(second))
    return entry


def panel(
    game: str,
    options: dict[str, JSONValue],
    subjects: Sequence[str],
    precision: Precision,
    seed: int,
    jobs: int = 1,
    rounds: int = 200,
    iterations: int | None = None,
    steps: int | None = None,
    out: TextIO | None = None,
) -> dict[str, Any]:
    """Play the whole panel for every subject and report it (a JSON object); each table's lines are printed to
    ``out`` (when given) as soon as the table has played enough."""
    players = make_game(game, options).num_players
    tables = panel_tables(players, list(bot_players()[game].variants))
    deals = -(-precision.max_games // players)
    runs = [
        TableRun(
            table,
            tuple(subjects),
            table_deals(game, options, subjects, table, deals, seed, iterations, steps),
        )
        for table in tables
    ]
    entries: dict[str, dict[str, Any]] = {}

    def finished(run: TableRun) -> None:
        entries[run.table.name] = table_entry(run)
        if out is not None:
            print_table(entries[run.table.name], subjects, out)

    if out is not None:
        print_heading(game, options, subjects, precision, seed, out)
    play_tables(runs, precision, jobs, finished)
    report: dict[str, Any] = {
        "game": game,
        "options": options,
        "seed": seed,
        "precision": {
            "min_games": precision.min_games,
            "max_games": precision.max_games,
            "score_width": precision.score_width,
            "win_width": precision.win_width,
        },
        "subjects": list(subjects),
        "tables": [entries[t.name] for t in tables],
    }
    report["rating"] = rating([r for run in runs for s in subjects for r in run.played(s)], rounds, seed)
    return report


def print_heading(
    game: str,
    options: dict[str, JSONValue],
    subjects: Sequence[str],
    precision: Precision,
    seed: int,
    out: TextIO,
) -> None:
    widths = [
        f"mean score ±{precision.score_width:g}" if precision.score_width is not None else "",
        f"win rate ±{precision.win_width:.0%}" if precision.win_width is not None else "",
    ]
    until = " or ".join(w for w in widths if w)
    plan = (
        f"{precision.min_games}–{precision.max_games} games a table, until {until}"
        if until
        else f"{precision.max_games} games a table"
    )
    print(
        f"{game} {json.dumps(options, ensure_ascii=False)}: {plan} (duplicate deals, seats rotated), seed {seed};"
        " intervals 95% over the deals, decision CPU of the subject's thread (decisions with a choice)",
        file=out,
    )
    print(
        f"{'subject':<9} {'table':<38} {'games':>5} {'mean score [95%]':<26} {'win rate [95%]':<24}"
        " cpu ms p95 / max",
        file=out,
        flush=True,
    )


def print_table(entry: dict[str, Any], subjects: Sequence[str], out: TextIO) -> None:
    """One table's lines: each subject's, then with two subjects their paired difference."""
    for s in subjects:
        line = entry["subjects"][s]
        lo, hi = line["mean_score_ci95"]
        wlo, whi = line["win_rate_ci95"]
        score = f"{line['mean_score']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        win = f"{line['win_rate']:.1%} [{wlo:.1%}, {whi:.1%}]"
        if line.get("itself"):  # every seat its own: the score and win rate say nothing, the times do
            score, win = f"{line['mean_score']:+.2f} (itself)", f"{line['win_rate']:.1%} (itself)"
        cpu = f"{line['decision_cpu_ms_p95']:.1f} / {line['decision_cpu_ms_max']:.1f}"
        print(f"{s:<9} {entry['table']:<38} {line['games']:>5} {score:<26} {win:<24} {cpu}", file=out)
    if "paired" in entry:
        p = entry["paired"]
        lo, hi = p["mean_score_gain_ci95"]
        print(
            f"{'paired':<9} {entry['table']:<38} {'':>5} {subjects[0]} − {subjects[1]}"
            f" {p['mean_score_gain']:+.2f} [{lo:+.2f}, {hi:+.2f}] a game",
            file=out,
        )
    out.flush()


def print_rating(report: dict[str, Any], out: TextIO) -> None:
    r = report["rating"]
    print(
        f"rating (Bradley–Terry over {r['pairs']} pairwise results of {r['deals']} duplicate deals, Elo scale,"
        f" normal = 0; 95% bootstrap over the deals, {r['rounds']} rounds); {report.get('seconds', 0)} s wall,"
        f" {report.get('cpu_seconds', 0)} s CPU:",
        file=out,
    )
    for name, x in r["ratings"].items():
        lo, hi = x["ci95"]
        print(f"      {name:<14} {x['elo']:+7.1f} [{lo:+.1f}, {hi:+.1f}]", file=out)
    out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.panel", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(bot_players()))
    parser.add_argument("--games", type=int, default=400, help="most parties a table (whole duplicate deals)")
    parser.add_argument(
        "--min-games", type=int, default=None, help="fewest parties a table (default: --games)"
    )
    parser.add_argument("--score-width", type=float, default=None, help="stop a table at mean score ± this")
    parser.add_argument("--win-width", type=float, default=None, help="stop a table at win rate ± this share")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--subjects", default="hard", help="one or two players, e.g. hard,baseline")
    parser.add_argument("--players", type=int, default=None, help="seats (a game for a varying number)")
    parser.add_argument(
        "--jobs", type=int, default=default_jobs(), help="worker processes (default: the cores)"
    )
    parser.add_argument("--rounds", type=int, default=200, help="bootstrap rounds of the rating")
    parser.add_argument("--iterations", type=int, default=None, help="hard, baseline: worlds per decision")
    parser.add_argument("--steps", type=int, default=None, help="hard, baseline: playout steps per decision")
    parser.add_argument("--option", action="append", type=parse_option, help="extra game option KEY=VALUE")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the tables go to stderr)")
    args = parser.parse_args(argv)
    variants = set(bot_players()[args.game].variants)
    subjects = [s.strip() for s in args.subjects.split(",")]
    known = LEVELS | {BASELINE} | variants
    if not 1 <= len(subjects) <= 2 or any(s not in known for s in subjects):
        parser.error(f"--subjects: one or two of {', '.join(sorted(known))}")
    if args.games < 1 or (args.min_games is not None and not 1 <= args.min_games <= args.games):
        parser.error("--games: at least 1; --min-games: between 1 and --games")
    given = list(args.option or [])
    seats = args.players or make_game(args.game, dict(given)).num_players
    try:
        options = build_options(args.game, seats, given)
    except ValueError as error:
        parser.error(str(error))
    precision = Precision(
        args.games if args.min_games is None else args.min_games, args.games, args.score_width, args.win_width
    )
    out = sys.stderr if args.json else sys.stdout
    started, cpu_started = time.perf_counter(), cpu_seconds()
    report = panel(
        args.game,
        options,
        subjects,
        precision,
        args.seed,
        max(1, args.jobs),
        args.rounds,
        args.iterations,
        args.steps,
        out,
    )
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["cpu_seconds"] = round(cpu_seconds() - cpu_started, 1)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print_rating(report, out)
    return 0


def cpu_seconds() -> float:
    """The CPU time of this process and of its finished worker processes (user and system)."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def default_jobs() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


if __name__ == "__main__":
    raise SystemExit(main())
