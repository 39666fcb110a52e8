"""«🔍 Разбор партии»: the moves of one player where «мастер» would have gained most.

The party is replayed from its record. At every decision of the player that offered a choice, the player's view
then (what they knew, nothing more) is searched as «мастер» searches it (:mod:`engine.ai.search`, the rollouts
of today's «мастер» of the game), with the move actually made among the candidates and no candidate
dropped early, so every candidate is valued on the same sampled worlds. A move's *gain* is what the best
candidate is worth beyond the move made, in expected points of the deal (as the game's search values a
deal). The decisions with
the largest gains are searched again with more worlds (and other ones), and the top three after that are the
review. Everything is seeded by the record: the same party gives the same review in any process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai.players import players_for
from engine.ai.search import SearchBudget, pimc
from engine.core import GameRecord, Player, make_game

NO_PRUNING = 1 << 30
"""A ``prune_after`` no search reaches: every candidate meets every world."""


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """Worlds per decision in the first pass over the whole party, how many decisions are searched again, and
    the worlds of that second pass."""

    worlds: int
    recheck: int
    recheck_worlds: int


REVIEW_BUDGET = ReviewBudget(worlds=24, recheck=8, recheck_worlds=128)
"""With the compiled kernel: about a second for a whole party of 15 deals on one core."""
PURE_PYTHON_BUDGET = ReviewBudget(worlds=8, recheck=5, recheck_worlds=32)
"""Without it (the game's players' ``backend`` ``"python"``): a few seconds, with a rougher first pass."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision of the review: the player's view then, the move made and the one «мастер» prefers."""

    version: int
    """The number of actions played before this decision (its place in the party)."""
    view: Any
    """The player's view then (the game's own view type)."""
    played: object
    better: object
    played_value: float
    better_value: float
    """Expected points of each move, as the search values them."""

    @property
    def gain(self) -> float:
        """What the better move is worth beyond the move made, in expected points."""
        return self.better_value - self.played_value


@dataclass(frozen=True, slots=True)
class Review:
    player: Player
    decisions: int
    """The player's decisions that offered a choice (every one was weighed)."""
    moves: tuple[Verdict, ...]
    """The decisions where «мастер» would have gained most, the largest gain first (only gains above zero)."""


def _code(action: object) -> str:
    return str(getattr(action, "code", action))


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of the player that offered a choice: its place in the party, their view then, the move made."""

    version: int
    view: Any
    played: object


def _search(decision: Decision, seed: str, worlds: int) -> Verdict | None:
    """The decision valued on ``worlds`` worlds; None if the move made had no alternative."""
    view, played = decision.view, decision.played
    found, model = players_for(view).review_search(view)
    candidates = list(found)
    if played not in candidates:
        candidates.append(played)
    if len(candidates) < 2:
        return None
    budget = SearchBudget(worlds=worlds, steps=None, prune_after=NO_PRUNING)
    result = pimc(candidates, model, random.Random(seed), budget)
    best = max(range(len(candidates)), key=lambda i: (result.means[_code(candidates[i])], -i))
    return Verdict(
        version=decision.version,
        view=view,
        played=played,
        better=candidates[best],
        played_value=result.means[_code(played)],
        better_value=result.means[_code(candidates[best])],
    )


def decisions(record: GameRecord, player: Player) -> list[Decision]:
    """Every decision of ``player`` in the party of ``record`` that offered a choice."""
    game = make_game(record.game, record.options)
    state = game.new_initial_state(record.seed)
    out: list[Decision] = []
    for code in record.actions:
        action = game.parse_action(code)
        if state.current_player == player and len(state.legal_actions()) > 1:
            out.append(Decision(state.version, state.view(player), action))
        state.apply(action)
    return out


def review_party(
    record: GameRecord, player: Player, *, top: int = 3, budget: ReviewBudget | None = None
) -> Review:
    """The ``top`` moves of ``player`` in the party of ``record`` where «мастер» would have gained most."""
    found = decisions(record, player)
    if budget is None:
        compiled = all(players_for(d.view).backend == "c" for d in found)
        budget = REVIEW_BUDGET if compiled else PURE_PYTHON_BUDGET
    first: list[Verdict] = []
    for decision in found:
        seed = f"{record.seed}/review/{decision.version}"
        verdict = _search(decision, seed, budget.worlds)
        if verdict is not None and verdict.gain > 0.0:
            first.append(verdict)
    first.sort(key=lambda v: (-v.gain, v.version))
    second: list[Verdict] = []
    for verdict in first[: budget.recheck]:
        seed = f"{record.seed}/review/{verdict.version}/again"
        again = _search(Decision(verdict.version, verdict.view, verdict.played), seed, budget.recheck_worlds)
        if again is not None and again.gain > 0.0:
            second.append(again)
    second.sort(key=lambda v: (-v.gain, v.version))
    return Review(player=player, decisions=len(found), moves=tuple(second[:top]))


def gains(review: Review) -> Sequence[float]:
    """The gains of the reviewed moves, in order (for reports and tests)."""
    return [v.gain for v in review.moves]
