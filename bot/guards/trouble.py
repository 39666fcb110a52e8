"""Updates the database cannot serve now: a write lock held elsewhere, a read-only file, a full disk.

Every change is one transaction, so a failed update changed nothing and may simply run again. A transaction
waits at most ``busy_timeout`` (5 s; the setting ``DATABASE_BUSY_TIMEOUT``) for a lock held by another process,
queue included, so a busy database gets another try while there is time (a press must be answered within
Telegram's 15 s: every wait here is a share of ``busy_timeout``, so the answer comes within three times it).
After that — or at once when the file is read-only or the disk full — a press is answered with one short
apology that names what happened, so no button keeps spinning, and the person knows the move was not made. The database logs the trouble once,
when it begins (:mod:`bot.storage.db`); an update it fails is logged here only at the debug level.

A second middleware keeps the number of updates handled at once bounded: aiogram runs every update as its own
task, and a burst of thousands would otherwise all queue on the database at the same time.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.delivery.presses import answer_press
from bot.i18n import translator_for
from bot.storage.files import Trouble, trouble_of

log = logging.getLogger(__name__)

RETRY_WITHIN: Final = 1.6
"""How long after an update arrived a busy database is tried again, in ``busy_timeout``s (8 s): the first try may
wait the whole ``busy_timeout``, the next ones, while the lock is known to be held, a tenth of it each
(``db.BUSY_PROBE``); the last answer still comes well within Telegram's 15 s."""
RETRY_PAUSE: Final = 0.04
"""The pause before each new try, in ``busy_timeout``s (0.2 s)."""
MAX_UPDATES_IN_FLIGHT: Final = 32
"""Updates handled at the same time; more wait for a free place (they would only wait for the database)."""


class DatabaseTrouble(BaseMiddleware):
    def __init__(self, busy_timeout: float) -> None:
        self.retry_within = busy_timeout * RETRY_WITHIN
        self.retry_pause = busy_timeout * RETRY_PAUSE
        self.retries = 0
        self.apologies = 0

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        loop = asyncio.get_running_loop()
        arrived = loop.time()
        while True:
            try:
                return await handler(event, data)
            except sqlite3.Error as exc:
                trouble = trouble_of(exc)
                if trouble is Trouble.BUSY and loop.time() - arrived < self.retry_within:
                    self.retries += 1
                    log.debug("update %s: the database is busy (%s); trying again", event.update_id, exc)
                    await asyncio.sleep(self.retry_pause)
                    continue
                if trouble is None:
                    log.error("update %s not applied: the database failed (%s)", event.update_id, exc)
                else:
                    log.debug("update %s not applied: the database is %s", event.update_id, trouble.value)
                await self._apologize(event, trouble)
                return None

    async def _apologize(self, update: Update, trouble: Trouble | None) -> None:
        query = update.callback_query
        if query is None:
            return  # a command: a reply would need the database too; the person sees no answer and tries again
        self.apologies += 1
        key = "answer-read-only" if trouble is Trouble.READ_ONLY else "answer-busy"
        answer_press(query, translator_for(query.from_user.language_code).t(key))


class InFlightLimit(BaseMiddleware):
    """At most ``limit`` updates are handled at once; the others wait their turn, in order of arrival."""

    def __init__(self, limit: int = MAX_UPDATES_IN_FLIGHT) -> None:
        self._places = asyncio.Semaphore(limit)
        self.limit = limit
        self.in_flight = 0
        self.peak = 0

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        async with self._places:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            try:
                return await handler(event, data)
            finally:
                self.in_flight -= 1
