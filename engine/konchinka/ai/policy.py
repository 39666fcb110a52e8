"""Кончинка: the normal player («любитель»), the easy one («новичок»), and the hard player's value of a position.

Every card is weighed in deal points: a card is worth a share of the 2 points for most cards, a club a share
of the clubs point, a кончинка (2♣, 10♦) a whole point; a share that is already decided (27 cards or 7 clubs
in one pile) is worth nothing any more.

- The **normal** player counts the unseen cards and scores every legal action as what it takes minus what it
  *exposes*: the expected best capture the next player can make from the table it leaves, given the chance
  that their hand holds each rank (and, in the classic game, a jack that sweeps all). So it takes кончинки when
  offered, does not lay a кончинка or leave an easy sum behind, keeps its jack for a big table, and grabs the
  last capture near the end of the deck (the leftovers go to the last capturer). It always finishes early
  («прикончить») when the rules allow.
- The **easy** player grabs the capture with the most cards, lays a random card otherwise, and now and then
  plays any legal move.
- The same normal policy plays every seat in the hard player's playouts (:func:`playout_action`), whose end is
  valued by :func:`value`: the deal's points once it ended, else :func:`expected_edge`.

The compiled kernel (engine/ai/csrc/konchinka.c) mirrors this module operation for operation; floating-point
sums are written as plain loops so that every Python version adds in the kernel's order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import FULL_DECK, Card, Rank, Suit
from engine.konchinka.actions import Capture, KonchinkaAction, Lay, ends_party
from engine.konchinka.rules import BY_INDEX, IS_KONCHINKA, SECURE_CARDS, SECURE_CLUBS, VALUE, Variant
from engine.konchinka.state import KonchinkaState
from engine.konchinka.views import KonchinkaView

TOTAL_CARDS = 52
TOTAL_CLUBS = 13
JACK_VALUE = 11
MAX_CLASSIC_PIP = 10

WORTH_CARD = 0.12
WORTH_CLUB = 0.14
WORTH_KONCHINKA = 1.0
JACK_KEEP = 0.35
"""What holding a classic jack is worth beyond the table it could sweep now (it may sweep a bigger one)."""
EASY_BLUNDER_RATE = 0.3


# --------------------------------------------------------------------------------------------- card worth


@dataclass(frozen=True, slots=True)
class Worth:
    """Card worth in deal points: ``card`` by card index, ``capturer`` by rank (the average over its suits)."""

    card: tuple[float, ...]
    capturer: tuple[float, ...]


_WORTH: dict[tuple[bool, bool], Worth] = {}


def worth_table(captured_cards: Sequence[int], captured_clubs: Sequence[int]) -> Worth:
    """The worth of each card to whoever takes it, given the piles so far this deal."""
    key = (max(captured_cards) < SECURE_CARDS, max(captured_clubs) < SECURE_CLUBS)
    found = _WORTH.get(key)
    if found is not None:
        return found
    cards_open, clubs_open = key
    card_w = WORTH_CARD if cards_open else 0.0
    club_w = WORTH_CLUB if clubs_open else 0.0
    card = []
    for c in FULL_DECK:
        w = card_w
        if c.suit is Suit.CLUBS:
            w += club_w
        if IS_KONCHINKA[c.index]:
            w += WORTH_KONCHINKA
        card.append(w)
    capturer = [0.0] * 15
    for rank in Rank:
        total = 0.0
        for s in Suit:
            total += card[Card(rank, s).index]
        capturer[rank] = total / 4.0
    found = _WORTH[key] = Worth(tuple(card), tuple(capturer))
    return found


_RANKS = tuple(Rank)
_RANK_VALUE = {rank: VALUE[Card(rank, Suit.CLUBS).index] for rank in Rank}


def best_sums(table: Sequence[Card], worth: Sequence[float], points: bool) -> dict[int, float]:
    """For each value, the most valuable set of table cards adding up to it (a card of that value takes it)."""
    best: dict[int, float] = {0: 0.0}
    top = 13 if points else MAX_CLASSIC_PIP
    for c in table:
        v = VALUE[c.index]
        if v > top:
            continue
        w = worth[c.index]
        for s, total in list(best.items()):
            ns = s + v
            if ns <= top:
                nw = total + w
                if nw > best.get(ns, -1.0):
                    best[ns] = nw
    del best[0]
    return best


Chances = tuple[tuple[Rank, int, float], ...]
"""(rank, its value, the chance that the next hand holds one) for each rank that may be held."""


def rank_chances(unseen: Sequence[Card], hand: int) -> Chances:
    """For each rank, the chance that a hand of ``hand`` cards drawn from ``unseen`` holds at least one."""
    total = len(unseen)
    if not total or not hand:
        return ()
    counts = [0] * 15
    for c in unseen:
        counts[c.rank] += 1
    out = []
    for rank in _RANKS:
        k = counts[rank]
        if k:
            out.append((rank, _RANK_VALUE[rank], 1.0 - (1.0 - k / total) ** hand))
    return tuple(out)


def exposure(table: Sequence[Card], worth: Worth, chances: Chances, points: bool) -> float:
    """The expected value of the best capture the next player can make from ``table``."""
    if not table or not chances:
        return 0.0
    cw = worth.card
    capturer = worth.capturer
    sums = best_sums(table, cw, points)
    options: list[tuple[float, float]] = []
    for rank, value, p in chances:
        if points or value <= MAX_CLASSIC_PIP:
            s = sums.get(value)
            if s is None:
                continue
            gain = s + capturer[rank]
        elif value == JACK_VALUE:
            gain = 0.0
            for c in table:
                gain += cw[c.index]
            gain += capturer[rank]
        else:
            same = [cw[c.index] for c in table if c.rank is rank]
            if not same:
                continue
            gain = max(same) + capturer[rank]
        options.append((gain, p))
    options.sort(reverse=True)
    expected = 0.0
    miss = 1.0
    for gain, p in options:
        expected += miss * p * gain
        miss *= 1.0 - p
    return expected


# ------------------------------------------------------------------------------------------- the players


@dataclass(slots=True)
class Position:
    """What the normal player weighs for one decision."""

    me: int
    players: int
    hand: Sequence[Card]
    table: Sequence[Card]
    deck_size: int
    chances: Chances
    worth: Worth
    points: bool


def position_from_view(view: KonchinkaView) -> Position:
    seen = set(view.hand) | set(view.table)
    for pile in view.captured:
        seen.update(pile)
    unseen = [c for c in FULL_DECK if c not in seen]
    n = view.options.players
    nxt = (view.player + 1) % n
    next_hand = view.hand_sizes[nxt]
    if next_hand == 0 or (nxt == view.player):
        next_hand = 4 if view.deck_size else 0
    return Position(
        me=view.player,
        players=n,
        hand=view.hand,
        table=view.table,
        deck_size=view.deck_size,
        chances=rank_chances(unseen, next_hand),
        worth=worth_table(view.pile_sizes, view.pile_clubs),
        points=view.options.variant is Variant.POINTS,
    )


def position_from_state(state: KonchinkaState) -> Position:
    """The normal player's position for the player to move in a full state (only what that player knows)."""
    me = state.current_player
    hands = state.hands
    n = len(hands)
    unseen = [c for p in range(n) if p != me for c in hands[p]]
    unseen.extend(state.deck)
    piles = state.piles
    nxt = (me + 1) % n
    next_hand = len(hands[nxt])
    if next_hand == 0 or nxt == me:
        next_hand = 4 if state.deck_size else 0
    return Position(
        me=me,
        players=n,
        hand=hands[me],
        table=state.table,
        deck_size=state.deck_size,
        chances=rank_chances(unseen, next_hand),
        worth=worth_table(
            [len(p) for p in piles], [sum(1 for c in p if c.suit is Suit.CLUBS) for p in piles]
        ),
        points=state.options.variant is Variant.POINTS,
    )


@dataclass(frozen=True, slots=True)
class Habits:
    """The normal player's weights where people differ (the arena's variants change them; «любитель» plays the
    defaults, which the compiled kernel mirrors)."""

    risk: float = 1.0
    """The weight of what an action leaves exposed to the next player."""
    jack_keep: float = JACK_KEEP
    """What holding a classic jack is worth beyond the table it could sweep now."""
    leftovers: float = 0.25
    """The share of the table's worth a capture of the last round earns for the leftovers it may bring."""


NORMAL_HABITS = Habits()


def score_actions(
    pos: Position, actions: Sequence[KonchinkaAction], habits: Habits = NORMAL_HABITS
) -> list[float]:
    """The normal player's score of each action: what it takes minus what it leaves exposed."""
    worth = pos.worth.card
    table = pos.table
    scale = 1.0 + 0.25 * (pos.players - 2)
    hands_left = len(pos.hand)
    last_round = pos.deck_size == 0
    scores: list[float] = []
    for a in actions:
        if ends_party(a):
            scores.append(1000.0)
            continue
        if isinstance(a, Capture):
            groups = a.groups
            # the taken cards by index (one group is kept so; several are sorted), as the kernel adds them
            taken = groups[0] if len(groups) == 1 else sorted(a.taken, key=BY_INDEX)
            gain = 0.0
            for c in taken:
                gain += worth[c.index]
            gain += worth[a.card.index]
            after = [c for c in table if c not in taken]
            if not pos.points and a.card.rank is Rank.JACK:
                gain -= habits.jack_keep
            if last_round:
                # The last capture of the deal takes the leftovers: favour captures late in the last round.
                left = 0.0
                for c in after:
                    left += worth[c.index]
                gain += habits.leftovers * left * (1.0 if hands_left == 1 else 0.5)
        else:
            assert isinstance(a, Lay)
            after = [*table, a.card]
            gain = 0.0
            if not pos.points and a.card.rank is Rank.JACK:
                gain -= habits.jack_keep + 0.1
        risk = exposure(after, pos.worth, pos.chances, pos.points) * scale
        scores.append(gain - habits.risk * risk)
    return scores


def normal_action(view: KonchinkaView) -> KonchinkaAction:
    actions = view.legal_actions
    if len(actions) == 1:
        return actions[0]
    scores = score_actions(position_from_view(view), actions)
    best = max(range(len(actions)), key=lambda i: (scores[i], -i))
    return actions[best]


def easy_action(view: KonchinkaView, rng: random.Random) -> KonchinkaAction:
    actions = view.legal_actions
    for a in actions:
        if ends_party(a):
            return a
    if rng.random() < EASY_BLUNDER_RATE:
        return actions[rng.randrange(len(actions))]
    captures = [a for a in actions if isinstance(a, Capture)]
    if captures:
        return max(captures, key=lambda a: len(a.taken))
    return actions[rng.randrange(len(actions))]


def playout_action(state: KonchinkaState) -> KonchinkaAction:
    """The normal player's action for the player to move in a full state (seeing only what it could see)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    scores = score_actions(position_from_state(state), legal)
    return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]


# ------------------------------------------------------------------------------------- the hard player's value


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _p_ahead(lead: int, spread: float) -> tuple[float, float]:
    """(P(final lead > 0), P(final lead < 0)) for a lead that the rest of the deal moves by about ``spread``."""
    if spread <= 0.0:
        return (1.0 if lead > 0 else 0.0, 1.0 if lead < 0 else 0.0)
    return _phi((lead - 0.5) / spread), _phi((-lead - 0.5) / spread)


CARD_SPREAD = 2.5
CLUB_SPREAD = 1.5


def expected_edge(state: KonchinkaState, me: int) -> float:
    """My expected deal points minus the others' average, from the piles so far and what is still to come.

    Each rival's final lead in cards (clubs) is taken as normal around today's lead, with a spread growing with
    the cards (clubs) still in play; the cards (clubs) point needs a strict lead over every rival.
    """
    piles = state.piles
    n = len(piles)
    cards = [len(p) for p in piles]
    clubs = [sum(1 for c in p if c.suit is Suit.CLUBS) for p in piles]
    konch = [sum(1 for c in p if IS_KONCHINKA[c.index]) for p in piles]
    cards_left = TOTAL_CARDS - sum(cards)
    clubs_left = TOTAL_CLUBS - sum(clubs)
    card_spread = math.sqrt(CARD_SPREAD * cards_left)
    club_spread = math.sqrt(CLUB_SPREAD * clubs_left)
    expected = []
    for p in range(n):
        p_cards = p_clubs = 1.0
        for q in range(n):
            if q != p:
                p_cards *= _p_ahead(cards[p] - cards[q], card_spread)[0]
                p_clubs *= _p_ahead(clubs[p] - clubs[q], club_spread)[0]
        expected.append(2.0 * p_cards + p_clubs + konch[p])
    total = 0.0
    for e in expected:
        total += e
    others = total - expected[me]
    return expected[me] - others / (n - 1) + 0.03 * (cards[me] - (sum(cards) - cards[me]) / (n - 1))


def value(state: KonchinkaState, me: int, deals: int) -> float:
    """How good a playout's end is for ``me``, in deal points against the others' average.

    ``deals``: the deals finished where the playout began. Once that deal has ended, its points (and a little
    for cards and clubs); while it runs, :func:`expected_edge`. The party's end adds 4 for its winner and takes
    4 from everybody else.
    """
    outcome = state.outcome
    if len(state.deal_scores) > deals:
        score = state.deal_scores[deals]
        n = len(score.points)
        others = [p for p in range(n) if p != me]
        result = score.points[me] - sum(score.points[p] for p in others) / len(others)
        result += 0.03 * (score.cards[me] - sum(score.cards[p] for p in others) / len(others))
        result += 0.05 * (score.clubs[me] - sum(score.clubs[p] for p in others) / len(others))
    else:
        result = expected_edge(state, me)
    if outcome is not None:
        result += 4.0 if me in outcome.winners else -4.0
    return result
