"""Кинг actions: play a card, or name trump in a positive deal.

Codes: ``Play`` is the card code (``"Td"``); ``ChooseTrump`` is ``"t:"`` and a suit code (``"t:h"``) or
``"t:last"`` for «по последней» (trump is the suit of the chooser's 8th card).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from engine.cards import PIQUET_DECK, Card, Suit
from engine.core import CommonIllegal, IllegalActionError

_LAST: Final = "last"
_TRUMP_PREFIX: Final = "t:"
_PIQUET_BY_CODE: Final = {card.code: card for card in PIQUET_DECK}


@dataclass(frozen=True, slots=True)
class Play:
    card: Card

    @property
    def code(self) -> str:
        return self.card.code

    @classmethod
    def parse(cls, code: str) -> Play:
        card = _PIQUET_BY_CODE.get(code)
        if card is None:
            raise IllegalActionError(CommonIllegal.MALFORMED, f"not a card of the 32-card deck: {code!r}")
        return PLAYS[card]

    def __repr__(self) -> str:
        return f"Play(Card.parse({self.card.code!r}))"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Name trump; ``suit=None`` is «по последней» (the suit of the chooser's 8th card, shown to all)."""

    suit: Suit | None

    @property
    def code(self) -> str:
        return _TRUMP_PREFIX + (_LAST if self.suit is None else self.suit.code)

    @classmethod
    def parse(cls, code: str) -> ChooseTrump:
        if code.startswith(_TRUMP_PREFIX):
            rest = code[len(_TRUMP_PREFIX) :]
            if rest == _LAST:
                return CHOOSE_TRUMP_ACTIONS[-1]
            for suit in Suit:
                if rest == suit.code:
                    return CHOOSE_TRUMP_ACTIONS[suit]
        raise IllegalActionError(CommonIllegal.MALFORMED, f"not a trump choice: {code!r}")


KingAction: TypeAlias = Play | ChooseTrump

PLAYS: Final[dict[Card, Play]] = {card: Play(card) for card in PIQUET_DECK}
"""The one shared ``Play`` per card (the engine hands out these; equal to any other ``Play`` of the card)."""

CHOOSE_TRUMP_ACTIONS: Final[tuple[ChooseTrump, ...]] = (*(ChooseTrump(s) for s in Suit), ChooseTrump(None))
"""The five trump choices in their stable order: ♣ ♦ ♥ ♠, then «по последней»."""


def parse_action(code: str) -> KingAction:
    """The action with this code; IllegalActionError(MALFORMED) if it is none."""
    if not isinstance(code, str):
        raise IllegalActionError(CommonIllegal.MALFORMED, f"an action code must be text: {code!r}")
    if code.startswith(_TRUMP_PREFIX):
        return ChooseTrump.parse(code)
    return Play.parse(code)
