"""The compiled kernels' boundary: every value from Python is checked before the C code uses it.

A bad input (a card past the deck, a mask with a 53rd card, a seat that is not one, a status that disagrees
with the seat to move, a tuple of the wrong length or type) raises ValueError or TypeError; it never reads or
writes out of bounds, hangs, or crashes the process (tests/engine/test_kernel_sanitized.py runs the same
inputs with the kernels built under AddressSanitizer and UndefinedBehaviorSanitizer). One test per point of
the review in issue 34, then a hypothesis fuzz of real positions, malformed and intact.
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.king.ai import kernel as king_kernel
from engine.konchinka.ai import kernel as konchinka_kernel
from tests.engine.kernel_inputs import (
    call_king,
    call_konchinka,
    king_input,
    king_positions,
    konchinka_input,
    konchinka_positions,
)
from tests.engine.test_kernel_built import require_kernels

pytestmark = pytest.mark.usefixtures("kernels")


@pytest.fixture(scope="module")
def kernels() -> None:
    require_kernels()


def king() -> Any:
    return importlib.import_module("engine.king.ai._kernel")


def konchinka() -> Any:
    return importlib.import_module("engine.konchinka.ai._kernel")


def _king_state() -> list[Any]:
    return list(king_kernel.encode_king(king_positions()[5]))


def _konchinka_state(at: int = 3) -> list[Any]:
    return list(konchinka_kernel.encode_konchinka(konchinka_positions()[at]))


# --------------------------------------------------------------------------------- the review's points


@pytest.mark.parametrize("card", [52, 60, 64, 127, -1, -52])
def test_a_table_card_outside_the_deck_is_refused(card: int) -> None:
    state = _konchinka_state()
    state[16] = (*state[16][:-1], card) if state[16] else (card,)
    with pytest.raises(ValueError, match="table"):
        konchinka().konchinka_legal(tuple(state))
    with pytest.raises(ValueError, match="table"):
        konchinka().konchinka_values(tuple(state), 0, (), -1, 0)


def test_a_card_in_two_places_is_refused() -> None:
    state = _konchinka_state()
    hand = state[11][state[6]]
    card = (hand & -hand).bit_length() - 1
    state[16] = (*state[16], card)  # the player's own card also on the table
    with pytest.raises(ValueError, match="already elsewhere"):
        konchinka().konchinka_legal(tuple(state))
    king_state = _king_state()
    king_state[1] |= king_state[0] & -king_state[0]
    with pytest.raises(ValueError, match="two hands"):
        king().king_legal(tuple(king_state))


@pytest.mark.parametrize("me", [-1, 4, 7, 1_000, -(2**31)])
def test_me_must_be_a_seat(me: int) -> None:
    with pytest.raises(ValueError, match="seat"):
        king().king_values(tuple(_king_state()), me, (-1,), 0)
    with pytest.raises(ValueError, match="seat"):
        king().king_surprises(tuple(_king_state()), me, ())
    state = tuple(_konchinka_state())
    with pytest.raises(ValueError, match="seat"):
        konchinka().konchinka_value(state, me)
    with pytest.raises(ValueError, match="seat"):
        konchinka().konchinka_values(state, me, (), 2, 0)


def test_a_kernel_knows_the_seats_of_its_table() -> None:
    state = list(
        konchinka_kernel.encode_konchinka(next(s for s in konchinka_positions() if s.options.players == 2))
    )
    with pytest.raises(ValueError, match="seat"):
        konchinka().konchinka_value(tuple(state), 2)  # a third seat at a table of two


@pytest.mark.parametrize("card", [52, 64, 65, 69, 117, -2, -65])
def test_a_king_candidate_outside_the_deck_is_refused(card: int) -> None:
    """Before: only ``card >= 0`` was checked, so ``BIT(65)`` shifted past the mask's width (on x86 it played
    card 1 under the name 65), and -2 was taken for «no candidate»."""
    state = king_positions()[5]
    legal = [a.card.index for a in state.legal_actions()]
    for candidate in (card, 64 + legal[0]):
        with pytest.raises(ValueError):
            king().king_values(king_kernel.encode_king(state), state.current_player, (candidate,), 0)


@pytest.mark.parametrize("dealer", [-1, -5, 2, 4, 2**40])
def test_the_dealer_must_be_a_seat(dealer: int) -> None:
    state = list(
        konchinka_kernel.encode_konchinka(next(s for s in konchinka_positions() if s.options.players == 2))
    )
    state[7] = dealer
    with pytest.raises((ValueError, OverflowError), match=r"dealer|too large"):
        konchinka().konchinka_values(tuple(state), 0, (), -1, 0)


def test_the_status_agrees_with_the_seat_to_move() -> None:
    state = _konchinka_state()
    state[6] = -1  # a running deal with nobody to move
    with pytest.raises(ValueError, match="nobody to move"):
        konchinka().konchinka_legal(tuple(state))
    state = _konchinka_state()
    state[9] = 2  # the party over, but a seat to move and no winner
    with pytest.raises(ValueError, match="ended party"):
        konchinka().konchinka_value(tuple(state), 0)
    state[9] = 7
    with pytest.raises(ValueError, match="status"):
        konchinka().konchinka_value(tuple(state), 0)


def test_a_policy_with_no_legal_action_declines() -> None:
    """Before: with nothing to choose, the policy returned index 0 of an empty list (in a rollout: an action
    read from uninitialised memory)."""
    state = _konchinka_state()
    current = state[6]
    state[11] = tuple(
        0 if p == current else h for p, h in enumerate(state[11])
    )  # the player to move holds nothing
    state[16] = ()
    encoded = tuple(state)
    assert konchinka().konchinka_legal(encoded) == ()
    assert konchinka().konchinka_policy(encoded) is None


def test_a_rollout_that_meets_an_empty_hand_declines() -> None:
    state = next(s for s in konchinka_positions() if s.options.players == 3 and len(s.deck) >= 9 and s.table)
    encoded: list[Any] = list(konchinka_kernel.encode_konchinka(state))
    encoded[17] = encoded[17][:1]  # one card left to deal among three hands: two of them get none
    action = konchinka_kernel.encode_konchinka_action(state.legal_actions()[0])
    # whatever the rollout meets, it ends: an answer or a decline, never an action read from nowhere
    found = konchinka().konchinka_values(tuple(encoded), state.current_player, (action,), -1, 0)
    assert found is None or len(found[0]) == 1


@pytest.mark.parametrize(
    ("at", "value"),
    [
        (0, 1 << 52),  # a 53rd card
        (0, 1 << 63),
        (0, -1),
        (2, 1 << 60),
    ],
)
def test_a_hand_mask_past_the_deck_is_refused(at: int, value: int) -> None:
    state = _king_state()
    state[at] |= value if value > 0 else 0
    if value < 0:
        state[at] = value
    with pytest.raises(ValueError, match="mask"):
        king().king_legal(tuple(state))
    konchinka_state = _konchinka_state()
    hands = list(konchinka_state[11])
    hands[at % len(hands)] = value if value < 0 else hands[at % len(hands)] | value
    konchinka_state[11] = tuple(hands)
    with pytest.raises(ValueError, match="mask"):
        konchinka().konchinka_legal(tuple(konchinka_state))


@pytest.mark.parametrize(
    ("field", "value"),
    [(4, 4), (4, -1), (5, 9), (5, -1), (6, 7), (7, 4), (8, 2), (9, -1), (15, 2), (11, 2**40), (10, -(2**40))],
)
def test_every_king_number_is_in_its_range(field: int, value: int) -> None:
    state = _king_state()
    state[field] = value
    with pytest.raises((ValueError, OverflowError)):
        king().king_legal(tuple(state))


def test_king_hands_agree_with_the_tricks_played() -> None:
    """Before: a trick number past the deal's end indexed past the penalty tables, and a hand too short let
    the rollout play from an empty hand."""
    state = _king_state()
    state[5] = 8  # every trick played, but the deal not over
    with pytest.raises(ValueError, match="every trick"):
        king().king_values(tuple(state), 0, (-1,), 0)
    state = _king_state()
    state[2] = 0  # a seat with no cards in the middle of the deal
    with pytest.raises(ValueError, match="holds"):
        king().king_values(tuple(state), 0, (-1,), 0)


def test_king_surprises_refuse_a_play_that_is_not_legal() -> None:
    state = king_positions()[0]
    _, me, _, _, plays, start = king_input(state, random.Random(0), malformed=False)
    assert king().king_surprises(start, me, plays) >= 0
    stranger = next(c for c in range(52) if not any(h >> c & 1 for h in start[:4]))
    with pytest.raises(ValueError, match="not legal"):
        king().king_surprises(start, me, (*plays[:3], stranger))
    with pytest.raises(ValueError):
        king().king_surprises(start, me, (*plays[:3], 200))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        (0, 5),
        (0, 1),
        (5, 0),
        (5, 10**6),
        (6, 9),
        (8, -2),
        (10, 9),
        (12, (60, 0)),
        (13, (14, 0)),
        (14, (3, 0)),
    ],
)
def test_every_konchinka_number_is_in_its_range(field: int, value: Any) -> None:
    state = list(
        konchinka_kernel.encode_konchinka(next(s for s in konchinka_positions() if s.options.players == 2))
    )
    state[field] = value
    with pytest.raises(ValueError):
        konchinka().konchinka_values(tuple(state), 0, (), -1, 0)


@pytest.mark.parametrize("bad", [(), (1, 2), "abc", 1.5, None, (1, 2, 3, 4, 5, 6, 7)])
def test_a_field_of_the_wrong_type_or_length_is_refused(bad: object) -> None:
    three = next(i for i, s in enumerate(konchinka_positions()) if s.options.players == 3)
    for at in (11, 12) if isinstance(bad, tuple) else (11, 12, 16, 17):  # (a table or deck may be short)
        state = _konchinka_state(three)
        state[at] = bad
        with pytest.raises((ValueError, TypeError)):
            konchinka().konchinka_legal(tuple(state))
    state = _king_state()
    state[16] = bad if bad != () else (1, 2, 3, 4)
    with pytest.raises((ValueError, TypeError)):
        king().king_legal(tuple(state))
    for value in (1.5, "3", None):
        state = _king_state()
        state[4] = value
        with pytest.raises(TypeError):
            king().king_legal(tuple(state))


def test_a_konchinka_action_is_checked_before_it_is_compared() -> None:
    state = tuple(_konchinka_state())
    for action in ((7, 3, 0), (0, 99, 0), (1, 3, 1 << 55), (0, 3), "lay"):
        with pytest.raises((ValueError, TypeError)):
            konchinka().konchinka_step(state, action)
        with pytest.raises((ValueError, TypeError)):
            konchinka().konchinka_values(state, 0, (action,), 2, 0)


def test_search_sizes_are_bounded() -> None:
    with pytest.raises(ValueError, match="depth"):
        king().king_values(tuple(_king_state()), 0, (-1,), 9)
    with pytest.raises(ValueError, match="depth"):
        konchinka().konchinka_values(tuple(_konchinka_state()), 0, (), 2, 12)


NOMEMORY_PROBE = textwrap.dedent(
    """
    import _testcapi, sys
    from tests.engine.kernel_inputs import konchinka_positions, king_positions
    from engine.king.ai import kernel as kk
    from engine.konchinka.ai import kernel as kc

    import importlib
    ck = importlib.import_module("engine.king.ai._kernel")
    cc = importlib.import_module("engine.konchinka.ai._kernel")
    king = kk.encode_king(king_positions()[40])
    konchinka = kc.encode_konchinka(konchinka_positions()[3])
    legal_card = ck.king_legal(king) & -ck.king_legal(king)
    calls = [
        lambda: cc.konchinka_legal(konchinka),
        lambda: cc.konchinka_step(konchinka, cc.konchinka_legal(konchinka)[0]),
        lambda: ck.king_step(king, legal_card.bit_length() - 1),
        lambda: ck.king_values(king, 0, (-1, -1, -1), 0),
        lambda: cc.konchinka_values(konchinka, 0, cc.konchinka_legal(konchinka), 2, 0),
    ]
    answered = failed = 0
    for call in calls:
        for start in range(0, 40):
            for stop in (start + 1, 0):  # the start-th allocation alone fails, or every one from it on
                _testcapi.set_nomemory(start, stop)
                try:
                    answer = call()
                except MemoryError:
                    failed += 1
                    continue
                finally:
                    _testcapi.remove_mem_hooks()
                repr(answer)
                answered += 1
    print(answered, failed)
    """
)


def test_an_allocation_that_fails_inside_a_kernel_raises_memory_error() -> None:
    """Every object a kernel builds is checked: with the allocator failing at its n-th call (alone, or from it
    on), each entry raises MemoryError (before: a NULL went into a tuple, returned with the error still set)."""
    pytest.importorskip("_testcapi")
    done = subprocess.run(
        [sys.executable, "-c", NOMEMORY_PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answered, failed = map(int, done.stdout.split())
    assert failed >= len(("legal", "step", "king step", "king values")) and answered > 0


# --------------------------------------------------------------------------------------------- the fuzz


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), malformed=st.booleans())
def test_king_kernel_answers_or_refuses_any_input(seed: int, malformed: bool) -> None:
    rng = random.Random(seed)
    state = rng.choice(king_positions())
    args = king_input(state, rng, malformed)
    call_king(*args)
    if not malformed:  # an intact input gets the Python reference's answer
        me, cards, depth = state.current_player, args[2], args[3]
        legal = [a for a in state.legal_actions() if a.card.index in cards]
        assert king_kernel.king_values(state, me, legal, depth) == king_kernel.king_values(
            state, me, legal, depth, pure=True
        )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), malformed=st.booleans())
def test_konchinka_kernel_answers_or_refuses_any_input(seed: int, malformed: bool) -> None:
    rng = random.Random(seed)
    state = rng.choice(konchinka_positions())
    args = konchinka_input(state, rng, malformed)
    call_konchinka(*args)
    if not malformed:
        me, plies, depth = args[1], args[3], args[4]
        wanted = set(args[2])
        legal = [a for a in state.legal_actions() if konchinka_kernel.encode_konchinka_action(a) in wanted]
        horizon = None if plies < 0 else plies
        assert konchinka_kernel.konchinka_values(
            state, me, legal, horizon, depth
        ) == konchinka_kernel.konchinka_values(state, me, legal, horizon, depth, pure=True)


def test_searches_in_several_threads_at_once_do_not_meet() -> None:
    """The GIL let go, several threads search at once: each call has its own working memory (no statics), so
    every answer is the one it gets alone."""
    c = konchinka()
    jobs = []
    for state in konchinka_positions()[::25]:
        actions = tuple(konchinka_kernel.encode_konchinka_action(a) for a in state.legal_actions())
        if len(actions) > 1:
            jobs.append((konchinka_kernel.encode_konchinka(state), state.current_player, actions, 8, 1))
    alone = [c.konchinka_values(*job) for job in jobs]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert list(pool.map(lambda job: c.konchinka_values(*job), jobs)) == alone
