"""Applying each Telegram update once, without a read of the database for each.

Telegram (or a restarted bot) may deliver an update twice. An outer middleware skips updates already processed
(and copies being handled right now). It exposes the update through :data:`CURRENT_UPDATE`, so the game service
stores the mark in the same transaction as the change the update causes (see :meth:`bot.flow.store.Store
.mutate`); an update that changed nothing is marked afterwards, its mark riding along with a later transaction.

Which updates were processed is known from memory (:class:`ProcessedUpdates`): those of the last
:data:`REMEMBERED_FOR` seconds, and that every id above the highest one stored when the bot started, or pruned
from memory since, is new unless remembered. Only an older id (a copy Telegram sends again after a restart) is
looked up in the database. Ids older than :data:`UPDATES_KEPT_FOR` leave the database as the bot runs.
"""

from __future__ import annotations

import contextvars
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.clock import Clock
from bot.storage import Database, repo
from bot.storage.batch import Deferred

log = logging.getLogger(__name__)

UPDATES_KEPT_FOR: Final = 3 * 24 * 3600.0
"""Real seconds a processed update id is remembered in the database (Telegram re-sends only recent ones)."""
REMEMBERED_FOR: Final = 600.0
"""Real seconds a processed update id is remembered in memory (the database knows it too, so forgetting it here
only costs a lookup if it ever comes again)..."""
REMEMBERED_MAX: Final = 256
"""…and at most this many ids: a busy bot's memory stays bounded by a number, not by its traffic."""
PRUNE_EVERY: Final = 60.0
"""Clock seconds between two prunings of the older ids from the database."""


@dataclass(slots=True)
class Claim:
    """The update being handled; ``marked`` once a committed transaction stored it as processed (see
    :meth:`ProcessedUpdates.marked`)."""

    update_id: int
    marked: bool = False


CURRENT_UPDATE: contextvars.ContextVar[Claim | None] = contextvars.ContextVar("current_update", default=None)


class ProcessedUpdates:
    """Which updates were processed: the recent ones in memory, the older ones in ``processed_updates``."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._recent: OrderedDict[int, float] = OrderedDict()
        """Update id → monotonic time it was processed, oldest first."""
        self._known_from: int | None = None
        """Ids from here up are processed exactly when remembered (None: not loaded yet)."""
        self._marks: Deferred[int, float] = Deferred(db, repo.mark_processed)
        self._prunes: Deferred[str, float] = Deferred(
            db, lambda batch, _key, when: repo.forget_updates_before(batch, when)
        )
        self._pruned_at = float("-inf")

    async def load(self) -> None:
        """At start: ids up to the highest stored may be copies of processed ones (looked up when they come)."""
        row = await self.db.one("SELECT COALESCE(MAX(update_id), -1) AS last FROM processed_updates")
        self._known_from = int(row["last"]) + 1 if row else 0

    async def is_processed(self, update_id: int) -> bool:
        if update_id in self._recent:
            return True
        if self._known_from is None:
            await self.load()
        assert self._known_from is not None
        if update_id >= self._known_from:
            return False
        found = self._marks.get(update_id) is not None or await repo.is_processed(self.db, update_id)
        return found

    def done(self, update_id: int) -> None:
        """``update_id`` was stored as processed (by a committed change)."""
        now = time.monotonic()
        self._recent[update_id] = now
        self._recent.move_to_end(update_id)
        while self._recent:
            oldest, at = next(iter(self._recent.items()))
            if at > now - REMEMBERED_FOR and len(self._recent) <= REMEMBERED_MAX:
                break
            del self._recent[oldest]
            if self._known_from is not None and oldest >= self._known_from:
                self._known_from = oldest + 1
        if now - self._pruned_at >= self.clock.real(PRUNE_EVERY):
            self._pruned_at = now
            self._prunes.put("prune", self.clock.now() - UPDATES_KEPT_FOR * self.clock.speed)

    def marked(self, claim: Claim) -> None:
        """A committed transaction stored the claimed update as processed."""
        claim.marked = True
        self.done(claim.update_id)

    def later(self, update_id: int) -> None:
        """``update_id`` changed nothing: its mark is stored with the next transaction."""
        self._marks.put(update_id, self.clock.now())
        self.done(update_id)


class OnceMiddleware(BaseMiddleware):
    def __init__(self, processed: ProcessedUpdates) -> None:
        self.processed = processed
        self._in_flight: set[int] = set()
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
            if await self.processed.is_processed(update_id):
                self.skipped += 1
                log.info("skipping update %s: already processed", update_id)
                return None
            result = await handler(event, data)
            # Only a handled update is marked: one that failed (the database busy) may be tried again.
            if not claim.marked:
                self.processed.later(update_id)
            return result
        finally:
            CURRENT_UPDATE.reset(token)
            # Only once the mark is known: a copy arriving meanwhile finds one or the other.
            self._in_flight.discard(update_id)
