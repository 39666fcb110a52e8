"""Bot players for Кончинка: the hard player («мастер») and the entry points of all three levels.

- The normal («любитель») and easy («новичок») players are the rule-based policy of
  :mod:`engine.konchinka.ai.policy`.
- The hard player searches (:mod:`engine.ai.search`): it samples the unseen cards into the other hands and the
  deck (of a few worlds so dealt, one is kept with odds that fall with each play of this round a normal player
  would not have made there: :mod:`engine.konchinka.ai.worlds`), plays each of its best candidates (by the
  normal player's score) and then a rollout (:mod:`engine.ai.rollouts`) for a few plies or to the end of the
  deal, and scores the result as its expected deal points minus the others'
  (:func:`engine.konchinka.ai.policy.value`), with a bonus or malus when the party itself ended. How many
  worlds, how far, and whether its own later moves are searched too is its :class:`Master` setting:
  :data:`MASTER` for «мастер», :data:`BASELINE` for the earlier one (kept for the arena, and played where the
  compiled kernel is missing: it costs a twentieth of the work).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.search import SearchBudget, SearchResult, pimc, resample
from engine.core import State
from engine.konchinka.actions import Capture, Finish, KonchinkaAction, Lay, ends_party
from engine.konchinka.ai import kernel
from engine.konchinka.ai.policy import easy_action, normal_action, position_from_view, score_actions
from engine.konchinka.ai.worlds import deal_hands, deal_unseen, rest_of, round_start, unseen_cards
from engine.konchinka.state import KonchinkaState
from engine.konchinka.views import KonchinkaView

__all__ = ["MASTER", "describe", "easy_action", "hard_action", "normal_action", "sample_world"]


@dataclass(frozen=True, slots=True)
class Master:
    """How hard the hard player searches: worlds and steps per decision (its work budget), the plies a
    rollout runs past the candidate (None: to the end of the deal), the depth of its own later moves' search
    inside a rollout, and how many of its best-scored actions it compares."""

    worlds: int
    steps: int
    plies: int | None
    depth: int
    candidates: int
    dealt: int = 1
    """Worlds dealt for each world searched: the one kept is drawn with odds of ``tolerance`` to the power of
    its surprises (:mod:`engine.konchinka.ai.worlds`); 1: every world dealt is searched."""
    tolerance: float = 1.0


BASELINE = Master(worlds=64, steps=12_000, plies=8, depth=0, candidates=6)
"""The «мастер» of the first release: short rollouts by the normal policy, in worlds dealt at random."""
KERNEL_MASTER = Master(worlds=96, steps=300_000, plies=8, depth=3, candidates=6, dealt=16, tolerance=0.03)
"""Today's «мастер», where the compiled kernel plays its rollouts (its figures and the argument for them:
README, «Bot players»)."""
MASTER = KERNEL_MASTER if kernel.BACKEND == "c" else BASELINE
"""The «мастер» of this process: without the kernel, pure Python could not afford today's work in time, and plays
the first release's."""


def sample_world(view: KonchinkaView, rng: random.Random) -> KonchinkaState:
    """A full state consistent with ``view``: the unseen cards dealt at random into the other hands and deck."""
    hands, deck = deal_unseen(view, rng)
    return KonchinkaState.from_view(view, hands, deck, seed=rng.getrandbits(32))


class KonchinkaModel:
    """The hard player's search model: rollouts of the master's plies and depth, scored in deal points."""

    def __init__(self, view: KonchinkaView, master: Master | None = None) -> None:
        self.view = view
        self.player = view.player
        self.master = MASTER if master is None else master
        start = round_start(view) if self.master.dealt > 1 else None
        self.replay = kernel.RoundReplay(view, start) if start is not None else None
        self.unseen = unseen_cards(view) if self.replay is not None else []
        """The cards candidate worlds are dealt from (only where the round is read)."""

    def sample_world(self, rng: random.Random) -> State:
        """A world consistent with the view; where others have played this round, one of the master's
        ``dealt`` worlds, drawn by how well it explains their plays."""
        replay = self.replay
        if replay is None:
            return sample_world(self.view, rng)
        view, unseen = self.view, self.unseen
        dealt = (deal_hands(view, unseen, rng) for _ in range(self.master.dealt))
        pool = [(hands, rest_of(unseen, hands)) for hands in dealt]
        size = view.deck_size
        weights = [self.master.tolerance ** replay.surprises(hands, rest[:size]) for hands, rest in pool]
        hands, deck = resample(pool, weights, rng)
        rng.shuffle(deck)
        return KonchinkaState.from_view(view, hands, deck[:size], seed=rng.getrandbits(32))

    def evaluate(self, world: State, actions: Sequence[KonchinkaAction]) -> tuple[list[float], int]:
        assert isinstance(world, KonchinkaState)
        return kernel.konchinka_values(world, self.player, actions, self.master.plies, self.master.depth)


def hard_budget(
    view: KonchinkaView,
    *,
    time_ms: float | None = None,
    worlds: int | None = None,
    steps: int | None = None,
    master: Master | None = None,
) -> SearchBudget:
    """The hard player's budget: the master's worlds and steps unless given; no time cap unless given."""
    master = MASTER if master is None else master
    return SearchBudget(
        worlds=master.worlds if worlds is None else worlds,
        steps=master.steps if steps is None else steps,
        time_ms=time_ms,
    )


def candidates(view: KonchinkaView, master: Master | None = None) -> list[KonchinkaAction]:
    """The actions the hard player compares: its best by the normal player's score (a finish alone)."""
    master = MASTER if master is None else master
    actions = list(view.legal_actions)
    for a in actions:
        if ends_party(a):
            return [a]
    if len(actions) == 1:
        return actions
    scores = score_actions(position_from_view(view), actions)
    order = sorted(range(len(actions)), key=lambda i: (-scores[i], i))[: master.candidates]
    return [actions[i] for i in order]


def hard_search(
    view: KonchinkaView, rng: random.Random, budget: SearchBudget, master: Master | None = None
) -> tuple[KonchinkaAction, SearchResult | None]:
    """The hard player's action, and the search that chose it (None: the choice needed no search)."""
    found = candidates(view, master)
    if len(found) == 1:
        return found[0], None
    result = pimc(found, KonchinkaModel(view, master), rng, budget)
    action: KonchinkaAction = result.action
    return action, result


def hard_action(
    view: KonchinkaView,
    rng: random.Random,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
    master: Master | None = None,
) -> KonchinkaAction:
    """The hard player's action: ``iterations`` worlds and ``steps`` override the master's, ``budget_ms``
    caps time."""
    budget = hard_budget(view, time_ms=budget_ms, worlds=iterations, steps=steps, master=master)
    return hard_search(view, rng, budget, master)[0]


def describe(view: KonchinkaView, action: KonchinkaAction) -> str:
    table = " ".join(c.ru for c in view.table) or "—"
    if isinstance(action, Finish):
        return "прикончил!"
    if isinstance(action, Lay):
        return f"стол [{table}]: кладёт {action.card.ru}"
    assert isinstance(action, Capture)
    taken = " ".join(c.ru for c in action.taken)
    finish = " и приканчивает!" if action.finish else ""
    return f"стол [{table}]: берёт {taken} картой {action.card.ru}{finish}"
