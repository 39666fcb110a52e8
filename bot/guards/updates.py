"""What every update meets before its handler: its log context and its person counted, a bounded place among the
updates in flight, one short apology when the database cannot serve it, the check that it is applied once, and
the language its chat and its person chose.

**Once.** Telegram (or a restarted bot) may deliver an update twice. An outer middleware skips updates already
processed (and copies being handled right now). It exposes the update through :data:`CURRENT_UPDATE`, so the game
service stores the mark in the same transaction as the change the update causes (see :meth:`bot.flow.store.Store
.mutate`); an update that changed nothing is marked afterwards, its mark riding along with a later transaction.
Which updates were processed is known from memory (:class:`ProcessedUpdates`): those of the last
:data:`REMEMBERED_FOR` seconds, and that every id above the highest one stored when the bot started, or pruned
from memory since, is new unless remembered. Only an older id (a copy Telegram sends again after a restart) is
looked up in the database. Ids older than :data:`UPDATES_KEPT_FOR` leave the database as the bot runs.

**The database's trouble** (a write lock held elsewhere, a read-only file, a full disk). Every change is one
transaction, so a failed update changed nothing and may simply run again. A transaction waits at most
``busy_timeout`` (5 s; the setting ``DATABASE_BUSY_TIMEOUT``) for a lock held by another process, queue included,
so a busy database gets another try while there is time (a press must be answered within Telegram's 15 s: every
wait here is a share of ``busy_timeout``, so the answer comes within three times it). After that — or at once
when the file is read-only or the disk full — a press is answered with one short apology that names what
happened, so no button keeps spinning, and the person knows the move was not made. The database logs the trouble
once, when it begins (:mod:`bot.storage.db`); an update it fails is logged here only at the debug level.

**In flight.** aiogram runs every update as its own task, and a burst of thousands would otherwise all queue on
the database at the same time: :class:`InFlightLimit` keeps the number handled at once bounded.

**Languages.** A group chooses its own with /lang (kept in the database), and a person may choose one for their
private chat; without a choice each person's Telegram language is followed. :class:`LanguageMiddleware` looks
both up for every message and press and puts them in context variables, so the handlers' one helper for texts
(``tr_of``) and for the person (``person``) follow the choice without each handler asking. The choices are few
(a row per chat that chose), so all of them stay in memory once read (:class:`ChatLanguages`).
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import logging
import sqlite3
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Message, TelegramObject, Update, User

from bot.clock import Buckets, Clock
from bot.delivery.outbox.core import answer_press
from bot.flow.commands import Person
from bot.i18n import Locale, translator_for
from bot.logs import CHAT, UPDATE
from bot.storage import Database, repo
from bot.storage.files import Trouble, trouble_of
from bot.storage.tx import Batch, Deferred

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


RETRY_WITHIN: Final = 1.6
"""How long after an update arrived a busy database is tried again, in ``busy_timeout``s (8 s): the first try may
wait the whole ``busy_timeout``, the next ones, while the lock is known to be held, a tenth of it each
(``db.BUSY_PROBE``); the last answer still comes well within Telegram's 15 s."""
RETRY_PAUSE: Final = 0.04
"""The pause before each new try, in ``busy_timeout``s (0.2 s)."""
MAX_UPDATES_IN_FLIGHT: Final = 32
"""Updates handled at the same time; more wait for a free place (they would only wait for the database)."""


class DatabaseTrouble(BaseMiddleware):
    def __init__(self, busy_timeout: float, path: Path | None = None) -> None:
        self.path = path  # the database's: a «disk I/O error» there may mean read-only
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
                trouble = trouble_of(exc, self.path)
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


class Place:
    """One update's place among those handled at once. A private question waiting for its turn (the throttle's
    queue, seconds long) sets its place aside meanwhile, so waiting questions never crowd out presses."""

    def __init__(self, limit: InFlightLimit) -> None:
        self._limit = limit
        self.held = False

    async def take(self) -> None:
        await self._limit._places.acquire()
        self.held = True
        self._limit.in_flight += 1
        self._limit.peak = max(self._limit.peak, self._limit.in_flight)

    def let_go(self) -> None:
        if self.held:
            self.held = False
            self._limit.in_flight -= 1
            self._limit._places.release()

    @asynccontextmanager
    async def set_aside(self) -> AsyncIterator[None]:
        """Let the place go while the block runs, and wait for one again after it (a cancelled wait holds none)."""
        self.let_go()
        try:
            yield
        finally:
            await self.take()


PLACE: Final = "in_flight_place"
"""The key of the update's :class:`Place` among the handler data (for the throttle's queue)."""


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
        place = Place(self)
        await place.take()
        data[PLACE] = place
        try:
            return await handler(event, data)
        finally:
            place.let_go()


class LogContext(BaseMiddleware):
    """The outermost middleware: sets :data:`bot.logs.UPDATE` and :data:`bot.logs.CHAT` for the update's task."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Update):
            UPDATE.set(event.update_id)
            chat = data.get("event_chat")
            CHAT.set(chat.id if chat is not None else None)
        return await handler(event, data)


LATENCY_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Upper bounds (seconds) of the update latency histogram."""


class Traffic:
    """Who sent the bot anything today (``/admin``: people seen today) and how long updates took (the metrics)."""

    def __init__(self) -> None:
        self._day = _today()
        self.seen_today: set[int] = set()
        self.latency = Buckets(LATENCY_BUCKETS)

    def saw(self, user_id: int) -> None:
        today = _today()
        if today != self._day:
            self._day, self.seen_today = today, set()
        self.seen_today.add(user_id)


class TrafficMiddleware(BaseMiddleware):
    """Counts each update's person in :class:`Traffic`, and how long the update took."""

    def __init__(self, traffic: Traffic) -> None:
        self.traffic = traffic

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        user = data.get("event_from_user")
        if user is not None and isinstance(event, Update):
            self.traffic.saw(user.id)
        started = time.perf_counter()
        try:
            return await handler(event, data)
        finally:
            self.traffic.latency.observe(time.perf_counter() - started)


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


CHAT_LOCALE: contextvars.ContextVar[Locale | None] = contextvars.ContextVar("chat_locale", default=None)
"""The language the chat of the update being handled chose (None: none chosen)."""
USER_LOCALE: contextvars.ContextVar[Locale | None] = contextvars.ContextVar("user_locale", default=None)
"""The language the person of the update chose for their private chat (None: their Telegram's)."""


def person(user: User) -> Person:
    """The person as the flow needs them; their language is the one they chose for their private chat, if any
    (their hands and notices follow it), else Telegram's."""
    chosen = USER_LOCALE.get()
    return Person(
        user.id, user.full_name, user.username, chosen.value if chosen is not None else user.language_code
    )


class ChatLanguages:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._chosen: dict[int, Locale] | None = None

    async def _all(self) -> dict[int, Locale]:
        if self._chosen is None:
            chosen: dict[int, Locale] = {}
            for chat_id, lang in await repo.chat_langs(self.db):
                if lang in Locale.__members__.values():
                    chosen[chat_id] = Locale(lang)
            self._chosen = chosen
        return self._chosen

    async def of(self, chat_id: int) -> Locale | None:
        return (await self._all()).get(chat_id)

    async def choose(self, chat_id: int, locale: Locale | None) -> None:
        """``chat_id`` speaks ``locale`` from now on (None: each person's Telegram language again)."""
        batch = Batch()
        repo.set_chat_lang(batch, chat_id, locale.value if locale is not None else None)
        await self.db.write(batch)
        chosen = await self._all()
        if locale is None:
            chosen.pop(chat_id, None)
        else:
            chosen[chat_id] = locale

    def migrate(self, old: int, new: int) -> None:
        """A group became a supergroup: its choice goes with it (the database row moves with its games)."""
        if self._chosen is not None and old in self._chosen:
            self._chosen[new] = self._chosen.pop(old)


class LanguageMiddleware(BaseMiddleware):
    """An outer middleware for ``message`` and ``callback_query``: the chat's and the person's chosen language."""

    def __init__(self, languages: ChatLanguages) -> None:
        self.languages = languages

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        chat_id: int | None = None
        user_id: int | None = None
        if isinstance(event, Message):
            chat_id = event.chat.id
            user_id = event.from_user.id if event.from_user else None
        elif isinstance(event, CallbackQuery):
            chat_id = event.message.chat.id if event.message else None
            user_id = event.from_user.id
        chat = await self.languages.of(chat_id) if chat_id is not None else None
        user = await self.languages.of(user_id) if user_id is not None else None
        chat_token = CHAT_LOCALE.set(chat)
        user_token = USER_LOCALE.set(user)
        try:
            return await handler(event, data)
        finally:
            CHAT_LOCALE.reset(chat_token)
            USER_LOCALE.reset(user_token)
