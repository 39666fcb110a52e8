"""Updates the database cannot serve now: it is busy (a write lock held elsewhere) or the disk is full.

SQLite waits ``busy_timeout`` (5 s) for a lock held by another process, then gives up. Every change is one
transaction, so a failed update changed nothing and may simply run again: a busy database gets another try while
there is time, since a press must be answered within Telegram's 15 s. After that, or at once when the disk is full,
a press is answered with a short apology, so no button keeps spinning, and the person knows to press again.

A second middleware keeps the number of updates handled at once bounded: aiogram runs every update as its own
task, and a burst of thousands would otherwise all queue on the database at the same time.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram import BaseMiddleware, Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import TelegramObject, Update

from bot.i18n import translator_for
from bot.storage.db import is_busy

log = logging.getLogger(__name__)

RETRY_WITHIN: Final = 6.0
"""Real seconds after an update arrived during which a busy database is tried again (each try may wait 5 s)."""
RETRY_PAUSE: Final = 0.2
MAX_UPDATES_IN_FLIGHT: Final = 32
"""Updates handled at the same time; more wait for a free place (they would only wait for the database)."""


class DatabaseTrouble(BaseMiddleware):
    def __init__(self) -> None:
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
                if is_busy(exc) and loop.time() - arrived < RETRY_WITHIN:
                    self.retries += 1
                    log.warning("update %s: the database is busy (%s); trying again", event.update_id, exc)
                    await asyncio.sleep(RETRY_PAUSE)
                    continue
                log.error("update %s not applied: the database failed (%s)", event.update_id, exc)
                await self._apologize(event, data.get("bot"))
                return None

    async def _apologize(self, update: Update, bot: Bot | None) -> None:
        query = update.callback_query
        if query is None or bot is None:
            return  # a command: a reply would need the database too; the person sees no answer and tries again
        self.apologies += 1
        text = translator_for(query.from_user.language_code).t("answer-busy")
        try:
            await bot.answer_callback_query(query.id, text)
        except TelegramAPIError as exc:
            log.info("could not apologize for update %s: %s", update.update_id, exc.message)


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
