"""Deterministic variants of «любитель» that deviate the way people do, kept for the arena's panel alone.

Each game's bot players name theirs (:attr:`engine.ai.players.BotPlayers.variants`): a small, described change of
that game's normal policy (its weights, or one of its rules). They are never offered to users: the panel
(:mod:`engine.panel`) seats them to measure «мастер» against opponents that are not its own model.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant of the normal player: its arena name, what it does differently (one line), and its move."""

    name: str
    about: str
    choose: Callable[[Any, random.Random], object]
    """The action from a view with more than one legal action (the rng is not used: variants are deterministic)."""
