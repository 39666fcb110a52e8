"""The log: the token never in it, ``LOG_FORMAT=json`` one object a line, the plain form the default.

The formatter is checked on lines the libraries write (aiogram's request URLs hold the token); a real bot
process then runs in JSON with a token-shaped secret and its whole log is read line by line.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path

import pytest

from bot.logs import REDACTED, JsonLines, LogFormat, Redacting, error_line
from tests.bot.test_running import running_bot
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer

pytestmark = pytest.mark.over_http(
    "python -m bot in a process of its own, against the fake Telegram over HTTP"
)

TOKEN = "123456789:AAE" + "x" * 32


def _record(
    message: str, *args: object, name: str = "aiogram.dispatcher", exc: bool = False
) -> logging.LogRecord:
    record = logging.LogRecord(name, logging.ERROR, __file__, 1, message, args, None)
    if exc:
        try:
            raise OSError(f"Can not write request body for http://127.0.0.1:1/bot{TOKEN}/getUpdates")
        except OSError:
            record.exc_info = sys.exc_info()
    return record


def test_a_token_in_a_message_its_arguments_or_a_traceback_is_redacted_in_both_forms() -> None:
    for formatter in (Redacting(), JsonLines()):
        for record in (
            _record("Failed to fetch updates - %s: %s", "TelegramNetworkError", f"http://x/bot{TOKEN}/getMe"),
            _record(f"Can not write request body for http://127.0.0.1:1/bot{TOKEN}/getUpdates"),
            _record("failed", exc=True),
        ):
            line = formatter.format(record)
            assert TOKEN not in line and TOKEN.split(":")[1] not in line, line
            assert REDACTED in line
    secret = Redacting(["webhook-secret-1"]).format(_record("posted with webhook-secret-1"))
    assert "webhook-secret-1" not in secret


def test_a_json_line_is_one_object_with_the_fields_a_collector_reads() -> None:
    line = JsonLines().format(_record("failed", name="bot.handlers.errors", exc=True))
    assert "\n" not in line
    data = json.loads(line)
    assert set(data) == {"time", "level", "logger", "message", "game", "chat", "update", "exception"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d", data["time"]), data["time"]
    assert data["level"] == "ERROR" and data["logger"] == "bot.handlers.errors"
    assert (
        data["exception"].startswith("Traceback (most recent call last):") and "OSError" in data["exception"]
    )


def test_a_line_written_before_the_log_is_set_up_takes_the_same_form() -> None:
    plain = error_line("cannot start: X")
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}[+-]\d{4} ERROR bot.settings: cannot start: X", plain
    )
    assert json.loads(error_line("cannot start: X", LogFormat.JSON))["message"] == "cannot start: X"


async def test_a_bot_run_with_log_format_json_writes_only_json_lines_naming_chat_and_update(
    tg: FakeTelegram, forkserver: ForkServer, tmp_path: Path
) -> None:
    async with running_bot(tg, forkserver, tmp_path, LOG_FORMAT="json") as bot:
        anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
        group = tg.add_group("Друзья", [anna, boris], admins=[anna])
        await anna.send(group, "/konchinka")
        await tg.wait_for(lambda: group.bot_messages(), what="the lobby")
        await boris.send(group, "/cancel")  # not the creator, not an admin: refused, and logged at INFO
        await tg.settle()
        bot.process.terminate()
        await bot.process.wait()
    lines = [json.loads(line) for line in bot.stderr.splitlines()]  # every line is one object
    started = [line for line in lines if " started; " in line["message"]]
    assert len(started) == 1 and started[0]["level"] == "INFO" and started[0]["logger"] == "bot.app"
    refused = [line for line in lines if "refused" in line["message"]]
    assert refused, bot.stderr
    assert refused[0]["chat"] == group.id and isinstance(refused[0]["update"], int)
    print("a JSON line:", json.dumps(refused[0], ensure_ascii=False))
    assert tg.token not in bot.stderr
