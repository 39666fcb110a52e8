"""Applying each Telegram update once, in as few transactions as possible.

Telegram (or a restarted bot) may deliver an update twice. An outer middleware skips updates already stored in
``processed_updates`` (and copies being handled right now): one short read. It exposes the update through
:data:`CURRENT_UPDATE`, so the game service stores the mark in the same transaction as the change the update
causes (see :meth:`bot.services.store.Store.tx`); only an update that changed nothing is marked by the middleware
afterwards. A press thus costs two transactions: the check, and the move with its mark. Ids older than
:data:`UPDATES_KEPT_FOR` are forgotten as the bot runs (at most once per :data:`PRUNE_EVERY`, in the check's
transaction), so the table stays as small as the last few days' traffic.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.services.clock import Clock
from bot.storage import Database, repo

log = logging.getLogger(__name__)

UPDATES_KEPT_FOR: Final = 3 * 24 * 3600.0
"""Real seconds a processed update id is remembered (Telegram re-sends only recent ones)."""
PRUNE_EVERY: Final = 60.0
"""Clock seconds between two prunings of the older ids."""


@dataclass(slots=True)
class Claim:
    """The update being handled; ``marked`` once a committed transaction stored it as processed."""

    update_id: int
    marked: bool = False


CURRENT_UPDATE: contextvars.ContextVar[Claim | None] = contextvars.ContextVar("current_update", default=None)


class OnceMiddleware(BaseMiddleware):
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._in_flight: set[int] = set()
        self._pruned_at = float("-inf")
        self.skipped = 0

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, object]], Awaitable[object]],
        event: TelegramObject,
        data: dict[str, object],
    ) -> object:
        if not isinstance(event, Update):
            return await handler(event, data)
        update_id = event.update_id
        if update_id in self._in_flight:
            self.skipped += 1
            log.info("skipping update %s: a copy of it is being handled", update_id)
            return None
        # Claimed before the first await: copies in the same batch run as concurrent tasks, and the next one
        # may start while this one waits for the database.
        self._in_flight.add(update_id)
        claim = Claim(update_id)
        token = CURRENT_UPDATE.set(claim)
        try:
            async with self.db.tx() as tx:
                seen = await repo.is_processed(tx, update_id)
                now = self.clock.now()
                if not seen and now - self._pruned_at >= PRUNE_EVERY:
                    self._pruned_at = now
                    await repo.forget_updates_before(tx, now - UPDATES_KEPT_FOR * self.clock.speed)
            if seen:
                self.skipped += 1
                log.info("skipping update %s: already processed", update_id)
                return None
            try:
                return await handler(event, data)
            finally:
                if not claim.marked:
                    async with self.db.tx() as tx:
                        await repo.mark_processed(tx, update_id, self.clock.now())
        finally:
            CURRENT_UPDATE.reset(token)
            # Only once the mark is stored: a copy arriving meanwhile finds one or the other.
            self._in_flight.discard(update_id)
