"""What every update meets before its handler: its log context and its person counted, a bounded place among the
updates in flight, one short apology when the database cannot serve it, the check that it is applied once, and
where it came from (:class:`~bot.pipeline.origin.Origin`: the chat, the person, the languages they chose).

**Once.** Telegram (or a restarted bot) may deliver an update twice. An outer middleware skips updates already
applied (and copies being handled right now); which were applied is the pipeline's store's to say
(:class:`~bot.pipeline.store.ProcessedUpdates`): a change stores its update's mark in its own transaction, and an
update that changed nothing is marked once handled, its mark riding along with a later transaction.

**The database's trouble** (a write lock held elsewhere, a read-only file, a full disk). Every change is one
transaction, so a failed update changed nothing and may simply run again. A transaction waits at most
``busy_timeout`` (5 s; the setting ``DATABASE_BUSY_TIMEOUT``) for a lock held by another process, queue included,
so a busy database gets another try while there is time (a press must be answered within Telegram's 15 s: every
wait here is a share of ``busy_timeout``, so the answer comes within three times it). After that — or at once
when the file is read-only or the disk full — a press is answered with one short apology that names what
happened (drawn by the pipeline), so no button keeps spinning, and the person knows the move was not made. The
database logs the trouble once, when it begins (:mod:`bot.storage.db`); an update it fails is logged here only at
the debug level.

**In flight.** aiogram runs every update as its own task, and a burst of thousands would otherwise all queue on
the database at the same time: :class:`InFlightLimit` keeps the number handled at once bounded.

**Numbers no Telegram sends.** Telegram's integers (ids, dates, sizes, offsets) all fit 53 bits; SQLite stores
64. An update with a larger one (a forged webhook post, a broken Bot API server) is refused with one line before
anything of it is stored (:class:`InRange`): a mark SQLite cannot store would fail every later transaction.

**Where from.** A group chooses its language with /lang, and a person may choose one for their private chat;
without a choice each person's Telegram language is followed. :class:`OriginMiddleware` looks both up for every
update and hands the handler where it came from and who asks (``origin``, ``who``), so a handler's command names
the person in their language and the pipeline answers in the chat's.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, TypeVar

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Message, TelegramObject, Update
from pydantic import BaseModel

from bot.clock import Buckets
from bot.delivery.answers import Apology
from bot.i18n import translator_for
from bot.logs import CHAT, UPDATE
from bot.model.game import Person
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline
from bot.pipeline.store import ChatLanguages, ProcessedUpdates
from bot.storage.files import Trouble, trouble_of

log = logging.getLogger(__name__)

T = TypeVar("T")


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
        try:
            if await self.processed.is_processed(update_id):
                self.skipped += 1
                log.info("skipping update %s: already processed", update_id)
                return None
            result = await handler(event, data)
            # Only a handled update is marked: one that failed (the database busy) may be tried again.
            self.processed.settle(update_id)
            return result
        finally:
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


class Troubled(Exception):
    """The database could not serve a piece of work, tried as long as it was worth: nothing was changed, and
    ``why`` is the apology it is owed."""

    def __init__(self, why: Apology) -> None:
        super().__init__(why.value)
        self.why = why


class DatabaseTrouble(BaseMiddleware):
    """Every update's work through :meth:`attempt`, a press apologized for when the database cannot serve it; the
    Mini App's calls go through :meth:`attempt` too (one rule of patience for the chat and the page)."""

    def __init__(self, pipeline: Pipeline, busy_timeout: float, path: Path | None = None) -> None:
        self.pipeline = pipeline
        self.path = path  # the database's: a «disk I/O error» there may mean read-only
        self.retry_within = busy_timeout * RETRY_WITHIN
        self.retry_pause = busy_timeout * RETRY_PAUSE
        self.retries = 0
        self.apologies = 0

    async def attempt(self, work: Callable[[], Awaitable[T]], what: str) -> T:
        """``work()`` (``what``: it named in the log), tried again while a lock held elsewhere may yet be let go
        in time; :class:`Troubled` when the database cannot serve it (each try changed nothing)."""
        loop = asyncio.get_running_loop()
        arrived = loop.time()
        while True:
            try:
                return await work()
            except sqlite3.Error as exc:
                trouble = trouble_of(exc, self.path)
                if trouble is Trouble.BUSY and loop.time() - arrived < self.retry_within:
                    self.retries += 1
                    log.debug("%s: the database is busy (%s); trying again", what, exc)
                    await asyncio.sleep(self.retry_pause)
                    continue
                if trouble is None:
                    log.error("%s not applied: the database failed (%s)", what, exc)
                else:
                    log.debug("%s not applied: the database is %s", what, trouble.value)
                why = Apology.READ_ONLY if trouble is Trouble.READ_ONLY else Apology.BUSY
                raise Troubled(why) from exc

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        try:
            return await self.attempt(lambda: handler(event, data), f"update {event.update_id}")
        except Troubled as troubled:
            await self._apologize(event, troubled.why)
            return None

    async def _apologize(self, update: Update, why: Apology) -> None:
        query = update.callback_query
        if query is None:
            return  # a command: a reply would need the database too; the person sees no answer and tries again
        self.apologies += 1
        await self.pipeline.apologize(query.id, translator_for(query.from_user.language_code), why)


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


TELEGRAM_INTEGERS: Final = range(-(2**53) + 1, 2**53)
"""The integers Telegram sends: its ids «have at most 52 significant bits», its sizes and dates fewer."""


def out_of_range(data: object) -> str:
    """The first integer of an update (its JSON or its parsed :class:`Update`) that no Telegram sends, as
    ``name=value``; "" when there is none. Runs on every update: the fields an update leaves empty (most of a
    message's hundred) and its texts are never looked at again (~35 µs for a press, not ~200)."""
    stack: list[tuple[str, object]] = [("update", data)]
    while stack:
        name, value = stack.pop()
        if isinstance(value, int):
            if type(value) is not bool and value not in TELEGRAM_INTEGERS:
                return f"{name}={str(value)[:24]}"
        elif isinstance(value, BaseModel):
            stack.extend(item for item in value.__dict__.items() if _may_hold_integers(item[1]))
        elif isinstance(value, dict):
            stack.extend((str(k), v) for k, v in value.items() if _may_hold_integers(v))
        elif isinstance(value, list | tuple):
            stack.extend((name, v) for v in value)
    return ""


def _may_hold_integers(value: object) -> bool:
    return value is not None and type(value) is not str


class InRange(BaseMiddleware):
    """Refuses an update holding an integer no Telegram sends (:func:`out_of_range`), with one line: nothing of it
    is handled or stored."""

    def __init__(self) -> None:
        self.refused = 0

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Update):
            problem = out_of_range(event)
            if problem:
                self.refused += 1
                log.warning("refused an update with a number no Telegram sends: %s", problem)
                return None
        return await handler(event, data)


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


class OriginMiddleware(BaseMiddleware):
    """The innermost outer middleware of every update: where it came from (:class:`Origin`, handed to handlers as
    ``origin``) and who asks (``who``: the person, in the language they chose for their private chat)."""

    def __init__(self, languages: ChatLanguages) -> None:
        self.languages = languages

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Update):
            data["origin"], data["who"] = await self.origin(event, data)
        return await handler(event, data)

    async def origin(self, update: Update, data: dict[str, Any]) -> tuple[Origin, Person]:
        user = data.get("event_from_user")
        chat = data.get("event_chat")
        chat_id = chat.id if chat is not None else 0
        user_locale = await self.languages.of(user.id) if user is not None else None
        chat_locale = await self.languages.of(chat_id) if chat_id else None
        who = Person(0, "")
        if user is not None:
            lang = user_locale.value if user_locale is not None else user.language_code
            who = Person(user.id, user.full_name, user.username, lang)
        message: object = update.message
        query_id = message_id = None
        if update.callback_query is not None:
            query: CallbackQuery = update.callback_query
            query_id = query.id
            message = query.message
            message_id = query.message.message_id if query.message is not None else None
        command = ""
        thread = 0
        question_id = update.message.message_id if update.message is not None else None
        if isinstance(message, Message):
            if message.is_topic_message and message.message_thread_id:
                thread = message.message_thread_id
            if update.message is not None and (message.text or "").startswith("/"):
                command = (message.text or "").split(maxsplit=1)[0].split("@", 1)[0].lower()
        origin = Origin(
            update.update_id,
            who if user is not None else None,
            chat_id,
            thread,
            user.language_code if user is not None else None,
            chat_locale,
            user_locale,
            command,
            query_id,
            message_id,
            question_id,
        )
        return origin, who


LATENCY_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Upper bounds (seconds) of the update latency histogram."""


class Traffic:
    """Who sent the bot anything today (``/admin``: people seen today) and how long updates took (the metrics)."""

    def __init__(self) -> None:
        self._day = _today()
        self.seen_today: set[int] = set()
        self.latency = Buckets(LATENCY_BUCKETS)
        self.last_update = 0.0
        """When the latest update came (Unix time; 0: none yet)."""

    def saw(self, user_id: int) -> None:
        today = _today()
        if today != self._day:
            self._day, self.seen_today = today, set()
        self.seen_today.add(user_id)


class TrafficMiddleware(BaseMiddleware):
    """Counts each update's person in :class:`Traffic`, when the latest came, and how long the update took."""

    def __init__(self, traffic: Traffic) -> None:
        self.traffic = traffic

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        user = data.get("event_from_user")
        if isinstance(event, Update):
            self.traffic.last_update = time.time()
            if user is not None:
                self.traffic.saw(user.id)
        started = time.perf_counter()
        try:
            return await handler(event, data)
        finally:
            self.traffic.latency.observe(time.perf_counter() - started)


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()
