"""Кинг's hard player's rollouts in pure Python, on the engine's own states.

A rollout plays a sampled world on from a candidate move to the end of the deal. Everybody plays the normal
policy, except the searching player at ``depth`` > 0: at each of its turns with a choice it tries every legal
action, each followed by a rollout of ``depth - 1``, and plays the one worth most to it (the first of equals).
Depth 0 is the one-level search of the earlier «мастер»; depth 1 lets the searching player's own later moves
be searched too, in the world at hand.

These functions are the reference of the compiled kernel (engine/king/ai/csrc): the kernel must give the very
same values and step counts (tests/engine/test_kernel.py), and :mod:`engine.king.ai.kernel` falls back to them
where the kernel is missing. A step is one action applied, the candidate included.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Player
from engine.king.actions import KingAction
from engine.king.ai.policy import policy_action
from engine.king.state import KingState


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
