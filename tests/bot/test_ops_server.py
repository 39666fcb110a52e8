"""The ``/healthz`` and ``/metrics`` server under slow clients: a bounded number of connections, each with a
deadline for its request, all on one thread — slow clients cannot grow threads or memory, and a newcomer takes
the place of the connection served longest, so a health check is answered however many slow clients hold the
places. Figures are printed (``-rP``); the bound is asserted, not a time."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import resource
import socket
import sys
import threading
import time

from bot.health import Health
from bot.ops_server import OpsServer

SLOW = 600
"""Slow connections opened at once (the probe that found the thread per connection held 2,748)."""


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


async def _get(port: int, path: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return data


async def _get_once_free(port: int, path: str, within: float = 10.0) -> bytes:
    """``path``'s answer once the server has a place for it (a refused or reset try is tried again)."""
    started = time.monotonic()
    while True:
        try:
            answer = await _get(port, path)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            answer = b""
        if answer or time.monotonic() - started > within:
            return answer
        await asyncio.sleep(0.1)


async def test_many_slow_connections_take_no_thread_and_no_more_than_the_places() -> None:
    health = Health(ready=True)
    server = OpsServer(
        health, asyncio.get_running_loop(), None, "127.0.0.1", 0, max_connections=32, read_within=1.0
    )
    server.start()
    try:
        assert (await _get(server.port, "/healthz")).startswith(b"HTTP/1.1 200 OK")
        threads, memory = threading.active_count(), _rss_mb()
        socks = []
        for _ in range(SLOW):
            sock = socket.socket()
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect(("127.0.0.1", server.port))
            socks.append(sock)
        await asyncio.sleep(0.3)
        for sock in socks:  # half a request line, and nothing more
            with contextlib.suppress(OSError):
                sock.send(b"GET /heal")
        await asyncio.sleep(0.5)
        peak_threads, peak_open = threading.active_count(), server.open
        assert peak_threads == threads
        assert peak_open <= 32
        started = time.monotonic()
        answer = await _get_once_free(server.port, "/healthz")  # a place is made for it
        assert answer.startswith(b"HTTP/1.1 200 OK"), answer
        assert server.evicted > 0, "slow ones beyond the places made room for newer ones"
        print(
            f"{SLOW} slow connections: threads {threads} -> {peak_threads}, open at most {peak_open}, "
            f"dropped for a newcomer {server.evicted}, timed out {server.timed_out}, RSS {memory:.0f} -> {_rss_mb():.0f} MB; "
            f"/healthz answered {time.monotonic() - started:.2f} s after"
        )
        for sock in socks:
            sock.close()
        assert (await _get_once_free(server.port, "/nothing")).startswith(b"HTTP/1.1 404")
        assert (await _get(server.port, "/metrics")).startswith(b"HTTP/1.1 404")  # no metrics given
    finally:
        server.close()


async def test_closing_the_server_ends_the_connections_it_still_serves() -> None:
    """A client that never sends its request is still being served when the bot stops: the server ends that
    connection while its loop runs, instead of leaving it to be destroyed half-way when the loop closes."""
    health = Health(ready=True)
    server = OpsServer(health, asyncio.get_running_loop(), None, "127.0.0.1", 0, read_within=30.0)
    server.start()
    sock = socket.create_connection(("127.0.0.1", server.port))
    try:
        deadline = time.monotonic() + 5
        while server.open == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert server.open == 1, "the silent client is being served"
        complaints: list[object] = []
        previous, sys.unraisablehook = sys.unraisablehook, complaints.append
        try:
            server.close()
            gc.collect()
        finally:
            sys.unraisablehook = previous
        assert server.open == 0, "its connection was ended"
        assert complaints == []
        sock.settimeout(2)
        assert sock.recv(1) == b"", "the client sees the connection closed"
    finally:
        sock.close()


async def _hold_slowly(port: int, stop: asyncio.Event, opened: list[int]) -> None:
    """A slow client that keeps a connection: half a request line and nothing more, opened again whenever the
    server drops it (as a hostile one on the compose network would)."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        opened[0] += 1
        try:
            writer.write(b"GET /heal")
            await writer.drain()
            waits = {asyncio.ensure_future(reader.read()), asyncio.ensure_future(stop.wait())}
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for wait in waits:
                wait.cancel()
        except OSError:
            pass
        finally:
            writer.transport.abort()
        await asyncio.sleep(0.05)


async def _health_status(port: int) -> bytes:
    """One health check as the container's does it: a fresh connection, 5 s for the whole answer; its status
    line (``b""``: no answer)."""
    try:
        return (await asyncio.wait_for(_get(port, "/healthz"), 5)).split(b"\r\n", 1)[0]
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        return b""


async def test_health_is_answered_while_slow_clients_hold_every_place() -> None:
    """Twice as many slow clients as places, each holding on for longer than the test and coming back when
    dropped: every health check is still answered (a newcomer takes the place of the connection that has waited
    longest for its client), and no more than the places are ever served at once."""
    places, checks = 16, 30
    server = OpsServer(
        Health(ready=True),
        asyncio.get_running_loop(),
        None,
        "127.0.0.1",
        0,
        max_connections=places,
        read_within=60.0,
    )
    server.start()
    healthy = await _health_status(server.port)
    assert healthy.startswith(b"HTTP/1.1 "), healthy
    stop, opened = asyncio.Event(), [0]
    holders = [asyncio.create_task(_hold_slowly(server.port, stop, opened)) for _ in range(2 * places)]
    try:
        deadline = time.monotonic() + 10
        while server.open < places and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert server.open == places, "the slow clients hold every place"
        answered = 0
        for _ in range(checks):
            answered += await _health_status(server.port) == healthy  # the truth, as without the slow ones
            assert server.open <= places
            await asyncio.sleep(0.05)
        print(
            f"{2 * places} slow clients on {places} places: {answered} of {checks} health checks answered, "
            f"slow connections opened {opened[0]}, dropped for a newcomer {server.evicted}"
        )
        assert answered == checks
    finally:
        stop.set()
        await asyncio.gather(*holders)
        server.close()
