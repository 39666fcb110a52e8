"""Why «мастер» plays a Кончинка move, in a word (the hint's reason; the bot has a phrase for each), and its
advice."""

from __future__ import annotations

import enum
import random

from engine.ai.advice import Advice, from_search
from engine.cards import Rank, Suit
from engine.konchinka.actions import Capture, Finish, Lay
from engine.konchinka.ai import players
from engine.konchinka.ai.policy import exposure, position_from_view
from engine.konchinka.rules import KONCHINKI, Variant
from engine.konchinka.views import KonchinkaView


class Why(enum.StrEnum):
    """The reason of a Кончинка hint."""

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


def advise(view: KonchinkaView, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` and why (:func:`engine.ai.players.advise`)."""
    # one legal action: the search's own candidates are that one, and it answers without searching
    action, result = players.hard_search(view, rng, players.hard_budget(view))
    return from_search(action, result, konchinka_why(view, action))


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
