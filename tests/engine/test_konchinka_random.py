"""Кончинка invariants over thousands of seeded random parties, the fast capture enumeration against brute force,
and enumeration time on the worst tables the rules allow."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import FULL_DECK, Card, Rank
from engine.core import GameRecord, replay
from engine.konchinka import (
    Capture,
    KonchinkaAction,
    KonchinkaGame,
    KonchinkaOptions,
    KonchinkaState,
    Settlement,
    Variant,
)
from engine.konchinka.rules import VALUE
from tests.engine.konchinka_baseline import BaselineKonchinkaState
from tests.tiers import size

PARTIES = size(600, 2000)
"""Random parties (every run; all of them in the slow tier, FULL_TESTS=1)."""


def random_options(rng: random.Random, index: int) -> KonchinkaOptions:
    return KonchinkaOptions(
        players=rng.choice((2, 3, 4)),
        variant=rng.choice(tuple(Variant)),
        # most parties are short (a small target ends them after a deal or two); every 50th plays to 15
        target=15 if index % 50 == 0 else rng.choice((1, 2, 3, 4)),
        multi_capture=rng.random() < 0.3,
        forced_capture=rng.random() < 0.3,
        early_finish=rng.random() < 0.8,
        settlement=rng.choice(tuple(Settlement)),
        stake=rng.randint(1, 5),
    )


def card_count(state: KonchinkaState) -> list[int]:
    placed = [c.index for part in (*state.hands, state.table, state.deck, *state.piles) for c in part]
    return sorted(placed)


def assert_view_hides(state: KonchinkaState) -> None:
    for seat in range(state.game.num_players):
        # past deals' scores and the last deal's moves name cards of those deals; everything else is about this deal
        text = repr(dataclasses.replace(state.view(seat), deal_scores=(), previous_events=()))
        hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand] + list(state.deck)
        leaked = [c for c in hidden if repr(c) in text]
        assert not leaked, f"seat {seat} sees {leaked}"


@pytest.mark.slow
@pytest.mark.xdist_group("timing-2")  # asserts on time (the second chain): see tests/conftest.py
def test_random_parties_keep_the_invariants() -> None:
    everything = list(range(52))
    started = time.perf_counter()
    finished_early = full_parties = finished_on_capture = 0
    for index in range(PARTIES):
        rng = random.Random(index)
        options = random_options(rng, index)
        game = KonchinkaGame(options)
        state = game.new_initial_state(index)
        check_views = index % 20 == 0
        while not state.is_terminal:
            assert card_count(state) == everything
            actions = state.legal_actions()
            assert actions, "a live state must offer an action"
            assert len(set(actions)) == len(actions)
            if check_views and state.version % 7 == 0:
                assert_view_hides(state)
            state.apply(rng.choice(actions))
        assert card_count(state) == everything
        assert state.legal_actions() == () and state.current_player == -1
        outcome = state.outcome
        assert outcome is not None and sum(outcome.settlement) == 0
        (winner,) = outcome.winners
        assert outcome.scores == state.totals and state.totals[winner] >= options.target
        assert all(t < state.totals[winner] for s, t in enumerate(state.totals) if s != winner)
        totals = [0] * options.players
        for deal, score in enumerate(state.deal_scores):
            assert all(0 <= p <= 5 for p in score.points) and sum(score.points) <= 5
            totals = [t + p for t, p in zip(totals, score.points, strict=True)]
            assert score.totals == tuple(totals)
            assert tuple(line[deal] for line in state.tally) == score.totals
            finished_early += score.finished_early_by is not None
        assert len(state.deal_scores) == state.deals_completed == len(state.tally[0])
        last = state.history[-1]
        finished_on_capture += isinstance(last, Capture) and last.finish
        full_parties += options.target == 15
        again = replay(GameRecord.from_json(state.record().to_json()))
        assert isinstance(again, KonchinkaState)
        assert (again.history, again.events, again.deal_scores, again.tally, again.outcome) == (
            state.history,
            state.events,
            state.deal_scores,
            state.tally,
            state.outcome,
        )
        assert (again.hands, again.table, again.deck, again.piles) == (
            state.hands,
            state.table,
            state.deck,
            state.piles,
        )
    assert finished_early > PARTIES // 200 and full_parties >= PARTIES // 60  # both kinds of ending, often
    assert finished_on_capture > 0  # «взять … и прикончить» ends some parties, and replays like the rest
    assert time.perf_counter() - started < 60


def test_from_view_worlds_play_on_like_the_real_state() -> None:
    for index in range(60):
        rng = random.Random(index)
        options = random_options(rng, 1)
        state = KonchinkaGame(options).new_initial_state(index)
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        seat = rng.randrange(options.players)
        view = state.view(seat)
        others = {s: state.hands[s] for s in range(options.players) if s != seat}
        world = KonchinkaState.from_view(view, others, state.deck, seed=index)
        assert world.view(seat) == view
        twin = state.clone()
        while not twin.is_terminal and twin.deal_number == view.deal_number:
            assert world.legal_actions() == twin.legal_actions()
            action = rng.choice(twin.legal_actions())
            world.apply(action)
            twin.apply(action)
        assert world.tally == twin.tally and world.is_terminal == twin.is_terminal


# ------------------------------------------------------------------------------------------------ the oracle

LOW = [c for c in FULL_DECK if VALUE[c.index] <= 6]


def both_enumerations(
    played: Card, table: list[Card], options: KonchinkaOptions
) -> tuple[Sequence[KonchinkaAction], Sequence[KonchinkaAction]]:
    game = KonchinkaGame(options)
    other = next(c for c in FULL_DECK if c is not played and c not in table)
    kwargs = {"hands": [[played], [other]], "table": table, "current_player": 0}
    fast = KonchinkaState.from_position(game, **kwargs).legal_actions()  # type: ignore[arg-type]
    slow = BaselineKonchinkaState.from_position(game, **kwargs).legal_actions()  # type: ignore[arg-type]
    return fast, slow


def taken_key(action: KonchinkaAction) -> tuple[str, frozenset[Card]]:
    return (
        action.code if not isinstance(action, Capture) else action.card.code,
        frozenset(getattr(action, "taken", ())),
    )


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    variant=st.sampled_from(tuple(Variant)),
    multi=st.booleans(),
    forced=st.booleans(),
)
def test_fast_enumeration_equals_brute_force(
    data: st.DataObject, variant: Variant, multi: bool, forced: bool
) -> None:
    pool = st.sampled_from(LOW) | st.sampled_from(FULL_DECK)
    table = data.draw(st.lists(pool, unique=True, max_size=9 if multi else 12))
    played = data.draw(st.sampled_from([c for c in FULL_DECK if c not in table]))
    options = KonchinkaOptions(variant=variant, multi_capture=multi, forced_capture=forced)
    fast, slow = both_enumerations(played, table, options)
    if multi:
        assert sorted(map(taken_key, fast), key=repr) == sorted(map(taken_key, slow), key=repr)
        assert len(set(map(taken_key, fast))) == len(fast)
        for action in fast:  # every listed split is a real split of the taken cards into groups
            if isinstance(action, Capture) and not (variant is Variant.CLASSIC and played.rank is Rank.JACK):
                for group in action.groups:
                    assert len(group) == 1 or sum(VALUE[c.index] for c in group) == VALUE[played.index]
    else:
        assert set(fast) == set(slow) and len(fast) == len(slow)


# ------------------------------------------------------------------------------------------------ worst tables


def count_sum_subsets(values: list[int], target: int) -> int:
    """Subsets of two or more values adding up to ``target`` (by counting, not listing)."""
    ways = [[0] * (target + 1) for _ in range(3)]  # ways[size class][sum]: size 0, 1, 2+
    ways[0][0] = 1
    for v in values:
        for s in range(target, v - 1, -1):
            ways[2][s] += ways[2][s - v] + ways[1][s - v]
            ways[1][s] += ways[0][s - v]
    return ways[2][target]


@pytest.mark.xdist_group("timing-2")  # asserts on time (the second chain): see tests/conftest.py
def test_worst_tables_enumerate_quickly_and_completely() -> None:
    # classic: every A…9 on the table (36 cards) and a ten to play; points: everything but the kings and a king
    cases = [
        (Variant.CLASSIC, [c for c in FULL_DECK if VALUE[c.index] <= 9], Card(Rank.TEN, FULL_DECK[0].suit)),
        (
            Variant.POINTS,
            [c for c in FULL_DECK if VALUE[c.index] <= 12][:40],
            Card(Rank.KING, FULL_DECK[0].suit),
        ),
    ]
    for variant, table, played in cases:
        game = KonchinkaGame(KonchinkaOptions(variant=variant))
        state = KonchinkaState.from_position(
            game,
            hands=[[played], [c for c in FULL_DECK if c not in table and c is not played][:1]],
            table=table,
        )
        start = time.perf_counter()
        actions = state.clone().legal_actions()
        elapsed = time.perf_counter() - start
        captures = [a for a in actions if isinstance(a, Capture)]
        values = [VALUE[c.index] for c in table]
        expected = count_sum_subsets(values, VALUE[played.index]) + values.count(VALUE[played.index])
        assert len(captures) == expected and len(set(captures)) == expected
        assert expected > 1500  # genuinely thousands of distinct captures
        assert all(sum(VALUE[c.index] for c in a.taken) == VALUE[played.index] for a in captures)
        assert elapsed < 1.0, f"{variant}: {len(captures)} captures in {elapsed:.3f} s"
        state.apply(captures[len(captures) // 2])
        assert len(state.table) == len(table) - len(captures[len(captures) // 2].taken)
