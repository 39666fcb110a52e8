"""The log: plain lines (the default) or one JSON object a line (``LOG_FORMAT=json``), never a secret.

Every line of every logger (ours, aiogram's, aiohttp's) passes one handler on standard error whose formatter
replaces anything shaped like a bot token (``123456:AA…``, as in aiogram's request URLs ``…/bot<TOKEN>/getMe``)
and the configured secrets with ``<redacted>`` — the traceback included.

- ``plain``: ``time LEVEL logger: message``, the time with its UTC offset; a traceback follows on its lines.
- ``json``: ``{"time", "level", "logger", "message", "game", "chat", "update", "exception"}``, ``time`` in ISO 8601
  with its offset, the traceback as one string field: one line per event, for a log collector.

The game, the chat and the update are what the line concerns: a logging context, read by this module's formatter
alone — :data:`CHAT` and :data:`UPDATE` set for each update by :class:`bot.guards.updates.LogContext`, :data:`GAME`
while the pipeline changes a game.

This module imports nothing but the standard library: ``python -m bot`` sets the log up before it imports aiogram.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import enum
import json
import logging
import re
import sys
from collections.abc import Iterable
from typing import Final

TOKEN_SHAPE: Final = re.compile(r"\d{3,}:[A-Za-z0-9_-]{30,}")
"""A Telegram bot token (the same shape ``bot.settings`` accepts)."""
REDACTED: Final = "<redacted>"

CHAT: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_chat", default=None)
UPDATE: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_update", default=None)
GAME: contextvars.ContextVar[int | None] = contextvars.ContextVar("log_game", default=None)


class LogFormat(enum.StrEnum):
    PLAIN = "plain"
    JSON = "json"


def _time(created: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(created, dt.UTC).astimezone()


def timestamp(created: float) -> str:
    """A plain line's time: ``2026-12-05 07:30:00.123+0000`` (local time with its offset)."""
    at = _time(created)
    return at.strftime("%Y-%m-%d %H:%M:%S.") + f"{at.microsecond // 1000:03d}" + at.strftime("%z")


class Redacting(logging.Formatter):
    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.secrets = [s for s in secrets if s]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return TOKEN_SHAPE.sub(REDACTED, text)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return timestamp(record.created)

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))


class JsonLines(Redacting):
    def format(self, record: logging.LogRecord) -> str:
        exception = None
        if record.exc_info:
            exception = self.formatException(record.exc_info)
        elif record.exc_text:
            exception = record.exc_text
        line = {
            "time": _time(record.created).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "game": GAME.get(),
            "chat": CHAT.get(),
            "update": UPDATE.get(),
            "exception": exception,
        }
        return self.redact(json.dumps(line, ensure_ascii=False))


def _stop_signal_is_news(record: logging.LogRecord) -> bool:
    """aiogram says «Received SIGTERM signal» as a WARNING: a stop asked for is an INFO line."""
    if record.name == "aiogram.dispatcher" and str(record.msg).startswith("Received %s signal"):
        record.levelno, record.levelname = logging.INFO, "INFO"
    return True


def setup(level: str = "INFO", form: LogFormat = LogFormat.PLAIN, secrets: Iterable[str] = ()) -> None:
    """One handler on standard error for every logger, in ``form``, with ``secrets`` redacted."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_stop_signal_is_news)
    handler.setFormatter(JsonLines(secrets) if form is LogFormat.JSON else Redacting(secrets))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # aiohttp's access log: a line for every webhook update, off.
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)


def error_line(message: str, form: LogFormat = LogFormat.PLAIN, logger: str = "bot.settings") -> str:
    """A line written before the log is set up (a bad setting), in the form the log would have."""
    record = logging.makeLogRecord(
        {"name": logger, "levelname": "ERROR", "levelno": logging.ERROR, "msg": message}
    )
    formatter = JsonLines() if form is LogFormat.JSON else Redacting()
    return formatter.format(record)
