"""systemd's notifications (``Type=notify``, ``WatchdogSec=``): a running ``python -m bot`` tells the socket in
``NOTIFY_SOCKET`` that it is ready once it takes updates, pings the watchdog from its event loop — so a blocked
loop stops the pings and systemd restarts the bot —, and says that it stops. Here the test is systemd: it holds
the socket and reads what comes."""

from __future__ import annotations

import asyncio
import configparser
import contextlib
import signal
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.systemd import Notifier
from tests.bot.conftest import ROOT
from tests.bot.test_running import running_bot
from tests.bot.test_startup import QUICK
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer

Heard = list[tuple[float, str]]


@contextlib.asynccontextmanager
async def systemd_socket(address: str) -> AsyncIterator[Heard]:
    """A datagram socket at ``address`` (a path, or ``@name``: an abstract one), and what it hears, with when."""
    heard: Heard = []
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + address[1:] if address.startswith("@") else address)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()

    async def listen() -> None:
        while True:
            data = await loop.sock_recv(sock, 4096)
            heard.append((time.monotonic(), data.decode()))

    listening = asyncio.create_task(listen())
    try:
        yield heard
    finally:
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening
        sock.close()


async def test_a_notifier_sends_to_an_abstract_address_and_pings_at_half_the_watchdogs_period() -> None:
    address = f"@cardbot-test-{time.monotonic_ns()}"
    async with systemd_socket(address) as heard:
        notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "4000000"})
        assert notifier.ping_every == 2.0
        notifier.ready()
        notifier.ready()  # said once
        for now in (100.0, 101.0, 102.0, 103.5, 104.0):
            notifier.ping(now)
        notifier.stopping()
        await asyncio.sleep(0.1)
    assert [text for _, text in heard] == ["READY=1", "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1", "STOPPING=1"]
    # The watchdog meant for another process (WATCHDOG_PID), or no systemd at all: no pings.
    assert (
        Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}).ping_every == 0
    )
    assert not Notifier({}).notify("READY=1")


@pytest.mark.xdist_group("timing")
@pytest.mark.over_http("python -m bot in a process of its own, against the fake Telegram over HTTP")
async def test_a_running_bot_is_ready_pings_the_watchdog_from_its_loop_and_says_it_stops(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    address = str(tmp_path / "notify")
    async with (
        systemd_socket(address) as heard,
        running_bot(
            tg,
            forkserver,
            tmp_path,
            "tests.bot.stalling_bot",
            NOTIFY_SOCKET=address,
            WATCHDOG_USEC="1000000",  # pinged every half second
            STALL_SECONDS="4",
            CLOCK_SPEED="10",
        ) as bot,
    ):
        await bot.ready()
        await tg.wait_for(lambda: any(text == "READY=1" for _, text in heard), timeout=10, what="READY=1")
        await tg.wait_for(lambda: len(pings(heard)) >= 3, timeout=10, what="watchdog pings")
        blocked = time.monotonic()
        bot.process.send_signal(signal.SIGUSR2)  # the loop blocked for 4 s
        await asyncio.sleep(5)
        await tg.wait_for(lambda: pings(heard)[-1] > blocked + 4, timeout=10, what="pings again")
        gaps = [b - a for a, b in zip(pings(heard), pings(heard)[1:], strict=False)]
        print(f"watchdog pings: {len(pings(heard))}, the longest gap {max(gaps):.1f} s")
        assert max(gaps) >= 3.5  # nothing while the loop was blocked: systemd would have restarted it
        bot.process.terminate()
        assert await asyncio.wait_for(bot.process.wait(), QUICK) == 0
        await asyncio.sleep(0.1)
    said = [text for _, text in heard]
    assert said.count("READY=1") == 1
    assert said[-1] == "STOPPING=1"


def pings(heard: Heard) -> list[float]:
    return [at for at, text in heard if text == "WATCHDOG=1"]


def test_the_unit_waits_for_the_bots_ready_and_restarts_it_when_its_watchdog_starves() -> None:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "deploy" / "systemd" / "cardbot.service", encoding="utf-8")
    service = unit["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"  # not the bot players' workers
    watchdog = int(service["WatchdogSec"])
    assert watchdog > Settings.model_fields["health_stall"].default  # /healthz says «blocked» long before
    assert service["Restart"] == "on-failure"  # a watchdog's kill is a failure
    assert "AF_UNIX" in service["RestrictAddressFamilies"].split()  # the notification socket
