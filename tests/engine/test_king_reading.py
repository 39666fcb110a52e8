"""Кинг's «мастер» reads the play of the deal to choose among candidate worlds (engine/king/ai/worlds.py
``screen``, and the kernel's ``king_screen``, its twin).

The compiled reading must keep the very world the Python reference keeps from the same seed, strict or graded,
and rank the plays alike; the graded reading's likelihood must behave at its limits as its documentation says:
at a low temperature it keeps only worlds of the fewest surprises (the strict reading), at a high one it keeps
worlds as if it did not read the play at all (the lenient reading).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from engine.ai.deal import splitmix64
from engine.core import make_game
from engine.king import Phase
from engine.king.actions import PLAYS, Play
from engine.king.ai import kernel as king_kernel
from engine.king.ai.policy import easy_action, policy_action
from engine.king.ai.worlds import (
    Hands,
    cards_of,
    deal_start,
    hidden_problem,
    infer,
    play_loglik,
    play_rank,
    screen,
    surprises_in,
)
from engine.king.state import KingState, KingView
from tests.engine.test_kernel_built import require_kernels
from tests.tiers import size


def new_party(seed: int) -> KingState:
    state = make_game("king", {}).new_initial_state(seed)
    assert isinstance(state, KingState)
    return state


def views_with_play(parties: int, seed: int, share: float) -> Iterator[KingView]:
    """Views of the play phase after the deal's first card, along parties of the easy player's play (about
    ``share`` of them)."""
    rng = random.Random(seed)
    for party in range(parties):
        state = new_party(seed * 1000 + party)
        while not state.is_terminal:
            view = state.view(state.current_player)
            if view.phase is Phase.PLAY and (view.tricks_this_deal or view.trick) and rng.random() < share:
                yield view
            legal = view.legal_actions
            state.apply(easy_action(view, rng) if len(legal) > 1 else legal[0])


def candidates(view: KingView, seed: int, count: int) -> list[Hands]:
    """The candidate worlds :func:`screen` deals from ``seed``, in its order (dealt here by the same seeds)."""
    k = infer(view)
    table, seats = hidden_problem(view, k, pure=True)
    state = seed
    out = []
    for _ in range(count):
        state, world_seed = splitmix64(state)
        masks = table.deal(world_seed)
        assert masks is not None
        out.append({p: list(k.fixed.get(p, ())) + cards_of(m) for p, m in zip(seats, masks, strict=True)})
    return out


def test_the_kernel_keeps_the_world_python_keeps() -> None:
    require_kernels()
    rng = random.Random(53)
    compared = 0
    for view in views_with_play(size(1, 4), 7, 0.15):  # ~270 comparisons; the slow tier ~1,100
        knowledge = infer(view)
        for temperature in (0.0, 0.2, 1.0, 5.0):
            seed = rng.getrandbits(64)
            compiled = king_kernel.Screen(view, knowledge, 16, temperature)
            assert not compiled.pure
            assert compiled(seed) == screen(view, infer(view), seed, 16, temperature, pure=True)
            compared += 1
    assert compared >= 200


def test_the_kernel_ranks_the_plays_as_python_does() -> None:
    kernel_module = require_kernels()[0]
    compared = 0
    rng = random.Random(5)
    for party in range(3):
        state = new_party(900 + party)
        while not state.is_terminal:
            view = state.view(state.current_player)
            legal = view.legal_actions
            if view.phase is Phase.PLAY and len(legal) > 1:
                encoded = king_kernel.encode_king(state)
                for action in legal:
                    assert isinstance(action, Play)
                    card = action.card
                    assert kernel_module.king_rank(encoded, card.index) == play_rank(state, card)
                    compared += 1
            state.apply(easy_action(view, rng) if len(legal) > 1 else legal[0])
    assert compared >= 500


def test_the_policys_own_card_ranks_first_and_every_card_has_its_own_place() -> None:
    rng = random.Random(11)
    checked = 0
    state = new_party(31)
    while not state.is_terminal and checked < 200:
        legal = state.legal_actions()
        if state.phase is Phase.PLAY and len(legal) > 1:
            chosen = policy_action(state)
            ranks = [play_rank(state, a.card) for a in legal]  # type: ignore[union-attr]
            assert ranks[legal.index(chosen)] == 0
            assert max(ranks) < len(legal)
            checked += 1
        state.apply(legal[rng.randrange(len(legal))])
    assert checked > 50


def test_a_low_temperature_reads_the_play_as_the_strict_reading() -> None:
    """At T = 0.02 a surprise costs a world at least e^50 of its odds: where a candidate explains every play, the
    world kept does too (as the strict reading's does); else it is one of the most likely candidates."""
    rng = random.Random(3)
    kept = explained = 0
    for view in views_with_play(2, 9, 0.2):
        seed = rng.getrandbits(64)
        pool = candidates(view, seed, 12)
        fewest = min(surprises_in(view, hands) for hands in pool)
        world = screen(view, infer(view), seed, 12, 0.02, pure=True)
        assert world in pool
        strict = screen(view, infer(view), seed, 12, 0.0, pure=True)
        assert surprises_in(view, strict) == fewest
        if fewest == 0:
            assert surprises_in(view, world) == 0
            assert play_loglik(view, world, 0.02) > -1e-9
            explained += 1
        else:
            best = max(play_loglik(view, hands, 0.02) for hands in pool)
            assert play_loglik(view, world, 0.02) == best
        kept += 1
    assert kept >= 30
    assert 0 < explained < kept


def test_a_high_temperature_gives_every_world_the_same_odds() -> None:
    """At T = 10⁶ every play is as likely as any other legal one: a world's log-likelihood is minus the log of
    the number of choices the others had, whatever they played; and the worlds kept are no fewer surprising
    than the candidates dealt (the lenient reading)."""
    rng = random.Random(4)
    surprising_kept = surprising_dealt = dealt = kept = 0
    for view in views_with_play(2, 10, 0.2):
        seed = rng.getrandbits(64)
        pool = candidates(view, seed, 8)
        for hands in pool:
            expected = -_log_choices(view, hands)
            assert play_loglik(view, hands, 1e6) == pytest.approx(expected, abs=1e-3)
            surprising_dealt += surprises_in(view, hands) > 0
            dealt += 1
        world = screen(view, infer(view), seed, 8, 1e6, pure=True)
        surprising_kept += surprises_in(view, world) > 0
        kept += 1
    assert kept >= 30
    assert surprising_kept > 0
    assert abs(surprising_kept / kept - surprising_dealt / dealt) < 0.25


def _log_choices(view: KingView, hands: Hands) -> float:
    """The sum over the others' plays of the deal of log(the legal cards they had)."""
    replay = deal_start(view, hands)
    assert replay is not None
    total = 0.0
    plays = [pc for t in view.tricks_this_deal for pc in t.plays] + list(view.trick)
    for p, c in plays:
        n = len(replay.legal_actions())
        if p != view.player and n > 1:
            total += math.log(n)
        replay.apply(PLAYS[c])
    return total


def test_the_kernels_reading_refuses_what_is_not_a_reading() -> None:
    """Bad inputs raise before any world is dealt: a negative temperature, no candidates or too many, seats that
    are not the table's, and a world whose hands are not four of eight cards (the viewer's own seat dealt to)."""
    kernel_module = require_kernels()[0]
    view = next(views_with_play(1, 12, 0.5))
    screen_ = king_kernel.Screen(view, infer(view), 8, 1.0)
    args = [
        screen_.capsule,
        1,
        tuple(screen_.seats),
        screen_.fixed,
        screen_.start,
        view.player,
        screen_.plays,
    ]
    assert kernel_module.king_screen(*args, 8, 1.0) is not None
    for candidates, temperature in ((8, -1.0), (0, 1.0), (100_000, 1.0), (8, math.nan)):
        with pytest.raises(ValueError):
            kernel_module.king_screen(*args, candidates, temperature)
    wrong = list(args)
    wrong[2] = tuple(screen_.seats[:-1])
    with pytest.raises(ValueError):
        kernel_module.king_screen(*wrong, 8, 1.0)
    wrong[2] = (view.player, *screen_.seats[1:])
    with pytest.raises(ValueError):
        kernel_module.king_screen(*wrong, 8, 1.0)
