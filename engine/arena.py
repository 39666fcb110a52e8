"""The arena: whole parties between bot players of chosen levels, and how each level fared.

    python -m engine.arena --game konchinka|king [--variant classic|points] [--players N]
        --seats LEVEL,LEVEL,... --parties K --seed S [--json] [--watch] [--jobs J]
        [--budget-ms MS] [--iterations N] [--steps N] [--option KEY=VALUE ...]

Each party is played to its end (Кончинка: to the target; Кинг: all 15 deals). Seats rotate: parties come in
groups of N that share one seed (the same first shuffle), and party ``k`` of a group moves every level ``k``
seats on, so each level sits in each seat equally often and meets the same cards from every position.

For each level the arena reports:

- ``win_rate`` with a Wilson 95% interval. A seat's share of a party's win is ``1 / len(winners)`` if it is
  among the winners (a tie for the top result in Кинг is split), else 0; when one level holds several seats the
  shares of all its seats are pooled (so with one hard against three normal players a fair hard seat wins 25%).
- ``mean_score`` with a 95% interval (Student t): the seat's final number (Кончинка: its tally total; Кинг:
  its final result, positive points minus penalties), averaged over the level's seats.
- ``mean_settlement``: what the seat received (+) or paid (−) in the outcome's settlement.
- decision time per move in milliseconds: p50, p95 and max, over every decision the level made (decisions with
  a single legal action are counted too: they are answered at once).
- Кинг only, ``mean_by_deal``: the seat's result per party summed over each kind of deal — each negative
  contract, the trump deals where the seat named trump (``trumps_chosen``) and the others (``trumps_other``).

``--watch`` plays one party move by move and prints it (Russian card names) so that a person can judge the play.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai import Level, choose_action, describe_action
from engine.core import JSONValue, make_game

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class PartySpec:
    """Everything a worker needs to play one party."""

    game: str
    options: dict[str, JSONValue]
    seed: int
    seats: tuple[Level, ...]
    budget_ms: float | None
    iterations: int | None
    steps: int | None = None


@dataclass(slots=True)
class PartyResult:
    seats: tuple[Level, ...]
    win_shares: tuple[float, ...]
    scores: tuple[int, ...]
    settlement: tuple[int, ...]
    deals: int
    decision_ms: dict[Level, list[float]] = field(default_factory=dict)
    deal_results: tuple[dict[str, int], ...] = ()
    """Кинг: per seat, the seat's result in each kind of deal (summed over the deals of that kind)."""


def party_seed(base_seed: int, group: int) -> int:
    """The game seed of a group of rotated parties (a fixed mix, so neighbouring seeds look unrelated)."""
    return (base_seed * 1_000_003 + group * 7_919 + 17) % (2**31 - 1)


def rotated(seats: Sequence[Level], shift: int) -> tuple[Level, ...]:
    """The seating with every level moved ``shift`` seats on (seat ``i`` gets the level of seat ``i - shift``)."""
    n = len(seats)
    return tuple(seats[(i - shift) % n] for i in range(n))


def party_specs(
    game: str,
    options: dict[str, JSONValue],
    seats: Sequence[Level],
    parties: int,
    seed: int,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
) -> list[PartySpec]:
    n = len(seats)
    return [
        PartySpec(
            game, options, party_seed(seed, k // n), rotated(seats, k % n), budget_ms, iterations, steps
        )
        for k in range(parties)
    ]


def _player_rng(seed: int, seat: int) -> random.Random:
    return random.Random(seed * 31 + seat * 1_000_033 + 5)


def play_party(spec: PartySpec) -> PartyResult:
    """Play one whole party between the bot players of ``spec`` and collect the result."""
    game = make_game(spec.game, spec.options)
    state = game.new_initial_state(spec.seed)
    rngs = [_player_rng(spec.seed, seat) for seat in range(len(spec.seats))]
    times: dict[Level, list[float]] = {level: [] for level in spec.seats}
    kinds: dict[int, tuple[str | None, int | None]] = {}
    clock = time.perf_counter
    while not state.is_terminal:
        _note_deal_kind(state, kinds)
        player = state.current_player
        level = spec.seats[player]
        view = state.view(player)
        t0 = clock()
        action = choose_action(
            view, level, rngs[player], budget_ms=spec.budget_ms, iterations=spec.iterations, steps=spec.steps
        )
        times[level].append((clock() - t0) * 1000.0)
        state.apply(action)
    outcome = state.outcome
    assert outcome is not None
    winners = set(outcome.winners)
    shares = tuple((1.0 / len(winners)) if seat in winners else 0.0 for seat in range(len(spec.seats)))
    return PartyResult(
        seats=spec.seats,
        win_shares=shares,
        scores=tuple(outcome.scores),
        settlement=tuple(outcome.settlement),
        deals=state.deals_completed,
        decision_ms=times,
        deal_results=_deal_results(state, kinds, len(spec.seats)),
    )


TRUMP_KINDS = ("trumps_chosen", "trumps_other")
"""The kinds of a Кинг trump deal for a seat: it named trump, or another player did (after the contracts)."""


def _note_deal_kind(state: Any, kinds: dict[int, tuple[str | None, int | None]]) -> None:
    """Remember, for a game with a score sheet (Кинг), each deal's contract (or None: trumps) and chooser."""
    deal = getattr(state, "deal_index", None)
    if deal is None or deal in kinds or getattr(state, "score_sheet", None) is None:
        return
    contract = getattr(state, "contract", None)
    kinds[deal] = (None if contract is None else str(contract.value), getattr(state, "chooser", None))


def _deal_results(
    state: Any, kinds: dict[int, tuple[str | None, int | None]], seats: int
) -> tuple[dict[str, int], ...]:
    """Per seat: its result summed by kind of deal («tricks» … «eralash», trumps it chose, trumps others chose)."""
    sheet = getattr(state, "score_sheet", None)
    if not sheet:
        return ()
    out: list[dict[str, int]] = [{} for _ in range(seats)]
    for deal, row in enumerate(sheet):
        contract, chooser = kinds.get(deal, (None, None))
        for seat in range(seats):
            key = contract or TRUMP_KINDS[0 if seat == chooser else 1]
            out[seat][key] = out[seat].get(key, 0) + row[seat]
    return tuple(out)


# ----------------------------------------------------------------------------------------------- statistics


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional successes, e.g. split ties, are allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def t_quantile_975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (Cornish–Fisher, exact to ~1e-3)."""
    if df <= 0:
        return math.inf
    if df == 1:
        return 12.706
    if df == 2:
        return 4.303
    z = Z95
    g1 = (z**3 + z) / 4.0
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96.0
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384.0
    return z + g1 / df + g2 / df**2 + g3 / df**3


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its 95% interval from the t approximation."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, -math.inf, math.inf)
    half = t_quantile_975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` percentile (0..100) with linear interpolation between order statistics."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summarize(game: str, options: dict[str, JSONValue], results: Sequence[PartyResult]) -> dict[str, Any]:
    """The JSON summary of some parties: per level win rate, mean score, settlement and decision times."""
    levels: dict[Level, dict[str, list[float]]] = {}
    by_deal: dict[Level, dict[str, list[float]]] = {}
    for result in results:
        for seat, level in enumerate(result.seats):
            entry = levels.setdefault(level, {"wins": [], "scores": [], "settlement": [], "ms": []})
            entry["wins"].append(result.win_shares[seat])
            entry["scores"].append(float(result.scores[seat]))
            entry["settlement"].append(float(result.settlement[seat]))
            if result.deal_results:
                by_kind = by_deal.setdefault(level, {})
                for key, value in result.deal_results[seat].items():
                    by_kind.setdefault(key, []).append(float(value))
        for level, ms in result.decision_ms.items():
            levels.setdefault(level, {"wins": [], "scores": [], "settlement": [], "ms": []})["ms"].extend(ms)
    out: dict[str, Any] = {}
    for level in sorted(levels, key=list(Level).index):
        entry = levels[level]
        n = len(entry["wins"])
        wins = sum(entry["wins"])
        lo, hi = wilson_interval(wins, n)
        mean, mlo, mhi = mean_interval(entry["scores"])
        out[level.value] = {
            "seats_played": n,
            "wins": round(wins, 3),
            "win_rate": round(wins / n, 4) if n else 0.0,
            "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(mean, 3),
            "mean_score_ci95": [round(mlo, 3), round(mhi, 3)],
            "mean_settlement": round(statistics.fmean(entry["settlement"]), 3) if n else 0.0,
            "decisions": len(entry["ms"]),
            "decision_ms_p50": round(percentile(entry["ms"], 50), 3),
            "decision_ms_p95": round(percentile(entry["ms"], 95), 3),
            "decision_ms_max": round(max(entry["ms"], default=0.0), 3),
        }
        if level in by_deal:
            # Кинг: the seat's result per party summed over each kind of deal (the trump deals split into
            # those the seat chose trump in and the others'), to show where a level gains or loses.
            out[level.value]["mean_by_deal"] = {
                key: round(statistics.fmean(by_deal[level][key]), 3)
                for key in sorted(
                    by_deal[level], key=lambda k: TRUMP_KINDS.index(k) if k in TRUMP_KINDS else -1
                )
            }
    return {
        "game": game,
        "options": options,
        "parties": len(results),
        "deals": sum(r.deals for r in results),
        "levels": out,
    }


# ------------------------------------------------------------------------------------------------- running


def run_parties(specs: Sequence[PartySpec], jobs: int = 1) -> list[PartyResult]:
    """Play the parties, in ``jobs`` processes when more than one; results come back in the specs' order."""
    if jobs <= 1 or len(specs) <= 1:
        return [play_party(spec) for spec in specs]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return list(pool.imap(play_party, specs, chunksize=1))


def watch_party(spec: PartySpec, out: Any = None) -> PartyResult:
    """Play one party and print it move by move (to ``out``, default standard output)."""
    out = sys.stdout if out is None else out
    game = make_game(spec.game, spec.options)
    state = game.new_initial_state(spec.seed)
    rngs = [_player_rng(spec.seed, seat) for seat in range(len(spec.seats))]
    times: dict[Level, list[float]] = {level: [] for level in spec.seats}
    names = [f"{seat}:{level.value}" for seat, level in enumerate(spec.seats)]
    print(f"{spec.game} {json.dumps(spec.options, ensure_ascii=False)} seed={spec.seed}", file=out)
    print("seats: " + ", ".join(names), file=out)
    deals = -1
    while not state.is_terminal:
        if state.deals_completed != deals:
            deals = state.deals_completed
            print(f"\n=== deal {deals + 1} ===", file=out)
        player = state.current_player
        view = state.view(player)
        t0 = time.perf_counter()
        action = choose_action(
            view,
            spec.seats[player],
            rngs[player],
            budget_ms=spec.budget_ms,
            iterations=spec.iterations,
            steps=spec.steps,
        )
        elapsed = (time.perf_counter() - t0) * 1000.0
        times[spec.seats[player]].append(elapsed)
        print(f"  {names[player]:>9}  {describe_action(view, action):<60} ({elapsed:.0f} ms)", file=out)
        state.apply(action)
        if state.deals_completed != deals:
            for line in _deal_summary(state):
                print("  " + line, file=out)
    outcome = state.outcome
    assert outcome is not None
    print(f"\nwinners: {[names[w] for w in outcome.winners]}  scores: {list(outcome.scores)}", file=out)
    winners = set(outcome.winners)
    return PartyResult(
        seats=spec.seats,
        win_shares=tuple((1.0 / len(winners)) if s in winners else 0.0 for s in range(len(spec.seats))),
        scores=tuple(outcome.scores),
        settlement=tuple(outcome.settlement),
        deals=state.deals_completed,
        decision_ms=times,
    )


def _deal_summary(state: Any) -> Iterator[str]:
    """A line or two about the deal just finished, from whatever the state offers."""
    deal_scores = getattr(state, "deal_scores", None)
    if deal_scores:
        last = deal_scores[-1]
        yield f"deal points {list(last.points)}  cards {list(last.cards)}  clubs {list(last.clubs)}"
        yield f"totals {list(last.totals)}"
    sheet = getattr(state, "score_sheet", None)
    if sheet:
        yield f"deal result {list(sheet[-1])}  totals {[sum(col) for col in zip(*sheet, strict=True)]}"


def _parse_option(text: str) -> tuple[str, JSONValue]:
    key, _, raw = text.partition("=")
    if not key or not _:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        value: JSONValue = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def build_options(args: argparse.Namespace) -> dict[str, JSONValue]:
    options: dict[str, JSONValue] = {}
    if args.game == "konchinka":
        options["players"] = args.players
        options["variant"] = args.variant
    for key, value in args.option or []:
        options[key] = value
    return options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=["konchinka", "king"])
    parser.add_argument("--variant", default="classic", choices=["classic", "points"], help="Кончинка only")
    parser.add_argument("--players", type=int, default=None, help="Кончинка: 2..4 (default: seats); Кинг: 4")
    parser.add_argument("--seats", required=True, help="levels by seat, e.g. hard,normal")
    parser.add_argument("--parties", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--watch", action="store_true", help="print one party move by move")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="hard level: wall-clock cap per decision (default: none)",
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="hard level: sampled worlds per decision"
    )
    parser.add_argument("--steps", type=int, default=None, help="hard level: playout steps per decision")
    parser.add_argument("--option", action="append", type=_parse_option, help="extra game option KEY=VALUE")
    args = parser.parse_args(argv)

    try:
        seats = tuple(Level(part.strip()) for part in args.seats.split(","))
    except ValueError:
        parser.error(f"--seats: levels are {', '.join(level.value for level in Level)}")
    if args.players is None:
        args.players = len(seats)
    if args.game == "king" and len(seats) != 4:
        parser.error("Кинг is played by exactly 4 seats")
    if len(seats) != args.players:
        parser.error(f"--seats names {len(seats)} levels for {args.players} players")
    options = build_options(args)

    if args.watch:
        spec = party_specs(
            args.game, options, seats, 1, args.seed, args.budget_ms, args.iterations, args.steps
        )[0]
        watch_party(spec)
        return 0
    specs = party_specs(
        args.game, options, seats, args.parties, args.seed, args.budget_ms, args.iterations, args.steps
    )
    started = time.perf_counter()
    results = run_parties(specs, args.jobs)
    summary = summarize(args.game, options, results)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(
        f"{args.game} {json.dumps(options, ensure_ascii=False)}: {summary['parties']} parties, "
        f"{summary['deals']} deals, {summary['seconds']} s"
    )
    for name, s in summary["levels"].items():
        lo, hi = s["win_rate_ci95"]
        mlo, mhi = s["mean_score_ci95"]
        print(
            f"  {name:<7} won {s['wins']:g}/{s['seats_played']} = {s['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]"
            f"  mean score {s['mean_score']:+.2f} [{mlo:+.2f}, {mhi:+.2f}]"
            f"  decision ms p50 {s['decision_ms_p50']:.2f} p95 {s['decision_ms_p95']:.2f}"
            f" max {s['decision_ms_max']:.1f}"
        )
        if "mean_by_deal" in s:
            print("          by deal: " + "  ".join(f"{k} {v:+.2f}" for k, v in s["mean_by_deal"].items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
