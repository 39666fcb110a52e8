"""The fast Кончинка engine against the straightforward one, move by move.

The oracle (``tests.engine.konchinka_baseline``) finds captures by trying every subset of the table and caches
nothing. Seeded random parties under many option sets are played by both in lockstep: at every move both offer
the same actions, a made-up action is accepted by both or refused by both for the same reason, states rebuilt
from a player's view and clones enumerate like the original, and the parties end with the same scores. Hand-built
positions with big tables exercise the fast engine's value-pattern enumeration. A failure names the option set,
the move and the action that differ.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from engine.cards import FULL_DECK, Card
from engine.core import GameRecord, IllegalActionError, replay
from engine.konchinka import (
    Capture,
    Finish,
    KonchinkaAction,
    KonchinkaGame,
    KonchinkaOptions,
    KonchinkaState,
    Lay,
    Settlement,
    Variant,
)
from tests.engine.konchinka_baseline import BaselineKonchinkaGame, BaselineKonchinkaState

OPTION_SETS: tuple[KonchinkaOptions, ...] = (
    KonchinkaOptions(players=2),
    KonchinkaOptions(players=3),
    KonchinkaOptions(players=4),
    KonchinkaOptions(players=2, variant=Variant.POINTS),
    KonchinkaOptions(players=3, variant=Variant.POINTS, multi_capture=True),
    KonchinkaOptions(players=2, multi_capture=True, target=5),
    KonchinkaOptions(players=4, forced_capture=True, target=5),
    KonchinkaOptions(players=2, variant=Variant.POINTS, forced_capture=True, multi_capture=True, target=4),
    KonchinkaOptions(players=3, early_finish=False, settlement=Settlement.STAKE, stake=3, target=4),
    KonchinkaOptions(players=2, target=1),
)


ORACLE_MAX_TABLE = 16
"""Brute force tries every subset of the table: past this size it takes seconds a position."""


def random_attempt(state: KonchinkaState, rng: random.Random) -> Lay | Capture | Finish:
    """A made-up action, usually illegal: a foreign lay, a random capture split, or a finish."""
    roll = rng.random()
    hand = state.hands[state.current_player]
    if roll < 0.15:
        return Finish()
    if roll < 0.3 or not state.table:
        return Lay(rng.choice(FULL_DECK))
    card = rng.choice(hand) if rng.random() < 0.9 else rng.choice(FULL_DECK)
    pool = list(state.table) + ([rng.choice(FULL_DECK)] if rng.random() < 0.1 else [])
    taken = rng.sample(pool, rng.randint(1, min(4, len(pool))))
    if rng.random() < 0.05:
        taken.append(taken[0])
    groups: list[tuple[Card, ...]] = []
    while taken:
        size = rng.randint(1, len(taken))
        groups.append(tuple(sorted(taken[:size], key=lambda c: c.index)))
        del taken[:size]
    if rng.random() < 0.05:
        groups.append(())
    return Capture(card, tuple(groups))


Attempt = tuple[str, object]
"""What became of an action: ("refused", reason and params) or ("accepted", the acting seat's new view)."""


def attempt(state: KonchinkaState, action: Lay | Capture | Finish) -> Attempt:
    """Apply ``action`` to a clone of ``state``: its refusal, or the public state it leads to."""
    other = state.clone()
    try:
        other.apply(action)
    except IllegalActionError as exc:
        return "refused", (exc.reason, sorted(exc.params.items()))
    view = other.view(max(other.current_player, 0))
    # the two engines may offer the next player's actions in different orders
    return "accepted", (dataclasses.replace(view, legal_actions=()), codes(view.legal_actions), other.piles)


def codes(actions: Sequence[KonchinkaAction]) -> list[str]:
    return sorted(a.code for a in actions)


@pytest.mark.parametrize("number", range(len(OPTION_SETS)))
def test_both_engines_play_the_same_parties(number: int) -> None:
    options = OPTION_SETS[number]
    for seed in range(2):
        rng = random.Random(number * 1000 + seed)
        fast = KonchinkaGame(options).new_initial_state(seed)
        slow = BaselineKonchinkaGame(options).new_initial_state(seed)
        while not fast.is_terminal:
            where = f"{options}, seed {seed}, move {fast.version}"
            actions = fast.legal_actions()
            assert codes(actions) == codes(slow.legal_actions()), where
            assert fast.view(fast.current_player) == dataclasses.replace(
                slow.view(slow.current_player), legal_actions=actions
            ), where
            if fast.version % 3 == 0:
                made_up = random_attempt(fast, rng)
                assert attempt(fast, made_up) == attempt(slow, made_up), f"{where}: {made_up!r}"
            if fast.version % 11 == 0:
                view = fast.view(fast.current_player)
                world = KonchinkaState.from_view(view, dict(enumerate(fast.hands)), fast.deck, seed=seed)
                assert world.legal_actions() == actions, where
                assert world.view(fast.current_player) == view, where
            if fast.version % 13 == 0:
                fast = fast.clone()
                assert fast.legal_actions() == actions, where
            action = rng.choice(actions)
            if rng.random() < 0.3:
                action = fast.game.parse_action(action.code)  # a fresh object: apply validates it
            fast.apply(action)
            slow.apply(action)
        assert slow.is_terminal
        assert attempt(fast, Finish())[0] == "refused"
        assert (fast.outcome, fast.tally, fast.deal_scores, fast.events, fast.totals, fast.piles) == (
            slow.outcome,
            slow.tally,
            slow.deal_scores,
            slow.events,
            slow.totals,
            slow.piles,
        )
        again = replay(GameRecord.from_json(fast.record().to_json()))
        assert again.view(0) == fast.view(0)


def taken_key(action: KonchinkaAction) -> tuple[str, frozenset[Card]]:
    if isinstance(action, Capture):
        return action.card.code, frozenset(action.taken)
    return action.code, frozenset()


@pytest.mark.parametrize("number", range(len(OPTION_SETS)))
def test_big_tables_enumerate_like_brute_force(number: int) -> None:
    """Tables that outgrow the group index: the same actions as the oracle, each applies, made-up ones match."""
    options = OPTION_SETS[number]
    rng = random.Random(number)
    for _ in range(6):
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        size = rng.randint(10, 14 if options.multi_capture else 24)
        position = {
            "hands": [cards[4 * i : 4 * i + 4] for i in range(options.players)],
            "table": cards[4 * options.players :][:size],
            "deck": cards[4 * options.players :][size : size + 8],
            "current_player": rng.randrange(2),
        }
        state = KonchinkaState.from_position(KonchinkaGame(options), **position)  # type: ignore[arg-type]
        actions = state.legal_actions()
        if size <= ORACLE_MAX_TABLE:
            oracle = BaselineKonchinkaState.from_position(KonchinkaGame(options), **position)  # type: ignore[arg-type]
            assert codes(actions) == codes(oracle.legal_actions())
        by_key = {taken_key(a): a for a in actions}
        for action in actions:
            assert attempt(state, action)[0] == "accepted", action
        for _ in range(10):
            made_up = random_attempt(state, rng)
            result = attempt(state, made_up)
            if result[0] == "accepted":
                # a valid grouping of a legal capture: the same move as the one the engine offers
                assert result == attempt(state, by_key[taken_key(made_up)]), made_up
