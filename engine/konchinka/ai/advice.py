"""Why «мастер» plays a Кончинка move, in a word (the hint's reason; the bot has a phrase for each), and its
advice.

Every reason is a fact of the move that the bot can show from the view and the move alone (the кончинка it
takes, the jack's sweep, the cards or clubs it takes, what it leaves the next player): a reason is given only
where it is true, and a move that was the only one says just that."""

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

    ONLY = "only"
    FINISH = "finish"
    KONCHINKA = "konchinka"
    SWEEP = "sweep"
    LAST_MOVE = "last-move"
    LAST_CAPTURE = "last-capture"
    CLUBS = "clubs"
    MOST_CARDS = "most-cards"
    CAPTURE_SAFEST = "capture-safest"
    CAPTURE = "capture"
    SAFEST_LAY = "safest-lay"
    HOLD_BACK = "hold-back"
    KEEP_KONCHINKA = "keep-konchinka"
    LAY = "lay"


MOST_POINTS: float = 5.0
"""The most points a deal hands out (2 for the cards, 1 for the clubs, 1 for each кончинка): what a hint or
a review may say a move is worth at most."""


def advise(view: KonchinkaView, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` and why (:func:`engine.ai.players.advise`)."""
    # one legal action: the search's own candidates are that one, and it answers without searching
    action, result = players.hard_search(view, rng, players.hard_budget(view))
    return from_search(action, result, konchinka_why(view, action), MOST_POINTS)


def konchinka_why(view: KonchinkaView, action: object) -> Why:
    """Why «мастер» plays ``action`` in Кончинка, read from what it takes and what it leaves."""
    legal = view.legal_actions
    if len(legal) == 1:
        return Why.ONLY
    if isinstance(action, Finish) or (isinstance(action, Capture) and action.finish):
        return Why.FINISH
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
        if view.deck_size == 0 and sum(view.hand_sizes) == 1:
            return Why.LAST_MOVE  # nobody moves after: the rest of the table is this capture's
        if view.deck_size == 0 and sum(view.hand_sizes) <= view.options.players:
            return Why.LAST_CAPTURE
        clubs_open = max(view.pile_clubs) < 7
        if clubs_open and sum(1 for c in every if c.suit is Suit.CLUBS) >= 2:
            return Why.CLUBS
        if len(action.taken) == max(len(a.taken) for a in captures) and len(action.taken) >= 2:
            return Why.MOST_CARDS
        position = position_from_view(view)
        left = {
            a: exposure(
                [c for c in view.table if c not in a.taken], position.worth, position.chances, position.points
            )
            for a in captures
        }
        if len(captures) > 1 and left[action] < max(left.values()) and left[action] <= min(left.values()):
            return Why.CAPTURE_SAFEST
        return Why.CAPTURE
    assert isinstance(action, Lay)
    position = position_from_view(view)
    lays = [a for a in legal if isinstance(a, Lay)]
    risk = {
        a: exposure([*view.table, a.card], position.worth, position.chances, position.points) for a in lays
    }
    if len(lays) > 1 and risk[action] <= min(risk.values()) and risk[action] < max(risk.values()):
        return Why.SAFEST_LAY
    if captures:
        return Why.HOLD_BACK
    if action.card not in KONCHINKI and any(c in KONCHINKI for c in view.hand):
        return Why.KEEP_KONCHINKA
    return Why.LAY
