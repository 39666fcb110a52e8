"""Pure rules engines and bot players: no I/O, no Telegram, no asyncio, no SQL.

Each game is a package here that registers itself (:func:`engine.core.register_game`) when imported;
:func:`engine.core.games` (and :func:`make_game`) import them all.
"""

from engine.core import GAMES, GameRecord, IllegalActionError, Outcome, games, make_game, replay

__all__ = ["GAMES", "GameRecord", "IllegalActionError", "Outcome", "games", "make_game", "replay"]
