"""Why «мастер» plays a Кинг move, in a word (the hint's reason; the bot has a phrase for each), and its advice."""

from __future__ import annotations

import enum
import random

from engine.ai.advice import Advice, from_search
from engine.king.actions import ChooseTrump, Play
from engine.king.ai import players
from engine.king.ai.policy import table_from_view
from engine.king.rules import CARD_PENALTY, NUM_PLAYERS, beats, winning_play
from engine.king.state import KingView


class Why(enum.StrEnum):
    """The reason of a Кинг hint."""

    TRUMP_SUIT = "trump-suit"
    TRUMP_LAST = "trump-last"
    DUMP_PENALTY = "dump-penalty"
    DUMP_HIGH = "dump-high"
    DUCK = "duck"
    TAKE_EMPTY = "take-empty"
    TAKE_LEAST = "take-least"
    LEAD_LOW = "lead-low"
    LEAD_SAFE = "lead-safe"
    RUFF = "ruff"
    WIN = "win"
    CASH = "cash"
    DRAW_TRUMPS = "draw-trumps"
    DISCARD = "discard"
    LEAD = "lead"


def advise(view: KingView, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` and why (:func:`engine.ai.players.advise`)."""
    # one legal action: the search's own candidates are that one, and it answers without searching
    action, result = players.hard_search(view, rng, players.hard_budget(view))
    return from_search(action, result, king_why(view, action))


def king_why(view: KingView, action: object) -> Why:
    """Why «мастер» plays ``action`` in Кинг, read from the trick and the hand."""
    if isinstance(action, ChooseTrump):
        return Why.TRUMP_LAST if action.suit is None else Why.TRUMP_SUIT
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
            return Why.DUMP_PENALTY if pen[card.index] else Why.DUMP_HIGH
        if card.rank < best.rank:
            return Why.DUCK
        cost = sum(pen[c.index] for _, c in trick) + pen[card.index]
        last = len(trick) == NUM_PLAYERS - 1
        return Why.TAKE_EMPTY if last and cost == 0 else Why.TAKE_LEAST
    trump = view.trump
    if not trick:
        if card.suit is trump:
            return Why.DRAW_TRUMPS
        return Why.CASH if table.higher_out(card) == 0 else Why.LEAD
    best = winning_play(trick, trump)[1]
    if beats(card, best, trump):
        return Why.RUFF if card.suit is trump and trick[0][1].suit is not trump else Why.WIN
    return Why.DISCARD
