"""«🔍 Разбор партии» and «💡 Подсказка» in the engine: a review names the player's own costliest decisions, each
valued by the search from what the player knew; a hint is «мастер»'s own move with what its search found."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.ai import Level, choose_action
from engine.ai.players import advise
from engine.ai.review import ReviewBudget, decisions, review_party
from engine.core import GameRecord, make_game
from engine.king import KingView
from engine.king.ai import players as king_ai
from engine.king.ai.advice import Why as KingWhy
from engine.king.ai.advice import can_change as king_can_change
from engine.konchinka.ai import players as konchinka_ai
from engine.konchinka.ai.advice import Why as KonchinkaWhy

SMALL = ReviewBudget(worlds=6, recheck=4, recheck_worlds=12)


def played_party(game: str, options: dict[str, Any], seats: list[Level], seed: int) -> GameRecord:
    state = make_game(game, options).new_initial_state(seed)
    rngs = [random.Random(seed + i) for i in range(len(seats))]
    while not state.is_terminal:
        p = state.current_player
        state.apply(choose_action(state.view(p), seats[p], rngs[p], iterations=4))
    return state.record()


@pytest.mark.parametrize(
    "game,options,seats",
    [
        ("konchinka", {"players": 2, "target": 3}, [Level.EASY, Level.NORMAL]),
        ("king", {}, [Level.EASY, Level.NORMAL, Level.NORMAL, Level.NORMAL]),
    ],
)
def test_a_review_names_the_players_own_costliest_choices_from_what_they_knew(
    game: str, options: dict[str, Any], seats: list[Level]
) -> None:
    record = played_party(game, options, seats, seed=8)
    review = review_party(record, 0, budget=SMALL)
    assert review == review_party(record, 0, budget=SMALL), "seeded by the record: the same review again"
    found = decisions(record, 0)
    assert review.decisions == len(found) > 10
    made = {d.version: (d.view, d.played) for d in found}
    assert 1 <= len(review.moves) <= 3
    gains = [v.gain for v in review.moves]
    assert all(g > 0 for g in gains) and gains == sorted(gains, reverse=True)
    for verdict in review.moves:
        view, action = made[verdict.version]
        assert verdict.view == view and verdict.played == action, "the player's own move, from their view"
        assert verdict.view.player == 0
        assert verdict.better in view.legal_actions and verdict.better != verdict.played


def test_a_hint_is_the_masters_own_move_with_what_its_search_expects() -> None:
    checked = searched = forced = 0
    for game, options in (("konchinka", {"players": 2}), ("king", {})):
        state = make_game(game, options).new_initial_state(12)
        rng = random.Random(3)
        step = 0
        while not state.is_terminal and step < 90:
            view = state.view(state.current_player)
            if step % 9 == 0 and len(view.legal_actions) > 1:
                advice = advise(view, random.Random(step))
                assert advice.action == choose_action(view, Level.HARD, random.Random(step))
                assert isinstance(advice.why, KingWhy if isinstance(view, KingView) else KonchinkaWhy)
                module: Any = king_ai if isinstance(view, KingView) else konchinka_ai
                if len(module.candidates(view)) > 1:
                    assert advice.value is not None and advice.runner_up is not None
                    assert abs(advice.value) < 200 and abs(advice.runner_up) < 200  # points of one deal
                    if isinstance(view, KingView):  # the player's own points, within what can still change
                        most = king_can_change(view)
                        assert advice.gain is not None and 0.0 <= advice.gain <= most == advice.most
                    else:  # an edge over the others: no figure
                        assert advice.most is None and advice.gain is None
                    searched += 1
                checked += 1
            elif len(view.legal_actions) == 1:
                advice = advise(view, random.Random(step))
                assert advice.why == "only" and advice.gain is None, (
                    "a forced move is said to be the only one"
                )
                forced += 1
            state.apply(choose_action(view, Level.NORMAL, rng))
            step += 1
    assert checked >= 10 and searched >= 5 and forced >= 1
