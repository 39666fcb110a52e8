"""The fixed facts of Кинг: contracts, their penalties, the options, the phases and the reasons for refusals.

The party is 15 deals: 7 negative ones («не брать…», one per contract, in the order of the options) and then
8 positive ones («отыгрыш»), where a chosen trump is in force and every trick is worth +3.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from engine.cards import FULL_DECK, Card, Rank, Suit
from engine.core import JSONValue, Player

NUM_PLAYERS: Final = 4
TRICKS_PER_DEAL: Final = 8
NEGATIVE_DEALS: Final = 7
POSITIVE_DEALS: Final = 8
NUM_DEALS: Final = NEGATIVE_DEALS + POSITIVE_DEALS
POINTS_PER_TRICK: Final = 3
"""What each trick of a positive deal is worth (24 per deal)."""
CHOOSER_SEES: Final = 3
"""The cards the trump's chooser sees before naming it (the first dealt to them)."""

PlayedCard: TypeAlias = tuple[Player, Card]
"""One card in a trick and who played it."""

KING_OF_HEARTS: Final = Card(Rank.KING, Suit.HEARTS)
ACE_OF_HEARTS: Final = Card(Rank.ACE, Suit.HEARTS)


class Contract(enum.StrEnum):
    """The seven negative deals."""

    NO_TRICKS = "tricks"
    NO_JACKS = "jacks"
    NO_QUEENS = "queens"
    NO_HEARTS = "hearts"
    NO_LAST_TWO = "last2"
    NO_KING = "king"
    ERALASH = "eralash"

    @property
    def forbids_heart_lead(self) -> bool:
        """A heart may not be led while the leader holds another suit («черви», «кинг», «ералаш»)."""
        return self in _HEART_LEAD_BANNED

    @property
    def forces_king_of_hearts(self) -> bool:
        """K♥ must go at the first chance («кинг», «ералаш»)."""
        return self in _KING_FORCED

    @property
    def can_stop_early(self) -> bool:
        """The deal may end once no penalty is left to take (never for tricks, the last two, «ералаш»)."""
        return self in _STOPPABLE

    @property
    def total(self) -> int:
        """The penalty points of the whole deal: 16, or 96 for «ералаш»."""
        return sum(CARD_PENALTY[self]) + sum(TRICK_PENALTY[self])


DEFAULT_ORDER: Final[tuple[Contract, ...]] = tuple(Contract)

_HEART_LEAD_BANNED: Final = frozenset({Contract.NO_HEARTS, Contract.NO_KING, Contract.ERALASH})
_KING_FORCED: Final = frozenset({Contract.NO_KING, Contract.ERALASH})
_STOPPABLE: Final = frozenset({Contract.NO_JACKS, Contract.NO_QUEENS, Contract.NO_HEARTS, Contract.NO_KING})


def _card_penalties(contract: Contract) -> tuple[int, ...]:
    def penalty(card: Card) -> int:
        points = 0
        if contract in (Contract.NO_JACKS, Contract.ERALASH) and card.rank is Rank.JACK:
            points += 4
        if contract in (Contract.NO_QUEENS, Contract.ERALASH) and card.rank is Rank.QUEEN:
            points += 4
        if contract in (Contract.NO_HEARTS, Contract.ERALASH) and card.suit is Suit.HEARTS:
            points += 2
        if contract in (Contract.NO_KING, Contract.ERALASH) and card is KING_OF_HEARTS:
            points += 16
        return points

    return tuple(penalty(card) if card.rank >= Rank.SEVEN else 0 for card in FULL_DECK)


def _trick_penalties(contract: Contract) -> tuple[int, ...]:
    per_trick = 2 if contract in (Contract.NO_TRICKS, Contract.ERALASH) else 0
    last_two = 8 if contract in (Contract.NO_LAST_TWO, Contract.ERALASH) else 0
    return tuple(per_trick + (last_two if n >= TRICKS_PER_DEAL - 2 else 0) for n in range(TRICKS_PER_DEAL))


CARD_PENALTY: Final[dict[Contract, tuple[int, ...]]] = {c: _card_penalties(c) for c in Contract}
"""Per contract, the penalty of each card by ``card.index`` (the cards themselves, not the trick)."""

TRICK_PENALTY: Final[dict[Contract, tuple[int, ...]]] = {c: _trick_penalties(c) for c in Contract}
"""Per contract, the penalty of taking trick number n (0-based), whatever is in it."""


class Phase(enum.StrEnum):
    CHOOSE_TRUMP = "choose_trump"
    PLAY = "play"
    OVER = "over"


class KingIllegal(enum.StrEnum):
    """Why a Кинг play is refused (besides :class:`engine.core.CommonIllegal`)."""

    MUST_FOLLOW_SUIT = "must_follow_suit"  # params: suit
    NO_HEART_LEAD = "no_heart_lead"
    MUST_PLAY_KING_OF_HEARTS = "must_play_king_of_hearts"
    MUST_TRUMP = "must_trump"  # params: suit


@dataclass(frozen=True, slots=True)
class KingOptions:
    """The options agreed before the start.

    ``order``: the order of the seven negative deals (a permutation of :class:`Contract`).
    ``king_forced_on_heart_lead``: K♥ must also go on a heart lead once A♥ is in the trick (not only when void).
    ``stop_when_decided``: a negative deal ends once no penalty is left to take (never for tricks, the last
    two, «ералаш»).
    """

    order: tuple[Contract, ...] = DEFAULT_ORDER
    king_forced_on_heart_lead: bool = True
    stop_when_decided: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.order, tuple) or sorted(self.order) != sorted(Contract):
            raise ValueError(f"order must be a permutation of the seven contracts, got {self.order!r}")
        if not all(isinstance(c, Contract) for c in self.order):
            raise ValueError(f"order must hold Contract values, got {self.order!r}")
        for name in ("king_forced_on_heart_lead", "stop_when_decided"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a boolean")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KingOptions:
        """Options from plain data (missing keys take their defaults); ValueError on unknown keys or values."""
        unknown = set(data) - {"order", "king_forced_on_heart_lead", "stop_when_decided"}
        if unknown:
            raise ValueError(f"unknown King options: {sorted(unknown)}")
        kwargs: dict[str, Any] = {}
        if "order" in data:
            raw = data["order"]
            if isinstance(raw, str) or not isinstance(raw, (list, tuple)):
                raise ValueError(f"order must be a list of contracts, got {raw!r}")
            try:
                kwargs["order"] = tuple(Contract(item) for item in raw)
            except ValueError:
                raise ValueError(f"unknown contract in order: {raw!r}") from None
        for name in ("king_forced_on_heart_lead", "stop_when_decided"):
            if name in data:
                kwargs[name] = data[name]
        return cls(**kwargs)

    def to_dict(self) -> dict[str, JSONValue]:
        return {
            "order": [str(c) for c in self.order],
            "king_forced_on_heart_lead": self.king_forced_on_heart_lead,
            "stop_when_decided": self.stop_when_decided,
        }


def dealer_after(dealer: int, deal_index: int) -> int:
    """The dealer of deal ``deal_index + 1`` given the dealer of deal ``deal_index``.

    In part 1 the deal passes to the left; the first positive deal goes to the left neighbour of the 7th deal's
    dealer; after that the player who chose trump (the dealer's right neighbour) deals next.
    """
    if deal_index < NEGATIVE_DEALS:
        return (dealer + 1) % NUM_PLAYERS
    return (dealer - 1) % NUM_PLAYERS


def chooser_of(dealer: int) -> int:
    """Who names trump in a positive deal: the dealer's right-hand neighbour."""
    return (dealer - 1) % NUM_PLAYERS


def beats(card: Card, best: Card, trump: Suit | None) -> bool:
    """Whether ``card`` takes a trick that ``best`` is winning: higher in its suit, or a trump on a non-trump."""
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trump


def winning_play(trick: Sequence[PlayedCard], trump: Suit | None) -> PlayedCard:
    """The play that takes (or, for an unfinished trick, is taking) the trick: the state and the bot players
    both resolve tricks here."""
    best = trick[0]
    for play in trick[1:]:
        if beats(play[1], best[1], trump):
            best = play
    return best
