"""One conformance test for every registered game (the OpenSpiel way).

Each game in ``engine.core.GAMES`` is played through its public protocol only — ``new_initial_state``,
``legal_actions``, ``apply``, ``clone``, ``view``, ``record`` and ``replay`` — and must keep the promises every
game makes to the bot:

- a random playout reaches the end; until then someone is to move and has a legal action; the version counts
  the actions; the outcome settles to zero;
- every legal action applies (to a clone), and its code parses back to an equal action;
- a refused action (a legal action of another seat or another moment, or a made-up code) raises
  ``IllegalActionError`` and leaves the state exactly as it was;
- a clone is independent of its original, both ways;
- the record survives JSON and replays to the same state;
- a player's view depends only on what that player may know: re-dealing every card hidden from them (other
  hands, the stock) gives a world in which their view is the same.

Each game registers with its own option sets (``examples``) and how to deal anew the cards a player cannot see
(``redeal``); a game that registers (a test's toy game too) is tested with nothing added here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Final

import pytest

from engine.core import GameRecord, IllegalActionError, State, games, make_game, replay

SEEDS: Final = 3
"""Parties played for each of a game's example option sets."""


MADE_UP_CODES = ("", "zz", "t:x", "t:h", "f", "l:", "l:Td", "c:Td>", "As", "7c", "\u2660", "c:9h>4s5s")


def snapshot(state: State) -> tuple[object, ...]:
    """Everything observable of a state: its record, whose turn, and every seat's view."""
    players = state.game.num_players
    return (state.record(), state.current_player, state.version, tuple(state.view(p) for p in range(players)))


def parties() -> Iterator[tuple[str, dict[str, Any], int]]:
    for name, entry in games().items():
        for options in entry.examples:
            for seed in range(SEEDS):
                yield name, dict(options), seed


@pytest.mark.parametrize(("name", "options", "seed"), list(parties()))
def test_a_random_playout_keeps_every_promise(name: str, options: dict[str, Any], seed: int) -> None:
    redeal = games()[name].redeal
    game = make_game(name, options)
    rng = random.Random(f"{name}/{seed}")
    state = game.new_initial_state(seed)
    seen_actions: list[Any] = []
    moves = 0
    while not state.is_terminal:
        player = state.current_player
        assert 0 <= player < game.num_players
        actions = list(state.legal_actions())
        assert actions, "someone is to move, so something is legal"
        assert state.view(player).legal_actions == tuple(actions)

        for action in actions:
            assert game.parse_action(action.code) == action
            trial = state.clone()
            trial.apply(action)
            assert trial.version == state.version + 1

        before = snapshot(state)
        refused = [a for a in seen_actions[-6:] if a not in actions]
        code = rng.choice(MADE_UP_CODES)
        try:
            made_up = game.parse_action(code)
        except IllegalActionError:
            pass  # refused as malformed before it reaches the state
        else:
            if made_up not in actions:
                refused.append(made_up)
        for attempt in refused:
            with pytest.raises(IllegalActionError):
                state.apply(attempt)
            assert snapshot(state) == before, f"a refused {attempt!r} changed the state"

        if moves % 7 == 0 and redeal is not None:
            world = redeal(state, (player + moves) % game.num_players, rng)
            if world is not None:
                viewer = (player + moves) % game.num_players
                assert world.view(viewer) == state.view(viewer)
                assert world.current_player == state.current_player

        if moves % 11 == 0:
            twin = state.clone()
            twin.apply(actions[-1])
            assert snapshot(state) == before, "applying to a clone changed its original"
            state.apply(actions[0])
            assert twin.version == state.version
            if actions[0] != actions[-1]:
                assert twin.record() != state.record(), "applying to the original changed its clone"
        else:
            state.apply(rng.choice(actions))
        seen_actions.extend(actions)
        moves += 1

    assert state.version == moves == len(state.history)
    assert state.current_player == -1
    assert list(state.legal_actions()) == []
    outcome = state.outcome
    assert outcome is not None
    assert len(outcome.scores) == len(outcome.settlement) == game.num_players
    assert sum(outcome.settlement) == 0
    assert set(outcome.winners) <= set(range(game.num_players)) and outcome.winners

    record = GameRecord.from_json(state.record().to_json())
    assert record == state.record()
    assert snapshot(replay(record)) == snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(seen_actions[-1])
