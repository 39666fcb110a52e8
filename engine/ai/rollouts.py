"""The hard players' rollouts in pure Python, on the engine's own states.

A rollout plays a sampled world on from a candidate move to the playout's end: the end of the deal in Кинг;
in Кончинка the end of the deal or a few plies (``plies``), whichever comes first. Everybody plays the normal
policy, except the searching player at ``depth`` > 0: at each of its turns with a choice it tries every legal
action, each followed by a rollout of ``depth - 1``, and plays the one worth most to it (the first of equals).
Depth 0 is the one-level search of the earlier «мастер»; depth 1 lets the searching player's own later moves
be searched too, in the world at hand.

These functions are the reference of the compiled kernel (engine/ai/csrc): the kernel must give the very same
values and step counts (tests/engine/test_kernel.py), and :mod:`engine.ai.kernel` falls back to them where the
kernel is missing or declines a position. A step is one action applied, the candidate included.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai import konchinka_policy
from engine.ai.king_policy import policy_action
from engine.core import Player
from engine.king import KingState
from engine.king.actions import KingAction
from engine.konchinka import KonchinkaAction, KonchinkaState


def king_rollout(state: KingState, me: Player, depth: int, deal: int) -> tuple[int, int]:
    """Play ``state`` (changed in place) to the end of deal ``deal``: (``me``'s points in it, steps)."""
    steps = 0
    while state.deal_index == deal:
        legal = state.legal_actions()
        if depth > 0 and state.current_player == me and len(legal) > 1:
            action = legal[0]
            best = 0
            for i, trial_action in enumerate(legal):
                trial = state.clone()
                trial.apply(trial_action)
                value, used = king_rollout(trial, me, depth - 1, deal)
                steps += used + 1
                if i == 0 or value > best:
                    action, best = trial_action, value
        else:
            action = policy_action(state)
        state.apply(action)
        steps += 1
    return state.score_sheet[deal][me], steps


def king_values(
    world: KingState, me: Player, candidates: Sequence[KingAction], depth: int
) -> tuple[list[float], int]:
    """``me``'s deal points after each candidate and a rollout of ``depth``, and the steps they took."""
    deal = world.deal_index
    values: list[float] = []
    steps = 0
    for action in candidates:
        state = world.clone()
        state.apply(action)
        value, used = king_rollout(state, me, depth, deal)
        values.append(float(value))
        steps += used + 1
    return values, steps


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
