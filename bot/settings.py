"""The bot's settings: environment variables or a ``.env`` file, validated with pydantic; and the exit codes.

Only ``BOT_TOKEN`` is required. :func:`load_settings` turns a missing or malformed token (or any other bad
value) into a short message on stderr and an immediate exit with :attr:`ExitCode.SETTINGS`, so a misconfigured
bot never starts. This module imports neither aiogram nor anything of the bot's: ``python -m bot`` reads the
settings first, so a bad one stops it in a fraction of a second.
"""

from __future__ import annotations

import enum
import os
import re
import sys
from pathlib import Path
from typing import Final

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TOKEN_RE: Final = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{30,}$")

TOKEN_HELP: Final = (
    "BOT_TOKEN is missing or malformed.\n"
    "Get a token from @BotFather in Telegram: open https://t.me/BotFather, send /newbot, pick a name and a\n"
    "username ending in 'bot'; BotFather answers with a token like 123456789:AAE...\n"
    "Then put it in the environment (export BOT_TOKEN=...) or in a .env file next to where you start the bot:\n"
    "    BOT_TOKEN=123456789:AAE...\n"
)


class ExitCode(enum.IntEnum):
    """The process exit codes: which start-up check failed (``python -m bot`` and ``python -m bot check``)."""

    OK = 0
    SETTINGS = 2
    DATABASE = 3
    UNREACHABLE = 4
    TOKEN = 5
    WEBHOOK = 6
    INSTALL = 7


class StartupError(Exception):
    """Why the bot cannot start: one line naming the setting to fix, and the exit code for that cause."""

    def __init__(self, code: ExitCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class LogLevel(enum.StrEnum):
    DEBUG = "DEBUG"
    INFO = "INFO"
    WARNING = "WARNING"
    ERROR = "ERROR"


class Settings(BaseSettings):
    """Everything the bot reads from its environment. Durations are in seconds of the bot's clock."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    database_path: Path = Path("data/bot.sqlite3")
    telegram_api_url: str | None = None
    """Base URL of another Bot API server (a local one, or a test double); Telegram's own when unset."""
    log_level: LogLevel = LogLevel.INFO

    webhook_url: str | None = None
    """Public HTTPS URL of the webhook; polling (the default) when unset."""
    webhook_secret: SecretStr | None = None
    """Telegram sends it with every update; a request without it is refused. Required in webhook mode ..."""
    webhook_trusted_proxy: bool = False
    """... unless a proxy in front of the bot already lets only Telegram's requests through."""
    webhook_host: str = "0.0.0.0"
    webhook_port: int = 8080
    webhook_path: str = "/webhook"

    lobby_ttl: float = Field(default=1800.0, gt=0)
    """A lobby nobody starts expires after this long."""
    turn_timeout: int = Field(default=60, ge=0)
    """The default time per turn in group games (0 = no limit); a lobby setting can change it."""
    reminder_before: float = Field(default=15.0, ge=0)
    """The AFK reminder comes this long before the turn's limit."""
    afk_strikes: int = Field(default=2, ge=1)
    """Missed turns in a row after which a bot player takes the seat."""
    bot_delay: float = Field(default=1.0, ge=0)
    """The pause before each bot move, so people can follow the game."""
    clock_speed: float = Field(default=1.0, gt=0)
    """Runs every delay and rate limit this many times faster (tests against an accelerated fake server)."""
    game_seed: int | None = None
    """A fixed seed for every new game (tests); random when unset."""
    default_target: int | None = Field(default=None, ge=1)
    """Overrides the game's default target in new lobbies (tests keep parties short)."""

    chat_interval: float = Field(default=1.0, ge=0)
    """The outbox's minimum pause between two calls to one chat."""
    group_per_minute: int = Field(default=20, ge=1)
    """The outbox's budget of calls per group chat and minute."""
    global_per_second: int = Field(default=30, ge=1)
    """The outbox's budget of calls per second for the whole bot."""

    bot_thinkers: int = Field(default_factory=lambda: min(2, os.cpu_count() or 1), ge=0)
    """Worker processes that bot players think in (0: a thread of the bot's own process)."""

    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    """Where Prometheus metrics are served (``/metrics``); off when unset."""
    metrics_host: str = "127.0.0.1"

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_RE.fullmatch(value.get_secret_value().strip()):
            raise ValueError("malformed token")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("telegram_api_url", "webhook_url")
    @classmethod
    def _url_shape(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

    @model_validator(mode="after")
    def _webhook_needs_a_secret(self) -> Settings:
        if self.webhook_url and self.webhook_secret is None and not self.webhook_trusted_proxy:
            raise ValueError(
                "WEBHOOK_SECRET is required in webhook mode: without it anyone who finds the endpoint can send "
                "updates as any user. Set WEBHOOK_SECRET (1-256 characters A-Z a-z 0-9 _ -), or set "
                "WEBHOOK_TRUSTED_PROXY=true if a proxy in front of the bot admits only Telegram's requests."
            )
        return self

    @property
    def token(self) -> str:
        return self.bot_token.get_secret_value()


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """The settings, or a message on stderr and ``SystemExit(ExitCode.SETTINGS)`` when they are missing or
    invalid."""
    try:
        return Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as exc:
        fields = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
        if "bot_token" in fields:
            sys.stderr.write(TOKEN_HELP)
        for err in exc.errors():
            where = ".".join(str(part) for part in err["loc"]).upper() or "settings"
            if where != "BOT_TOKEN":
                sys.stderr.write(f"{where}: {err['msg']}\n")
        raise SystemExit(ExitCode.SETTINGS) from None
