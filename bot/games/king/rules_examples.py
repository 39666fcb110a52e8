"""Кинг's worked examples under its rules sections, with their facts computed by the engine.

Each example is a position (a trick, or a hand facing a lead) and what the rules text claims about it (``claim``);
the text shows what the engine says (``facts()``), and a test checks that against the claim.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.games.king.sections import KingSection as S
from bot.i18n import Translator
from bot.views.common import card, cards
from engine.cards import FULL_DECK, Card, Rank, Suit, parse_cards
from engine.king import Contract, KingState, Play

PIQUET: Final = tuple(c for c in FULL_DECK if c.rank >= Rank.SEVEN)
"""The 32 cards of the game."""


def _fill(hands: list[list[Card]], size: int, avoid: Suit | None) -> list[list[Card]]:
    """Each hand topped up to ``size`` with unused cards (of no suit ``avoid``: they must not change who may
    play what)."""
    used = {c for h in hands for c in h}
    spare = [c for c in PIQUET if c not in used and c.suit is not avoid and c.suit is not Suit.HEARTS]
    return [h + [spare.pop() for _ in range(size - len(h))] for h in hands]


@dataclass(frozen=True, slots=True)
class TrickExample:
    """The 7th trick of a deal, its cards leader first, in the ``contract`` deal (or with ``trump`` in a deal of
    the second part); the card that wins it and what it brings the winner (negative: a penalty)."""

    trick: str
    contract: Contract | None
    trump: Suit | None
    claim: tuple[str, int]

    def facts(self) -> tuple[str, int]:
        return _trick_facts(self)

    def text(self, tr: Translator) -> str:
        winner, points = self.facts()
        played = parse_cards(self.trick)
        contract = tr.t("king-contract-name", contract=self.contract) if self.contract else ""
        return tr.t(
            "rules-example-trick",
            trump=self.trump.symbol if self.trump else "none",
            late="yes" if self.contract in (Contract.ERALASH, Contract.NO_LAST_TWO) else "no",
            lead=card(played[0], tr),
            rest=cards(played[1:], tr, ", "),
            contract=contract,
            winner=card(Card.parse(winner), tr),
            points=abs(points),
            sign="minus" if points < 0 else ("plus" if points > 0 else "zero"),
        )


@functools.cache
def _trick_facts(example: TrickExample) -> tuple[str, int]:
    played = parse_cards(example.trick)
    hands = _fill([[c] for c in played], 2, played[0].suit)
    if example.trump is None:
        state = KingState.from_position(hands, contract=example.contract, dealer=3, tricks_done=6)
    else:
        state = KingState.from_position(
            hands, deal_index=7, dealer=3, leader=0, trump=example.trump, tricks_done=6
        )
    for c in played:
        state.apply(Play(c))
    trick = state.tricks_this_deal[-1]
    winner = trick.winner
    return dict(trick.plays)[winner].code, state.deal_points[winner]


@dataclass(frozen=True, slots=True)
class ForcedExample:
    """Which cards of ``hand`` may be played to a trick led with ``led`` in the ``contract`` deal (with no
    ``led``, the hand is the leader's)."""

    contract: Contract
    led: str
    hand: str
    claim: tuple[str, ...]

    def facts(self) -> tuple[str, ...]:
        return _forced_facts(self)

    def text(self, tr: Translator) -> str:
        allowed = parse_cards(" ".join(self.facts()))
        return tr.t(
            "rules-example-forced",
            contract=tr.t("king-contract-name", contract=self.contract),
            leads="no" if self.led else "yes",
            led=card(Card.parse(self.led), tr) if self.led else "",
            hand=cards(parse_cards(self.hand), tr),
            allowed=len(allowed),
            cards=cards(allowed, tr),
        )


@functools.cache
def _forced_facts(example: ForcedExample) -> tuple[str, ...]:
    hand = parse_cards(example.hand)
    if not example.led:  # the leader's choice
        hands = _fill([hand, [], [], []], len(hand), None)
        state = KingState.from_position(hands, contract=example.contract, dealer=3)
        return tuple(a.card.code for a in state.legal_actions() if isinstance(a, Play))
    led = Card.parse(example.led)
    hands = _fill([[led], hand, [], []], len(hand), led.suit)
    state = KingState.from_position(hands, contract=example.contract, dealer=3)
    state.apply(Play(led))
    return tuple(a.card.code for a in state.legal_actions() if isinstance(a, Play))


KingExample: TypeAlias = TrickExample | ForcedExample

EXAMPLES: Final[Mapping[S, tuple[KingExample, ...]]] = {
    S.BASICS: (
        ForcedExample(Contract.NO_TRICKS, "9s", "7s Ad Kh", ("7s",)),
        TrickExample("9s Kd 7s As", Contract.NO_TRICKS, None, ("As", -2)),
    ),
    S.NEGATIVE: (
        ForcedExample(Contract.NO_HEARTS, "", "9h Th 8c", ("8c",)),
        ForcedExample(Contract.NO_KING, "8s", "Kh Qc 7d", ("Kh",)),
    ),
    S.TRUMP: (TrickExample("As 7d Ks 8d", None, Suit.DIAMONDS, ("8d", 3)),),
    S.SCORING: (TrickExample("Qs Kh Js 9s", Contract.ERALASH, None, ("Qs", -36)),),
}
"""The examples under each section, in the order they are shown."""
