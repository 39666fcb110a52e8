"""How a Кончинка deal is scored and a party settled: pure functions of the counts, shared by the state and by
anything that explains a score (the rules' worked examples).

A finished deal gives 2 points for the most cards, 1 for the most clubs (a tie gives nobody those points) and
1 for each кончинка (2♣, 10♦) to whoever took it. During a deal some points are already *secured*: a кончинка
taken, 7 of the 13 clubs, 27 of the 52 cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from engine.cards import Card
from engine.core import Outcome, Player
from engine.konchinka.rules import (
    CARDS_POINTS,
    CLUBS_POINTS,
    SECURE_CARDS,
    SECURE_CLUBS,
    KonchinkaOptions,
    Settlement,
)


class DealPoints(NamedTuple):
    """Who won the cards and the clubs of a deal (None: a tie), and each seat's points."""

    cards_winner: Player | None
    clubs_winner: Player | None
    points: list[int]


def strict_winner(values: Sequence[int]) -> Player | None:
    """The seat with the single highest value, or None when the highest is shared."""
    best = max(values)
    if values.count(best) != 1:
        return None
    return values.index(best)


def score_deal(cards: Sequence[int], clubs: Sequence[int], konchinki: Mapping[Card, Player]) -> DealPoints:
    """The points of a finished deal from each seat's count of cards and clubs and who took each кончинка."""
    cards_winner = strict_winner(cards)
    clubs_winner = strict_winner(clubs)
    points = [0] * len(cards)
    if cards_winner is not None:
        points[cards_winner] += CARDS_POINTS
    if clubs_winner is not None:
        points[clubs_winner] += CLUBS_POINTS
    for holder in konchinki.values():
        points[holder] += 1
    return DealPoints(cards_winner, clubs_winner, points)


def secured_points(cards: int, clubs: int, konchinki: int) -> int:
    """The points a seat cannot lose any more in this deal, from what it has taken so far."""
    points = konchinki
    if clubs >= SECURE_CLUBS:
        points += CLUBS_POINTS
    if cards >= SECURE_CARDS:
        points += CARDS_POINTS
    return points


def settle(options: KonchinkaOptions, totals: Sequence[int], winner: Player) -> Outcome:
    """The outcome of a party won by ``winner``: each loser pays the stake, or what they lacked of the target."""
    owed = [
        0
        if seat == winner
        else (options.stake if options.settlement is Settlement.STAKE else max(options.target - t, 0))
        for seat, t in enumerate(totals)
    ]
    settlement = [-o for o in owed]
    settlement[winner] = sum(owed)
    return Outcome(winners=(winner,), scores=tuple(totals), settlement=tuple(settlement))
