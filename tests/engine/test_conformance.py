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

A game added to the registry must add its entry to ``CASES`` (its option sets and how to re-deal its hidden
cards); the first test fails until it does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from engine.cards import Card
from engine.core import GAMES, GameRecord, IllegalActionError, State, make_game, replay
from engine.king import KingState, Phase
from engine.konchinka import KonchinkaState

Redeal = Callable[[Any, int, random.Random], Any]
"""(state, player, rng) -> another state that ``player`` cannot tell apart from it, or None if none is built."""


def redeal_konchinka(state: KonchinkaState, player: int, rng: random.Random) -> KonchinkaState | None:
    hidden = [c for seat, hand in enumerate(state.hands) if seat != player for c in hand] + list(state.deck)
    rng.shuffle(hidden)
    hands: dict[int, list[Card]] = {}
    for seat, hand in enumerate(state.hands):
        if seat != player:
            hands[seat], hidden = hidden[: len(hand)], hidden[len(hand) :]
    return KonchinkaState.from_view(state.view(player), hands, hidden)


def redeal_king(state: KingState, player: int, rng: random.Random) -> KingState | None:
    if state.phase is not Phase.PLAY:
        return None  # before trump is named the chooser's cards come in dealt order; the play phase suffices
    hidden = [c for seat, hand in enumerate(state.hands) if seat != player for c in hand]
    rng.shuffle(hidden)
    hands: dict[int, list[Card]] = {}
    for seat, hand in enumerate(state.hands):
        if seat != player:
            hands[seat], hidden = hidden[: len(hand)], hidden[len(hand) :]
    return KingState.from_view(state.view(player), hands)


@dataclass(frozen=True)
class Case:
    options: tuple[dict[str, Any], ...]
    redeal: Redeal
    parties: int


CASES: dict[str, Case] = {
    "konchinka": Case(
        options=(
            {"players": 2, "target": 2},
            {"players": 3, "variant": "points", "multi_capture": True, "target": 3},
            {"players": 4, "forced_capture": True, "early_finish": False, "target": 2},
        ),
        redeal=redeal_konchinka,
        parties=4,
    ),
    "king": Case(options=({},), redeal=redeal_king, parties=2),
}


MADE_UP_CODES = ("", "zz", "t:x", "t:h", "f", "l:", "l:Td", "c:Td>", "As", "7c", "\u2660", "c:9h>4s5s")


def test_every_registered_game_has_a_conformance_case() -> None:
    assert set(GAMES) == set(CASES)


def snapshot(state: State) -> tuple[object, ...]:
    """Everything observable of a state: its record, whose turn, and every seat's view."""
    players = state.game.num_players
    return (state.record(), state.current_player, state.version, tuple(state.view(p) for p in range(players)))


def parties() -> Iterator[tuple[str, dict[str, Any], int]]:
    for name, case in CASES.items():
        for options in case.options:
            for seed in range(case.parties):
                yield name, options, seed


@pytest.mark.parametrize(("name", "options", "seed"), list(parties()))
def test_a_random_playout_keeps_every_promise(name: str, options: dict[str, Any], seed: int) -> None:
    case = CASES[name]
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

        if moves % 7 == 0:
            world = case.redeal(state, (player + moves) % game.num_players, rng)
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
