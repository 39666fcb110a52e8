"""Why «мастер» plays a Кончинка move, in a word (the hint's reason; the bot has a phrase for each), and its
advice.

Every reason is a fact of the move that the bot can show from the view and the move alone (the кончинка it
takes, the jack's sweep, the cards or clubs it takes, what it leaves the next player): a reason is given only
where it is true of the move and not as true of the move it is preferred to (the best other one the search
weighed, or the move a player made), and a move that was the only one says just that."""

from __future__ import annotations

import enum
import random

from engine.ai.advice import Advice, Fact, best_other, from_search, told_apart
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
    NONE = "none"
    """No reason tells the move from the other one: the move is said alone."""


MOST_POINTS: float = 5.0
"""The most points a deal hands out (2 for the cards, 1 for the clubs, 1 for each кончинка)."""


def advise(view: KonchinkaView, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` and why (:func:`engine.ai.players.advise`): a
    reason that tells it from the best other move the search weighed. No figure: the search values a move by
    the player's edge over the others (and the party's win), not in the player's own points."""
    # one legal action: the search's own candidates are that one, and it answers without searching
    action, result = players.hard_search(view, rng, players.hard_budget(view))
    other = best_other(view.legal_actions, action, result)
    return from_search(action, result, konchinka_why(view, action, other), None, other)


def _capture_facts(view: KonchinkaView, action: Capture) -> dict[Why, Fact]:
    every = (*action.taken, action.card)
    captures = [a for a in view.legal_actions if isinstance(a, Capture)]
    last_move = view.deck_size == 0 and sum(view.hand_sizes) == 1
    last_round = view.deck_size == 0 and sum(view.hand_sizes) <= view.options.players
    clubs = sum(1 for c in every if c.suit is Suit.CLUBS)
    position = position_from_view(view)
    left = {
        a: exposure(
            [c for c in view.table if c not in a.taken], position.worth, position.chances, position.points
        )
        for a in captures
    }
    return {
        Why.KONCHINKA: (any(c in KONCHINKI for c in every), sum(1 for c in every if c in KONCHINKI)),
        Why.SWEEP: (
            view.options.variant is Variant.CLASSIC
            and action.card.rank is Rank.JACK
            and len(action.taken) == len(view.table),
            len(action.taken),
        ),
        # nobody moves after: the rest of the table is this capture's (and after a lay, the last capturer's)
        Why.LAST_MOVE: (last_move, 1.0),
        Why.LAST_CAPTURE: (last_round and not last_move, 1.0),
        Why.CLUBS: (max(view.pile_clubs) < 7 and clubs >= 2, clubs),
        Why.MOST_CARDS: (
            len(action.taken) == max(len(a.taken) for a in captures) and len(action.taken) >= 2,
            len(action.taken),
        ),
        Why.CAPTURE_SAFEST: (
            len(captures) > 1 and left[action] < max(left.values()) and left[action] <= min(left.values()),
            -left[action],
        ),
        Why.SAFEST_LAY: (False, -left[action]),
        Why.CAPTURE: (True, len(every)),
    }


def _lay_facts(view: KonchinkaView, action: Lay) -> dict[Why, Fact]:
    position = position_from_view(view)
    lays = [a for a in view.legal_actions if isinstance(a, Lay)]
    risk = {
        a: exposure([*view.table, a.card], position.worth, position.chances, position.points) for a in lays
    }
    captures = any(isinstance(a, Capture) for a in view.legal_actions)
    kept = action.card not in KONCHINKI and any(c in KONCHINKI for c in view.hand)
    return {
        Why.CAPTURE_SAFEST: (False, -risk[action]),
        Why.SAFEST_LAY: (
            len(lays) > 1 and risk[action] <= min(risk.values()) and risk[action] < max(risk.values()),
            -risk[action],
        ),
        Why.HOLD_BACK: (captures, 1.0),
        Why.KEEP_KONCHINKA: (not captures and kept, 1.0),
        Why.LAY: (not captures, 1.0),
    }


def facts(view: KonchinkaView, action: object) -> dict[Why, Fact]:
    """Every reason that may be said of ``action`` in ``view``, true or not, with how much of it the move has
    (in the order a hint names them: the first that holds is the reason)."""
    if isinstance(action, Finish):
        return {Why.FINISH: (True, 1.0)}
    if isinstance(action, Capture) and action.finish:
        # the finish is its reason; what it takes is still what another move is told from
        return {Why.FINISH: (True, 1.0), **_capture_facts(view, action)}
    if isinstance(action, Capture):
        return _capture_facts(view, action)
    assert isinstance(action, Lay)
    return _lay_facts(view, action)


def konchinka_why(view: KonchinkaView, action: object, other: object | None = None) -> Why:
    """Why «мастер» plays ``action`` in Кончинка, read from what it takes and what it leaves: the first reason
    true of it — and, given ``other`` (the move it is preferred to), not as true of that one; :attr:`Why.NONE`
    when no reason tells the two apart."""
    if len(view.legal_actions) == 1:
        return Why.ONLY
    theirs = facts(view, other) if other is not None else None
    return told_apart(facts(view, action), theirs, Why.NONE, (Why.CAPTURE_SAFEST, Why.SAFEST_LAY))
