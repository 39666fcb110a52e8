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

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.ai import konchinka_policy
from engine.ai.king_policy import policy_action
from engine.core import Player
from engine.king import KingState, Play
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


@dataclass(slots=True)
class _Edge:
    action: KingAction
    visits: int = 0
    total: float = 0.0
    children: dict[tuple[str, ...], _Node] = field(default_factory=dict)


@dataclass(slots=True)
class _Node:
    edges: list[_Edge]
    visits: int = 0


def _choose(node: _Node, exploration: float) -> _Edge:
    """UCB1 over a node's moves: an untried one first (in order), else the best mean plus exploration."""
    best: _Edge | None = None
    best_score = 0.0
    for edge in node.edges:
        if edge.visits == 0:
            return edge
        score = edge.total / edge.visits + exploration * math.sqrt(math.log(node.visits) / edge.visits)
        if best is None or score > best_score:
            best, best_score = edge, score
    assert best is not None
    return best


def king_pomcp(
    worlds: Sequence[KingState],
    me: Player,
    candidates: Sequence[KingAction],
    simulations: int,
    exploration: float,
) -> tuple[list[float], list[int], int]:
    """A search tree over ``me``'s own decisions in the deal (POMCP): each simulation takes the next world,
    chooses ``me``'s moves by UCB1 in the tree while the others play the normal policy (their plays up to ``me``'s
    next turn select the child), adds one node where it leaves the tree and rolls out with the normal policy.
    Returns each candidate's mean points and visits (candidates in card order), and the steps taken."""
    deal = worlds[0].deal_index
    order = sorted(candidates, key=lambda a: a.card.index if isinstance(a, Play) else -1)
    root = _Node([_Edge(a) for a in order])
    steps = 0
    for sim in range(simulations):
        state = worlds[sim % len(worlds)].clone()
        node: _Node | None = root
        path: list[tuple[_Node, _Edge]] = []
        while node is not None and state.deal_index == deal:
            edge = _choose(node, exploration)
            path.append((node, edge))
            state.apply(edge.action)
            steps += 1
            seen: list[str] = []
            while state.deal_index == deal and state.current_player != me:
                action = policy_action(state)
                state.apply(action)
                steps += 1
                seen.append(action.code)
            if state.deal_index != deal:
                break
            child = edge.children.get(tuple(seen))
            if child is None:
                edge.children[tuple(seen)] = _Node([_Edge(a) for a in state.legal_actions()])
            node = child
        value, used = king_rollout(state, me, 0, deal)
        steps += used
        for visited, edge in path:
            visited.visits += 1
            edge.visits += 1
            edge.total += value
    means = [e.total / e.visits if e.visits else -math.inf for e in root.edges]
    return means, [e.visits for e in root.edges], steps
