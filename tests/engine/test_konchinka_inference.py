"""Кончинка's hard player reads the others' plays of the round: the round's beginning rebuilt from a view, the
surprises of a world (the normal player's policy replayed there), the kernel's replay against Python's, and the
worlds the search keeps."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import make_game
from engine.konchinka import KonchinkaState
from engine.konchinka.ai import kernel, players
from engine.konchinka.ai.policy import normal_action
from engine.konchinka.ai.worlds import RoundStart, deal_unseen, round_start, start_state, surprises_in
from engine.konchinka.views import KonchinkaView
from tests.engine.test_kernel_built import require_kernels

OPTIONS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3},
    {"players": 4, "multi_capture": True},
    {"players": 2, "variant": "points", "forced_capture": True},
)


def positions(
    options: dict[str, Any], seeds: range
) -> Iterator[tuple[KonchinkaState, KonchinkaState, KonchinkaView]]:
    """(the state as the round began, the state now, the view of the seat to move) wherever another seat has
    played in the round, over parties of the normal player."""
    game = make_game("konchinka", options)
    for seed in seeds:
        state = game.new_initial_state(seed)
        assert isinstance(state, KonchinkaState)
        began = state.clone()
        while not state.is_terminal:
            if all(len(hand) == 4 for hand in state.hands):
                began = state.clone()
            view = state.view(state.current_player)
            if round_start(view) is not None:
                yield began, state, view
            state.apply(normal_action(view))


def true_world(state: KonchinkaState, view: KonchinkaView) -> tuple[dict[int, list[Any]], list[Any]]:
    return {p: list(h) for p, h in enumerate(state.hands) if p != view.player}, list(state.deck)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_the_round_start_is_rebuilt_from_the_view_and_the_true_world_holds_no_surprise(
    options: dict[str, Any],
) -> None:
    counts = [0, 0]
    for began, state, view in positions(options, range(4)):
        start = round_start(view)
        assert start is not None
        hands, deck = true_world(state, view)
        rebuilt = start_state(view, start, hands, deck)
        assert [sorted(h) for h in rebuilt.hands] == [sorted(h) for h in began.hands]
        assert sorted(rebuilt.table) == sorted(began.table) and rebuilt.piles == began.piles
        assert rebuilt.current_player == began.current_player and rebuilt.deck == began.deck
        # The others played the normal policy: in the world as it is, their plays surprise at most where two
        # captures tie and the table's order (where a card taken this round lay, which no view keeps) decides.
        found = surprises_in(view, start, hands, deck)
        assert found <= 1
        counts[found] += 1
    assert sum(counts) > 300 and counts[1] <= 0.01 * sum(counts), counts


def test_nothing_is_read_before_another_seat_has_played_in_the_round() -> None:
    game = make_game("konchinka", {"players": 2})
    state = game.new_initial_state(7)
    assert round_start(state.view(state.current_player)) is None  # the deal's first play
    state.apply(normal_action(state.view(state.current_player)))
    assert round_start(state.view(state.current_player)) is not None


def test_worlds_dealt_at_random_often_explain_the_plays_worse() -> None:
    rng = random.Random(3)
    counts = [0, 0]
    for _, _, view in positions({"players": 2}, range(3)):
        start = round_start(view)
        assert start is not None
        for _ in range(4):
            hands, deck = deal_unseen(view, rng)
            counts[surprises_in(view, start, hands, deck) > 0] += 1
    assert counts[1] > 0.2 * sum(counts), counts  # about two in five of them, in 2-player parties


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_the_kernels_replay_of_the_round_is_pythons(options: dict[str, Any]) -> None:
    require_kernels()
    rng = random.Random(11)
    compared = 0
    for _, state, view in positions(options, range(2)):
        start = round_start(view)
        assert start is not None
        worlds = [true_world(state, view), deal_unseen(view, rng), deal_unseen(view, rng)]
        replay = kernel.RoundReplay(view, start)
        for hands, deck in worlds:
            assert replay.encode(hands, deck) == kernel.encode_konchinka(
                start_state(view, start, hands, deck)
            )
            assert replay.surprises(hands, deck) == surprises_in(view, start, hands, deck)
            compared += 1
    assert compared > 100


def test_the_master_keeps_the_worlds_that_explain_the_round() -> None:
    """With the master's inference, the worlds it searches surprise far less often than worlds dealt at random."""
    master = players.KERNEL_MASTER
    assert master.dealt > 1 and master.tolerance < 1
    rng = random.Random(5)
    kept = dealt = 0
    tried = 0
    for _, _, view in positions({"players": 2}, range(2)):
        start = round_start(view)
        assert isinstance(start, RoundStart)
        model = players.KonchinkaModel(view, master)
        for _ in range(3):
            world = model.sample_world(rng)
            assert isinstance(world, KonchinkaState)
            hands = {p: list(h) for p, h in enumerate(world.hands) if p != view.player}
            kept += surprises_in(view, start, hands, list(world.deck)) > 0
            random_hands, random_deck = deal_unseen(view, rng)
            dealt += surprises_in(view, start, random_hands, random_deck) > 0
            tried += 1
    assert tried > 100 and kept < dealt / 3, (kept, dealt, tried)
