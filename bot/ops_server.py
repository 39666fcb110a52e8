"""``/healthz`` and ``/metrics`` over HTTP, from an event loop of their own on one thread.

The bot's own loop may be blocked (a runaway handler): this server must still say so, so it does not run there.
It is an :mod:`asyncio` server on a second loop in one thread, so a slow client costs a socket and a few kilobytes,
never a thread: at most :data:`MAX_CONNECTIONS` connections are served at once, a request must arrive whole within
:data:`READ_WITHIN` seconds and its answer be taken within :data:`WRITE_WITHIN`, and every connection carries one
request. When every place is taken, a newcomer takes the place of the connection served longest (it is closed):
slow clients holding every place cannot starve a health check, which sends its request at once and is answered
from memory in a moment, so a newer one rarely finds it still there. ``/metrics`` serves what this thread reads
itself (the health checks, the memory, the process: :meth:`Figures.read`) and what the bot's loop gathers
(:meth:`Figures.gather`, through :func:`asyncio.run_coroutine_threadsafe`), waiting for the latter at most
:data:`bot.health.ANSWER_WITHIN` seconds and not at all while the loop is known to be blocked: then it serves the
former alone, so that a blocked loop is scraped as such.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import Coroutine
from http import HTTPStatus
from typing import Any, Final, Protocol

from bot.health import ANSWER_WITHIN, Health

log = logging.getLogger(__name__)

MAX_CONNECTIONS: Final = 64
"""Connections served at once; a scraper and a health check need one each. A newcomer beyond them takes the
place of the connection served longest."""
READ_WITHIN: Final = 5.0
"""Seconds a client has to send its whole request (the request line and the headers)."""
WRITE_WITHIN: Final = 10.0
"""Seconds a client has to take the answer."""
MAX_REQUEST: Final = 8192
"""Bytes of request line and headers read at most."""

TEXT: Final = "text/plain; charset=utf-8"


class Figures(Protocol):
    """What ``/metrics`` serves (:class:`bot.metrics.Scrape`)."""

    content_type: str

    def read(self) -> bytes:
        """The figures this server's thread reads itself."""
        ...

    def gather(self) -> Coroutine[Any, Any, bytes]:
        """The figures only the bot's loop may read, gathered there."""
        ...


class OpsServer:
    """Listens on ``host:port`` as soon as it is made (an :class:`OSError` when the port is taken); serves once
    started, until closed."""

    def __init__(
        self,
        health: Health,
        loop: asyncio.AbstractEventLoop,
        metrics: Figures | None,
        host: str,
        port: int,
        *,
        max_connections: int = MAX_CONNECTIONS,
        read_within: float = READ_WITHIN,
    ) -> None:
        self.health = health
        self._bot_loop = loop
        self._metrics = metrics
        self.max_connections = max_connections
        self.read_within = read_within
        self._serving: dict[asyncio.Task[None], asyncio.StreamWriter] = {}
        """The connections being served, the longest served first."""
        self.evicted = 0
        """Connections closed to make room for a newcomer because :attr:`max_connections` were being served."""
        self.timed_out = 0
        """Connections closed because the request did not come (or the answer was not taken) in time."""
        self._socket = socket.create_server((host, port), backlog=max_connections)
        self.port = int(self._socket.getsockname()[1])
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._run, name="ops-http", daemon=True)

    @property
    def open(self) -> int:
        """Connections being served now."""
        return len(self._serving)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._serve, sock=self._socket, limit=MAX_REQUEST)
        )
        self._loop.run_forever()
        self._loop.close()

    def close(self) -> None:
        if self._thread.is_alive():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._shut(), self._loop).result(5)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
        else:
            self._loop.close()
        self._socket.close()

    async def _shut(self) -> None:
        """Stop listening, and end the connections still served (a slow client's) while the loop still runs:
        left to the loop's close, each would be destroyed half-way and complain."""
        if self._server is not None:
            self._server.close()
        serving = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in serving:
            task.cancel()
        await asyncio.gather(*serving, return_exceptions=True)

    def _make_room(self) -> None:
        """End the connection served longest: a slow client's, as a health check is answered in a moment. Its
        socket is closed now and its place given; what it awaited fails at once (a scrape's figures, which it no
        longer awaits, are bounded by their own deadline)."""
        task, writer = next(iter(self._serving.items()))
        del self._serving[task]
        self.evicted += 1
        writer.transport.abort()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        if self.open >= self.max_connections:
            self._make_room()
        self._serving[task] = writer
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.read_within)
            except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
                if task in self._serving:  # not one dropped for a newcomer
                    self.timed_out += 1
                return
            status, body, content_type = await self._answer(head)
            if task not in self._serving:
                return  # dropped for a newcomer while its figures were gathered
            writer.write(
                f"HTTP/1.1 {status.value} {status.phrase}\r\nContent-Type: {content_type}\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            try:
                await asyncio.wait_for(writer.drain(), WRITE_WITHIN)
            except (TimeoutError, OSError):
                if task in self._serving:
                    self.timed_out += 1
        finally:
            self._serving.pop(task, None)
            if writer.transport.get_write_buffer_size():
                writer.transport.abort()  # an answer not taken: drop it rather than wait
            else:
                writer.close()

    async def _answer(self, head: bytes) -> tuple[HTTPStatus, bytes, str]:
        parts = head.split(b"\r\n", 1)[0].split()
        if len(parts) != 3 or parts[0] != b"GET":
            return HTTPStatus.BAD_REQUEST, b"bad request\n", TEXT
        path = parts[1].split(b"?", 1)[0]
        if path == b"/healthz":
            problems = self.health.problems()
            body = ("\n".join(problems) if problems else "ok").encode() + b"\n"
            return (HTTPStatus.SERVICE_UNAVAILABLE if problems else HTTPStatus.OK), body, TEXT
        if path == b"/metrics" and self._metrics is not None:
            return HTTPStatus.OK, await self._figures(self._metrics), self._metrics.content_type
        return HTTPStatus.NOT_FOUND, b"not found\n", TEXT

    async def _figures(self, metrics: Figures) -> bytes:
        own = metrics.read()
        if self.health.blocked(time.monotonic()):
            return own  # the loop's figures cannot come: the health checks say why
        try:
            future = asyncio.run_coroutine_threadsafe(metrics.gather(), self._bot_loop)
            gathered: bytes = await asyncio.wait_for(asyncio.wrap_future(future), ANSWER_WITHIN)
        except Exception as exc:  # a loop slow to answer, or closed: the figures this thread has
            log.warning("metrics: the event loop did not gather its figures (%r): served without them", exc)
            return own
        return own + gathered
