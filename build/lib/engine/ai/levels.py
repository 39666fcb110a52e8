"""The three strengths a user can pick for a bot player."""

from __future__ import annotations

import enum


class Level(enum.StrEnum):
    """How strong a bot player is."""

    EASY = "easy"
    """«новичок»: legal, plausible moves with obvious mistakes."""
    NORMAL = "normal"
    """«любитель»: a solid rule-based player."""
    HARD = "hard"
    """«мастер»: search over worlds consistent with what the player knows."""
