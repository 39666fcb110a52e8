"""Кинг: four players, 32 cards, 7 negative deals then 8 positive deals with a chosen trump.

``KingGame(options).new_initial_state(seed)`` starts a party; see :mod:`engine.king.state` for the state and a
player's view, :mod:`engine.king.rules` for contracts and options, :mod:`engine.king.actions` for the actions.
"""

from __future__ import annotations

import random

from engine.ai.players import register_players
from engine.cards import Card
from engine.core import register_game
from engine.king.actions import CHOOSE_TRUMP_ACTIONS, ChooseTrump, KingAction, Play, parse_action
from engine.king.ai import PLAYERS
from engine.king.rules import (
    DEFAULT_ORDER,
    NEGATIVE_DEALS,
    NUM_DEALS,
    POSITIVE_DEALS,
    Contract,
    KingIllegal,
    KingOptions,
    Phase,
    PlayedCard,
    beats,
    winning_play,
)
from engine.king.state import CompletedTrick, DealEnd, KingGame, KingState, KingView, make_king_game


def redeal(state: KingState, player: int, rng: random.Random) -> KingState | None:
    """A deal ``player`` cannot tell from ``state``: the other hands dealt anew from the cards hidden from them
    (in the play phase; before trump is named the chooser's cards come in dealt order, so None)."""
    if state.phase is not Phase.PLAY:
        return None
    hidden = [c for seat, hand in enumerate(state.hands) if seat != player for c in hand]
    rng.shuffle(hidden)
    hands: dict[int, list[Card]] = {}
    for seat, hand in enumerate(state.hands):
        if seat != player:
            hands[seat], hidden = hidden[: len(hand)], hidden[len(hand) :]
    return KingState.from_view(state.view(player), hands)


register_game("king", make_king_game, redeal=redeal)
register_players("king", PLAYERS)

__all__ = [
    "CHOOSE_TRUMP_ACTIONS",
    "DEFAULT_ORDER",
    "NEGATIVE_DEALS",
    "NUM_DEALS",
    "POSITIVE_DEALS",
    "ChooseTrump",
    "CompletedTrick",
    "Contract",
    "DealEnd",
    "KingAction",
    "KingGame",
    "KingIllegal",
    "KingOptions",
    "KingState",
    "KingView",
    "Phase",
    "Play",
    "PlayedCard",
    "beats",
    "make_king_game",
    "parse_action",
    "winning_play",
]
