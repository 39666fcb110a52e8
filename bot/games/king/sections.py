"""The ids of Кинг's rules sections, in the order the navigation shows them (carried by rules buttons and the
``r_<id>`` deep link: short, and unique across the games)."""

from __future__ import annotations

import enum


class KingSection(enum.StrEnum):
    BASICS = "g"
    """The deal, following suit, the order of the deals."""
    NEGATIVE = "gn"
    TRUMP = "gt"
    SCORING = "gs"
