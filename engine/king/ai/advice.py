"""Why «мастер» plays a Кинг move, in a word (the hint's reason; the bot has a phrase for each), and its advice.

Every reason is a fact of the move that the bot can show from the view and the move alone (the penalty card
dropped, the trick ducked, taken or trumped, the suit's top card led): a reason is given only where it is
true, and a card that was the only legal one says just that."""

from __future__ import annotations

import enum
import random

from engine.ai.advice import Advice, from_search
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


def most_points(view: KingView) -> float:
    """The most points this deal hands out: 24 in a positive deal, the contract's penalties in a negative one
    (16, or 96 for «ералаш»): what a hint or a review may say a move is worth at most."""
    if view.contract is None:
        return float(TRICKS_PER_DEAL * POINTS_PER_TRICK)
    return float(view.contract.total)


def advise(view: KingView, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` and why (:func:`engine.ai.players.advise`)."""
    # one legal action: the search's own candidates are that one, and it answers without searching
    action, result = players.hard_search(view, rng, players.hard_budget(view))
    return from_search(action, result, king_why(view, action), most_points(view))


def king_why(view: KingView, action: object) -> Why:
    """Why «мастер» plays ``action`` in Кинг, read from the trick and the hand."""
    if isinstance(action, ChooseTrump):
        return Why.TRUMP_LAST if action.suit is None else Why.TRUMP_SUIT
    if len(view.legal_actions) == 1:
        return Why.ONLY
    assert isinstance(action, Play)
    card = action.card
    table = table_from_view(view)
    trick = view.trick
    if view.contract is not None:
        pen = CARD_PENALTY[view.contract]
        if not trick:
            return Why.LEAD_LOW if table.higher_out(card) else Why.LEAD_SAFE
        led = trick[0][1].suit
        best = winning_play(trick, None)[1]
        if card.suit is not led:
            if pen[card.index]:
                return Why.DUMP_PENALTY
            top = max(c.rank for c in view.hand if c.suit is card.suit)
            return Why.DUMP_HIGH if card.rank == top else Why.DISCARD
        if card.rank < best.rank:
            return Why.DUCK
        cost = sum(pen[c.index] for _, c in trick) + pen[card.index]
        cost += TRICK_PENALTY[view.contract][len(view.tricks_this_deal)]
        if cost == 0:
            return Why.TAKE_EMPTY
        plays = [a.card for a in view.legal_actions if isinstance(a, Play)]
        if all(c.suit is led and c.rank > best.rank for c in plays):
            return Why.TAKE_FORCED  # every card it may play goes over the trick's best
        return Why.TAKE_LEAST
    trump = view.trump
    if not trick:
        if card.suit is trump:
            return Why.DRAW_TRUMPS
        if table.higher_out(card) == 0:
            return Why.CASH
        return Why.LEAD_KEEP_TRUMPS if any(c.suit is trump for c in view.hand) else Why.LEAD
    best = winning_play(trick, trump)[1]
    if beats(card, best, trump):
        return Why.RUFF if card.suit is trump and trick[0][1].suit is not trump else Why.WIN
    return Why.DISCARD
