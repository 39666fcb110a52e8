"""Кончинка's hard player's rollouts in pure Python, on the engine's own states.

A rollout plays a sampled world on from a candidate move for a few plies (``plies``) or to the end of the deal,
whichever comes first. Everybody plays the normal policy, except the searching player at ``depth`` > 0: at each
of its turns with a choice it tries every legal action, each followed by a rollout of ``depth - 1``, and plays
the one worth most to it (the first of equals).

These functions are the reference of the compiled kernel (engine/konchinka/ai/csrc): the kernel must give the
very same values and step counts (tests/engine/test_kernel.py), and :mod:`engine.konchinka.ai.kernel` falls
back to them where the kernel is missing or declines a position. A step is one action applied, the candidate
included.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Player
from engine.konchinka.actions import KonchinkaAction
from engine.konchinka.ai import policy as konchinka_policy
from engine.konchinka.state import KonchinkaState


def konchinka_rollout(
    state: KonchinkaState, me: Player, plies: int | None, depth: int, deals: int
) -> tuple[float, int]:
    """Play ``state`` (changed in place) on for at most ``plies`` actions (None: no limit) while the deal that
    was running after ``deals`` finished deals lasts: (the value for ``me``, steps)."""
    steps = 0
    left = -1 if plies is None else plies
    while left != 0 and not state.is_terminal and state.deals_completed <= deals:
        legal = state.legal_actions()
        if depth > 0 and state.current_player == me and len(legal) > 1:
            action = legal[0]
            best = 0.0
            for i, trial_action in enumerate(legal):
                trial = state.clone()
                trial.apply(trial_action)
                value, used = konchinka_rollout(trial, me, None if left < 0 else left - 1, depth - 1, deals)
                steps += used + 1
                if i == 0 or value > best:
                    action, best = trial_action, value
        else:
            action = konchinka_policy.playout_action(state)
        state.apply(action)
        steps += 1
        if left > 0:
            left -= 1
    return konchinka_policy.value(state, me, deals), steps


def konchinka_values(
    world: KonchinkaState,
    me: Player,
    candidates: Sequence[KonchinkaAction],
    plies: int | None,
    depth: int,
) -> tuple[list[float], int]:
    """The value for ``me`` after each candidate and a rollout of ``depth`` over ``plies`` more actions."""
    deals = world.deals_completed
    values: list[float] = []
    steps = 0
    for action in candidates:
        state = world.clone()
        state.apply(action)
        value, used = konchinka_rollout(state, me, plies, depth, deals)
        values.append(value)
        steps += used + 1
    return values, steps
