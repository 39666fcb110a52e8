"""The arena: whole parties between bot players of chosen levels, and how each level fared.

    python -m engine.arena --game GAME --seats SEAT,SEAT,... --parties K --seed S [--json] [--watch] [--jobs J]
        [--versus-baseline] [--budget-ms MS] [--iterations N] [--steps N] [--option KEY=VALUE ...]

``GAME`` is any game of :func:`engine.core.games` with bot players; ``--option`` sets its options (a game for a
varying number of players gets ``players`` from the number of seats).

A seat is a level (``easy``, ``normal``, ``hard``) or ``baseline``: a «мастер» kept for the arena alone to measure
today's against (each game's :meth:`BotPlayers.choose_baseline`: a frozen copy of one of its earlier releases'). ``--versus-baseline`` plays the same parties a second time with
every ``hard`` seat taken by ``baseline`` and reports both runs side by side, with the paired difference.

Each party is played to its end (the game's outcome). Seats rotate: parties come in
groups of N that share one seed (the same first shuffle), and party ``k`` of a group moves every level ``k``
seats on, so each level sits in each seat equally often and meets the same cards from every position.

For each level the arena reports:

- ``win_rate`` with a Wilson 95% interval. A seat's share of a party's win is ``1 / len(winners)`` if it is
  among the winners (a tie for the top result is split), else 0; when one level holds several seats the
  shares of all its seats are pooled (so with one hard against three normal players a fair hard seat wins 25%).
- ``mean_score`` with a 95% interval (Student t): the seat's final number (the outcome's score), averaged over
  the level's seats.
- ``mean_settlement``: what the seat received (+) or paid (−) in the outcome's settlement.
- decision time per move in milliseconds: p50, p95 and max, over every decision the level made (decisions with
  a single legal action are counted too: they are answered at once), as wall time (``decision_ms_*``) and as
  the CPU time of the deciding thread (``decision_cpu_ms_*``: what one core spends, whatever else runs).
- For a game with a score sheet of deals with contracts, ``mean_by_deal``: the seat's result per party summed over each kind of deal — each negative
  contract, the trump deals where the seat named trump (``trumps_chosen``) and the others (``trumps_other``).

``--watch`` plays one party move by move and prints it (Russian card names) so that a person can judge the play.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai import Level, choose_action, describe_action
from engine.ai.players import bot_players, choose_baseline_action
from engine.arena_report import TRUMP_KINDS, PartyResult, Seat, print_levels, summarize, versus_baseline
from engine.core import JSONValue, make_game


@dataclass(frozen=True, slots=True)
class PartySpec:
    """Everything a worker needs to play one party."""

    game: str
    options: dict[str, JSONValue]
    seed: int
    seats: tuple[Seat, ...]
    budget_ms: float | None
    iterations: int | None
    steps: int | None = None


def party_seed(base_seed: int, group: int) -> int:
    """The game seed of a group of rotated parties (a fixed mix, so neighbouring seeds look unrelated)."""
    return (base_seed * 1_000_003 + group * 7_919 + 17) % (2**31 - 1)


def rotated(seats: Sequence[str], shift: int) -> tuple[Seat, ...]:
    """The seating with every level moved ``shift`` seats on (seat ``i`` gets the level of seat ``i - shift``)."""
    n = len(seats)
    return tuple(Seat(seats[(i - shift) % n]) for i in range(n))


def party_specs(
    game: str,
    options: dict[str, JSONValue],
    seats: Sequence[str],
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


def player_rng(seed: int, seat: int) -> random.Random:
    return random.Random(seed * 31 + seat * 1_000_033 + 5)


def choose(spec: PartySpec, seat: Seat, view: object, rng: random.Random) -> object:
    """The action of the bot player in ``seat`` (the spec's budget overrides apply to hard and baseline)."""
    if seat is Seat.BASELINE:
        return choose_baseline_action(
            view, rng, budget_ms=spec.budget_ms, iterations=spec.iterations, steps=spec.steps
        )
    return choose_action(
        view, Level(seat), rng, budget_ms=spec.budget_ms, iterations=spec.iterations, steps=spec.steps
    )


def play_party(spec: PartySpec) -> PartyResult:
    """Play one whole party between the bot players of ``spec`` and collect the result."""
    game = make_game(spec.game, spec.options)
    state = game.new_initial_state(spec.seed)
    rngs = [player_rng(spec.seed, seat) for seat in range(len(spec.seats))]
    times: dict[Seat, list[float]] = {seat: [] for seat in spec.seats}
    cpu: dict[Seat, list[float]] = {seat: [] for seat in spec.seats}
    kinds: dict[int, tuple[str | None, int | None]] = {}
    clock, cpu_clock = time.perf_counter, time.thread_time
    while not state.is_terminal:
        _note_deal_kind(state, kinds)
        player = state.current_player
        seat = spec.seats[player]
        view = state.view(player)
        t0, c0 = clock(), cpu_clock()
        action = choose(spec, seat, view, rngs[player])
        cpu[seat].append((cpu_clock() - c0) * 1000.0)
        times[seat].append((clock() - t0) * 1000.0)
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
        decision_cpu_ms=cpu,
        deal_results=_deal_results(state, kinds, len(spec.seats)),
    )


def _note_deal_kind(state: Any, kinds: dict[int, tuple[str | None, int | None]]) -> None:
    """Remember, for a game with a score sheet of contracts, each deal's contract (or None: trumps) and chooser."""
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
    rngs = [player_rng(spec.seed, seat) for seat in range(len(spec.seats))]
    times: dict[Seat, list[float]] = {seat: [] for seat in spec.seats}
    names = [f"{i}:{seat.value}" for i, seat in enumerate(spec.seats)]
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
        action = choose(spec, spec.seats[player], view, rngs[player])
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


def parse_option(text: str) -> tuple[str, JSONValue]:
    key, _, raw = text.partition("=")
    if not key or not _:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        value: JSONValue = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def build_options(game: str, seats: int, given: list[tuple[str, JSONValue]]) -> dict[str, JSONValue]:
    """The game's options from ``--option``; a game for a varying number of players gets ``players`` from the
    seats (ValueError: the game refuses them, or is not for that many)."""
    options: dict[str, JSONValue] = dict(given)
    if make_game(game, options).num_players != seats and "players" not in options:
        options["players"] = seats
    if make_game(game, options).num_players != seats:
        raise ValueError(f"{game} is not played by {seats} seats")
    return options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__.splitlines()[0])
    hosted = sorted(bot_players())
    parser.add_argument("--game", required=True, choices=hosted)
    parser.add_argument("--seats", required=True, help="levels (or baseline) by seat, e.g. hard,normal")
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
    parser.add_argument("--option", action="append", type=parse_option, help="extra game option KEY=VALUE")
    parser.add_argument(
        "--versus-baseline",
        action="store_true",
        help="play the parties again with baseline in the hard seats and compare the two side by side",
    )
    args = parser.parse_args(argv)

    try:
        seats = tuple(Seat(part.strip()) for part in args.seats.split(","))
    except ValueError:
        parser.error(f"--seats: seats are {', '.join(seat.value for seat in Seat)}")
    if args.versus_baseline and Seat.HARD not in seats:
        parser.error("--versus-baseline needs a hard seat to compare")
    try:
        options = build_options(args.game, len(seats), args.option or [])
    except ValueError as error:
        parser.error(str(error))

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
    if args.versus_baseline:
        old_seats = tuple(Seat.BASELINE if seat is Seat.HARD else seat for seat in seats)
        old_specs = party_specs(
            args.game,
            options,
            old_seats,
            args.parties,
            args.seed,
            args.budget_ms,
            args.iterations,
            args.steps,
        )
        old = run_parties(old_specs, args.jobs)
        summary["baseline_run"] = summarize(args.game, options, old)
        summary["versus_baseline"] = versus_baseline(results, old)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(
        f"{args.game} {json.dumps(options, ensure_ascii=False)}: {summary['parties']} parties, "
        f"{summary['deals']} deals, {summary['seconds']} s"
    )
    print_levels("today's players:" if args.versus_baseline else "players:", summary)
    if args.versus_baseline:
        print_levels("the same parties, hard seats played by baseline:", summary["baseline_run"])
        v = summary["versus_baseline"]
        lo, hi = v["mean_score_gain_ci95"]
        wlo, whi = v["win_rate_gain_ci95"]
        print(
            f"hard − baseline, paired over {v['parties']} parties: mean score {v['mean_score_gain']:+.2f}"
            f" [{lo:+.2f}, {hi:+.2f}], win rate {v['win_rate_gain']:+.1%} [{wlo:+.1%}, {whi:+.1%}]"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
