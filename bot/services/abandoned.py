"""Games nobody plays any more: a party without a move for ``ABANDONED_AFTER`` (a week by default) — a solo game
its player never came back to, a group game everyone left — is ended, so its timers, screens and stored live
messages do not stay forever. The game is closed as cancelled (no result counts); the chat is told why."""

from __future__ import annotations

import logging

from bot.services.errors import ServiceError
from bot.services.store import Store
from bot.storage import GameRow, GameStatus, upkeep

log = logging.getLogger(__name__)


async def end_abandoned(store: Store, before: float) -> list[GameRow]:
    """Close every game being played whose last move came before ``before`` (bot's clock); the games closed."""
    ended: list[GameRow] = []
    for game_id in await upkeep.abandoned_games(store.db, before):
        try:
            async with store.mutate(game_id) as unit:
                if unit.match.game.status is not GameStatus.PLAYING:
                    continue
                unit.close(GameStatus.CANCELLED)
        except ServiceError:
            continue  # gone meanwhile
        log.info("game %s: no move since long ago; ended as abandoned", game_id)
        ended.append(unit.match.game)
    return ended
