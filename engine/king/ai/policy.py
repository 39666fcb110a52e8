"""Кинг: the normal player's card play («любитель»), a rule-based policy shared by the easy and hard players.

In the negative deals it ducks under the card that is winning the trick, sheds its high cards while taking a
trick costs nothing, dumps penalty cards (and K♥) on other players' tricks when void, and leads low cards of
suits where the others still hold higher ones. In the positive deals it wins tricks cheaply, cashes sure
winners, draws trumps when it holds the top ones, ruffs, and leads short side suits to make voids. It names
trump from its three visible cards. The easy player («новичок») plays like it but makes a random legal move
now and then. The same policy plays every seat in the hard player's playouts (:func:`policy_action`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import PIQUET_DECK, Card, Rank, Suit
from engine.king.actions import CHOOSE_TRUMP_ACTIONS, PLAYS, ChooseTrump, KingAction, Play
from engine.king.rules import (
    CARD_PENALTY,
    NUM_PLAYERS,
    TRICK_PENALTY,
    Contract,
    Phase,
    PlayedCard,
    beats,
    winning_play,
)
from engine.king.state import KingState, KingView

_HONOUR = {Rank.ACE: 1.0, Rank.KING: 0.6, Rank.QUEEN: 0.3, Rank.JACK: 0.1}

EASY_BLUNDER_RATE = 0.3
"""How often the easy player makes a random legal move instead of a considered one."""


# ----------------------------------------------------------------------------------------------- the policy


@dataclass(slots=True)
class Table:
    """What the player to move knows for one decision (cheap to build from a view or a sampled world)."""

    hand: Sequence[Card]
    legal: Sequence[Card]
    trick: Sequence[PlayedCard]
    contract: Contract | None
    trump: Suit | None
    outstanding: Sequence[Card]
    """Cards still held by the other players (known to everybody as a set: neither played nor in my hand)."""
    tricks_done: int
    out_by_suit: dict[Suit, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_suit: dict[Suit, list[int]] = {s: [] for s in Suit}
        for c in self.outstanding:
            by_suit[c.suit].append(c.rank)
        self.out_by_suit = by_suit

    def higher_out(self, card: Card) -> int:
        return sum(1 for r in self.out_by_suit[card.suit] if r > card.rank)

    def lower_out(self, card: Card) -> int:
        return sum(1 for r in self.out_by_suit[card.suit] if r < card.rank)


def pick_card(t: Table) -> Card:
    """The normal player's card for the position ``t``."""
    if len(t.legal) == 1:
        return t.legal[0]
    if t.contract is None:
        return _pick_positive(t)
    return _pick_negative(t)


def _suit_count(hand: Sequence[Card], suit: Suit) -> int:
    return sum(1 for c in hand if c.suit is suit)


def _keep_danger(t: Table, card: Card, pen: Sequence[int]) -> float:
    """How much trouble keeping ``card`` may bring later in a negative deal (high cards win tricks)."""
    lower = t.lower_out(card)
    higher = t.higher_out(card)
    danger = 3.0 * pen[card.index]
    if lower:
        danger += (card.rank - 6) * (1.0 if higher == 0 else 0.6) + 0.4 * lower
    else:
        danger += 0.1 * (card.rank - 6)
    return danger - 0.3 * _suit_count(t.hand, card.suit)


def _pick_negative(t: Table) -> Card:
    assert t.contract is not None
    pen = CARD_PENALTY[t.contract]
    tpen = TRICK_PENALTY[t.contract][t.tricks_done] if t.tricks_done < 8 else 0
    future = sum(TRICK_PENALTY[t.contract][t.tricks_done :]) + sum(pen[c.index] for c in t.outstanding)
    pen_out = sum(pen[c.index] for c in t.outstanding)
    legal = t.legal
    if t.trick:
        led = t.trick[0][1].suit
        best = winning_play(t.trick, None)[1]
        after = NUM_PLAYERS - 1 - len(t.trick)
        trick_cost = tpen + sum(pen[c.index] for _, c in t.trick)
        follow = [c for c in legal if c.suit is led]
        if not follow:
            # Void: throw the most troublesome card (penalty cards first) onto someone else's trick.
            return max(legal, key=lambda c: (_keep_danger(t, c, pen), c.rank, -c.index))
        under = [c for c in follow if c.rank < best.rank]
        if under:
            return max(under, key=lambda c: (pen[c.index], c.rank))
        # Every card of mine beats the trick so far.
        dump_risk = pen_out * 0.15 * after if after else 0.0
        if after == 0 or trick_cost + dump_risk < 0.5:
            # The trick is mine (or costs nothing): win it with the card I least want to keep.
            return max(follow, key=lambda c: (-pen[c.index], c.rank))
        return min(follow, key=lambda c: (pen[c.index], c.rank))
    # Leading.
    best_card = legal[0]
    best_score = float("inf")
    shed_weight = 0.15 if future else 0.0
    for c in legal:
        higher = t.higher_out(c)
        lower = t.lower_out(c)
        if higher + lower == 0:
            p_win, dump = 1.0, pen_out * 0.5
        elif higher == 0:
            p_win, dump = 1.0, pen_out * 0.1
        elif lower == 0:
            p_win, dump = 0.0, 0.0
        else:
            p_win, dump = lower / (higher + lower) * 0.6, pen_out * 0.05
        own = pen[c.index]
        score = p_win * (tpen + own + dump) - (1.0 - p_win) * own * 0.5
        score -= shed_weight * (c.rank - 7) * (1.0 if p_win == 0.0 else 0.2)
        score += 0.05 * _suit_count(t.hand, c.suit)
        if score < best_score:
            best_card, best_score = c, score
    return best_card


def _pick_positive(t: Table) -> Card:
    trump = t.trump
    legal = t.legal
    if t.trick:
        best = winning_play(t.trick, trump)[1]
        after = NUM_PLAYERS - 1 - len(t.trick)
        winners = [c for c in legal if beats(c, best, trump)]
        if winners:
            if after == 0:
                return min(winners, key=lambda c: (c.suit is trump, c.rank))
            safe = [c for c in winners if t.higher_out(c) == 0]
            if safe:
                return min(safe, key=lambda c: (c.suit is trump, c.rank))
            ruffs = [c for c in winners if c.suit is trump and best.suit is not trump]
            if ruffs:
                return min(ruffs, key=lambda c: c.rank)
        # Cannot win (or would win only to be beaten): give away the least useful card.
        return min(legal, key=lambda c: (c.suit is trump, t.higher_out(c) == 0, c.rank))
    # Leading.
    trumps = [c for c in t.hand if c.suit is trump]
    trumps_out = len(t.out_by_suit[trump]) if trump is not None else 0
    bosses = [c for c in legal if t.higher_out(c) == 0]
    trump_bosses = [c for c in bosses if c.suit is trump]
    if trump_bosses and trumps_out:
        return max(trump_bosses, key=lambda c: c.rank)
    side_bosses = [c for c in bosses if c.suit is not trump and t.out_by_suit[c.suit]]
    if side_bosses:
        return max(side_bosses, key=lambda c: (len(t.out_by_suit[c.suit]), c.rank))
    if trumps and trumps_out and len(trumps) > trumps_out:
        return min(trumps, key=lambda c: c.rank)
    side = [c for c in legal if c.suit is not trump]
    if side:
        return min(side, key=lambda c: (_suit_count(t.hand, c.suit), c.rank))
    return min(legal, key=lambda c: c.rank)


def pick_trump(seen: Sequence[Card]) -> ChooseTrump:
    """The normal player's trump from the three cards it sees: its strongest suit, else «по последней»."""
    scores = {s: 0.0 for s in Suit}
    for c in seen:
        scores[c.suit] += 1.0 + _HONOUR.get(c.rank, 0.0)
    suit = max(Suit, key=lambda s: (scores[s], -s))
    if scores[suit] >= 1.6:
        return CHOOSE_TRUMP_ACTIONS[suit]
    return CHOOSE_TRUMP_ACTIONS[-1]


def played_cards(view: KingView) -> list[Card]:
    return [c for t in view.tricks_this_deal for _, c in t.plays] + [c for _, c in view.trick]


def table_from_view(view: KingView) -> Table:
    hand = list(view.hand)
    gone = set(hand) | set(played_cards(view))
    outstanding = [c for c in PIQUET_DECK if c not in gone]
    legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
    return Table(hand, legal, view.trick, view.contract, view.trump, outstanding, len(view.tricks_this_deal))


def policy_action(state: KingState) -> KingAction:
    """The normal player's move in a full state, seeing only what that player could see."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if state.phase is Phase.CHOOSE_TRUMP:
        return pick_trump(state.view(state.current_player).hand)
    me = state.current_player
    hands = state.hands
    outstanding = [c for p in range(NUM_PLAYERS) if p != me for c in hands[p]]
    table = Table(
        hands[me],
        [a.card for a in legal if isinstance(a, Play)],
        state.trick,
        state.contract,
        state.trump,
        outstanding,
        state.tricks_done,
    )
    return PLAYS[pick_card(table)]


def normal_action(view: KingView) -> KingAction:
    if view.phase is Phase.CHOOSE_TRUMP:
        return pick_trump(view.hand)
    return PLAYS[pick_card(table_from_view(view))]


def easy_action(view: KingView, rng: random.Random) -> KingAction:
    legal = view.legal_actions
    if rng.random() < EASY_BLUNDER_RATE:
        return legal[rng.randrange(len(legal))]
    return normal_action(view)
