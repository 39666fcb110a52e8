"""Кончинка's «мастер» reads the round's play to choose among candidate worlds: the kernel replays the round for a
world in one call (``konchinka_surprises``), and must count the very surprises the replay a step a call counts
(and the Python replay, its oracle), on many worlds of many positions."""

from __future__ import annotations

import random

from engine.core import make_game
from engine.konchinka.ai.players import KERNEL_MASTER, KonchinkaModel
from engine.konchinka.ai.policy import easy_action
from engine.konchinka.ai.worlds import deal_hands, rest_of, surprises_in
from engine.konchinka.state import KonchinkaState
from tests.engine.test_kernel_built import require_kernels


def test_the_one_call_replay_counts_what_the_stepwise_and_python_replays_count() -> None:
    require_kernels()
    rng = random.Random(53)
    compared = surprising = 0
    for options in ({"players": 2}, {"players": 3}, {"players": 4, "multi_capture": True}):
        for party in range(2):
            state = make_game("konchinka", options).new_initial_state(700 + party)
            assert isinstance(state, KonchinkaState)
            while not state.is_terminal and compared < 400 * (1 + party):
                view = state.view(state.current_player)
                model = KonchinkaModel(view, KERNEL_MASTER)
                replay = model.replay
                if replay is not None and rng.random() < 0.3:
                    for _ in range(4):
                        hands = deal_hands(view, model.unseen, rng)
                        deck = rest_of(model.unseen, hands)[: view.deck_size]
                        found = replay.surprises(hands, deck)
                        assert found == replay.surprises_stepwise(hands, deck)
                        assert found == surprises_in(view, replay.start, hands, deck)
                        compared += 1
                        surprising += found > 0
                legal = view.legal_actions
                state.apply(easy_action(view, rng) if len(legal) > 1 else legal[0])
    assert compared >= 300
    assert 0 < surprising < compared
