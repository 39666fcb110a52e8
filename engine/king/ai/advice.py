"""Why «мастер» plays a Кинг move, in a word (the hint's reason; the bot has a phrase for each), and its advice.

Every reason is a fact of the move that the bot can show from the view and the move alone (the penalty card
dropped, the trick ducked, taken or trumped, the suit's top card led): a reason is given only where it is
true of the move and not as true of the move it is preferred to — a card said to take the trick closes it —,
and a card that was the only legal one says just that."""

from __future__ import annotations

import enum
import random

from engine.ai.advice import Advice, Fact, best_other, from_search, told_apart
from engine.cards import Card
from engine.king.actions import ChooseTrump, Play
from engine.king.ai import players
from engine.king.ai.policy import table_from_view
from engine.king.rules import (
    CARD_PENALTY,
    POINTS_PER_TRICK,
    TRICK_PENALTY,
    TRICKS_PER_DEAL,
    beats,
    winning_play,
)
from engine.king.state import KingView


class Why(enum.StrEnum):
    """The reason of a Кинг hint."""

    ONLY = "only"
    TRUMP_SUIT = "trump-suit"
    TRUMP_LAST = "trump-last"
    DUMP_PENALTY = "dump-penalty"
    DUMP_HIGH = "dump-high"
    DUCK = "duck"
    TAKE_EMPTY = "take-empty"
    TAKE_FORCED = "take-forced"
    TAKE_LEAST = "take-least"
    LEAD_LOW = "lead-low"
    LEAD_SAFE = "lead-safe"
    RUFF = "ruff"
    WIN = "win"
    CASH = "cash"
    DRAW_TRUMPS = "draw-trumps"
    DISCARD = "discard"
    LEAD_KEEP_TRUMPS = "lead-keep-trumps"
    LEAD = "lead"
    NONE = "none"
    """No reason tells the move from the other one (or none is true of it): the move is said alone."""


def most_points(view: KingView) -> float:
    """The most points this deal hands out: 24 in a positive deal, the contract's penalties in a negative one
    (16, or 96 for «ералаш»)."""
    if view.contract is None:
        return float(TRICKS_PER_DEAL * POINTS_PER_TRICK)
    return float(view.contract.total)


def can_change(view: KingView) -> float:
    """The most the player's own score can still change this deal: the points of the tricks not yet taken in a
    positive deal, the penalties nobody has taken yet in a negative one. The search values a move by the
    player's own points of the deal, so what it finds one move worth beyond another is within this."""
    if view.contract is None:
        return float((TRICKS_PER_DEAL - len(view.tricks_this_deal)) * POINTS_PER_TRICK)
    return float(view.contract.total + sum(view.deal_points))


def advise(view: KingView, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` and why (:func:`engine.ai.players.advise`): a
    reason that tells it from the best other move the search weighed."""
    # one legal action: the search's own candidates are that one, and it answers without searching
    action, result = players.hard_search(view, rng, players.hard_budget(view))
    other = best_other(view.legal_actions, action, result)
    return from_search(action, result, king_why(view, action, other), can_change(view), other)


def _plays_last(view: KingView) -> bool:
    """The player's card closes the trick: what it takes is known (no later card can go over it or add to it)."""
    return len(view.trick) == len(view.hand_sizes) - 1


def _negative_facts(view: KingView, card: Card) -> dict[Why, Fact]:
    assert view.contract is not None
    pen = CARD_PENALTY[view.contract]
    table = table_from_view(view)
    trick = view.trick
    if not trick:
        higher = table.higher_out(card)
        return {Why.LEAD_LOW: (higher > 0, 1.0), Why.LEAD_SAFE: (higher == 0, 1.0)}
    led = trick[0][1].suit
    best = winning_play(trick, None)[1]
    if card.suit is not led:
        top = max(c.rank for c in view.hand if c.suit is card.suit)
        return {
            Why.DUMP_PENALTY: (pen[card.index] > 0, pen[card.index]),
            Why.DUMP_HIGH: (pen[card.index] == 0 and card.rank == top, 1.0),
            Why.DISCARD: (True, 1.0),
        }
    if card.rank < best.rank:
        return {Why.DUCK: (True, 1.0)}
    # Over the trick's best: what it takes is said only where no later card can change it.
    last = _plays_last(view)
    cost = sum(pen[c.index] for _, c in trick) + pen[card.index]
    cost += TRICK_PENALTY[view.contract][len(view.tricks_this_deal)]
    plays = [a.card for a in view.legal_actions if isinstance(a, Play)]
    forced = all(c.suit is led and c.rank > best.rank for c in plays)
    return {
        Why.TAKE_EMPTY: (last and cost == 0, 1.0),
        Why.TAKE_FORCED: (last and forced, 1.0),
        Why.TAKE_LEAST: (last and not forced, -cost),
    }


def _positive_facts(view: KingView, card: Card) -> dict[Why, Fact]:
    trump = view.trump
    table = table_from_view(view)
    trick = view.trick
    if not trick:
        keeps = card.suit is not trump and any(c.suit is trump for c in view.hand)
        higher = table.higher_out(card)
        return {
            Why.DRAW_TRUMPS: (card.suit is trump, 1.0),
            Why.CASH: (higher == 0, 1.0),
            Why.LEAD_KEEP_TRUMPS: (keeps, 1.0),
            Why.LEAD: (higher > 0, 1.0),
        }
    best = winning_play(trick, trump)[1]
    over = beats(card, best, trump)
    ruff = over and card.suit is trump and trick[0][1].suit is not trump
    return {Why.RUFF: (ruff, 1.0), Why.WIN: (over and not ruff, 1.0), Why.DISCARD: (not over, 1.0)}


def facts(view: KingView, action: object) -> dict[Why, Fact]:
    """Every reason that may be said of ``action`` in ``view``, true or not, with how much of it the move has
    (in the order a hint names them: the first that holds is the reason)."""
    if isinstance(action, ChooseTrump):
        if action.suit is None:
            return {Why.TRUMP_LAST: (True, 1.0)}
        return {Why.TRUMP_SUIT: (True, sum(1 for c in view.hand if c.suit is action.suit))}
    assert isinstance(action, Play)
    if view.contract is not None:
        return _negative_facts(view, action.card)
    return _positive_facts(view, action.card)


def king_why(view: KingView, action: object, other: object | None = None) -> Why:
    """Why «мастер» plays ``action`` in Кинг, read from the trick and the hand: the first reason true of it —
    and, given ``other`` (the move it is preferred to), not as true of that one; :attr:`Why.NONE` when no
    reason tells the two apart (or, alone, none is true)."""
    if not isinstance(action, ChooseTrump) and len(view.legal_actions) == 1:
        return Why.ONLY
    return told_apart(facts(view, action), facts(view, other) if other is not None else None, Why.NONE)
