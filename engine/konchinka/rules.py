"""Кончинка: options, card values and bit masks, and how the first table is drawn.

Actions are in :mod:`engine.konchinka.actions`, capture enumeration in :mod:`engine.konchinka.captures`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Final

from engine.cards import FULL_DECK, Card, Rank, Suit
from engine.core import JSONValue


class Variant(enum.StrEnum):
    CLASSIC = "classic"
    POINTS = "points"


class Settlement(enum.StrEnum):
    POINTS = "points"
    STAKE = "stake"


class KonchinkaIllegal(enum.StrEnum):
    """Why Кончинка refuses an action (besides :class:`engine.core.CommonIllegal`)."""

    MUST_CAPTURE = "must_capture"  # forced_capture is on and the player has a capture
    NOT_ON_TABLE = "not_on_table"  # params: card
    BAD_GROUP = "bad_group"  # a group that is neither one card of the rank nor a set adding up to the value
    ONE_GROUP_ONLY = "one_group_only"  # several groups without multi_capture
    OVERLAPPING_GROUPS = "overlapping_groups"
    JACK_SWEEPS_ALL = "jack_sweeps_all"  # a classic jack takes the whole table or nothing
    NOTHING_TO_CAPTURE = "nothing_to_capture"
    CANNOT_FINISH = "cannot_finish"  # params: need (to the target and past every other total), secured, tie


MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
HAND_SIZE: Final = 4
TABLE_SIZE: Final = 4
MAX_TARGET: Final = 1000
MAX_STAKE: Final = 1_000_000

TWO_OF_CLUBS: Final = Card(Rank.TWO, Suit.CLUBS)
TEN_OF_DIAMONDS: Final = Card(Rank.TEN, Suit.DIAMONDS)
KONCHINKI: Final[tuple[Card, Card]] = (TWO_OF_CLUBS, TEN_OF_DIAMONDS)
"""The two «кончинки»: 2♣ and 10♦, one point each."""

CARDS_POINTS: Final = 2
CLUBS_POINTS: Final = 1
SECURE_CARDS: Final = 27  # more than half of 52: the cards points cannot be lost any more
SECURE_CLUBS: Final = 7  # more than half of 13 clubs
FINISH_WITHIN: Final = 2
"""A player may finish the game early («прикончить») when this many points or fewer are short of the target."""

_VALUE_OF_RANK: Final = {**{r: int(r) for r in Rank if r <= Rank.TEN}, Rank.JACK: 11, Rank.QUEEN: 12}
_VALUE_OF_RANK[Rank.KING] = 13
_VALUE_OF_RANK[Rank.ACE] = 1

VALUE: Final[tuple[int, ...]] = tuple(_VALUE_OF_RANK[c.rank] for c in FULL_DECK)
"""By card index: the card's value in the points variant (A = 1 … K = 13). In the classic variant only values
up to 10 are pip values; 11 (jack), 12, 13 mark rank only."""

BIT: Final[tuple[int, ...]] = tuple(1 << c.index for c in FULL_DECK)
IS_CLUB: Final[tuple[bool, ...]] = tuple(c.suit is Suit.CLUBS for c in FULL_DECK)
IS_KONCHINKA: Final[tuple[bool, ...]] = tuple(c in KONCHINKI for c in FULL_DECK)
CLUBS_MASK: Final = sum(BIT[c.index] for c in FULL_DECK if c.suit is Suit.CLUBS)
KONCHINKI_MASK: Final = sum(BIT[c.index] for c in KONCHINKI)
"""Bitmasks (bit ``card.index``) of the clubs and of the кончинки: ``(mask & CLUBS_MASK).bit_count()`` counts the
clubs among some cards in one step."""
JACK_VALUE: Final = 11
MAX_CLASSIC_PIP: Final = 10


BY_INDEX: Final = attrgetter("index")
"""The sort key ``card.index`` as a C-level getter (cheaper than a Python function called per card)."""


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask (bit ``card.index``), ordered by index."""
    out = []
    while mask:
        low = mask & -mask
        out.append(FULL_DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def mask_of(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card.index]
    return mask


# ---------------------------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class KonchinkaOptions:
    """The lobby options of one party (frozen; validated on construction)."""

    players: int = 2
    variant: Variant = Variant.CLASSIC
    target: int = 15
    multi_capture: bool = False
    forced_capture: bool = False
    early_finish: bool = True
    settlement: Settlement = Settlement.POINTS
    stake: int = 1

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "variant", Variant(self.variant))
            object.__setattr__(self, "settlement", Settlement(self.settlement))
        except ValueError as exc:
            raise ValueError(str(exc)) from None
        for name in ("players", "target", "stake"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be an integer, not {value!r}")
        for name in ("multi_capture", "forced_capture", "early_finish"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.players}")
        if not 1 <= self.target <= MAX_TARGET:
            raise ValueError(f"target must be 1..{MAX_TARGET}, not {self.target}")
        if not 1 <= self.stake <= MAX_STAKE:
            raise ValueError(f"stake must be 1..{MAX_STAKE}, not {self.stake}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KonchinkaOptions:
        """Options from plain data (missing keys take their defaults); ValueError on unknown keys or values."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        return cls(**dict(data))

    def to_dict(self) -> dict[str, JSONValue]:
        return {
            "players": self.players,
            "variant": str(self.variant),
            "target": self.target,
            "multi_capture": self.multi_capture,
            "forced_capture": self.forced_capture,
            "early_finish": self.early_finish,
            "settlement": str(self.settlement),
            "stake": self.stake,
        }


# ---------------------------------------------------------------------------------------------- dealing

_RANK_NUMBER: Final[tuple[int, ...]] = tuple(int(c.rank) for c in FULL_DECK)
_JACK_NUMBER: Final = int(Rank.JACK)


def draw_table(deck: list[Card]) -> list[Card]:
    """Deal the first round's four table cards from the top of ``deck`` (``deck[0]``), in place.

    A jack or a card whose rank is already on the table is put back at ``len(deck) // 2`` (counted after it
    was taken off) and the next top card is drawn instead, until four valid cards lie on the table.
    """
    table: list[Card] = []
    ranks: set[int] = set()  # plain ints: hashing an IntEnum member runs Python code
    guard = 0
    while len(table) < TABLE_SIZE:
        card = deck.pop(0)
        rank = _RANK_NUMBER[card.index]
        if rank == _JACK_NUMBER or rank in ranks:
            deck.insert(len(deck) // 2, card)
            guard += 1
            if guard > 10_000:  # pragma: no cover - impossible with a real deck
                raise RuntimeError("no valid table can be drawn from this deck")
            continue
        table.append(card)
        ranks.add(rank)
    return table
