"""The ids of Кончинка's rules sections, in the order the navigation shows them (carried by rules buttons and
the ``r_<id>`` deep link: short, and unique across the games)."""

from __future__ import annotations

import enum


class KonchinkaSection(enum.StrEnum):
    BASICS = "k"
    """The deal and a turn."""
    CAPTURES = "kc"
    POINTS = "kp"
    """The points variant («очковая»)."""
    SCORING = "ks"
    TALLY = "kt"
    EARLY_FINISH = "kf"
    OPTIONS = "ko"
