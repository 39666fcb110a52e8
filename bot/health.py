"""Is the running bot alive? The event loop's heartbeat, what Telegram last answered, and ``/healthz``.

The loop itself beats (:meth:`Health.beat`, every :data:`BEAT_EVERY` seconds from a task of its own); every call
to the Bot API passes :class:`ApiWatch`, which notes when ``getUpdates`` last came back and when a call last
succeeded. ``/healthz`` and ``/metrics`` are served by a small HTTP server on a thread of its own
(:class:`OpsServer`): a blocked event loop cannot answer anything, but the thread can still say that it is
blocked, and for how long. ``/healthz`` answers 200 ``ok`` or 503 with the reasons, one a line:

- the loop has not beaten for ``stall`` seconds (a handler that blocks it, a runaway computation);
- in polling mode, ``getUpdates`` has not come back for :data:`POLL_LIMIT` seconds (the polling task is dead);
- messages wait in the outbox and no call to the Bot API has succeeded for :data:`DELIVERY_LIMIT` seconds.

A 401 from any call means the token was revoked while the bot ran: :class:`ApiWatch` hands it to
:attr:`Health.fatal`, and the bot stops with :attr:`ExitCode.TOKEN` (see :func:`bot.app.run`).

Times here are ``time.monotonic()`` real seconds: what matters is whether the process is stuck, not the bot's
(possibly accelerated) game clock.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.exceptions import TelegramRetryAfter, TelegramUnauthorizedError
from aiogram.methods import GetUpdates, Response, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.settings import ExitCode

log = logging.getLogger(__name__)

BEAT_EVERY: Final = 0.5
"""Seconds between two beats of the event loop."""
POLL_LIMIT: Final = 90.0
"""Seconds without a ``getUpdates`` coming back (a long poll lasts 10 s, a failure is retried within 5 s)."""
DELIVERY_LIMIT: Final = 180.0
"""Seconds messages may wait while no call to the Bot API succeeds before the bot counts as unhealthy."""
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
class Health:
    """What the event loop and the Bot API calls report, read by ``/healthz``'s thread (floats and ints only:
    each is written and read whole, so the thread needs no lock)."""

    stall: float = 10.0
    """Seconds without a beat after which the loop counts as blocked."""
    polling: bool = True
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
    fatal: Fatal | None = None
    on_fatal: asyncio.Event = field(default_factory=asyncio.Event)

    def beat(self, queued: int, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.worst_lag = max(self.worst_lag, now - self.beaten - BEAT_EVERY)
        self.beaten = now
        if queued and not self.queued:
            self.waiting_since = now
        self.queued = queued

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
        """Why the bot is unhealthy; empty when it is healthy."""
        now = time.monotonic() if now is None else now
        found = []
        if self.fatal is not None:
            found.append(f"stopping: {self.fatal.message}")
        if self.blocked(now):
            found.append(f"the event loop has been blocked for {now - self.beaten:.1f} s")
        if self.polling and now - self.polled > POLL_LIMIT:
            found.append(f"getUpdates has not come back for {now - self.polled:.0f} s")
        stuck = now - max(self.delivered, self.waiting_since)
        if self.queued and stuck > DELIVERY_LIMIT:
            found.append(
                f"messages wait for {self.queued} chats and no Bot API call has succeeded for {stuck:.0f} s"
            )
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
        try:
            response = await make_request(bot, method)
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
                health.polled = time.monotonic()
            health.failed_calls += 1
            health.results[(name, _result(exc))] += 1
            if isinstance(exc, TelegramRetryAfter):
                health.retry_after += exc.retry_after
            raise
        now = time.monotonic()
        health.results[(name, "ok")] += 1
        if is_poll:
            health.polled = now
        else:
            health.calls += 1
            health.delivered = now
            health.called(now)
        return response


def _result(exc: Exception) -> str:
    """An error's kind for the metrics: ``badrequest``, ``forbidden``, ``retryafter`` (429), ``network``, ..."""
    name = type(exc).__name__
    return name.removeprefix("Telegram").removesuffix("Error").lower() or "error"


async def keep_beating(health: Health, queued: Callable[[], int]) -> None:
    """The event loop's heartbeat, until cancelled."""
    while True:
        health.beat(queued())
        await asyncio.sleep(BEAT_EVERY)


class OpsServer:
    """``/healthz`` and ``/metrics`` over HTTP, served from a thread of their own."""

    def __init__(
        self,
        health: Health,
        loop: asyncio.AbstractEventLoop,
        metrics: Callable[[], Coroutine[Any, Any, tuple[bytes, str]]] | None,
        host: str,
        port: int,
    ) -> None:
        """Listen on ``host:port`` at once (an :class:`OSError` when it is taken); serve once started."""
        self.health = health
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.answer(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # one line per scrape would drown the log

        self._loop = loop
        self._metrics = metrics
        self._http = ThreadingHTTPServer((host, port), Handler)
        self._http.daemon_threads = True
        self.port = int(self._http.server_address[1])
        self._thread = threading.Thread(target=self._http.serve_forever, name="ops-http", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        if self._thread.is_alive():
            self._http.shutdown()
            self._thread.join(5)
        self._http.server_close()

    def answer(self, request: BaseHTTPRequestHandler) -> None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            problems = self.health.problems()
            status = HTTPStatus.SERVICE_UNAVAILABLE if problems else HTTPStatus.OK
            body = ("\n".join(problems) if problems else "ok").encode() + b"\n"
            self._send(request, status, body, "text/plain; charset=utf-8")
        elif path == "/metrics" and self._metrics is not None:
            if self.health.blocked(time.monotonic()):
                message = b"the bot could not gather its figures: the event loop is blocked\n"
                self._send(request, HTTPStatus.SERVICE_UNAVAILABLE, message, "text/plain; charset=utf-8")
                return
            try:
                future = asyncio.run_coroutine_threadsafe(self._metrics(), self._loop)
                body, content_type = future.result(ANSWER_WITHIN)
            except Exception as exc:  # a blocked or closed loop: say so rather than hang the scraper
                message = f"the bot could not gather its figures: {type(exc).__name__}\n".encode()
                self._send(request, HTTPStatus.SERVICE_UNAVAILABLE, message, "text/plain; charset=utf-8")
                return
            self._send(request, HTTPStatus.OK, body, content_type)
        else:
            self._send(request, HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    @staticmethod
    def _send(request: BaseHTTPRequestHandler, status: HTTPStatus, body: bytes, content_type: str) -> None:
        with contextlib.suppress(OSError):  # the client went away
            request.send_response(status)
            request.send_header("Content-Type", content_type)
            request.send_header("Content-Length", str(len(body)))
            request.end_headers()
            request.wfile.write(body)
