"""``/healthz`` tells the truth about a running ``python -m bot`` (a real process against the fake Bot API):

- another process polling with the same token (409 Conflict): unhealthy at once, said in one ``WARNING`` line
  («another process uses this token») instead of aiogram's line per retry, healthy again when the other one
  stops, and past ``CONFLICT_EXIT_AFTER`` the bot stops with its own exit code (9);
- the Bot API failing every ``getUpdates`` (a proxy's 502 page: Telegram unreachable) while the bot is idle:
  unhealthy past ``HEALTH_API_LIMIT`` with the reason, healthy again once a poll succeeds;
- the database's disk full: unhealthy as soon as a write fails, healthy once a write succeeds again.

Each prints /healthz before and during the trouble (``-rP`` shows it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from pathlib import Path

import aiohttp
import pytest

from bot.settings import ExitCode
from tests.bot.test_running import running_bot
from tests.bot.test_startup_disk import fill, small_disk
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer

pytestmark = [
    pytest.mark.xdist_group("timing"),  # asserts on time: see tests/conftest.py
    pytest.mark.over_http(
        "python -m bot in a process of its own: /healthz over HTTP, polling failing in real time"
    ),
]

LIMIT = "3"
"""HEALTH_API_LIMIT: real seconds of failing polls before /healthz says so (on a clock ten times as fast, the
long poll lasts one real second)."""


async def rival_poller(tg: FakeTelegram, stop: asyncio.Event) -> None:
    """Another process with the same token: polls again at once whenever its poll ends (by a 409 or not)."""
    url = f"{tg.base_url}/bot{tg.token}/getUpdates"
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with session.post(url, json={"timeout": 1}) as response:
                    await response.read()


async def test_another_process_polling_with_the_token_is_said_once_and_ends_the_bot_with_its_own_code(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    async with running_bot(
        tg, forkserver, tmp_path, HEALTH_API_LIMIT=LIMIT, CONFLICT_EXIT_AFTER="8", CLOCK_SPEED="10"
    ) as bot:
        before = await bot.ready()
        assert before == (200, "ok\n")
        stop = asyncio.Event()
        rival = asyncio.create_task(rival_poller(tg, stop))
        status, during = await bot.until("/healthz", lambda status, _: status != 200, within=5)
        print(f"409 Conflict: /healthz before {before}, during {(status, during)}")
        assert status == 503
        assert during.startswith("another process uses this token: Telegram has answered getUpdates with 409")
        # The other one stops: the next poll succeeds and the bot is healthy again.
        stop.set()
        await rival
        await bot.until("/healthz", lambda status, _: status == 200, within=10)
        # It comes back and stays: the bot stops with its own code, in one line.
        stop = asyncio.Event()
        rival = asyncio.create_task(rival_poller(tg, stop))
        try:
            code = await asyncio.wait_for(bot.process.wait(), 40)
        finally:
            stop.set()
            await rival
    assert code == ExitCode.CONFLICT, bot.stderr
    log = bot.stderr
    warnings = [line for line in log.splitlines() if "another process uses this token" in line]
    assert len(warnings) == 2 and all(" WARNING bot.health: " in line for line in warnings), log
    assert "Failed to fetch updates" not in log and "Traceback" not in log
    errors = [line for line in log.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "stopped: another process has used this token for " in errors[0], log
    assert tg.token not in log


async def test_polls_failing_while_idle_make_the_bot_unhealthy_with_the_reason_and_healthy_again(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    async with running_bot(tg, forkserver, tmp_path, HEALTH_API_LIMIT=LIMIT, CLOCK_SPEED="10") as bot:
        before = await bot.ready()
        assert before == (200, "ok\n")
        tg.fail(3600, "getUpdates", code=502, html=True)  # a proxy's error page: the Bot API behind is down
        status, during = await bot.until("/healthz", lambda status, _: status != 200, within=10)
        print(f"Bot API unreachable: /healthz before {before}, during {(status, during)}")
        assert status == 503 and during.startswith("getUpdates has failed for "), during
        assert "Bad Gateway" in during or "502" in during, during
        tg.heal()
        await bot.until("/healthz", lambda status, _: status == 200, within=15)
        assert tg.token not in bot.stderr


async def test_a_full_disk_under_the_database_makes_the_bot_unhealthy_until_a_write_succeeds(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    with small_disk(tmp_path / "disk", size="4m") as disk:
        env = {"DATABASE_PATH": str(disk / "data" / "bot.sqlite3")}
        async with running_bot(
            tg, forkserver, tmp_path, HEALTH_API_LIMIT=LIMIT, CLOCK_SPEED="10", **env
        ) as bot:
            before = await bot.ready()
            assert before == (200, "ok\n")
            fill(disk)
            anna = tg.add_user("Аня")
            deadline, n = time.monotonic() + 30, 0
            while (
                time.monotonic() < deadline
            ):  # each update's mark is a write; the WAL's free pages take some first
                n += 1
                await anna.send_private(f"/help {n}")
                status, during = await bot.get("/healthz")
                if status != 200:
                    break
                await asyncio.sleep(0.1)
            print(f"full disk: /healthz before {before}, during {(status, during)}")
            assert status == 503, during
            assert during.startswith("the database cannot be written: it is full (no space left on the disk)")
            os.unlink(disk / "filler")
            await anna.send_private("/help")
            await bot.until("/healthz", lambda status, _: status == 200, within=15)
