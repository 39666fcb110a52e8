"""A running ``python -m bot`` reports on itself and stops when it cannot go on — each a real process (forked from
the ``forkserver`` fixture's interpreter) against the fake Bot API.

- ``/healthz`` turns unhealthy while the event loop is blocked past ``HEALTH_STALL``, and healthy again after;
  ``/metrics`` still answers meanwhile, with the loop's check failing;
- ``/metrics`` shows the counters moving while people play;
- the token revoked while the bot runs ends it with the token's exit code and one line;
- a second bot on the same database stops at once, naming the first one's pid; so does ``migrate``.
"""

from __future__ import annotations

import asyncio
import os
import platform
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.instance import InstanceLock
from bot.settings import ExitCode
from bot.version import version
from tests.bot.conftest import bot_process_env, hosted_backends
from tests.bot.test_startup import OTHER_TOKEN, QUICK, run_bot, unused_port
from tests.fakebot import FakeTelegram
from tests.forkserver import PIPE, ForkServer, Process
from tests.test_release import head_commit

pytestmark = [
    pytest.mark.xdist_group("timing"),  # asserts on time: see tests/conftest.py
    pytest.mark.over_http("python -m bot in a process of its own, against the fake Telegram over HTTP"),
]


@dataclass
class Bot:
    process: Process
    log: Path
    port: int

    @property
    def stderr(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    async def get(self, path: str, timeout: float = 2.0) -> tuple[int, str]:
        """``GET path`` on the bot's ops port: status and text (0 when nothing answered in ``timeout``)."""
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.get(
                    f"http://127.0.0.1:{self.port}{path}", timeout=aiohttp.ClientTimeout(total=timeout)
                ) as response,
            ):
                return response.status, await response.text()
        except (aiohttp.ClientError, TimeoutError):
            return 0, ""

    async def ready(self, within: float = 15.0) -> tuple[int, str]:
        """``/healthz`` once the bot no longer starts: its first ``getUpdates`` came back (a long poll of 10 s of
        the bot's clock), or Telegram took its webhook."""
        return await self.until("/healthz", lambda _, text: not text.startswith("starting"), within)

    async def until(self, path: str, wanted: Callable[[int, str], bool], within: float) -> tuple[int, str]:
        deadline = time.monotonic() + within
        while True:
            status, text = await self.get(path)
            if wanted(status, text):
                return status, text
            if time.monotonic() > deadline:
                raise AssertionError(f"{path} never answered as wanted; last: {status} {text!r}")
            await asyncio.sleep(0.1)


@asynccontextmanager
async def running_bot(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path, module: str = "bot", **settings: str
) -> AsyncIterator[Bot]:
    """A bot process with ``/healthz`` and ``/metrics`` on a free port, started; killed if still running after."""
    async with spawned_bot(tg, forkserver, tmp_path, module, **settings) as bot:
        await tg.wait_for(lambda: "started;" in bot.stderr, timeout=30, what="the bot to start")
        yield bot


@asynccontextmanager
async def spawned_bot(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path, module: str = "bot", **settings: str
) -> AsyncIterator[Bot]:
    """:func:`running_bot`, not waiting for its start."""
    port = unused_port()
    env = bot_process_env(tg, tmp_path / "data" / "bot.sqlite3") | {
        "METRICS_PORT": str(port),
        "LOG_LEVEL": "INFO",
        **settings,
    }
    log = tmp_path / f"bot-{port}.log"
    with log.open("wb") as stderr:
        process = await forkserver.spawn(module, env=env, cwd=tmp_path, stderr=stderr)
    bot = Bot(process, log, port)
    token = tg.token
    try:
        yield bot
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert token not in bot.stderr, "the bot token is in the log"  # every line of every logger is redacted


async def test_healthz_is_unhealthy_while_the_event_loop_is_blocked_and_healthy_after(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    # A clock ten times as fast: the first long poll, after which the bot is no longer starting, lasts a second.
    async with running_bot(
        tg,
        forkserver,
        tmp_path,
        "tests.bot.stalling_bot",
        HEALTH_STALL="1",
        STALL_SECONDS="4",
        CLOCK_SPEED="10",
    ) as bot:
        assert await bot.ready() == (200, "ok\n")
        assert await healthcheck(bot.port) == (0, "ok")
        bot.process.send_signal(signal.SIGUSR2)
        status, text = await bot.until("/healthz", lambda status, _: status != 200, within=3.0)
        assert status == 503
        assert text.startswith("the event loop has been blocked for ")
        code, said = await healthcheck(bot.port)  # what the container's HEALTHCHECK runs
        assert code == 1 and said.startswith("the event loop has been blocked for "), said
        # /metrics is served by the server's own thread: at once, with the loop's check failing, so that an
        # alert says the loop is blocked rather than that the bot is gone.
        asked = time.monotonic()
        status, figures = await bot.get("/metrics", timeout=10)
        assert time.monotonic() - asked < 1.0
        assert status == 200, figures
        assert _figure(figures, 'cardbot_unhealthy{check="loop"}') == 1
        assert _figure(figures, 'cardbot_unhealthy{check="polling"}') == 0
        assert _figure(figures, "process_resident_memory_bytes") > 10e6
        assert _figure(figures, "cardbot_service_memory_bytes") > 10e6
        assert "cardbot_db_transactions_total" not in figures  # the loop's own figures wait for the loop
        await bot.until("/healthz", lambda status, _: status == 200, within=15.0)
        bot.process.terminate()
        assert await asyncio.wait_for(bot.process.wait(), QUICK) == 0


async def test_healthz_says_starting_through_a_slow_start_and_ok_once_the_first_poll_came_back(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    """The start-up waits on Telegram (its six command menus, each set half a second late): meanwhile the loop
    runs, and ``/healthz`` says that the bot is starting — not that it is healthy, nor that its loop is blocked."""
    tg.slow(3600, 30, "setMyCommands")  # 30 s of Telegram's time: half a real second at its speed
    async with spawned_bot(tg, forkserver, tmp_path, HEALTH_STALL="1", CLOCK_SPEED="10") as bot:
        said: list[tuple[int, str]] = []
        deadline = time.monotonic() + 30
        while "started;" not in bot.stderr and time.monotonic() < deadline:
            answer = await bot.get("/healthz")
            if answer[0] and (not said or said[-1] != answer):
                said.append(answer)
            await asyncio.sleep(0.1)
        print(f"/healthz during the start: {said}")
        assert said, "/healthz answered during the start"
        assert all(status == 503 and text.startswith("starting for ") for status, text in said), said
        assert all("no getUpdates has been answered yet" in text for _, text in said), said
        assert await bot.ready() == (200, "ok\n")
        bot.process.terminate()
        assert await asyncio.wait_for(bot.process.wait(), QUICK) == 0


async def healthcheck(port: int) -> tuple[int, str]:
    """``python -I -m bot.healthcheck`` in a fresh interpreter, as the image's HEALTHCHECK: exit code, output."""
    env = {"METRICS_PORT": str(port), "PATH": os.environ.get("PATH", "")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-m", "bot.healthcheck", env=env, stdout=PIPE, stderr=PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), 30)
    return process.returncode or 0, (out + err).decode().strip()


def _figure(metrics: str, name: str, missing: float | None = None) -> float:
    for line in metrics.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    if missing is not None:
        return missing
    raise AssertionError(f"{name} not in the metrics:\n{metrics}")


async def test_metrics_show_the_counters_moving_while_people_play(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    async with running_bot(tg, forkserver, tmp_path, HEARTBEAT_EVERY="1") as bot:
        status, before = await bot.get("/metrics")
        assert status == 200
        anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
        group = tg.add_group("Друзья", [anna, boris], admins=[anna])
        await anna.send(group, "/konchinka")
        await tg.wait_for(lambda: group.bot_messages(), what="the lobby")
        await tg.settle()
        status, after = await bot.get("/metrics")
        assert status == 200
        for name in (
            "cardbot_db_transactions_total",
            "cardbot_db_transaction_seconds_count",
            "cardbot_update_seconds_count",
            'cardbot_api_calls_total{method="sendMessage",outcome="ok"}',
            'cardbot_api_calls_total{method="getUpdates",outcome="ok"}',
        ):
            assert _figure(after, name) > _figure(before, name, missing=0.0), name
        assert _figure(after, 'cardbot_games_active{kind="konchinka"}') == 1
        assert _figure(after, 'cardbot_games_active{kind="king"}') == 0  # there at zero, not missing
        assert _figure(after, "process_resident_memory_bytes") > 10e6
        assert _figure(after, "process_open_fds") > 0
        assert (
            f'cardbot_build_info{{commit="{head_commit()}",python="{platform.python_version()}",version="{version()}"}} 1.0'
            in after
        )
        assert _figure(after, 'cardbot_unhealthy{check="polling"}') == 0
        assert _figure(after, "cardbot_last_backup_timestamp_seconds") == 0
        assert _figure(after, "cardbot_decision_seconds_count") == 0  # no bot player at this table yet
        for game, backend in hosted_backends().items():  # which «мастер» each game plays here
            assert _figure(after, f'cardbot_bot_players_backend{{backend="{backend}",game="{game}"}}') == 1
        assert _figure(after, "cardbot_thinker_worker_deaths_total") == 0
        assert _figure(after, "cardbot_thinker_fallbacks_total") == 0
        assert (
            _figure(after, "cardbot_outbox_waiting") >= 0 <= _figure(after, "cardbot_outbox_oldest_seconds")
        )
        # ... and the log's heartbeat says the same, a line a second here.
        await tg.wait_for(lambda: "alive: games konchinka 1;" in bot.stderr, timeout=10, what="an alive line")
        alive = next(line for line in bot.stderr.splitlines() if "alive: games konchinka 1;" in line)
        assert (
            " INFO bot.app: " in alive
            and "Bot API calls/s" in alive
            and "calls queued, the oldest for" in alive
        )
        assert _figure(after, "cardbot_uptime_seconds") > _figure(before, "cardbot_uptime_seconds")


async def test_a_token_revoked_while_running_stops_the_bot_with_the_tokens_exit_code(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    # Telegram's long poll (10 s of the bot's clock) lasts one real second on a clock ten times as fast.
    async with running_bot(tg, forkserver, tmp_path, CLOCK_SPEED="10") as bot:
        await tg.wait_for(lambda: tg.polls > 0, timeout=30, what="polling")
        tg.token = OTHER_TOKEN  # @BotFather's /revoke: the bot's token is no longer Telegram's
        revoked = time.monotonic()
        code = await asyncio.wait_for(bot.process.wait(), 30)
        assert time.monotonic() - revoked < 3  # the poll under way, then the next one: refused
    assert code == ExitCode.TOKEN, bot.stderr
    errors = [line for line in bot.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1, bot.stderr
    assert "stopped: Telegram rejected the token while the bot ran" in errors[0]
    assert "BOT_TOKEN" in errors[0]
    assert "Traceback" not in bot.stderr and "Failed to fetch updates" not in bot.stderr


async def test_a_second_bot_on_the_same_database_stops_at_once_naming_the_first(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    async with running_bot(tg, forkserver, tmp_path) as first:
        second = await run_bot(forkserver, bot_process_env(tg, database), tmp_path)
        assert second.code == ExitCode.INSTANCE, second.stderr
        assert len(second.errors) == 1 and "Traceback" not in second.stderr
        assert f"another bot runs on this database (pid {first.process.pid}" in second.errors[0]
        assert second.seconds < QUICK
        migrate = await run_bot(forkserver, bot_process_env(tg, database), tmp_path, "migrate")
        assert migrate.code == ExitCode.INSTANCE, migrate.stderr
        assert first.process.returncode is None  # the first one plays on
        # healthy once its first long poll (10 s) came back
        assert await first.ready() == (200, "ok\n")
        first.process.terminate()
        assert await asyncio.wait_for(first.process.wait(), QUICK) == 0
    lock = InstanceLock(database)
    lock.acquire()  # released with the first bot's exit
    lock.release()


async def test_in_webhook_mode_a_token_revoked_while_running_stops_the_bot_at_its_next_call(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    """No polling to notice it: the first call the bot makes after the revocation (an answer to a command) does."""
    port = unused_port()
    webhook = {
        "WEBHOOK_URL": f"http://127.0.0.1:{port}",
        "WEBHOOK_SECRET": "test-secret",
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
    }
    async with running_bot(tg, forkserver, tmp_path, **webhook) as bot:
        anna = tg.add_user("Аня")
        tg.token = OTHER_TOKEN
        await anna.send_private("/help")
        code = await asyncio.wait_for(bot.process.wait(), 30)
    assert code == ExitCode.TOKEN, bot.stderr
    errors = [line for line in bot.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "stopped: Telegram rejected the token while the bot ran" in errors[0], (
        bot.stderr
    )
    assert "Traceback" not in bot.stderr
