"""What one Кончинка player sees: their view of the party, its public events and the scoring of each deal."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.cards import Card
from engine.core import Outcome, Player
from engine.konchinka.actions import KonchinkaAction
from engine.konchinka.rules import KonchinkaOptions


class EventKind(enum.StrEnum):
    DEAL_START = "deal_start"  # player: the dealer
    CAPTURE = "capture"
    SWEEP = "sweep"  # a classic jack took the whole table
    LAY = "lay"
    LEFTOVERS = "leftovers"  # the table at the end of the deck went to ``player`` (-1: nobody)
    FINISH = "finish"  # «прикончил»


@dataclass(frozen=True, slots=True)
class Event:
    """One public event of the party: «Аня взяла 3♠ 5♦ восьмёркой» is CAPTURE(Аня, 8, (3♠, 5♦))."""

    player: Player
    kind: EventKind
    card: Card | None
    taken: tuple[Card, ...]
    deal_number: int


@dataclass(frozen=True, slots=True)
class DealScore:
    """The scoring of one finished deal (or of the deal cut short by an early finish).

    On an early finish only the finisher scores: ``points`` holds their secured points, ``cards_winner`` /
    ``clubs_winner`` name them if they secured those points, and ``konchinki`` lists the кончинки they hold.
    """

    deal_number: int
    cards: tuple[int, ...]
    clubs: tuple[int, ...]
    konchinki: dict[Card, int]
    cards_winner: int | None
    clubs_winner: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    finished_early_by: int | None = None


@dataclass(frozen=True, slots=True)
class KonchinkaView:
    """What one player may know: their hand, everything public, nothing else (no other hand, no deck order)."""

    player: Player
    options: KonchinkaOptions
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    deck_size: int
    pile_sizes: tuple[int, ...]
    pile_clubs: tuple[int, ...]
    konchinki: tuple[tuple[Card, ...], ...]
    captured: tuple[tuple[Card, ...], ...]
    current_player: Player
    dealer: Player
    deal_number: int
    tally: tuple[tuple[int, ...], ...]
    deal_scores: tuple[DealScore, ...]
    recent_events: tuple[Event, ...]
    legal_actions: tuple[KonchinkaAction, ...]
    is_terminal: bool
    outcome: Outcome | None
    version: int
    previous_events: tuple[Event, ...] = field(default=(), compare=False)
    """The last finished deal's events (none in the first deal): its last moves, for its result. Not compared:
    a world rebuilt from a view (``from_view``) starts with this deal, and nothing a player decides on needs it."""
