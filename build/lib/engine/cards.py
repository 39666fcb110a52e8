"""Playing cards: suits, ranks, cards and decks.

A card has a two-letter ASCII code (``"Td"`` is the ten of diamonds, ``"2c"`` the two of clubs) used in
callback data and game records, and display forms: ``card.text`` (``"10♦"``, ``"K♠"``) and ``card.ru``
(``"10♦"``, ``"К♠"``) with Russian rank letters (В, Д, К, Т).

Cards are interned: there is exactly one object per card, so ``is``, ``==`` and hashing are as fast as they
can be, and copies (``copy``, ``deepcopy``, ``pickle``) return the same object.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import ClassVar, Final


class Suit(enum.IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def code(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its ASCII code (``c d h s``) or its symbol (``♣ ♦ ♥ ♠``)."""
        for suit in cls:
            if text in (suit.code, suit.code.upper(), suit.symbol):
                return suit
        raise ValueError(f"unknown suit: {text!r}")


class Rank(enum.IntEnum):
    """Card ranks; the value orders them as in most games (the ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return _RANK_CODES[self]

    @property
    def text(self) -> str:
        return _RANK_TEXT[self]

    @property
    def ru(self) -> str:
        return _RANK_RU[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A rank from its ASCII code (``2``…``9``, ``T``, ``J``, ``Q``, ``K``, ``A``) or display form."""
        key = text.upper()
        for table in (_RANK_CODES, _RANK_TEXT, _RANK_RU):
            for rank, label in table.items():
                if key == label.upper():
                    return rank
        raise ValueError(f"unknown rank: {text!r}")


_RANK_CODES: Final = {r: c for r, c in zip(Rank, "23456789TJQKA", strict=True)}
_RANK_TEXT: Final = {r: ("10" if r == Rank.TEN else _RANK_CODES[r]) for r in Rank}
_RANK_RU: Final = {
    **{r: _RANK_TEXT[r] for r in Rank if r <= Rank.TEN},
    Rank.JACK: "В",
    Rank.QUEEN: "Д",
    Rank.KING: "К",
    Rank.ACE: "Т",
}


class Card:
    """One playing card. Build one with ``Card(rank, suit)`` or ``Card.parse("Td")``."""

    __slots__ = ("code", "index", "rank", "ru", "suit", "text")
    _interned: ClassVar[dict[tuple[Rank, Suit], Card]] = {}
    _by_code: ClassVar[dict[str, Card]] = {}

    rank: Rank
    suit: Suit
    index: int  # 0..51, suit-major: a stable small integer for bitmasks and arrays
    code: str
    text: str
    ru: str

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        try:
            return cls._interned[(rank, suit)]
        except KeyError:
            raise ValueError(f"no such card: {rank!r} of {suit!r}") from None

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", suit * 13 + (rank - 2))
        object.__setattr__(card, "code", rank.code + suit.code)
        object.__setattr__(card, "text", rank.text + suit.symbol)
        object.__setattr__(card, "ru", rank.ru + suit.symbol)
        cls._interned[(rank, suit)] = card
        cls._by_code[card.code] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from its code (``"Td"``) or display text (``"10♦"``, ``"Д♥"``, ``"q♥"``)."""
        card = cls._by_code.get(text)
        if card is not None:
            return card
        text = text.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r}")
        try:
            return cls(Rank.parse(text[:-1]), Suit.parse(text[-1]))
        except ValueError:
            raise ValueError(f"not a card: {text!r}") from None

    @classmethod
    def from_index(cls, index: int) -> Card:
        return FULL_DECK[index]

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


FULL_DECK: Final[tuple[Card, ...]] = tuple(Card._make(rank, suit) for suit in Suit for rank in Rank)
"""All 52 cards, ordered by suit (♣ ♦ ♥ ♠) then rank; ``FULL_DECK[card.index] is card``."""

PIQUET_DECK: Final[tuple[Card, ...]] = tuple(c for c in FULL_DECK if c.rank >= Rank.SEVEN)
"""The 32-card deck (7 to ace in each suit)."""


def parse_cards(text: str) -> list[Card]:
    """Cards from a space- or comma-separated list of codes or display forms: ``"Td 2c"``, ``"10♦, К♠"``."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


def codes(cards: Iterable[Card]) -> str:
    """The space-separated codes of some cards (the inverse of :func:`parse_cards`)."""
    return " ".join(card.code for card in cards)


def iter_suit(cards: Iterable[Card], suit: Suit) -> Iterator[Card]:
    return (card for card in cards if card.suit is suit)
