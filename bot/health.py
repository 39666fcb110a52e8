"""Is the running bot alive? The event loop's heartbeat, what Telegram last answered, and ``/healthz``.

The loop itself beats (:meth:`Health.beat`, every :data:`BEAT_EVERY` seconds from a task of its own); every call
to the Bot API passes :class:`ApiWatch`, which notes when ``getUpdates`` last came back and when a call last
succeeded. ``/healthz`` and ``/metrics`` are served by a small HTTP server on a thread of its own
(:class:`bot.ops_server.OpsServer`): a blocked event loop cannot answer anything, but the thread can still say that it is
blocked, and for how long. ``/healthz`` answers 200 ``ok`` or 503 with the reasons, one a line:

- ``starting``: the bot has not yet taken its first update: in polling mode no ``getUpdates`` has been answered
  (aiogram polls once the start-up is done), in webhook mode Telegram has not yet taken the webhook. Meanwhile
  the other checks but ``loop`` and ``delivery`` hold too (a conflict, failing polls, the database);
- ``loop``: the loop has not beaten for ``stall`` seconds (a handler that blocks it, a runaway computation);
- ``polling``: in polling mode, no ``getUpdates`` has succeeded for ``api_limit`` seconds — it failed (the Bot
  API unreachable, a 5xx) or never came back (the polling task is dead); a failed poll does not count;
- ``conflict``: Telegram answers ``getUpdates`` with 409 Conflict: another process polls with this token (or a
  webhook is set). Said at once in one ``WARNING`` line; past ``conflict_exit`` seconds the bot stops with
  :attr:`ExitCode.CONFLICT`;
- ``delivery``: messages wait in the outbox and no call to the Bot API has succeeded for ``api_limit`` seconds;
- ``database``: the database cannot be written (read-only, the disk full, the file deleted) — at once —, or has
  been locked by another process for ``api_limit`` seconds;
- ``webhook``: in webhook mode, Telegram's ``getWebhookInfo`` (asked every ``WEBHOOK_CHECK_EVERY`` seconds by
  :func:`bot.webhook.watch_webhook`) says that updates wait and that its last delivery failed after the last update
  the bot received, for ``api_limit`` seconds (a broken proxy, a certificate Telegram refuses) — or at once, that
  Telegram delivers to another URL, or to none;
- ``stopping``: the bot must stop (the token revoked, a lasting conflict).

A 401 from any call means the token was revoked while the bot ran: :class:`ApiWatch` hands it to
:attr:`Health.fatal`, and the bot stops with :attr:`ExitCode.TOKEN` (see :func:`bot.app.run`).

Times here are ``time.monotonic()`` real seconds: what matters is whether the process is stuck, not the bot's
(possibly accelerated) game clock.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Sized
from dataclasses import dataclass, field
from typing import Final, Protocol

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.exceptions import TelegramConflictError, TelegramRetryAfter, TelegramUnauthorizedError
from aiogram.methods import GetUpdates, Response, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.settings import ExitCode
from bot.storage.files import Trouble
from bot.systemd import Notifier

log = logging.getLogger(__name__)

BEAT_EVERY: Final = 0.5
"""Seconds between two beats of the event loop."""
API_LIMIT: Final = 90.0
"""Seconds without a successful ``getUpdates`` (a long poll lasts 10 s, a failure is retried within 5 s), or
with messages waiting and no call succeeding, or with the database locked, before the bot counts as unhealthy
(the setting ``HEALTH_API_LIMIT``)."""
CONFLICT_EXIT: Final = 300.0
"""Seconds of 409 Conflict on ``getUpdates`` after which the bot stops (``CONFLICT_EXIT_AFTER``)."""
CONFLICT_RETRY: Final = 5.0
"""Seconds between two polls while another process holds the token (at most: a quarter of ``conflict_exit``,
so that the bot looks four times before it stops)."""
CHECKS: Final = ("stopping", "starting", "loop", "polling", "conflict", "delivery", "database", "webhook")
"""What ``/healthz`` checks; the metric ``cardbot_unhealthy{check=...}`` says which fail."""
BUSY_TROUBLE: Final = Trouble.BUSY.value
RECENT_SECONDS: Final = 120
"""Seconds whose successful calls are counted, for calls per second."""
ANSWER_WITHIN: Final = 5.0
"""Seconds ``/metrics`` waits for the event loop to gather the figures (not at all while the loop is known to be
blocked: then it says so at once)."""


@dataclass(frozen=True, slots=True)
class Fatal:
    """Why a running bot must stop at once: the exit code and the one line that says so."""

    code: ExitCode
    message: str


@dataclass(slots=True)
class WebhookState:
    """What Telegram's ``getWebhookInfo`` said last (webhook mode; see :func:`bot.webhook.watch_webhook`)."""

    url: str = ""
    """The webhook this bot set (empty until it did)."""
    told_url: str = ""
    """The webhook Telegram delivers to, as it said last."""
    pending: int = 0
    """Updates waiting at Telegram to be delivered."""
    error: str = ""
    """Telegram's last delivery error ("" none) ..."""
    error_at: float = 0.0
    """... and when (Unix time, as Telegram says it; 0: none)."""
    asked: bool = False
    """Telegram has answered ``getWebhookInfo`` at least once."""
    failing_since: float | None = None
    """Since when (monotonic) updates wait and Telegram's last delivery failed after the bot's last update."""

    def told(
        self, url: str, pending: int, error: str, error_at: float, last_update: float, now: float
    ) -> None:
        """Telegram's answer at ``now`` (monotonic); ``last_update``: when the bot last received an update (Unix
        time; 0: none since its start)."""
        self.asked = True
        self.told_url, self.pending, self.error, self.error_at = url, pending, error, error_at
        failing = pending > 0 and error_at > last_update
        if not failing:
            self.failing_since = None
        elif self.failing_since is None:
            self.failing_since = now

    def trouble(self, now: float, limit: float) -> str:
        """What ``/healthz`` says of the webhook ("" when it works, or Telegram has not been asked yet)."""
        if not (self.asked and self.url):
            return ""
        if self.told_url != self.url:
            where = f"to {self.told_url}" if self.told_url else "nowhere (no webhook is set)"
            return f"Telegram delivers this bot's updates {where}, not to {self.url}"
        if self.failing_since is not None and now - self.failing_since > limit:
            age = max(0.0, time.time() - self.error_at)
            return (
                f"{self.pending} updates wait at Telegram, whose deliveries to the webhook have failed for "
                f"{now - self.failing_since:.0f} s (the last {age:.0f} s ago: {self.error})"
            )
        return ""


@dataclass(slots=True)
class Health:
    """What the event loop and the Bot API calls report, read by ``/healthz``'s thread (floats and ints only:
    each is written and read whole, so the thread needs no lock)."""

    stall: float = 10.0
    """Seconds without a beat after which the loop counts as blocked."""
    polling: bool = True
    api_limit: float = API_LIMIT
    conflict_exit: float = CONFLICT_EXIT
    """Seconds of 409 Conflict after which the bot stops (0: never)."""
    started: float = field(default_factory=time.monotonic)
    beaten: float = field(default_factory=time.monotonic)
    polled: float = field(default_factory=time.monotonic)
    delivered: float = field(default_factory=time.monotonic)
    queued: int = 0
    """Chats with calls waiting in the outbox, as of the last beat ..."""
    waiting_since: float = field(default_factory=time.monotonic)
    """... and since when the outbox has not been empty (an idle bot's last success may be long ago)."""
    worst_lag: float = 0.0
    """The longest the loop came late to a beat since the last heartbeat line (seconds)."""
    calls: int = 0
    failed_calls: int = 0
    results: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)
    """Bot API calls by (method, result): ``ok``, or the kind of error (``retryafter`` is a 429)."""
    retry_after: float = 0.0
    """Seconds Telegram asked the bot to wait, summed over its 429 answers."""
    recent: collections.deque[list[int]] = field(
        default_factory=lambda: collections.deque(maxlen=RECENT_SECONDS)
    )
    """Successful calls in each of the latest seconds: ``[second, calls]`` (for calls per second)."""
    polls: int = 0
    """``getUpdates`` calls begun (the limit counts from the first: start-up before it is not polling)."""
    poll_failure: str = ""
    """Why the latest ``getUpdates`` failed ("" once one succeeds)."""
    conflict_since: float | None = None
    """Since when Telegram has answered ``getUpdates`` with 409 Conflict (None: it does not)."""
    database: str = ""
    """The database's trouble as of the last beat ("" when it works) ..."""
    database_since: float = 0.0
    """... and since when."""
    ready: bool = False
    """The first update can come: a ``getUpdates`` was answered (polling), or Telegram took the webhook."""
    webhook: WebhookState = field(default_factory=WebhookState)
    fatal: Fatal | None = None
    on_fatal: asyncio.Event = field(default_factory=asyncio.Event)

    def beat(self, queued: int, now: float | None = None, database: str = "") -> None:
        now = time.monotonic() if now is None else now
        self.worst_lag = max(self.worst_lag, now - self.beaten - BEAT_EVERY)
        self.beaten = now
        if queued and not self.queued:
            self.waiting_since = now
        self.queued = queued
        if database != self.database:
            self.database_since = now
        self.database = database

    def called(self, now: float) -> None:
        second = int(now)
        if self.recent and self.recent[-1][0] == second:
            self.recent[-1][1] += 1
        else:
            self.recent.append([second, 1])

    def calls_per_second(self, window: float = 60.0) -> float:
        """Successful calls a second over the last ``window`` seconds (or since the start, when shorter)."""
        now = time.monotonic()
        since = max(now - window, self.started)
        return sum(n for second, n in self.recent if second >= int(since)) / max(1.0, now - since)

    def stop_with(self, fatal: Fatal) -> None:
        if self.fatal is None:
            self.fatal = fatal
            self.on_fatal.set()

    def blocked(self, now: float) -> bool:
        """Whether the event loop has gone more than ``stall`` seconds without a beat."""
        return now - self.beaten > self.stall

    def problems(self, now: float | None = None) -> list[str]:
        """Why the bot is unhealthy, one line each; empty when it is healthy."""
        return [text for _check, text in self.failing(now)]

    def failing(self, now: float | None = None) -> list[tuple[str, str]]:
        """The checks that fail (names from :data:`CHECKS`) and what each says."""
        now = time.monotonic() if now is None else now
        found = []
        if self.fatal is not None:
            found.append(("stopping", f"stopping: {self.fatal.message}"))
        if not self.ready:
            waiting = "no getUpdates has been answered yet" if self.polling else "the webhook is not set yet"
            found.append(("starting", f"starting for {now - self.started:.0f} s: {waiting}"))
        elif self.blocked(now):
            found.append(("loop", f"the event loop has been blocked for {now - self.beaten:.1f} s"))
        if self.conflict_since is not None:
            found.append(
                (
                    "conflict",
                    "another process uses this token: Telegram has answered getUpdates with 409 Conflict "
                    f"for {now - self.conflict_since:.0f} s",
                )
            )
        elif self.polling and (self.ready or self.polls) and now - self.polled > self.api_limit:
            since = now - self.polled
            found.append(
                (
                    "polling",
                    f"getUpdates has failed for {since:.0f} s: {self.poll_failure}"
                    if self.poll_failure
                    else f"getUpdates has not come back for {since:.0f} s",
                )
            )
        stuck = now - max(self.delivered, self.waiting_since)
        if self.ready and self.queued and stuck > self.api_limit:
            found.append(
                (
                    "delivery",
                    f"messages wait for {self.queued} chats and no Bot API call has succeeded for {stuck:.0f} s",
                )
            )
        if self.database and (self.database != BUSY_TROUBLE or now - self.database_since > self.api_limit):
            found.append(
                (
                    "database",
                    f"the database cannot be written: it is {self.database} "
                    f"(for {now - self.database_since:.0f} s)",
                )
            )
        if not self.polling:
            trouble = self.webhook.trouble(now, self.api_limit)
            if trouble:
                found.append(("webhook", trouble))
        return found


class ApiWatch(BaseRequestMiddleware):
    """Every Bot API call passes here: it counts calls by method and result, notes when polling came back and
    when a call last succeeded, and turns a 401 (the token revoked) into :attr:`Health.fatal`."""

    def __init__(self, health: Health) -> None:
        self.health = health

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        health = self.health
        is_poll = isinstance(method, GetUpdates)
        if health.fatal is not None and is_poll:
            await asyncio.Event().wait()  # polling is being stopped: wait for it, asking nothing more
        name = method.__api_method__
        if is_poll:
            if not health.polls:
                health.polled = time.monotonic()
            health.polls += 1
        try:
            response = await make_request(bot, method)
        except TelegramConflictError as exc:
            health.failed_calls += 1
            health.results[(name, _result(exc))] += 1
            if not is_poll:
                raise
            return await self._wait_out_conflict(make_request, bot, method, exc)
        except TelegramUnauthorizedError as exc:
            health.failed_calls += 1
            health.results[(name, _result(exc))] += 1
            health.stop_with(
                Fatal(
                    ExitCode.TOKEN,
                    f"Telegram rejected the token while the bot ran ({name}: {exc.message}); "
                    "it was revoked or replaced: set BOT_TOKEN to the current one from @BotFather",
                )
            )
            if is_poll:
                await asyncio.Event().wait()  # the bot is stopping: no retry, no log line of aiogram's
            raise
        except Exception as exc:
            if is_poll:
                health.poll_failure = _reason(exc)
            health.failed_calls += 1
            health.results[(name, _result(exc))] += 1
            if isinstance(exc, TelegramRetryAfter):
                health.retry_after += exc.retry_after
            raise
        now = time.monotonic()
        health.results[(name, "ok")] += 1
        if is_poll:
            health.polled = now
            health.poll_failure = ""
            health.ready = True
        else:
            health.calls += 1
            health.delivered = now
            health.called(now)
        return response

    async def _wait_out_conflict(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
        exc: TelegramConflictError,
    ) -> Response[TelegramType]:
        """Another process polls with this token: said once, polled again every :data:`CONFLICT_RETRY` seconds
        here (aiogram logs nothing; more often when ``conflict_exit`` is short), and past ``conflict_exit``
        seconds the bot stops."""
        health = self.health
        name = method.__api_method__
        started = time.monotonic()
        health.conflict_since = started
        health.poll_failure = "409 Conflict"
        stop_in = f"; this bot stops in {health.conflict_exit:.0f} s" if health.conflict_exit else ""
        log.warning(
            "another process uses this token: Telegram answers getUpdates with 409 Conflict (%s); stop the "
            "other bot (or delete its webhook)%s",
            exc.message,
            stop_in,
        )
        while True:
            waited = time.monotonic() - started
            if health.conflict_exit and waited >= health.conflict_exit:
                health.stop_with(
                    Fatal(
                        ExitCode.CONFLICT,
                        f"another process has used this token for {waited:.0f} s (getUpdates: 409 Conflict): "
                        "run one bot per token; stop the other one, then start this one",
                    )
                )
            if health.fatal is not None:
                await asyncio.Event().wait()  # the bot is stopping: polling is cancelled here
            await asyncio.sleep(
                min(CONFLICT_RETRY, health.conflict_exit / 4, max(0.1, health.conflict_exit - waited))
                if health.conflict_exit
                else CONFLICT_RETRY
            )
            try:
                response = await make_request(bot, method)
            except TelegramConflictError as again:
                health.failed_calls += 1
                health.results[(name, _result(again))] += 1
                continue
            except BaseException:
                health.conflict_since = None
                raise
            health.conflict_since = None
            health.polled = time.monotonic()
            health.poll_failure = ""
            health.ready = True
            health.results[(name, "ok")] += 1
            log.info("getUpdates works again: the other process let go of the token")
            return response


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:200]


def _result(exc: Exception) -> str:
    """An error's kind for the metrics: ``badrequest``, ``forbidden``, ``retryafter`` (429), ``network``, ..."""
    name = type(exc).__name__
    return name.removeprefix("Telegram").removesuffix("Error").lower() or "error"


class Troubled(Protocol):
    """The database as the heartbeat reads it: its trouble now, if any."""

    trouble: Trouble | None


async def keep_beating(
    health: Health, outbox: Sized, database: Troubled, systemd: Notifier | None = None
) -> None:
    """The event loop's heartbeat, until cancelled: what waits in the outbox and the database's trouble too; and
    systemd told that the bot is ready once it is, and its watchdog pinged (:mod:`bot.systemd`)."""
    while True:
        trouble = database.trouble
        health.beat(len(outbox), database=trouble.value if trouble is not None else "")
        if systemd is not None:
            if health.ready:
                systemd.ready()
            systemd.ping()
        await asyncio.sleep(BEAT_EVERY)
