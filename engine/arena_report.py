"""What the arena reports: who sat where and how each party ended, summed up per seat kind, and today's «мастер»
against the first release's on the same parties (see :mod:`engine.arena`)."""

from __future__ import annotations

import enum
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import JSONValue
from engine.stats import mean_interval, percentile, wilson_interval


class Seat(enum.StrEnum):
    """Who plays a seat in the arena: a level, or the «мастер» kept to measure today's against (``baseline``)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    BASELINE = "baseline"


@dataclass(slots=True)
class PartyResult:
    seats: tuple[Seat, ...]
    win_shares: tuple[float, ...]
    scores: tuple[int, ...]
    settlement: tuple[int, ...]
    deals: int
    decision_ms: dict[Seat, list[float]] = field(default_factory=dict)
    decision_cpu_ms: dict[Seat, list[float]] = field(default_factory=dict)
    deal_results: tuple[dict[str, int], ...] = ()
    """A game with a score sheet of contracts: per seat, its result in each kind of deal (summed per kind)."""


TRUMP_KINDS = ("trumps_chosen", "trumps_other")
"""The kinds of a trump deal for a seat: it named trump, or another player did (after the contracts)."""


def summarize(game: str, options: dict[str, JSONValue], results: Sequence[PartyResult]) -> dict[str, Any]:
    """The JSON summary of some parties: per level win rate, mean score, settlement and decision times."""
    empty: dict[str, list[float]] = {"wins": [], "scores": [], "settlement": [], "ms": [], "cpu": []}
    levels: dict[Seat, dict[str, list[float]]] = {}
    by_deal: dict[Seat, dict[str, list[float]]] = {}
    for result in results:
        for seat, level in enumerate(result.seats):
            entry = levels.setdefault(level, {k: [] for k in empty})
            entry["wins"].append(result.win_shares[seat])
            entry["scores"].append(float(result.scores[seat]))
            entry["settlement"].append(float(result.settlement[seat]))
            if result.deal_results:
                by_kind = by_deal.setdefault(level, {})
                for key, value in result.deal_results[seat].items():
                    by_kind.setdefault(key, []).append(float(value))
        for level, ms in result.decision_ms.items():
            levels.setdefault(level, {k: [] for k in empty})["ms"].extend(ms)
        for level, ms in result.decision_cpu_ms.items():
            levels.setdefault(level, {k: [] for k in empty})["cpu"].extend(ms)
    out: dict[str, Any] = {}
    for level in sorted(levels, key=list(Seat).index):
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
            "decision_cpu_ms_p50": round(percentile(entry["cpu"], 50), 3),
            "decision_cpu_ms_p95": round(percentile(entry["cpu"], 95), 3),
            "decision_cpu_ms_max": round(max(entry["cpu"], default=0.0), 3),
        }
        if level in by_deal:
            # A game of contracts: the seat's result per party summed over each kind of deal (the trump deals split into
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


def versus_baseline(new: Sequence[PartyResult], old: Sequence[PartyResult]) -> dict[str, Any]:
    """Today's «мастер» against the first release's on the same parties: per party, the hard seats' mean
    score and win share minus the baseline seats' in the party dealt and seated alike (a paired difference)."""

    def hard_part(result: PartyResult, seat: Seat) -> tuple[float, float]:
        mine = [i for i, s in enumerate(result.seats) if s is seat]
        score = statistics.fmean(result.scores[i] for i in mine)
        return score, sum(result.win_shares[i] for i in mine) / len(mine)

    scores: list[float] = []
    wins: list[float] = []
    for a, b in zip(new, old, strict=True):
        (sa, wa), (sb, wb) = hard_part(a, Seat.HARD), hard_part(b, Seat.BASELINE)
        scores.append(sa - sb)
        wins.append(wa - wb)
    mean, lo, hi = mean_interval(scores)
    wmean, wlo, whi = mean_interval(wins)
    return {
        "parties": len(scores),
        "mean_score_gain": round(mean, 3),
        "mean_score_gain_ci95": [round(lo, 3), round(hi, 3)],
        "win_rate_gain": round(wmean, 4),
        "win_rate_gain_ci95": [round(wlo, 4), round(whi, 4)],
    }


def print_levels(title: str, summary: dict[str, Any]) -> None:
    print(title)
    for name, s in summary["levels"].items():
        lo, hi = s["win_rate_ci95"]
        mlo, mhi = s["mean_score_ci95"]
        print(
            f"  {name:<8} won {s['wins']:g}/{s['seats_played']} = {s['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]"
            f"  mean score {s['mean_score']:+.2f} [{mlo:+.2f}, {mhi:+.2f}]"
            f"  decision ms p50 {s['decision_ms_p50']:.2f} p95 {s['decision_ms_p95']:.2f}"
            f" max {s['decision_ms_max']:.1f} (cpu p95 {s['decision_cpu_ms_p95']:.2f}"
            f" max {s['decision_cpu_ms_max']:.1f})"
        )
        if "mean_by_deal" in s:
            print("           by deal: " + "  ".join(f"{k} {v:+.2f}" for k, v in s["mean_by_deal"].items()))
