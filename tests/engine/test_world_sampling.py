"""Кинг's «мастер» draws its worlds with their exact odds: every deal of the hidden cards that fits what it knows
(hand sizes, voids shown, K♥ it could not have kept, the trump card shown) equally often, and a card the play
makes unlikely at a seat ``UNLIKELY_ODDS`` as often there.

Small constrained cases are enumerated exactly and the sampler's draws compared with them by a χ² test (its
critical value at p = 0.001). The first case is issue 53's: 7 unseen cards, seats of 1/3/3, the seat of one card
void in ♥ and another void in ♣ — 50 deals, P(7♣ at the seat of one card) = 0.4, which dealing card by card by
the room left drew at 0.334. The compiled kernel counts and draws the very deals the Python reference does.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from engine.cards import Card, Suit, parse_cards
from engine.core import Player, make_game
from engine.king import Phase
from engine.king.ai import kernel as king_kernel
from engine.king.ai.worlds import UNLIKELY_ODDS, Knowledge, deal_hidden, deal_world
from engine.king.rules import KING_OF_HEARTS
from tests.engine.test_kernel_built import require_kernels

Deal = tuple[tuple[Player, frozenset[Card]], ...]


def knowledge(
    voids: Mapping[Player, set[Suit]] | None = None,
    banned: Mapping[Player, set[Card]] | None = None,
    fixed: Mapping[Player, list[Card]] | None = None,
    unlikely: Mapping[Player, set[Card]] | None = None,
) -> Knowledge:
    seats = range(4)
    return Knowledge(
        voids={p: set((voids or {}).get(p, ())) for p in seats},
        banned={p: set((banned or {}).get(p, ())) for p in seats},
        fixed={p: list((fixed or {}).get(p, ())) for p in seats},
        unlikely={p: set((unlikely or {}).get(p, ())) for p in seats},
    )


def exact(cards: Sequence[Card], sizes: Mapping[Player, int], k: Knowledge) -> dict[Deal, float]:
    """Every deal that fits ``k``, with its probability, by enumerating every way to place the cards."""
    seats = list(sizes)
    fixed = {c for cs in k.fixed.values() for c in cs}
    free = [c for c in cards if c not in fixed]
    weights: dict[Deal, float] = {}
    for placed in itertools.product(seats, repeat=len(free)):
        hands = {p: set(k.fixed.get(p, ())) for p in seats}
        weight = 1.0
        for c, p in zip(free, placed, strict=True):
            if c.suit in k.voids[p] or c in k.banned[p]:
                weight = 0.0
                break
            hands[p].add(c)
            weight *= UNLIKELY_ODDS if c in k.unlikely[p] else 1.0
        if weight and all(len(hands[p]) == sizes[p] for p in seats):
            weights[tuple((p, frozenset(hands[p])) for p in seats)] = weight
    total = sum(weights.values())
    return {deal: w / total for deal, w in weights.items()}


def chi_square(
    cards: Sequence[Card], sizes: Mapping[Player, int], k: Knowledge, draws: int, seed: int
) -> tuple[float, int]:
    """The χ² of ``draws`` worlds dealt by the sampler against the exact odds, and its degrees of freedom (deals
    expected fewer than 5 times are pooled into one cell)."""
    odds = exact(cards, sizes, k)
    rng = random.Random(seed)
    seen: Counter[Deal] = Counter()
    for _ in range(draws):
        hands = deal_hidden(cards, sizes, k, rng)
        deal = tuple((p, frozenset(hands[p])) for p in sizes)
        assert deal in odds, "a world that does not fit what is known"
        seen[deal] += 1
    cells: list[tuple[float, int]] = []
    pooled_expected, pooled_seen = 0.0, 0
    for deal, p in odds.items():
        if p * draws < 5:
            pooled_expected += p * draws
            pooled_seen += seen[deal]
        else:
            cells.append((p * draws, seen[deal]))
    if pooled_expected:
        cells.append((pooled_expected, pooled_seen))
    return sum((o - e) ** 2 / e for e, o in cells), len(cells) - 1


def critical(df: int, z: float = 3.0902) -> float:
    """The χ² value exceeded with probability 0.001 on ``df`` degrees of freedom (Wilson–Hilferty)."""
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


HEARTS_CLUBS = parse_cards("7h 8h 9h 7c 7s 8s 9s")

CASES = {
    # issue 53: the seat of one card is void in ♥, a seat of three void in ♣
    "issue 53": (HEARTS_CLUBS, {1: 1, 2: 3, 3: 3}, knowledge(voids={1: {Suit.HEARTS}, 2: {Suit.CLUBS}})),
    # «не брать короля»: seat 0 showed out of ♠ without dropping K♥, seat 3 is void in ♦
    "K♥ and voids": (
        parse_cards("Kh Qh 7h Ts Js 9d Td 8c 9c"),
        {0: 3, 2: 3, 3: 3},
        knowledge(voids={0: {Suit.SPADES}, 3: {Suit.DIAMONDS}}, banned={0: {KING_OF_HEARTS}}),
    ),
    # the chooser (seat 2) showed its trump card; seat 1 is void in ♣ and ♦ (a trump deal: it did not trump)
    "trump shown": (
        parse_cards("As Ks 7c 8c 9c Jd Qd 8h 9h Th"),
        {1: 3, 2: 4, 3: 3},
        knowledge(voids={1: {Suit.CLUBS, Suit.DIAMONDS}, 3: {Suit.HEARTS}}, fixed={2: [Card.parse("As")]}),
    ),
    # soft evidence: cards a seat's play makes unlikely there, beside a void
    "unlikely cards": (
        parse_cards("7d 8d 9d Td Jc Qc 7s 8s"),
        {0: 2, 1: 3, 3: 3},
        knowledge(
            voids={0: {Suit.SPADES}},
            unlikely={1: set(parse_cards("7d 8d")), 3: set(parse_cards("Jc Qc Td"))},
        ),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_worlds_are_drawn_with_their_exact_odds(case: str) -> None:
    cards, sizes, k = CASES[case]
    stat, df = chi_square(cards, sizes, k, draws=12_000, seed=53)
    assert df >= 10
    assert stat < critical(df), f"χ² {stat:.0f} on {df} degrees of freedom"


def test_issue_53_case_has_fifty_worlds_and_the_club_seven_at_the_single_card_seat_two_in_five() -> None:
    cards, sizes, k = CASES["issue 53"]
    odds = exact(cards, sizes, k)
    assert len(odds) == 50
    seven = Card.parse("7c")
    share = sum(p for deal, p in odds.items() if seven in dict(deal)[1])
    assert share == pytest.approx(0.4)
    rng = random.Random(7)
    draws = 10_000
    hits = sum(seven in deal_hidden(cards, sizes, k, rng)[1] for _ in range(draws))
    assert abs(hits / draws - 0.4) < 0.02  # ±4 standard errors; dealing by the room left gave 0.334


def test_the_kernel_deals_the_very_worlds_python_deals() -> None:
    """Same view, same seed: the compiled kernel and the pure-Python reference deal the same hidden hands."""
    require_kernels()
    assert king_kernel.BACKEND == "c"
    state = make_game("king", {}).new_initial_state(11)
    rng = random.Random(11)
    compared = 0
    while not state.is_terminal and compared < 60:
        view = state.view(state.current_player)
        if view.phase is Phase.PLAY:
            for seed in range(5):
                assert deal_world(view, random.Random(seed)) == deal_world(
                    view, random.Random(seed), pure=True
                )
            compared += 1
        state.apply(rng.choice(state.legal_actions()))
    assert compared == 60
