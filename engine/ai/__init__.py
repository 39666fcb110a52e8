"""Bot players: given one player's view and an rng, return one of that player's legal actions.

``choose_action(view, level, rng)`` works for the views of both games. A bot player sees only
``state.view(player)``; hidden cards are guessed by sampling worlds consistent with that view. Its budget is
work (sampled worlds, playout steps), never time, so the same view and rng give the same action anywhere.
"""

from __future__ import annotations

from engine.ai.levels import Level
from engine.ai.players import backends, choose_action, describe_action

__all__ = ["Level", "backends", "choose_action", "describe_action"]
