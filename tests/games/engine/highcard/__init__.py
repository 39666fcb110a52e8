"""«Старшая карта», the toy third game: two players, three spades each; the higher card takes the trick.

Its rules are in :mod:`.state`, its bot players in :mod:`.ai`; importing the package registers both, as a game
package of ``engine/`` does.
"""

from __future__ import annotations

from engine.ai.players import register_players
from engine.core import register_game
from tests.games.engine.highcard.ai import PLAYERS
from tests.games.engine.highcard.state import (
    TOY,
    HighCardGame,
    HighCardState,
    HighCardView,
    Play,
    make_highcard_game,
    redeal,
)

register_game(TOY, make_highcard_game, redeal=redeal)
register_players(TOY, PLAYERS)

__all__ = ["TOY", "HighCardGame", "HighCardState", "HighCardView", "Play", "make_highcard_game"]
