"""Start-up that fails loudly and fast: each cause is one log line naming the setting to fix, and an exit code.

Most causes are checked in-process, against the in-process fake Telegram: ``bot.app.run`` and ``bot.ops.check``,
what ``python -m bot`` runs once it read the settings and set the log up (:func:`in_process`), and ``python -m
bot`` itself (``main``, the ``python_m_bot`` fixture) where it stops before any loop runs. A bot that cannot start
must end within seconds, and leave no thread behind (a database thread never closed keeps a process from ending).

What needs a process runs as one, as an operator runs it (forked from the ``forkserver`` fixture's interpreter),
against the fake Bot API over HTTP (or a port nobody listens on): a Bot API that cannot be reached, a webhook port
already taken, SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sqlite3
import threading
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import ops
from bot.app import run
from bot.settings import ExitCode, StartupError
from bot.version import version
from tests.bot.conftest import Exited, PythonMBot, bot_process_env, hosted_backends, make_settings
from tests.fakebot import FakeTelegram
from tests.forkserver import PIPE, ForkServer
from tests.test_release import head_commit

OVER_HTTP = pytest.mark.over_http(
    "python -m bot in a process of its own, against the fake Telegram over HTTP"
)
TIMING = pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py

OTHER_TOKEN = "987654321:AAE" + "y" * 32
QUICK = 10.0
"""Real seconds within which a failed start, or one stopped by SIGTERM, must have ended. A forked bot has nothing
to import and needs 0.1-2 s (up to 8 s seen on a machine loaded four times over); a hang (a database thread never
closed, an answer never coming) or a wait for Telegram's 10 s timeout takes longer."""


def unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def run_bot(
    forkserver: ForkServer, env: dict[str, str], cwd: Path, *args: str, timeout: float = 60.0
) -> Exited:
    """``python -m bot args`` to its end: exit code, output and how long it took."""
    started = time.monotonic()
    process = await forkserver.spawn("bot", *args, env=env, cwd=cwd, stdout=PIPE, stderr=PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(f"python -m bot {' '.join(args)} still running after {timeout} s") from None
    token = env.get("BOT_TOKEN", "").strip()
    if len(token) > 20:  # a real-looking token: never in the log (a malformed one is not the bot's)
        assert token not in err.decode() and token not in out.decode(), "the bot token is in the log"
    return Exited(process.returncode or 0, out.decode(), err.decode(), time.monotonic() - started)


def assert_fails_fast(result: Exited, code: ExitCode, setting: str) -> None:
    assert result.code == code, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.errors) == 1, result.stderr
    assert setting in result.errors[0], result.stderr
    assert result.seconds < QUICK


@dataclass
class Ended:
    """How a command run in-process (:func:`in_process`) ended: the exit code ``python -m bot`` would exit with,
    what the command printed, the log, and its ERROR lines."""

    code: int
    stdout: str
    log: str
    errors: list[str]


async def in_process(
    command: Awaitable[int | None], capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> Ended:
    """``command`` (``bot.ops.check(...)``, ``bot.app.run(...)``: what ``python -m bot`` runs once the settings are
    read and the log set up) to its end, within ``QUICK`` real seconds, leaving no thread running that would keep
    a process from ending. Its exit code is what it returns (None: ``OK``), or a :class:`StartupError`'s, whose
    message ``python -m bot`` logs as one more ERROR line (``cannot start: ...``)."""
    before = set(threading.enumerate())
    capsys.readouterr()
    caplog.clear()
    try:
        code = await asyncio.wait_for(command, QUICK)
        said = []
    except StartupError as error:
        code, said = error.code, [f"cannot start: {error.message}"]
    left = [
        t
        for t in threading.enumerate()
        if t not in before and not t.daemon and not t.name.startswith("inprocess")  # the test loop's executor
    ]
    for thread in left:
        thread.join(QUICK)
    assert [t.name for t in left if t.is_alive()] == []
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] + said
    return Ended(ExitCode.OK if code is None else code, capsys.readouterr().out, caplog.text, errors)


def assert_ended(result: Ended, code: ExitCode, setting: str) -> None:
    """:func:`assert_fails_fast` of a command run in-process (its time is bounded by :func:`in_process`)."""
    assert result.code == code, result.log
    assert "Traceback" not in result.log, result.log
    assert len(result.errors) == 1, result.errors
    assert setting in result.errors[0], result.errors


@OVER_HTTP
@TIMING
async def test_an_unreachable_bot_api_stops_the_bot_naming_telegram_api_url(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    env = bot_process_env(tg, tmp_path / "data" / "bot.sqlite3") | {
        "TELEGRAM_API_URL": f"http://127.0.0.1:{unused_port()}"
    }
    result = await run_bot(forkserver, env, tmp_path)
    assert_fails_fast(result, ExitCode.UNREACHABLE, "TELEGRAM_API_URL")
    assert "cannot reach the Bot API" in result.errors[0]


async def test_a_token_telegram_rejects_stops_the_bot_naming_bot_token(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tg, tmp_path / "data" / "bot.sqlite3", bot_token=OTHER_TOKEN)
    result = await in_process(run(settings, session=tg.session()), capsys, caplog)
    assert_ended(result, ExitCode.TOKEN, "BOT_TOKEN")
    assert (
        OTHER_TOKEN not in result.log and OTHER_TOKEN not in result.errors[0]
    )  # the secret stays out of the log
    assert not (tmp_path / "data").exists()  # Telegram is asked before anything is created


async def test_a_database_folder_that_cannot_be_made_stops_the_bot_naming_database_path(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    settings = make_settings(tg, blocker / "bot.sqlite3")
    result = await in_process(run(settings, session=tg.session()), capsys, caplog)
    assert_ended(result, ExitCode.DATABASE, "DATABASE_PATH")


async def test_a_file_that_is_not_a_database_stops_the_bot_instead_of_hanging(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A connection opened before the migration fails must be closed (its thread) or the process never ends."""
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"this is not an SQLite database, just some bytes " * 100)
    result = await in_process(run(make_settings(tg, path), session=tg.session()), capsys, caplog)
    assert_ended(result, ExitCode.DATABASE, "DATABASE_PATH")
    assert "not a database" in result.errors[0]


@OVER_HTTP
@TIMING
async def test_a_webhook_port_already_taken_stops_the_bot_naming_webhook_port(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = bot_process_env(tg, tmp_path / "data" / "bot.sqlite3") | {
            "WEBHOOK_URL": "https://bot.example.org",
            "WEBHOOK_SECRET": "test-secret",
            "WEBHOOK_HOST": "127.0.0.1",
            "WEBHOOK_PORT": str(port),
        }
        result = await run_bot(forkserver, env, tmp_path)
    assert_fails_fast(result, ExitCode.WEBHOOK, "WEBHOOK_PORT")
    assert tg.webhook_url is None


async def test_a_metrics_port_already_taken_stops_the_bot_before_the_database_is_touched(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "data" / "bot.sqlite3"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = make_settings(tg, path, metrics_host="127.0.0.1", metrics_port=port)
        result = await in_process(run(settings, session=tg.session()), capsys, caplog)
    assert_ended(result, ExitCode.SETTINGS, "METRICS_PORT")
    assert not path.exists()  # neither created nor migrated: the next start with a free port does it


# --- python -m bot check ------------------------------------------------------------------------------------


async def test_check_passes_against_a_working_bot_api_and_says_what_it_checked(
    tg: FakeTelegram, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tg, tmp_path / "data" / "bot.sqlite3")
    assert (await in_process(ops.migrate(settings), capsys, caplog)).code == ExitCode.OK
    result = await in_process(ops.check(settings, session=tg.session()), capsys, caplog)
    assert result.code == ExitCode.OK, result.log
    assert [line.split(":", 1)[0] for line in result.stdout.splitlines()] == [
        "settings",
        "texts",
        "database",
        "telegram",
    ]
    assert f"@{tg.bot_username}" in result.stdout
    assert (tmp_path / "data" / "bot.sqlite3").is_file()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"database_path": Path("/dev/null/bot.sqlite3")}, ExitCode.DATABASE),
        ({"bot_token": OTHER_TOKEN}, ExitCode.TOKEN),
    ],
)
async def test_check_exit_code_says_which_check_failed(
    tg: FakeTelegram,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    change: dict[str, object],
    code: ExitCode,
) -> None:
    """The settings' check and Telegram's unreachable have tests of their own below: the one stops ``python -m
    bot check`` before it runs a loop, the other is a process's."""
    settings = make_settings(tg, tmp_path / "data" / "bot.sqlite3")
    assert (await in_process(ops.migrate(settings), capsys, caplog)).code == ExitCode.OK
    result = await in_process(
        ops.check(make_settings(tg, settings.database_path, **change), session=tg.session()), capsys, caplog
    )
    assert result.code == code, result.log
    assert "Traceback" not in result.log


def test_check_exit_code_says_the_settings_are_wrong(tmp_path: Path, python_m_bot: PythonMBot) -> None:
    result = python_m_bot(
        {"BOT_TOKEN": OTHER_TOKEN, "DATABASE_PATH": str(tmp_path / "bot.sqlite3"), "TURN_TIMEOUT": "soon"},
        tmp_path,
        "check",
    )
    assert result.code == ExitCode.SETTINGS, result.stderr
    assert "Traceback" not in result.stderr


@OVER_HTTP
@TIMING
async def test_check_exit_code_says_the_bot_api_cannot_be_reached(
    tg: FakeTelegram,
    forkserver: ForkServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    assert (await in_process(ops.migrate(make_settings(tg, database)), capsys, caplog)).code == ExitCode.OK
    env = bot_process_env(tg, database)
    result = await run_bot(
        forkserver, env | {"TELEGRAM_API_URL": f"http://127.0.0.1:{unused_port()}"}, tmp_path, "check"
    )
    assert result.code == ExitCode.UNREACHABLE, result.stderr
    assert "Traceback" not in result.stderr
    assert result.seconds < QUICK


# --- stopping ----------------------------------------------------------------------------------------------


@OVER_HTTP
@TIMING
@pytest.mark.parametrize("mode", ["polling", "webhook"])
async def test_sigterm_stops_a_running_bot_cleanly_and_quickly(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path, mode: str
) -> None:
    """What ``docker stop`` sends: the bot ends with exit code 0 within seconds, in either mode (with its pool of
    bot players' workers running, as in production)."""
    env = bot_process_env(tg, tmp_path / "data" / "bot.sqlite3") | {"LOG_LEVEL": "INFO", "BOT_THINKERS": "2"}
    if mode == "webhook":
        port = unused_port()
        env |= {
            "WEBHOOK_URL": f"http://127.0.0.1:{port}",
            "WEBHOOK_SECRET": "test-secret",
            "WEBHOOK_HOST": "127.0.0.1",
            "WEBHOOK_PORT": str(port),
        }
    process = await forkserver.spawn("bot", env=env, cwd=tmp_path, stdout=PIPE, stderr=PIPE)
    try:
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start")
        if mode == "webhook":
            await tg.wait_for(lambda: tg.webhook_url is not None, timeout=30, what="the webhook")
        process.terminate()
        started = time.monotonic()
        _, err = await asyncio.wait_for(process.communicate(), QUICK)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, err.decode()
    assert time.monotonic() - started < QUICK
    log = err.decode()
    assert "Traceback" not in log
    assert " WARNING " not in log and " ERROR " not in log, log  # a stop asked for is no problem
    if mode == "polling":
        assert "INFO aiogram.dispatcher: Received SIGTERM signal" in log
    started_lines = [line for line in log.splitlines() if " started; " in line]
    assert len(started_lines) == 1, log  # one INFO line: version, mode, database, texts, games resumed
    line = started_lines[0]
    assert (
        f" INFO bot.app: bot @konchinka_test_bot {version()} (commit {head_commit()}) started; mode {mode}"
        in line
    ), line
    assert f"database {tmp_path.resolve()}" in line and "texts ru " in line and ", en " in line
    assert line.endswith("; 0 active games resumed")
    if mode == "webhook":  # «started» once the port listens, not before: setWebhook came first
        assert "(listening on 127.0.0.1:" in line
    masters = ", ".join(f"{game}: {backend}" for game, backend in hosted_backends().items())
    assert "bot players' «мастер»: " in line  # which «мастер» each game plays on this machine
    assert all(f"{game}: {backend}" in line for game, backend in hosted_backends().items()), masters


# --- damage beside and in the database ---------------------------------------------------------------------

POISONS = {
    "a list as the key": b'[["g1"], [1, 2, "x"]]',
    "nested too deep": b"[" * 20_000 + b"]" * 20_000,
    "a number SQLite cannot store": b'["g1", [100000000000000000000000000000, 2, "x"]]',
}


@OVER_HTTP
@TIMING
@pytest.mark.parametrize("poison", list(POISONS))
async def test_a_damaged_line_in_the_live_journal_is_skipped_and_the_bot_runs_and_stops(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path, poison: str
) -> None:
    """The journal of delivered messages (``-live``) with a damaged line among good ones: one warning, the bot
    runs (answers /start) and stops at SIGTERM within seconds. Before, each of these hung the process at start
    (the database's thread never closed), neither running nor exiting, so no supervisor restarted it."""
    database = tmp_path / "data" / "bot.sqlite3"
    database.parent.mkdir()
    Path(f"{database}-live").write_bytes(
        b'["g7", [1, 2, "a"]]\n' + POISONS[poison] + b'\n["g8", [1, 3, "b"]]\n'
    )
    env = bot_process_env(tg, database) | {"LOG_LEVEL": "INFO"}
    process = await forkserver.spawn("bot", env=env, cwd=tmp_path, stdout=PIPE, stderr=PIPE)
    try:
        with contextlib.suppress(TimeoutError):
            await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start")
        anna = tg.add_user("Аня")
        await anna.send_private("/start")
        await tg.wait_for(lambda: anna.private_chat.bot_messages(), timeout=30, what="an answer to /start")
        process.terminate()
        _, err = await asyncio.wait_for(process.communicate(), QUICK)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    log = err.decode()
    assert process.returncode == 0, log
    assert "Traceback" not in log and " ERROR " not in log, log
    warnings = [line for line in log.splitlines() if " WARNING " in line]
    assert len(warnings) == 1 and "1 damaged lines" in warnings[0], log


@OVER_HTTP
@TIMING
async def test_a_failure_at_start_after_the_database_opened_exits_at_once_with_one_line(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    """A value read at start that the bot cannot take (a hand-edited row: a rate stamp that is no number) stops
    the start with exit code 1 and one ERROR line naming the exception and where it came from — no traceback —,
    everything opened closed again so the process ends at once."""
    database = tmp_path / "data" / "bot.sqlite3"
    env = bot_process_env(tg, database)
    assert (await run_bot(forkserver, env, tmp_path, "migrate")).code == ExitCode.OK
    with contextlib.closing(sqlite3.connect(database)) as conn, conn:
        conn.execute("INSERT INTO rate_stamps (chat_id, stamp) VALUES (-100, 'damaged')")
    result = await run_bot(forkserver, env, tmp_path, timeout=QUICK * 3)
    assert result.code == ExitCode.CRASH, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.errors) == 1, result.stderr
    assert "cannot start: unexpected ValueError" in result.errors[0], result.errors
    assert "bot/storage/repo.py:" in result.errors[0], result.errors
    assert result.seconds < QUICK
