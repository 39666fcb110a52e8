"""Кончинка: a fishing card game for 2–4 players (rules: /work/shared/spec/konchinka.md).

``KonchinkaGame(options).new_initial_state(seed)`` starts a party; ``legal_actions``/``apply`` play it.
The package registers ``"konchinka"`` with :func:`engine.core.register_game`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.ai.players import register_players
from engine.cards import Card
from engine.core import register_game
from engine.konchinka.actions import Capture, Finish, KonchinkaAction, Lay, parse_action
from engine.konchinka.ai import PLAYERS
from engine.konchinka.rules import KONCHINKI, KonchinkaIllegal, KonchinkaOptions, Settlement, Variant
from engine.konchinka.state import KonchinkaGame, KonchinkaState
from engine.konchinka.views import DealScore, Event, EventKind, KonchinkaView


def make_konchinka_game(options: Mapping[str, Any]) -> KonchinkaGame:
    """The registered factory: a game from plain option data (ValueError on bad options)."""
    return KonchinkaGame(KonchinkaOptions.from_dict(options))


def redeal(state: KonchinkaState, player: int, rng: random.Random) -> KonchinkaState:
    """A party ``player`` cannot tell from ``state``: the other hands and the stock dealt anew from the cards
    hidden from them."""
    hidden = [c for seat, hand in enumerate(state.hands) if seat != player for c in hand] + list(state.deck)
    rng.shuffle(hidden)
    hands: dict[int, list[Card]] = {}
    for seat, hand in enumerate(state.hands):
        if seat != player:
            hands[seat], hidden = hidden[: len(hand)], hidden[len(hand) :]
    return KonchinkaState.from_view(state.view(player), hands, hidden)


register_game(
    "konchinka",
    make_konchinka_game,
    examples=(
        {"players": 2, "target": 2},
        {"players": 3, "variant": "points", "multi_capture": True, "target": 3},
        {"players": 4, "forced_capture": True, "early_finish": False, "target": 2},
    ),
    redeal=redeal,
)
register_players("konchinka", PLAYERS)

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
