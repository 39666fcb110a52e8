"""Bot players for Кинг: the hard player («мастер») and the entry points of all three levels.

- The normal («любитель») and easy («новичок») players are the rule-based policy of :mod:`engine.king.ai.policy`.
- The hard player runs determinized Monte Carlo search (:mod:`engine.ai.search`) over worlds dealt by
  :mod:`engine.king.ai.worlds` (every hidden card placed consistently with what it has seen). Of the worlds so
  dealt it keeps the ones that explain the others' plays: of up to 32, the first in which the normal policy makes
  every play they made (the strict reading), dealt and read in the kernel (:class:`engine.king.ai.kernel.Screen`,
  which also reads them graded: one kept with odds proportional to how likely the normal policy, made stochastic at
  a temperature, makes their plays there); in the settings kept for the arena, the same strict reading read from
  Python (the previous «мастер», :data:`PREVIOUS`), or one of four kept with odds that fall with each play the normal player
  would not have made there (:data:`BASELINE`). Then it
  plays each candidate followed by a rollout to the end of the deal (:mod:`engine.ai.rollouts`), scoring its
  own deal result. The trump choice is searched the same way over the five unseen cards of its hand. How many
  worlds, and whether its own later moves are searched too inside a rollout, is its :class:`Master` setting:
  :data:`MASTER` for «мастер», :data:`REFERENCE` for the one it is measured against (the arena's and the panel's
  ``baseline``), :data:`BASELINE` for the first release's (played where the compiled kernel is missing).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.search import SearchBudget, SearchResult, pimc, resample
from engine.cards import PIQUET_DECK, Card
from engine.king.actions import ChooseTrump, KingAction, Play
from engine.king.ai import kernel
from engine.king.ai.policy import easy_action, normal_action, played_cards
from engine.king.ai.worlds import Hands, deal_world, infer, sample_world, surprises
from engine.king.rules import CARD_PENALTY, Phase
from engine.king.state import KingView

__all__ = [
    "MASTER",
    "describe",
    "easy_action",
    "hard_action",
    "infer",
    "normal_action",
    "sample_world",
    "surprises",
]

_NO_PENALTY: tuple[int, ...] = (0,) * 52


@dataclass(frozen=True, slots=True)
class Master:
    """How hard the hard player searches: worlds and steps per card play and per trump choice (its work
    budget), and the depth of its own later moves' search inside a rollout (:mod:`engine.ai.rollouts`)."""

    worlds: int
    steps: int
    trump_worlds: int
    trump_steps: int
    depth: int
    candidates: int = 4
    """Consistent worlds dealt, at most, for each world the search keeps once the deal's play has begun."""
    tolerance: float = 0.3
    """The odds of a candidate world per play of the others the normal player would not have made there; 0: the
    first candidate that explains every play is kept (else the first of the fewest surprises). Read in Python,
    candidate by candidate, where ``temperature`` is None (the previous «мастер», kept as :data:`PREVIOUS`)."""
    temperature: float | None = None
    """The reading of the play by :class:`engine.king.ai.kernel.Screen` (every candidate dealt and read in one call
    of the kernel): 0 the strict reading, T > 0 the graded one — a world kept with odds proportional to how likely
    the normal policy made stochastic at temperature T makes the others' plays
    (:func:`engine.king.ai.worlds.play_loglik`). None: ``tolerance``'s reading, in Python."""


BASELINE = Master(worlds=64, steps=12_000, trump_worlds=40, trump_steps=12_000, depth=0)
"""The «мастер» of the first release: rollouts by the normal policy alone."""
PREVIOUS = Master(
    worlds=96, steps=450_000, trump_worlds=384, trump_steps=1_800_000, depth=1, candidates=32, tolerance=0.0
)
"""The previous «мастер» (as of commit 68da0fb), frozen: the strict reading of the play, its candidate worlds dealt and read one by one
from Python (the arena's and the panel's ``baseline`` where the kernel is built: today's is measured against
it)."""
KERNEL_MASTER = Master(
    worlds=96,
    steps=450_000,
    trump_worlds=384,
    trump_steps=1_800_000,
    depth=1,
    candidates=32,
    tolerance=0.0,
    temperature=0.0,
)
"""Today's «мастер», where the compiled kernel plays its rollouts (its figures and the argument for them:
README, «Bot players»): the previous one's strict reading, its candidate worlds dealt and read in the kernel. The graded
reading (a temperature above 0) measured no better on the panel: at T = 1, the best of 0.3, 1, 3 and 10 on 24
games a table, it lost 2.96 a game [−5.06, −0.86] against three «любитель» over 100 games a table on other deals,
and rated +149 [+121, +183] beside the previous one's +148 [+119, +185]."""
GRADED_TEMPERATURE = 1.0
"""The graded reading's temperature fitted on the panel (kept for the arena's measurements, not played)."""
MASTER = KERNEL_MASTER if kernel.BACKEND == "c" else BASELINE
"""The «мастер» of this process: without the kernel, pure Python could not afford today's work in time, and plays
the first release's."""
REFERENCE = PREVIOUS if kernel.BACKEND == "c" else BASELINE
"""The «мастер» today's is measured against in the arena and the panel (``baseline``): the one before it."""


class KingModel:
    """The search model of the hard player: rollouts to the end of the deal, of the master's depth."""

    def __init__(self, view: KingView, master: Master | None = None) -> None:
        self.view = view
        self.player = view.player
        self.master = MASTER if master is None else master
        self.knowledge = infer(view)
        self.has_history = bool(view.tricks_this_deal or view.trick) and view.phase is Phase.PLAY
        self.surprises = kernel.Surprises(view)
        temperature = self.master.temperature
        self.screen = (
            kernel.Screen(view, self.knowledge, self.master.candidates, temperature)
            if temperature is not None and self.has_history and self.master.candidates > 1
            else None
        )

    def sample_world(self, rng: random.Random) -> Hands:
        """A world (its hidden hands) drawn from the view's consistent worlds, kept by how well it explains the
        others' plays so far.

        Up to the master's ``candidates`` consistent worlds are dealt. With a ``temperature``, the kernel deals
        and reads them (:class:`engine.king.ai.kernel.Screen`: at 0 the strict reading below, above 0 one kept
        with odds proportional to its likelihood). Else, in Python: with a ``tolerance``, one of them is kept
        with probability proportional to ``tolerance ** surprises`` (sampling-importance-resampling); with
        none, the first in which the normal policy makes every play the others made is kept, else the first of
        the fewest surprises. Either way the search spends its playouts on the worlds that explain the play.
        """
        count = self.master.candidates
        if not self.has_history or count <= 1:
            return deal_world(self.view, rng, self.knowledge)
        if self.screen is not None:
            return self.screen(rng.getrandbits(64))
        tolerance = self.master.tolerance
        if tolerance > 0:
            pool = [deal_world(self.view, rng, self.knowledge) for _ in range(count)]
            return resample(pool, [tolerance ** self.surprises(w) for w in pool], rng)
        best: Hands | None = None
        fewest = 0
        for _ in range(count):
            world = deal_world(self.view, rng, self.knowledge)
            found = self.surprises(world)
            if best is None or found < fewest:
                best, fewest = world, found
                if found == 0:
                    break
        assert best is not None
        return best

    def evaluate(self, world: Hands, actions: Sequence[KingAction]) -> tuple[list[float], int]:
        return kernel.king_world_values(self.view, world, actions, self.master.depth)


def hard_budget(
    view: KingView,
    *,
    time_ms: float | None = None,
    worlds: int | None = None,
    steps: int | None = None,
    master: Master | None = None,
) -> SearchBudget:
    """The hard player's budget for ``view``: the master's worlds and steps unless given; no time cap unless
    given."""
    master = MASTER if master is None else master
    trump_phase = view.phase is Phase.CHOOSE_TRUMP
    default_worlds, default_steps = (
        (master.trump_worlds, master.trump_steps) if trump_phase else (master.worlds, master.steps)
    )
    return SearchBudget(
        worlds=default_worlds if worlds is None else worlds,
        steps=default_steps if steps is None else steps,
        time_ms=time_ms,
    )


def candidates(view: KingView) -> list[KingAction]:
    """The actions the hard player compares: every trump choice, or one card per run of equal cards."""
    legal = list(view.legal_actions)
    if len(legal) > 1 and view.phase is not Phase.CHOOSE_TRUMP:
        # Cards of equal value: neighbouring ranks of one suit in my hand with nothing between them out.
        legal = _distinct_plays(view, legal)
    return legal


def hard_search(
    view: KingView, rng: random.Random, budget: SearchBudget, master: Master | None = None
) -> tuple[KingAction, SearchResult | None]:
    """The hard player's action, and the search that chose it (None: the choice needed no search)."""
    legal = candidates(view)
    if len(legal) == 1:
        return legal[0], None
    result = pimc(legal, KingModel(view, master), rng, budget)
    action: KingAction = result.action
    return action, result


def hard_action(
    view: KingView,
    rng: random.Random,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
    master: Master | None = None,
) -> KingAction:
    """The hard player's action: ``iterations`` worlds and ``steps`` override the master's, ``budget_ms`` caps
    time."""
    budget = hard_budget(view, time_ms=budget_ms, worlds=iterations, steps=steps, master=master)
    return hard_search(view, rng, budget, master)[0]


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
