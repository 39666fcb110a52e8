"""A game defined outside engine/ (the toy in tests/games/engine/highcard) is found in its place like the
project's own games, registers itself and is played by the conformance test, with nothing added anywhere else.
(Placed in engine/ by scripts/with_toy_game.sh, it is found there: tests/toy_game.py says where it is.)"""

from __future__ import annotations

import random

from engine.core import PLACES, add_place, games, make_game, replay
from tests.engine.test_conformance import (
    test_a_random_playout_keeps_every_promise as keeps_every_promise,  # as itself, pytest would run it here too
)
from tests.toy_game import ENGINE_PLACE, TOY, HighCardState, Play


def test_the_toy_is_found_in_its_place_and_keeps_every_promise_of_a_game() -> None:
    add_place(ENGINE_PLACE)
    assert PLACES[0] == "engine" and ENGINE_PLACE in PLACES
    assert TOY in games()
    for seed in range(20):
        keeps_every_promise(TOY, {}, seed)


def test_the_higher_card_takes_the_trick_and_leads_and_two_tricks_win() -> None:
    state = make_game(TOY).new_initial_state(3)
    assert isinstance(state, HighCardState)
    low = min(state.hands[0], key=lambda c: c.rank)
    high = max(state.hands[1], key=lambda c: c.rank)
    state.apply(Play(low))
    state.apply(Play(high))
    taker = 1 if high.rank > low.rank else 0
    assert state.view(0).tricks[taker] == 1 and state.current_player == taker
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    outcome = state.outcome
    assert outcome is not None and outcome.scores[outcome.winners[0]] == 2 and sum(outcome.settlement) == 0
    assert replay(state.record()).outcome == outcome
    assert Play.parse(Play(high).code) == Play(high)
