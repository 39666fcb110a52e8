"""Applying each Telegram update once.

Telegram (or a restarted bot) may deliver an update twice. An outer middleware skips updates already stored in
``processed_updates`` (and copies being handled right now), exposes the update id through
:data:`CURRENT_UPDATE` so the game service can store it in the same transaction as the move it causes, and
stores it after the handler in any case.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.services.clock import Clock
from bot.storage import Database, Tx, repo

log = logging.getLogger(__name__)

CURRENT_UPDATE: contextvars.ContextVar[int | None] = contextvars.ContextVar("current_update", default=None)


async def mark_current_update(tx: Tx, now: float) -> None:
    """Store the update being handled (if any) in ``tx``, so it commits together with what it changed."""
    update_id = CURRENT_UPDATE.get()
    if update_id is not None:
        await repo.mark_processed(tx, update_id, now)


class OnceMiddleware(BaseMiddleware):
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._in_flight: set[int] = set()
        self.skipped = 0

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        update_id = event.update_id
        if update_id in self._in_flight:
            self.skipped += 1
            return None
        async with self.db.tx() as tx:
            seen = await repo.is_processed(tx, update_id)
        if seen:
            self.skipped += 1
            log.info("skipping update %s: already processed", update_id)
            return None
        self._in_flight.add(update_id)
        token = CURRENT_UPDATE.set(update_id)
        try:
            return await handler(event, data)
        finally:
            CURRENT_UPDATE.reset(token)
            self._in_flight.discard(update_id)
            async with self.db.tx() as tx:
                await repo.mark_processed(tx, update_id, self.clock.now())
