"""«💡 Подсказка»: what «мастер» would play from a view, and why, in a few words grounded in its search.

:func:`advise` makes the very decision of the hard level (the same search, budget and rng, so the move is the
one «мастер» plays) and keeps what the search found: the expected points of that move and of the best other
candidate. :class:`Why` names the reason a person would give for it, read from the move and the position (the
kernel of the move the search preferred: a кончинка taken, the least left to the next player, a queen dropped
while void, a trick ducked…); the bot says it in words.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from engine.ai import king as king_ai
from engine.ai import konchinka as konchinka_ai
from engine.ai.king_policy import table_from_view
from engine.ai.konchinka_policy import exposure, position_from_view
from engine.ai.search import SearchResult
from engine.cards import Rank, Suit
from engine.king import ChooseTrump, KingView, Play, winning_play
from engine.king.rules import CARD_PENALTY, NUM_PLAYERS, beats
from engine.konchinka import KONCHINKI, Capture, Finish, KonchinkaView, Lay, Variant


class Why(enum.StrEnum):
    """The reason of a hint, in a word (the bot has a phrase for each)."""

    # Кончинка
    FINISH = "finish"
    KONCHINKA = "konchinka"
    SWEEP = "sweep"
    LAST_CAPTURE = "last-capture"
    CLUBS = "clubs"
    MOST_CARDS = "most-cards"
    CAPTURE = "capture"
    SAFEST_LAY = "safest-lay"
    HOLD_BACK = "hold-back"
    LAY = "lay"
    # Кинг
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


@dataclass(frozen=True, slots=True)
class Advice:
    """The hint of one decision: the move, its reason, and — where the search weighed alternatives — the
    expected points of the move and of the best other one (Кинг: this deal's points; Кончинка: deal points
    against the others' average)."""

    action: object
    why: Why
    value: float | None = None
    runner_up: float | None = None


def advise(view: KingView | KonchinkaView, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` (the action :func:`engine.ai.choose_action`
    gives at the hard level with the same rng) and what the search said of it."""
    if len(view.legal_actions) == 1:
        action: object = view.legal_actions[0]
        result: SearchResult | None = None
    elif isinstance(view, KingView):
        action, result = king_ai.hard_search(view, rng, king_ai.hard_budget(view))
    else:
        action, result = konchinka_ai.hard_search(view, rng, konchinka_ai.hard_budget(view))
    value = runner_up = None
    if result is not None:
        code = str(getattr(action, "code", action))
        value = result.means[code]
        others = [v for k, v in result.means.items() if k != code]
        runner_up = max(others) if others else None
    why = king_why(view, action) if isinstance(view, KingView) else konchinka_why(view, action)
    return Advice(action=action, why=why, value=value, runner_up=runner_up)


# --------------------------------------------------------------------------------------------------- Кинг


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


# ----------------------------------------------------------------------------------------------- Кончинка


def konchinka_why(view: KonchinkaView, action: object) -> Why:
    """Why «мастер» plays ``action`` in Кончинка, read from what it takes and what it leaves."""
    if isinstance(action, Finish):
        return Why.FINISH
    legal = view.legal_actions
    captures = [a for a in legal if isinstance(a, Capture)]
    if isinstance(action, Capture):
        every = (*action.taken, action.card)
        if any(c in KONCHINKI for c in every):
            return Why.KONCHINKA
        if (
            view.options.variant is Variant.CLASSIC
            and action.card.rank is Rank.JACK
            and len(action.taken) == len(view.table)
        ):
            return Why.SWEEP
        if view.deck_size == 0 and sum(view.hand_sizes) <= view.options.players:
            return Why.LAST_CAPTURE
        clubs_open = max(view.pile_clubs) < 7
        if clubs_open and sum(1 for c in every if c.suit is Suit.CLUBS) >= 2:
            return Why.CLUBS
        if len(action.taken) == max(len(a.taken) for a in captures) and len(action.taken) >= 2:
            return Why.MOST_CARDS
        return Why.CAPTURE
    assert isinstance(action, Lay)
    position = position_from_view(view)
    lays = [a for a in legal if isinstance(a, Lay)]
    risk = {
        a: exposure([*view.table, a.card], position.worth, position.chances, position.points) for a in lays
    }
    if len(lays) > 1 and risk[action] <= min(risk.values()):
        return Why.SAFEST_LAY
    return Why.HOLD_BACK if captures else Why.LAY
