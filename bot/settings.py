"""The bot's settings: environment variables or a ``.env`` file, validated with pydantic; and the exit codes.

Only ``BOT_TOKEN`` is required. :func:`load_settings` turns a missing or malformed token (or any other bad
value) into a short message on stderr and an immediate exit with :attr:`ExitCode.SETTINGS`, so a misconfigured
bot never starts. This module imports neither aiogram nor anything of the bot's but :mod:`bot.logs` (itself only
the standard library): ``python -m bot`` reads the settings first, so a bad one stops it in a fraction of a
second.
"""

from __future__ import annotations

import enum
import os
import re
import sys
from pathlib import Path
from typing import Final, TypeVar, overload

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.logs import LogFormat, error_line

TOKEN_RE: Final = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{30,}$")

TOKEN_HELP: Final = (
    "BOT_TOKEN is missing or malformed: take the bot's token from @BotFather (https://t.me/BotFather, /newbot "
    "or /token; it looks like 123456789:AAE...) and set BOT_TOKEN in the environment or in .env"
)
SECRET_RE: Final = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
"""The characters Telegram accepts in a webhook's secret token, and its length."""
PATH_RE: Final = re.compile(r"^/[A-Za-z0-9._~/-]*$")
"""A webhook path: an absolute URL path of plain characters (nothing to escape, no query)."""


class ExitCode(enum.IntEnum):
    """The process exit codes: which start-up check failed (``python -m bot`` and ``python -m bot check``)."""

    OK = 0
    CRASH = 1
    """An unexpected failure (a bug, or stored data the bot cannot read): the line names it and where it came
    from. Restarted, as Python's own exit code for an uncaught exception would be."""
    SETTINGS = 2
    DATABASE = 3
    UNREACHABLE = 4
    TOKEN = 5
    WEBHOOK = 6
    INSTALL = 7
    INSTANCE = 8
    """Another bot runs on the same database."""
    CONFLICT = 9
    """Another process polled Telegram with the same token for ``CONFLICT_EXIT_AFTER`` seconds."""

    @classmethod
    def incurable(cls) -> tuple[ExitCode, ...]:
        """The codes a restart cannot cure (an operator must act first): a supervisor must not restart on them
        (deploy/systemd's ``RestartPreventExitStatus=``, compose's entrypoint). Telegram unreachable (4) and a
        webhook port taken (6) may pass by themselves; a crash (1) or a kill is restarted."""
        return (cls.SETTINGS, cls.DATABASE, cls.TOKEN, cls.INSTALL, cls.INSTANCE, cls.CONFLICT)


class StartupError(Exception):
    """Why the bot cannot start: one line naming the setting to fix, and the exit code for that cause."""

    def __init__(self, code: ExitCode, message: str, *, while_running: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.while_running = while_running
        """The bot ran, and had to stop (the token revoked): the log says «stopped», not «cannot start»."""


class LogLevel(enum.StrEnum):
    DEBUG = "DEBUG"
    INFO = "INFO"
    WARNING = "WARNING"
    ERROR = "ERROR"


class StorageSettings(BaseSettings):
    """What the commands that touch only the database read (``backup``, ``migrate``): no token needed."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_path: Path = Path("data/bot.sqlite3")
    database_busy_timeout: float = Field(default=5.0, gt=0, le=5.0)
    """Real seconds a write waits for the lock another process holds (a backup, the sqlite3 shell) before the
    bot tries again more briefly; a press is answered within three times this, inside Telegram's 15 s."""
    log_level: LogLevel = LogLevel.INFO
    log_format: LogFormat = LogFormat.PLAIN
    """``plain`` lines, or ``json``: one object a line for a log collector (see :mod:`bot.logs`)."""


def _url(value: str | None) -> str | None:
    """A URL setting as given, without spaces around it or a slash at its end (None: unset or blank)."""
    if value is None or not value.strip():
        return None
    return value.strip().rstrip("/")


class Settings(StorageSettings):
    """Everything the bot reads from its environment. Durations are in seconds of the bot's clock."""

    bot_token: SecretStr
    telegram_api_url: str | None = None
    """Base URL of another Bot API server (a local one, or a test double); Telegram's own when unset."""

    webhook_url: str | None = None
    """Public HTTPS URL of the webhook; polling (the default) when unset."""
    webhook_secret: SecretStr | None = None
    """Telegram sends it with every update; a request without it is refused. Required in webhook mode ..."""
    webhook_trusted_proxy: bool = False
    """... unless a proxy in front of the bot already lets only Telegram's requests through."""
    webhook_host: str = "0.0.0.0"
    webhook_port: int = Field(default=8080, ge=1, le=65535)
    webhook_path: str = "/webhook"
    webhook_check_every: float = Field(default=60.0, gt=0)
    """Real seconds between two questions to Telegram (``getWebhookInfo``) about the webhook's deliveries."""

    webapp_url: str | None = None
    """Public HTTPS URL of the Mini App's page (``https://<host>/app``, served by the bot on ``webapp_port``
    behind the operator's HTTPS proxy); no Mini App, and no button for it, when unset."""
    webapp_name: str | None = None
    """The Mini App's short name, as given to @BotFather (/newapp): a group's table then links it
    (``t.me/<bot>/<name>?startapp=g<id>``); no link in groups when unset (the hands' buttons need none)."""
    webapp_host: str = "0.0.0.0"
    webapp_port: int = Field(default=8090, ge=1, le=65535)

    lobby_ttl: float = Field(default=1800.0, gt=0)
    """A lobby nobody starts expires after this long."""
    turn_timeout: int = Field(default=60, ge=0)
    """The default time per turn in group games (0 = no limit); a lobby setting can change it."""
    reminder_before: float = Field(default=15.0, ge=0)
    """The AFK reminder comes this long before the turn's limit."""
    abandoned_after: float = Field(default=7 * 24 * 3600.0, gt=0)
    """A party with no move for this long (seconds) is ended as abandoned, the chat told, its messages forgotten."""
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
    health_stall: float = Field(default=10.0, gt=0)
    """Real seconds the event loop may go without a beat before ``/healthz`` reports it blocked."""
    health_api_limit: float = Field(default=90.0, gt=0)
    """Real seconds of failing polls, of messages waiting while no call succeeds, or of a database locked by
    another process, before ``/healthz`` reports the bot unhealthy."""
    conflict_exit_after: float = Field(default=300.0, ge=0)
    """Real seconds of 409 Conflict (another process polls with this token) after which the bot stops with exit
    code 9 (0: never)."""
    heartbeat_every: float = Field(default=600.0, ge=0)
    """Real seconds between two «alive» lines in the log (0: none)."""

    extra_games: str = ""
    """Python packages of more games, separated by commas (the tests' ``tests.games``): each laid out like the
    project's top level, a game's engine in ``engine/<game>/``, its plug-in in ``bot/games/<game>/``, its texts in
    ``locales/<lang>/<game>/`` — found as the project's own games are."""

    admin_ids: str = ""
    """The operators' Telegram user ids, separated by commas: they may use ``/admin``."""
    admin_chat_id: int | None = None
    """A chat the bot reports unexpected failures to (the operators' group, or one operator's private chat)."""

    @field_validator("admin_ids")
    @classmethod
    def _id_list(cls, value: str) -> str:
        parts = [part.strip() for part in value.replace(";", ",").split(",") if part.strip()]
        if not all(re.fullmatch(r"-?\d+", part) for part in parts):
            raise ValueError("must be Telegram user ids separated by commas, e.g. 123456789,987654321")
        return ",".join(parts)

    @field_validator("webhook_path")
    @classmethod
    def _path_shape(cls, value: str) -> str:
        if not PATH_RE.fullmatch(value):
            raise ValueError("must start with / and hold only letters, digits and . _ ~ / - (e.g. /webhook)")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not SECRET_RE.fullmatch(value.get_secret_value()):
            raise ValueError("Telegram accepts only 1-256 characters A-Z a-z 0-9 _ - in the secret")
        return value

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_RE.fullmatch(value.get_secret_value().strip()):
            raise ValueError("malformed token")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("telegram_api_url", "webhook_url")
    @classmethod
    def _url_shape(cls, value: str | None) -> str | None:
        url = _url(value)
        if url is not None and not url.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return url

    @field_validator("webapp_url")
    @classmethod
    def _webapp_https(cls, value: str | None) -> str | None:
        url = _url(value)
        if url is not None and not url.startswith("https://"):
            raise ValueError("must start with https:// (Telegram opens Mini Apps over HTTPS only)")
        return url

    @field_validator("webapp_name")
    @classmethod
    def _webapp_name_shape(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not re.fullmatch(r"[A-Za-z0-9_]{3,30}", value.strip()):
            raise ValueError("must be the app's short name in @BotFather: 3-30 letters, digits or _")
        return value.strip()

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

    @field_validator("extra_games")
    @classmethod
    def _package_list(cls, value: str) -> str:
        parts = [part.strip() for part in value.split(",") if part.strip()]
        if not all(re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", part) for part in parts):
            raise ValueError("must be Python package names separated by commas, e.g. tests.games")
        return ",".join(parts)

    @property
    def extra_game_packages(self) -> tuple[str, ...]:
        return tuple(part for part in self.extra_games.split(",") if part)

    @property
    def admins(self) -> frozenset[int]:
        return frozenset(int(part) for part in self.admin_ids.split(",") if part)


S = TypeVar("S", bound=StorageSettings)


@overload
def load_settings(kind: None = None, env_file: str | Path | None = ".env") -> Settings: ...
@overload
def load_settings(kind: type[S], env_file: str | Path | None = ".env") -> S: ...
def load_settings(
    kind: type[StorageSettings] | None = None, env_file: str | Path | None = ".env"
) -> StorageSettings:
    """The settings, or one ``ERROR`` line per bad value on stderr and ``SystemExit(ExitCode.SETTINGS)``."""
    try:
        return (kind or Settings)(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as exc:
        for err in exc.errors():
            where = ".".join(str(part) for part in err["loc"]).upper() or "settings"
            message = TOKEN_HELP if where == "BOT_TOKEN" else f"{where}: {err['msg']}"
            sys.stderr.write(error_line(f"cannot start: {message}", _log_format()) + "\n")
        raise SystemExit(ExitCode.SETTINGS) from None


def _log_format() -> LogFormat:
    """The log's form for a line written before the settings are known (``LOG_FORMAT``, if it is valid)."""
    wanted = os.environ.get("LOG_FORMAT", "").strip().lower()
    return LogFormat.JSON if wanted == LogFormat.JSON.value else LogFormat.PLAIN
