"""The entry point of the bot players: dispatch on the game of the view and on the level."""

from __future__ import annotations

import random

from engine.ai import king as king_ai
from engine.ai import konchinka as konchinka_ai
from engine.ai.levels import Level
from engine.king import KingAction, KingView
from engine.konchinka import KonchinkaAction, KonchinkaView


def choose_action(
    view: object,
    level: Level,
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
) -> object:
    """One of ``view.legal_actions``, chosen by a bot player of ``level`` from ``view`` alone.

    Deterministic for the same view, level and rng state: the hard level's budget is work, not time —
    ``iterations`` sampled worlds and ``steps`` playout steps per decision (default: the level's own), so it
    plays the same on a busy machine as on an idle one. ``budget_ms`` adds an optional wall-clock cap (off
    by default); a decision it cuts short is no longer reproducible. A decision with a single legal action is
    answered at once.
    """
    if not isinstance(view, KingView | KonchinkaView):
        raise TypeError(f"not a view of a known game: {type(view).__name__}")
    actions: tuple[object, ...] = tuple(view.legal_actions)
    if not actions:
        raise ValueError("the view offers no legal action: it is not this player's turn")
    if len(actions) == 1:
        return actions[0]
    level = Level(level)
    if isinstance(view, KingView):
        if level is Level.EASY:
            return king_ai.easy_action(view, rng)
        if level is Level.NORMAL:
            return king_ai.normal_action(view)
        return king_ai.hard_action(view, rng, budget_ms, iterations, steps)
    if level is Level.EASY:
        return konchinka_ai.easy_action(view, rng)
    if level is Level.NORMAL:
        return konchinka_ai.normal_action(view)
    return konchinka_ai.hard_action(view, rng, budget_ms, iterations, steps)


def describe_action(view: object, action: object) -> str:
    """A short readable line (Russian card names) about ``action`` taken from ``view``, for watching games."""
    if isinstance(view, KingView) and isinstance(action, KingAction):
        return king_ai.describe(view, action)
    if isinstance(view, KonchinkaView) and isinstance(action, KonchinkaAction):
        return konchinka_ai.describe(view, action)
    return str(getattr(action, "code", action))


def choose_baseline_action(
    view: object,
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
) -> object:
    """The action of the first release's «мастер» (kept for the arena: ``python -m engine.arena
    --versus-baseline`` measures today's «мастер» against it on the same parties)."""
    if isinstance(view, KingView):
        return king_ai.hard_action(view, rng, budget_ms, iterations, steps, master=king_ai.BASELINE)
    if isinstance(view, KonchinkaView):
        return konchinka_ai.hard_action(view, rng, budget_ms, iterations, steps, master=konchinka_ai.BASELINE)
    raise TypeError(f"not a view of a known game: {type(view).__name__}")
