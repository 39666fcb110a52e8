"""Worked examples under the rules sections, with their facts computed by the engine.

Each example is declared once, as data: a position (table and card, piles, a trick) and what the rules text
claims about it (``claim``). :func:`engine_facts` asks the engine the same question; the text is rendered from the
engine's answer, and a test checks that answer against the claim — so a change of a rule in the engine shows up
as a failing test instead of a page that quietly says something else.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.callbacks import RulesSection
from bot.i18n import Translator
from bot.views.common import card, cards
from engine.cards import FULL_DECK, Card, Rank, Suit, parse_cards
from engine.king import Contract, KingState, Play
from engine.konchinka import Capture, Finish, KonchinkaGame, KonchinkaOptions, KonchinkaState, Variant


@dataclass(frozen=True, slots=True)
class CaptureExample:
    """«На столе …; карта … может взять …»: the captures the engine offers for ``card`` on ``table``."""

    section: RulesSection
    variant: Variant
    table: str
    card: str
    claim: tuple[str, ...]
    """Each capture the text names, as card codes («3s 5h»): its cards in table order, several groups taken at
    once separated by « / » («2s 3h / 5d»), the captures in the order of their first card on the table."""
    multi: bool = False
    """With «несколько взяток за ход» on."""


@dataclass(frozen=True, slots=True)
class Pile:
    cards: int
    clubs: int
    konchinki: str = ""


@dataclass(frozen=True, slots=True)
class ScoreExample:
    """Two piles at the end of a deal and the points the engine gives each."""

    section: RulesSection
    piles: tuple[Pile, Pile]
    claim: tuple[int, int]


@dataclass(frozen=True, slots=True)
class FinishOutcome:
    """The first player, at ``totals[0]`` of ``target``, finishes the party with ``piles[0]`` captured this deal while
    the others hold ``piles[1:]``: each seat's points for the deal, as the engine writes them in the tally."""

    section: RulesSection
    target: int
    totals: tuple[int, ...]
    piles: tuple[Pile, ...]
    claim: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FinishExample:
    """Running ``totals`` (the first is the player to move) in a game to ``target``, with ``pile`` captured this
    deal by the first player: may they finish now?"""

    section: RulesSection
    target: int
    totals: tuple[int, ...]
    pile: Pile
    claim: bool


@dataclass(frozen=True, slots=True)
class TrickExample:
    """Кинг: the 7th trick of a deal, its cards leader first, in the ``contract`` deal (or with ``trump`` in a
    deal of the second part); the card that wins it and what it brings the winner (negative: a penalty)."""

    section: RulesSection
    trick: str
    contract: Contract | None
    trump: Suit | None
    claim: tuple[str, int]


@dataclass(frozen=True, slots=True)
class ForcedExample:
    """Кинг: which cards of ``hand`` may be played to a trick led with ``led`` in the ``contract`` deal (with no
    ``led``, the hand is the leader's)."""

    section: RulesSection
    contract: Contract
    led: str
    hand: str
    claim: tuple[str, ...]


Example: TypeAlias = (
    CaptureExample | ScoreExample | FinishExample | FinishOutcome | TrickExample | ForcedExample
)

S = RulesSection
EXAMPLES: Final[tuple[Example, ...]] = (
    CaptureExample(S.CAPTURES, Variant.CLASSIC, "3s 5h 8d Qc", "8c", ("3s 5h", "8d")),
    CaptureExample(S.CAPTURES, Variant.CLASSIC, "5s 7h Qd", "Qc", ("Qd",)),
    CaptureExample(S.CAPTURES, Variant.CLASSIC, "Ah 2d 4s Kc", "Jh", ("Ah 2d 4s Kc",)),
    CaptureExample(S.POINTS, Variant.POINTS, "6s 7h Qd Ac", "Kc", ("6s 7h", "Qd Ac")),
    CaptureExample(S.POINTS, Variant.POINTS, "5s 6h 9d", "Jh", ("5s 6h",)),
    ScoreExample(S.SCORING, (Pile(30, 5, "2c"), Pile(22, 8, "Td")), (3, 2)),
    ScoreExample(S.SCORING, (Pile(26, 7, "2c Td"), Pile(26, 6)), (3, 0)),
    FinishExample(S.EARLY_FINISH, 15, (13, 9), Pile(12, 3, "2c Td"), True),
    FinishExample(S.EARLY_FINISH, 15, (14, 9), Pile(26, 6), False),
    FinishExample(S.EARLY_FINISH, 15, (13, 15, 15), Pile(27, 4), False),
    FinishOutcome(S.EARLY_FINISH, 15, (13, 9), (Pile(14, 8, "2c"), Pile(20, 4, "Td")), (2, 0)),
    CaptureExample(
        S.OPTIONS, Variant.CLASSIC, "2s 3h 5d Qc", "5c", ("2s 3h", "2s 3h / 5d", "5d"), multi=True
    ),
    ForcedExample(S.KING, Contract.NO_TRICKS, "9s", "7s Ad Kh", ("7s",)),
    TrickExample(S.KING, "9s Kd 7s As", Contract.NO_TRICKS, None, ("As", -2)),
    ForcedExample(S.KING_NEGATIVE, Contract.NO_HEARTS, "", "9h Th 8c", ("8c",)),
    ForcedExample(S.KING_NEGATIVE, Contract.NO_KING, "8s", "Kh Qc 7d", ("Kh",)),
    TrickExample(S.KING_TRUMP, "As 7d Ks 8d", None, Suit.DIAMONDS, ("8d", 3)),
    TrickExample(S.KING_SCORING, "Qs Kh Js 9s", Contract.ERALASH, None, ("Qs", -36)),
)
"""The examples of every section, in the order they are shown."""

Facts: TypeAlias = tuple[str, ...] | tuple[int, ...] | bool | tuple[str, int]
PIQUET: Final = tuple(c for c in FULL_DECK if c.rank >= Rank.SEVEN)
"""Кинг's 32 cards."""


def _codes(cs: Sequence[Card]) -> str:
    return " ".join(c.code for c in cs)


def _piles(piles: Sequence[Pile], keep_out: Sequence[Card]) -> list[list[Card]]:
    """Piles of the declared sizes: the named кончинки, then clubs, then other cards, none of ``keep_out``."""
    named = [parse_cards(p.konchinki) for p in piles]
    used = {c for group in named for c in group} | set(keep_out)
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


def _fill(hands: list[list[Card]], size: int, avoid: Suit | None) -> list[list[Card]]:
    """Each hand topped up to ``size`` with unused cards (of no suit ``avoid``: they must not change who may
    play what)."""
    used = {c for h in hands for c in h}
    spare = [c for c in PIQUET if c not in used and c.suit is not avoid and c.suit is not Suit.HEARTS]
    return [h + [spare.pop() for _ in range(size - len(h))] for h in hands]


GROUPS: Final = " / "
"""Between the groups of one capture in a claim («2s 3h / 5d»: both at once)."""


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


def _score_facts(example: ScoreExample) -> tuple[int, ...]:
    # The deal's last move: the first player takes a card of their pile's rank from the table with its twin from
    # their hand, so the piles end exactly as declared (all 52 cards where the example has them).
    piles = _piles(example.piles, [])
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


def _finish_facts(example: FinishExample) -> bool:
    players = len(example.totals)
    piles = _piles([example.pile], [])[0]
    free = [c for c in FULL_DECK if c not in piles]
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=players, target=example.target)),
        hands=[[free[i]] for i in range(players)],
        captured=[piles] + [[] for _ in range(players - 1)],
        tally=[[t] for t in example.totals],
    )
    return Finish() in state.legal_actions()


def _outcome_facts(example: FinishOutcome) -> tuple[int, ...]:
    piles = _piles(example.piles, [])
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


@functools.cache
def engine_secured(example: FinishExample) -> int:
    """The points the example's pile secures, by the engine's count."""
    piles = _piles([example.pile], [])[0]
    free = [c for c in FULL_DECK if c not in piles]
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=2, target=99)),
        hands=[[free[0]], [free[1]]],
        captured=[piles, []],
    )
    return state.secured_points(0)


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


@functools.cache
def engine_facts(example: Example) -> Facts:
    """What the engine says about the example's position (the text shows this; a test compares it to the claim)."""
    if isinstance(example, CaptureExample):
        return _capture_facts(example)
    if isinstance(example, ScoreExample):
        return _score_facts(example)
    if isinstance(example, FinishExample):
        return _finish_facts(example)
    if isinstance(example, FinishOutcome):
        return _outcome_facts(example)
    if isinstance(example, TrickExample):
        return _trick_facts(example)
    return _forced_facts(example)


def _one_of(options: Sequence[str], tr: Translator) -> str:
    """«A», «A или B», «A, B или C»."""
    if len(options) <= 1:
        return "".join(options)
    return ", ".join(options[:-1]) + tr.t("rules-example-or") + options[-1]


def _pile_text(pile: Pile, tr: Translator) -> str:
    konchinki = parse_cards(pile.konchinki)
    return tr.t(
        "rules-example-pile",
        cards=pile.cards,
        clubs=pile.clubs,
        konchinki=len(konchinki),
        konchinka=cards(konchinki, tr),
    )


def example_text(example: Example, tr: Translator) -> str:
    """One example as the rules show it, its outcome taken from the engine."""
    facts = engine_facts(example)
    if isinstance(example, CaptureExample):
        assert isinstance(facts, tuple)

        def groups_text(capture: str) -> str:
            groups = [" + ".join(card(c, tr) for c in parse_cards(g)) for g in capture.split(GROUPS)]
            return tr.t("rules-example-and").join(groups)

        single = [groups_text(str(f)) for f in facts if GROUPS not in str(f)]
        together = [groups_text(str(f)) for f in facts if GROUPS in str(f)]
        return tr.t(
            "rules-example-capture",
            table=cards(parse_cards(example.table), tr),
            card=card(Card.parse(example.card), tr),
            captures=_one_of(single, tr),
            count=len(single),
            together=_one_of(together, tr),
            multi="yes" if example.multi else "no",
            both="yes" if together else "no",
        )
    if isinstance(example, ScoreExample):
        assert isinstance(facts, tuple)
        first, second = example.piles
        return tr.t(
            "rules-example-score",
            first=_pile_text(first, tr),
            second=_pile_text(second, tr),
            a=int(facts[0]),
            b=int(facts[1]),
        )
    if isinstance(example, FinishExample):
        secured = engine_secured(example)
        others = example.totals[1:]
        return tr.t(
            "rules-example-finish",
            target=example.target,
            mine=example.totals[0],
            others=len(others),
            other=tr.t("rules-example-and").join(str(t) for t in others),
            pile=_pile_text(example.pile, tr),
            secured=secured,
            total=example.totals[0] + secured,
            can=str(bool(facts)).lower(),
            reason="short" if example.totals[0] + secured < example.target else "tie",
        )
    if isinstance(example, FinishOutcome):
        assert isinstance(facts, tuple)
        mine, theirs = int(facts[0]), [int(f) for f in facts[1:]]
        return tr.t(
            "rules-example-finish-outcome",
            target=example.target,
            mine=example.totals[0],
            other=tr.t("rules-example-and").join(str(t) for t in example.totals[1:]),
            others=len(theirs),
            pile=_pile_text(example.piles[0], tr),
            their=tr.t("rules-example-and").join(_pile_text(p, tr) for p in example.piles[1:]),
            points=mine,
            total=example.totals[0] + mine,
            theirs=tr.t("rules-example-and").join(str(p) for p in theirs),
        )
    if isinstance(example, TrickExample):
        assert isinstance(facts, tuple)
        winner, points = str(facts[0]), int(facts[1])
        played = parse_cards(example.trick)
        contract = tr.t("king-contract-name", contract=example.contract) if example.contract else ""
        return tr.t(
            "rules-example-trick",
            trump=example.trump.symbol if example.trump else "none",
            late="yes" if example.contract in (Contract.ERALASH, Contract.NO_LAST_TWO) else "no",
            lead=card(played[0], tr),
            rest=cards(played[1:], tr, ", "),
            contract=contract,
            winner=card(Card.parse(winner), tr),
            points=abs(points),
            sign="minus" if points < 0 else ("plus" if points > 0 else "zero"),
        )
    assert isinstance(facts, tuple)
    allowed = parse_cards(" ".join(str(f) for f in facts))
    return tr.t(
        "rules-example-forced",
        contract=tr.t("king-contract-name", contract=example.contract),
        leads="no" if example.led else "yes",
        led=card(Card.parse(example.led), tr) if example.led else "",
        hand=cards(parse_cards(example.hand), tr),
        allowed=len(allowed),
        cards=cards(allowed, tr),
    )


def examples_text(section: RulesSection, tr: Translator) -> str:
    """The section's examples under their heading ("" for a section without one)."""
    examples = examples_of(section)
    if not examples:
        return ""
    lines = [tr.t("rules-examples-title", count=len(examples))]
    lines += ["• " + example_text(e, tr) for e in examples]
    return "\n".join(lines)


def examples_of(section: RulesSection) -> tuple[Example, ...]:
    return tuple(e for e in EXAMPLES if e.section is section)
