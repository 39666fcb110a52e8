"""The tests' toy game «Старшая карта», from where this checkout keeps it.

It lives in ``tests/games`` (hosted through the setting ``EXTRA_GAMES=tests.games``), unless
``scripts/with_toy_game.sh`` has placed it in the project's own game folders, as README's «Adding a game» says a
game is added: then the project hosts it with its other games, and ``tests/games`` holds a second copy of it. The
toy's tests take it from here, so that one process registers one toy only — the copy the bot hosts — and each of
them plays it where it is hosted.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Final

IN_THE_PROJECT: Final = importlib.util.find_spec("engine.highcard") is not None
"""The toy is one of the project's own games (``engine/highcard/``, ``bot/games/highcard/``, its texts)."""
ENGINE_PLACE: Final = "engine" if IN_THE_PROJECT else "tests.games.engine"
"""The package whose subpackages are games, the toy's engine among them (``engine.core.add_place``)."""
EXTRA_GAMES: Final = "" if IN_THE_PROJECT else "tests.games"
"""What the setting ``EXTRA_GAMES`` must name for the bot to host the toy."""

if TYPE_CHECKING or not IN_THE_PROJECT:
    from tests.games.engine.highcard import TOY, HighCardState, HighCardView, Play
    from tests.games.engine.highcard.ai import WHY_HIGHEST, HighCardPlayers
else:
    from engine.highcard import TOY, HighCardState, HighCardView, Play
    from engine.highcard.ai import WHY_HIGHEST, HighCardPlayers

__all__ = [
    "ENGINE_PLACE",
    "EXTRA_GAMES",
    "IN_THE_PROJECT",
    "TOY",
    "WHY_HIGHEST",
    "HighCardPlayers",
    "HighCardState",
    "HighCardView",
    "Play",
]
