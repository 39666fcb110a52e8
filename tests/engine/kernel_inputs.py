"""Inputs for the kernels' boundary tests: real encoded positions of both games, and malformed copies of them.

Shared by the fuzz tests (tests/engine/test_kernel_boundary.py, in-process with hypothesis) and the sanitizer
run (tests/engine/sanitized_kernels.py, in a child process with the kernels built under AddressSanitizer and
UndefinedBehaviorSanitizer). Every call is made through :func:`call_king` / :func:`call_konchinka`, which name
the only outcomes a kernel may have: an answer, or a Python exception of :data:`REFUSALS`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from engine.ai import Level, choose_action
from engine.core import make_game
from engine.king import Phase
from engine.king.ai import kernel as king_kernel
from engine.konchinka.ai import kernel as konchinka_kernel

REFUSALS = (ValueError, TypeError, OverflowError)
"""What a kernel raises on a bad input; anything else (or a crash) is a defect."""

JUNK: tuple[object, ...] = (
    -(2**70),
    -(2**63),
    -(2**31) - 1,
    -65,
    -2,
    -1,
    4,
    5,
    7,
    9,
    13,
    52,
    53,
    64,
    65,
    117,
    2**31,
    2**52,
    2**63,
    2**64,
    2**70,
    1.5,
    None,
    "7",
    (),
    (1, 2, 3, 4, 5),
    (-1,) * 60,
    (99,),
)
"""Values put in the place of a field: off every range the kernels accept, of the wrong type, or too long."""


def _walk(game: str, options: dict[str, Any], seed: int) -> list[Any]:
    state = make_game(game, options).new_initial_state(seed)
    rng = random.Random(seed)
    states = []
    while not state.is_terminal:
        states.append(state.clone())
        legal = state.legal_actions()
        action = (
            rng.choice(legal)
            if rng.random() < 0.3
            else choose_action(state.view(state.current_player), Level.NORMAL, rng)
        )
        state.apply(action)
    return states


@cache
def king_positions() -> tuple[Any, ...]:
    """Play-phase Кинг states of two deals and more of every contract kind (the states themselves)."""
    out = []
    for seed, options in (
        (1, {}),
        (2, {"order": ["eralash", "king", "last2", "hearts", "queens", "jacks", "tricks"]}),
    ):
        for state in _walk("king", options, seed)[:400]:
            if state.phase is Phase.PLAY:
                out.append(state)
    return tuple(out)


@cache
def konchinka_positions() -> tuple[Any, ...]:
    """Кончинка states of parties of 2, 3 and 4 players and several options."""
    out: list[Any] = []
    for seed, options in (
        (1, {"players": 2}),
        (2, {"players": 3, "multi_capture": True}),
        (3, {"players": 4, "variant": "points", "forced_capture": True}),
    ):
        out.extend(_walk("konchinka", {**options, "target": 3}, seed)[:150])
    return tuple(out)


def mutate(encoded: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    """``encoded`` with one field (or one item of a tuple field) replaced by junk or by a neighbouring value."""
    out = list(encoded)
    if not out:
        return (rng.choice(JUNK),)
    i = rng.randrange(len(out))
    field = out[i]
    if isinstance(field, tuple) and field and rng.random() < 0.6:
        items = list(field)
        j = rng.randrange(len(items))
        items[j] = _replacement(items[j], rng)
        if rng.random() < 0.2:
            items.append(items[0])  # a duplicate, or one item too many
        out[i] = tuple(items)
    else:
        out[i] = _replacement(field, rng)
    if rng.random() < 0.1:
        out = out[: rng.randrange(len(out))]  # a short tuple
    return tuple(out)


def _replacement(value: object, rng: random.Random) -> object:
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        if value > 51 and rng.random() < 0.7:
            return value | 1 << rng.randrange(64)  # a mask with one more card, or one past the deck
        return value + rng.choice((-3, -2, -1, 1, 2, 3, 13, -13, 52, 64))
    return rng.choice(JUNK)


def call_king(
    encoded: object, me: object, cards: object, depth: object, plays: object, start: object
) -> None:
    """Every entry of Кинг's kernel on one input (each must answer or refuse)."""
    c: Any = importlib.import_module("engine.king.ai._kernel")
    for call in (
        lambda: c.king_legal(encoded),
        lambda: c.king_policy(encoded),
        lambda: c.king_step(encoded, cards[0] if isinstance(cards, tuple) and cards else 0),
        lambda: c.king_values(encoded, me, cards, depth),
        lambda: c.king_surprises(start, me, plays),
    ):
        _answer_or_refuse(call)


def call_konchinka(encoded: object, me: object, actions: object, plies: object, depth: object) -> None:
    """Every entry of Кончинка's kernel on one input (each must answer, decline with None, or refuse)."""
    c: Any = importlib.import_module("engine.konchinka.ai._kernel")
    first = actions[0] if isinstance(actions, tuple) and actions else (0, 0, 0)
    for call in (
        lambda: c.konchinka_legal(encoded),
        lambda: c.konchinka_policy(encoded),
        lambda: c.konchinka_value(encoded, me),
        lambda: c.konchinka_step(encoded, first),
        lambda: c.konchinka_values(encoded, me, actions, plies, depth),
    ):
        _answer_or_refuse(call)


def _answer_or_refuse(call: Callable[[], object]) -> None:
    try:
        answer = call()
    except REFUSALS:
        return
    repr(answer)  # every item of an answer is a real object (a NULL in a tuple would crash here)


def king_input(state: Any, rng: random.Random, malformed: bool) -> tuple[Any, ...]:
    """(encoded, me, candidate cards, depth, the deal's plays, the deal as dealt) for ``state``, or a malformed
    copy."""
    encoded = king_kernel.encode_king(state)
    me = state.current_player
    cards = tuple(a.card.index for a in state.legal_actions())
    played = [pc for trick in state.tricks_this_deal for pc in trick.plays]
    played.extend(state.trick)
    plays = tuple(c.index for _, c in played)
    start = list(encoded)  # the deal as dealt: every card played back in its hand
    for p, c in played:
        start[p] |= 1 << c.index
    start[4] = state.tricks_this_deal[0].leader if state.tricks_this_deal else state.leader
    start[5] = 0
    start[11:15] = (0, 0, 0, 0)
    start[16] = ()
    depth = rng.choice((0, 1))
    args: list[Any] = [encoded, me, cards, depth, plays, tuple(start)]
    if malformed:
        k = rng.randrange(6)
        if k in (0, 5):
            args[k] = mutate(args[k], rng)
        elif k == 3:  # only depths out of range (a deep search takes long)
            args[3] = rng.choice((-1, 5, 2**40, None, "1"))
        else:
            args[k] = _replacement(args[k], rng) if not isinstance(args[k], tuple) else mutate(args[k], rng)
    return tuple(args)


def konchinka_input(state: Any, rng: random.Random, malformed: bool) -> tuple[Any, ...]:
    """(encoded, me, candidate actions, plies, depth) for ``state``, or a malformed copy."""
    encoded = konchinka_kernel.encode_konchinka(state)
    me = rng.randrange(state.options.players)
    legal = state.legal_actions()
    actions = tuple(
        konchinka_kernel.encode_konchinka_action(a) for a in rng.sample(legal, min(3, len(legal)))
    )
    plies = rng.choice((-1, 2, 8))
    depth = rng.choice((0, 1))
    args: list[Any] = [encoded, me, actions, plies, depth]
    if malformed:
        k = rng.randrange(5)
        if k == 0:
            args[0] = mutate(encoded, rng)
        elif k == 2 and actions:
            args[2] = (mutate(actions[0], rng), *actions[1:]) if rng.random() < 0.7 else mutate(actions, rng)
        elif k in (3, 4):  # only sizes out of range: a search of depth 3 to the deal's end takes seconds
            args[k] = rng.choice(
                (-2, -(2**40), 2**40, 10**5, None, 1.5) if k == 3 else (-1, 4, 2**40, None, "1")
            )
        else:
            args[k] = _replacement(args[k], rng)
    return tuple(args)
