"""Pure rules engines and bot players for Кончинка and Кинг: no I/O, no Telegram, no asyncio, no SQL."""

from engine.core import GAMES, GameRecord, IllegalActionError, Outcome, make_game, replay

# Importing the game packages registers them in GAMES.
from engine import king, konchinka  # noqa: F401  isort: skip

__all__ = ["GAMES", "GameRecord", "IllegalActionError", "Outcome", "make_game", "replay"]
