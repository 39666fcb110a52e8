"""The hard player's budget is work (worlds, playout steps), not time: a busy machine changes no decision."""

from __future__ import annotations

import random
import time
from typing import Any

from engine.ai.search import SearchBudget, SearchResult, pimc
from engine.king import Phase
from engine.king.ai import players as king_ai
from tests.engine.test_ai import positions


def _searched_king_view() -> Any:
    for state in positions("king", {}, seed=4, every=3):
        view = state.view(state.current_player)
        if view.phase is Phase.PLAY and len(king_ai._distinct_plays(view, view.legal_actions)) > 2:
            return view
    raise AssertionError("no King position with a real choice")


class _CrawlingClock:
    """A clock on which every reading is a whole second later: a machine far too busy for any time budget."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def _search(view: Any, budget: SearchBudget, clock: Any = time.perf_counter) -> SearchResult:
    legal = king_ai._distinct_plays(view, view.legal_actions)
    return pimc(legal, king_ai.KingModel(view), random.Random(5), budget, clock=clock)


def test_the_hard_budget_is_work_so_a_slow_clock_changes_nothing() -> None:
    view = _searched_king_view()
    budget = king_ai.hard_budget(view)
    assert budget.time_ms is None
    idle = _search(view, budget)
    busy = _search(view, budget, clock=_CrawlingClock())
    assert (busy.action, busy.worlds, busy.steps, busy.means) == (
        idle.action,
        idle.worlds,
        idle.steps,
        idle.means,
    )
    assert idle.worlds > 1 and idle.stopped_by != "time"


def test_the_step_cap_ends_the_search_between_whole_worlds() -> None:
    view = _searched_king_view()
    full = _search(view, SearchBudget(worlds=64))
    capped = _search(view, SearchBudget(worlds=64, steps=full.steps // 4))
    assert capped.stopped_by == "steps"
    assert full.steps // 4 <= capped.steps < full.steps
    assert 1 <= capped.worlds < full.worlds
    again = _search(view, SearchBudget(worlds=64, steps=full.steps // 4))
    assert (again.action, again.steps, again.worlds) == (capped.action, capped.steps, capped.worlds)


def test_an_optional_wall_clock_cap_still_works_as_a_safety_net() -> None:
    view = _searched_king_view()
    capped = _search(view, SearchBudget(worlds=64, time_ms=500.0), clock=_CrawlingClock())
    assert capped.stopped_by == "time"
    assert capped.worlds == 1
    assert capped.action in view.legal_actions
