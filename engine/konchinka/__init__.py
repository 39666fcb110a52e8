"""Кончинка: a fishing card game for 2–4 players (rules: /work/shared/spec/konchinka.md).

``KonchinkaGame(options).new_initial_state(seed)`` starts a party; ``legal_actions``/``apply`` play it.
The package registers ``"konchinka"`` with :func:`engine.core.register_game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import register_game
from engine.konchinka.actions import Capture, Finish, KonchinkaAction, Lay, parse_action
from engine.konchinka.rules import KONCHINKI, KonchinkaIllegal, KonchinkaOptions, Settlement, Variant
from engine.konchinka.state import KonchinkaGame, KonchinkaState
from engine.konchinka.views import DealScore, Event, EventKind, KonchinkaView


def make_konchinka_game(options: Mapping[str, Any]) -> KonchinkaGame:
    """The registered factory: a game from plain option data (ValueError on bad options)."""
    return KonchinkaGame(KonchinkaOptions.from_dict(options))


register_game("konchinka", make_konchinka_game)

__all__ = [
    "KONCHINKI",
    "Capture",
    "DealScore",
    "Event",
    "EventKind",
    "Finish",
    "KonchinkaAction",
    "KonchinkaGame",
    "KonchinkaIllegal",
    "KonchinkaOptions",
    "KonchinkaState",
    "KonchinkaView",
    "Lay",
    "Settlement",
    "Variant",
    "make_konchinka_game",
    "parse_action",
]
