"""Games nobody plays any more: a party without a move for ``ABANDONED_AFTER`` (a week by default) — a solo game
its player never came back to, a group game everyone left — is ended, so its timers, screens and stored live
messages do not stay forever. The game is closed as cancelled (no result counts); the chat is told why."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.i18n import translator_for
from bot.services.errors import ServiceError
from bot.services.store import Store
from bot.storage import GameRow, GameStatus, upkeep

log = logging.getLogger(__name__)


Say = Callable[..., Awaitable[None]]
"""Posts a one-off message to a chat (``chat_id, text, thread_id=``)."""
Show = Callable[..., Awaitable[None]]
"""Redraws a game's messages (``game_id, wake=True``)."""


async def end_abandoned(store: Store, now: float, idle_for: float, say: Say, show: Show) -> int:
    """End the games nobody has moved in for ``idle_for`` seconds (bot's clock), each chat told why; how many."""
    ended = await close_abandoned(store, now - idle_for)
    for game in ended:
        text = translator_for(game.lang).t("notice-abandoned", days=max(1, round(idle_for / 86400)))
        await say(game.chat_id, text, thread_id=game.thread_id)
        await show(game.id, wake=True)
    return len(ended)


async def close_abandoned(store: Store, before: float) -> list[GameRow]:
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
