"""Bot players for Кинг: the hard player («мастер») and the entry points of all three levels.

- The normal («любитель») and easy («новичок») players are the rule-based policy of :mod:`engine.ai.king_policy`.
- The hard player runs determinized Monte Carlo search (:mod:`engine.ai.search`) over worlds dealt by
  :mod:`engine.ai.king_worlds` (every hidden card placed consistently with what it has seen). Of a few worlds
  so dealt, one is kept with odds that fall with each play a normal player would not have made there. Then it
  plays each candidate followed by the normal policy to the end of the deal, scoring its own deal result. The
  trump choice is searched the same way over the five unseen cards of its hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.king_policy import easy_action, normal_action, played_cards, policy_action
from engine.ai.king_worlds import infer, sample_world, surprises
from engine.ai.search import SearchBudget, SearchResult, pimc
from engine.cards import PIQUET_DECK, Card
from engine.core import State
from engine.king import ChooseTrump, KingState, KingView, Phase, Play
from engine.king.actions import KingAction
from engine.king.rules import CARD_PENALTY

__all__ = ["describe", "easy_action", "hard_action", "infer", "normal_action", "sample_world", "surprises"]

_NO_PENALTY: tuple[int, ...] = (0,) * 52

INFERENCE_TOLERANCE = 0.3
"""The odds of a candidate world per play of the others that the normal player would not have made there."""
CANDIDATES = 4
"""Consistent worlds dealt for each world the search keeps (the most plausible ones are kept more often)."""
HARD_WORLDS = 64
"""Sampled worlds per card play."""
HARD_STEPS = 12_000
"""Playout steps per card play (see :class:`engine.ai.search.SearchBudget`)."""
HARD_TRUMP_WORLDS = 40
HARD_TRUMP_STEPS = 12_000


class KingModel:
    """The search model of the hard player: playouts to the end of the deal with the normal policy."""

    def __init__(self, view: KingView) -> None:
        self.view = view
        self.player = view.player
        self.deal_index = view.deal_index
        self.knowledge = infer(view)
        self.has_history = bool(view.tricks_this_deal or view.trick) and view.phase is Phase.PLAY

    def sample_world(self, rng: random.Random) -> State:
        """A world drawn from the view's consistent worlds, resampled by how plausible the others' plays are.

        ``CANDIDATES`` consistent worlds are dealt and one is kept with probability proportional to
        ``INFERENCE_TOLERANCE ** surprises`` (sampling-importance-resampling), so the search spends its
        playouts on the worlds that explain the play so far.
        """
        if not self.has_history or CANDIDATES <= 1:
            return sample_world(self.view, rng, self.knowledge)
        pool = [sample_world(self.view, rng, self.knowledge) for _ in range(CANDIDATES)]
        weights = [INFERENCE_TOLERANCE ** surprises(self.view, w) for w in pool]
        pick = rng.random() * sum(weights)
        for w, world in zip(weights, pool, strict=True):
            pick -= w
            if pick < 0:
                return world
        return pool[-1]

    def playout_action(self, state: State, rng: random.Random) -> KingAction:
        assert isinstance(state, KingState)
        return policy_action(state)

    def is_horizon(self, state: State) -> bool:
        assert isinstance(state, KingState)
        return state.deal_index != self.deal_index or state.is_terminal

    def value(self, state: State) -> float:
        assert isinstance(state, KingState)
        return float(state.score_sheet[self.deal_index][self.player])


def hard_budget(
    view: KingView, *, time_ms: float | None = None, worlds: int | None = None, steps: int | None = None
) -> SearchBudget:
    """The hard player's budget for ``view``: its own worlds and steps unless given; no time cap unless given."""
    trump_phase = view.phase is Phase.CHOOSE_TRUMP
    default_worlds, default_steps = (
        (HARD_TRUMP_WORLDS, HARD_TRUMP_STEPS) if trump_phase else (HARD_WORLDS, HARD_STEPS)
    )
    return SearchBudget(
        worlds=default_worlds if worlds is None else worlds,
        steps=default_steps if steps is None else steps,
        time_ms=time_ms,
    )


def hard_search(
    view: KingView, rng: random.Random, budget: SearchBudget
) -> tuple[KingAction, SearchResult | None]:
    """The hard player's action, and the search that chose it (None: the choice needed no search)."""
    legal = list(view.legal_actions)
    if len(legal) == 1:
        return legal[0], None
    if view.phase is not Phase.CHOOSE_TRUMP:
        # Cards of equal value: neighbouring ranks of one suit in my hand with nothing between them out.
        legal = _distinct_plays(view, legal)
        if len(legal) == 1:
            return legal[0], None
    result = pimc(legal, KingModel(view), rng, budget)
    action: KingAction = result.action
    return action, result


def hard_action(
    view: KingView,
    rng: random.Random,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
) -> KingAction:
    """The hard player's action: ``iterations`` worlds and ``steps`` override the level's, ``budget_ms`` caps time."""
    return hard_search(view, rng, hard_budget(view, time_ms=budget_ms, worlds=iterations, steps=steps))[0]


def _distinct_plays(view: KingView, legal: Sequence[KingAction]) -> list[KingAction]:
    """The legal plays, one per run of touching cards (cards with no unseen card between them play alike).

    Kept only where the run holds no penalty card of the contract, so that a choice between e.g. Q♠ and J♠
    in «мальчики» is still searched.
    """
    pen = CARD_PENALTY[view.contract] if view.contract is not None else _NO_PENALTY
    gone = set(played_cards(view))
    mine = set(view.hand)
    kept: list[KingAction] = []
    previous: Card | None = None
    for a in sorted(legal, key=lambda a: a.card.index if isinstance(a, Play) else -1):
        if not isinstance(a, Play):
            kept.append(a)
            continue
        c = a.card
        if previous is not None and previous.suit is c.suit and not pen[c.index] and not pen[previous.index]:
            between = [
                x
                for x in PIQUET_DECK
                if x.suit is c.suit and previous.rank < x.rank < c.rank and x not in gone
            ]
            if all(x in mine for x in between):
                previous = c
                continue
        kept.append(a)
        previous = c
    return kept


def describe(view: KingView, action: KingAction) -> str:
    if isinstance(action, ChooseTrump):
        seen = " ".join(c.ru for c in view.hand)
        name = "по последней" if action.suit is None else f"козырь {action.suit.symbol}"
        return f"видит {seen}: {name}"
    where = (
        view.contract.value
        if view.contract is not None
        else f"козырь {view.trump.symbol if view.trump else '?'}"
    )
    trick = " ".join(c.ru for _, c in view.trick)
    return f"[{where}] {trick + ' → ' if trick else 'ходит '}{action.card.ru}"
