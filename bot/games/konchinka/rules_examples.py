"""Кончинка's worked examples under its rules sections, with their facts computed by the engine.

Each example is declared once, as data: a position (table and card, piles, running totals) and what the rules text
claims about it (``claim``). ``facts()`` asks the engine the same question; the text is rendered from the engine's
answer, and a test checks that answer against the claim — so a change of a rule in the engine shows up as a
failing test instead of a page that quietly says something else.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.games.konchinka.sections import KonchinkaSection as S
from bot.i18n import Translator
from bot.views.common import card, cards
from engine.cards import FULL_DECK, Card, Rank, Suit, parse_cards
from engine.konchinka import Capture, Finish, KonchinkaGame, KonchinkaOptions, KonchinkaState, Variant

GROUPS: Final = " / "
"""Between the groups of one capture in a claim («2s 3h / 5d»: both at once)."""


def _codes(cs: Sequence[Card]) -> str:
    return " ".join(c.code for c in cs)


def _one_of(options: Sequence[str], tr: Translator) -> str:
    """«A», «A или B», «A, B или C»."""
    if len(options) <= 1:
        return "".join(options)
    return ", ".join(options[:-1]) + tr.t("rules-example-or") + options[-1]


@dataclass(frozen=True, slots=True)
class Pile:
    cards: int
    clubs: int
    konchinki: str = ""

    def text(self, tr: Translator) -> str:
        konchinki = parse_cards(self.konchinki)
        return tr.t(
            "rules-example-pile",
            cards=self.cards,
            clubs=self.clubs,
            konchinki=len(konchinki),
            konchinka=cards(konchinki, tr),
        )


def _piles(piles: Sequence[Pile]) -> list[list[Card]]:
    """Piles of the declared sizes: the named кончинки, then clubs, then other cards."""
    named = [parse_cards(p.konchinki) for p in piles]
    used = {c for group in named for c in group}
    free = [c for c in FULL_DECK if c not in used]
    clubs = [c for c in free if c.suit is Suit.CLUBS]
    others = [c for c in free if c.suit is not Suit.CLUBS]
    out = []
    for pile, group in zip(piles, named, strict=True):
        taken = list(group)
        need_clubs = pile.clubs - sum(1 for c in taken if c.suit is Suit.CLUBS)
        taken += [clubs.pop() for _ in range(need_clubs)]
        taken += [others.pop() for _ in range(pile.cards - len(taken))]
        out.append(taken)
    return out


@dataclass(frozen=True, slots=True)
class CaptureExample:
    """«На столе …; карта … может взять …»: the captures the engine offers for ``card`` on ``table``."""

    variant: Variant
    table: str
    card: str
    claim: tuple[str, ...]
    """Each capture the text names, as card codes («3s 5h»): its cards in table order, several groups taken at
    once separated by « / » («2s 3h / 5d»), the captures in the order of their first card on the table."""
    multi: bool = False
    """With «несколько взяток за ход» on."""

    def facts(self) -> tuple[str, ...]:
        return _capture_facts(self)

    def text(self, tr: Translator) -> str:
        def groups_text(capture: str) -> str:
            groups = [" + ".join(card(c, tr) for c in parse_cards(g)) for g in capture.split(GROUPS)]
            return tr.t("rules-example-and").join(groups)

        facts = self.facts()
        single = [groups_text(f) for f in facts if GROUPS not in f]
        together = [groups_text(f) for f in facts if GROUPS in f]
        return tr.t(
            "rules-example-capture",
            table=cards(parse_cards(self.table), tr),
            card=card(Card.parse(self.card), tr),
            captures=_one_of(single, tr),
            count=len(single),
            together=_one_of(together, tr),
            multi="yes" if self.multi else "no",
            both="yes" if together else "no",
        )


@functools.cache
def _capture_facts(example: CaptureExample) -> tuple[str, ...]:
    game = KonchinkaGame(KonchinkaOptions(variant=example.variant, multi_capture=example.multi))
    played = Card.parse(example.card)
    table = parse_cards(example.table)
    state = KonchinkaState.from_position(game, hands=[[played], []], table=table)
    captures = [
        sorted((sorted(group, key=table.index) for group in a.groups), key=lambda g: table.index(g[0]))
        for a in state.legal_actions()
        if isinstance(a, Capture) and a.card == played
    ]
    captures.sort(key=lambda groups: table.index(groups[0][0]))
    return tuple(GROUPS.join(_codes(group) for group in groups) for groups in captures)


@dataclass(frozen=True, slots=True)
class ScoreExample:
    """Two piles at the end of a deal and the points the engine gives each."""

    piles: tuple[Pile, Pile]
    claim: tuple[int, int]

    def facts(self) -> tuple[int, ...]:
        return _score_facts(self)

    def text(self, tr: Translator) -> str:
        facts = self.facts()
        first, second = self.piles
        return tr.t(
            "rules-example-score", first=first.text(tr), second=second.text(tr), a=facts[0], b=facts[1]
        )


@functools.cache
def _score_facts(example: ScoreExample) -> tuple[int, ...]:
    # The deal's last move: the first player takes a card of their pile's rank from the table with its twin from
    # their hand, so the piles end exactly as declared (all 52 cards where the example has them).
    piles = _piles(example.piles)
    first = piles[0]
    played, taken = next(
        (a, b)
        for i, a in enumerate(first)
        for b in first[i + 1 :]
        if a.rank == b.rank and a.rank != Rank.JACK and a.suit is not Suit.CLUBS and b.suit is not Suit.CLUBS
    )
    piles[0] = [c for c in first if c not in (played, taken)]
    game = KonchinkaGame(KonchinkaOptions(players=len(piles), target=99))
    hands: list[list[Card]] = [[played]] + [[] for _ in piles[1:]]
    state = KonchinkaState.from_position(game, hands=hands, table=[taken], captured=piles)
    state.apply(Capture(played, ((taken,),)))
    return state.deal_scores[0].points


@dataclass(frozen=True, slots=True)
class FinishExample:
    """Running ``totals`` (the first is the player to move) in a game to ``target``, with ``pile`` captured this
    deal by the first player: may they finish now?"""

    target: int
    totals: tuple[int, ...]
    pile: Pile
    claim: bool

    def facts(self) -> bool:
        return _finish_facts(self)

    def secured(self) -> int:
        """The points the example's pile secures, by the engine's count."""
        return _secured(self.pile)

    def text(self, tr: Translator) -> str:
        secured = self.secured()
        others = self.totals[1:]
        return tr.t(
            "rules-example-finish",
            target=self.target,
            mine=self.totals[0],
            others=len(others),
            other=tr.t("rules-example-and").join(str(t) for t in others),
            pile=self.pile.text(tr),
            secured=secured,
            total=self.totals[0] + secured,
            can=str(self.facts()).lower(),
            reason="short" if self.totals[0] + secured < self.target else "tie",
        )


@functools.cache
def _finish_facts(example: FinishExample) -> bool:
    players = len(example.totals)
    piles = _piles([example.pile])[0]
    free = [c for c in FULL_DECK if c not in piles]
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=players, target=example.target)),
        hands=[[free[i]] for i in range(players)],
        captured=[piles] + [[] for _ in range(players - 1)],
        tally=[[t] for t in example.totals],
    )
    return Finish() in state.legal_actions()


@functools.cache
def _secured(pile: Pile) -> int:
    cards_ = _piles([pile])[0]
    free = [c for c in FULL_DECK if c not in cards_]
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=2, target=99)),
        hands=[[free[0]], [free[1]]],
        captured=[cards_, []],
    )
    return state.secured_points(0)


@dataclass(frozen=True, slots=True)
class FinishOutcome:
    """The first player, at ``totals[0]`` of ``target``, finishes the party with ``piles[0]`` captured this deal while
    the others hold ``piles[1:]``: each seat's points for the deal, as the engine writes them in the tally."""

    target: int
    totals: tuple[int, ...]
    piles: tuple[Pile, ...]
    claim: tuple[int, ...]

    def facts(self) -> tuple[int, ...]:
        return _outcome_facts(self)

    def text(self, tr: Translator) -> str:
        facts = self.facts()
        mine, theirs = facts[0], facts[1:]
        return tr.t(
            "rules-example-finish-outcome",
            target=self.target,
            mine=self.totals[0],
            other=tr.t("rules-example-and").join(str(t) for t in self.totals[1:]),
            others=len(theirs),
            pile=self.piles[0].text(tr),
            their=tr.t("rules-example-and").join(p.text(tr) for p in self.piles[1:]),
            points=mine,
            total=self.totals[0] + mine,
            theirs=tr.t("rules-example-and").join(str(p) for p in theirs),
        )


@functools.cache
def _outcome_facts(example: FinishOutcome) -> tuple[int, ...]:
    piles = _piles(example.piles)
    used = {c for pile in piles for c in pile}
    free = [c for c in FULL_DECK if c not in used]
    players = len(example.totals)
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=players, target=example.target)),
        hands=[[free[i]] for i in range(players)],
        captured=piles,
        tally=[[t] for t in example.totals],
    )
    state.apply(Finish())
    return state.deal_scores[-1].points


KonchinkaExample: TypeAlias = CaptureExample | ScoreExample | FinishExample | FinishOutcome

EXAMPLES: Final[Mapping[S, tuple[KonchinkaExample, ...]]] = {
    S.CAPTURES: (
        CaptureExample(Variant.CLASSIC, "3s 5h 8d Qc", "8c", ("3s 5h", "8d")),
        CaptureExample(Variant.CLASSIC, "5s 7h Qd", "Qc", ("Qd",)),
        CaptureExample(Variant.CLASSIC, "Ah 2d 4s Kc", "Jh", ("Ah 2d 4s Kc",)),
    ),
    S.POINTS: (
        CaptureExample(Variant.POINTS, "6s 7h Qd Ac", "Kc", ("6s 7h", "Qd Ac")),
        CaptureExample(Variant.POINTS, "5s 6h 9d", "Jh", ("5s 6h",)),
    ),
    S.SCORING: (
        ScoreExample((Pile(30, 5, "2c"), Pile(22, 8, "Td")), (3, 2)),
        ScoreExample((Pile(26, 7, "2c Td"), Pile(26, 6)), (3, 0)),
    ),
    S.EARLY_FINISH: (
        FinishExample(15, (13, 9), Pile(12, 3, "2c Td"), True),
        FinishExample(15, (14, 9), Pile(26, 6), False),
        FinishExample(15, (13, 15, 15), Pile(27, 4), False),
        FinishOutcome(15, (13, 9), (Pile(14, 8, "2c"), Pile(20, 4, "Td")), (2, 0)),
    ),
    S.OPTIONS: (
        CaptureExample(Variant.CLASSIC, "2s 3h 5d Qc", "5c", ("2s 3h", "2s 3h / 5d", "5d"), multi=True),
    ),
}
"""The examples under each section, in the order they are shown."""
