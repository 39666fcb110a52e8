"""Settings: a missing or malformed token stops the bot at once with a message pointing to @BotFather.

``python -m bot`` runs in-process here (``bot.__main__.main``: the ``python_m_bot`` fixture), all but once: one
genuine fresh interpreter (the other tests fork theirs from one that did the imports, see ``tests/forkserver.py``)
shows what a start stopped by its settings imports and costs, and the exit code the shell sees.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import ExitCode, Settings, load_settings
from tests.bot.conftest import PythonMBot

ROOT = Path(__file__).resolve().parents[2]
GOOD_TOKEN = "123456789:AAE" + "x" * 32
AT_ONCE_CPU = 1.5
"""CPU seconds a start stopped by its settings may take: an interpreter and pydantic take ~0.3 s; importing
aiogram and the bot before the settings were read took ~3.5 s more."""


def _run_bot(env: dict[str, str], cwd: Path, *flags: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """``python [flags] -m bot`` in a fresh interpreter; its result and the CPU seconds it used."""
    clean = {
        k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "TELEGRAM_API_URL", "DATABASE_PATH")
    }
    clean.update(env)
    clean["PYTHONPATH"] = str(ROOT)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, *flags, "-m", "bot"],
        cwd=cwd,
        env=clean,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # A synchronous test: the only child this process reaps meanwhile is this one.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return result, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


@pytest.mark.parametrize("token", [None, "not-a-token", "123:short"])
def test_python_m_bot_without_a_valid_token_exits_at_once_saying_how_to_get_one(
    tmp_path: Path, python_m_bot: PythonMBot, token: str | None
) -> None:
    result = python_m_bot({} if token is None else {"BOT_TOKEN": token}, tmp_path)
    assert result.code == ExitCode.SETTINGS
    assert "@BotFather" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_setting_stops_a_fresh_interpreter_at_once_before_aiogram_is_imported(tmp_path: Path) -> None:
    """A fresh ``python -m bot``: the exit code as the shell sees it, the setting named, and ``-X importtime``'s
    list of every module the interpreter imported — none of aiogram's, nor the bot's app — so that the CPU it
    took is an interpreter's and pydantic's."""
    result, cpu = _run_bot({"BOT_TOKEN": GOOD_TOKEN, "TURN_TIMEOUT": "-5"}, tmp_path, "-X", "importtime")
    assert result.returncode == ExitCode.SETTINGS
    assert "TURN_TIMEOUT" in result.stderr and "Traceback" not in result.stderr
    imported = [
        line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "import time:" in line
    ]
    assert "bot.settings" in imported
    assert [m for m in imported if m.startswith(("aiogram", "aiohttp", "bot.app", "bot.startup"))] == []
    assert cpu < AT_ONCE_CPU


def test_settings_defaults_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", GOOD_TOKEN)
    monkeypatch.setenv("TELEGRAM_API_URL", "http://127.0.0.1:8081/")
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    settings = load_settings(env_file=None)
    assert settings.token == GOOD_TOKEN
    assert settings.database_path == Path("data/bot.sqlite3")
    assert settings.telegram_api_url == "http://127.0.0.1:8081"
    assert settings.webhook_url is None


def test_settings_come_from_a_dotenv_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("BOT_TOKEN", "DATABASE_PATH", "TURN_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    env = tmp_path / ".env"
    env.write_text(
        f"BOT_TOKEN={GOOD_TOKEN}\nDATABASE_PATH=/tmp/x.sqlite3\nTURN_TIMEOUT=30\n", encoding="utf-8"
    )
    settings = Settings(_env_file=env)  # type: ignore[call-arg]
    assert settings.database_path == Path("/tmp/x.sqlite3")
    assert settings.turn_timeout == 30


def test_a_bad_api_url_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOT_TOKEN", GOOD_TOKEN)
    monkeypatch.setenv("TELEGRAM_API_URL", "ftp://example.org")
    with pytest.raises(SystemExit) as exc:
        load_settings(env_file=None)
    assert exc.value.code != 0
    assert "TELEGRAM_API_URL" in capsys.readouterr().err


def test_webhook_mode_refuses_to_start_without_a_secret_unless_behind_a_trusted_proxy(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("WEBHOOK_SECRET", "WEBHOOK_TRUSTED_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BOT_TOKEN", GOOD_TOKEN)
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org")
    with pytest.raises(SystemExit) as exc:
        load_settings(env_file=None)
    assert exc.value.code != 0
    assert "WEBHOOK_SECRET" in capsys.readouterr().err
    monkeypatch.setenv("WEBHOOK_TRUSTED_PROXY", "true")
    assert load_settings(env_file=None).webhook_secret is None
    monkeypatch.delenv("WEBHOOK_TRUSTED_PROXY")
    monkeypatch.setenv("WEBHOOK_SECRET", "s3cret_Token-1")
    assert load_settings(env_file=None).webhook_secret is not None


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({}, "BOT_TOKEN"),
        ({"WEBHOOK_PORT": "99999"}, "WEBHOOK_PORT"),
        ({"WEBHOOK_PATH": "hook"}, "WEBHOOK_PATH"),
        ({"WEBHOOK_SECRET": "a secret with spaces!"}, "WEBHOOK_SECRET"),
        ({"ADMIN_IDS": "@olga"}, "ADMIN_IDS"),
        ({"METRICS_PORT": "0"}, "METRICS_PORT"),
        ({"TURN_TIMEOUT": "-5"}, "TURN_TIMEOUT"),
    ],
)
def test_each_bad_setting_is_one_error_line_naming_it(
    tmp_path: Path, python_m_bot: PythonMBot, change: dict[str, str], named: str
) -> None:
    """As the log writes lines (time, level, logger): a log collector files it as an error, not as noise."""
    env = {"BOT_TOKEN": GOOD_TOKEN, "WEBHOOK_URL": "https://bot.example.org", "WEBHOOK_SECRET": "s3cret"}
    env = {k: v for k, v in env.items() if named != "BOT_TOKEN" or k != "BOT_TOKEN"} | change
    result = python_m_bot(env, tmp_path)
    assert result.code == ExitCode.SETTINGS
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert " ERROR bot.settings: cannot start: " in lines[0]
    assert named in lines[0]
    assert lines[0][:4].isdigit()  # the date first, as every other line of the log


def test_a_webhook_secret_of_telegrams_alphabet_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", GOOD_TOKEN)
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org")
    monkeypatch.setenv("WEBHOOK_SECRET", "A-z_09" * 40)
    monkeypatch.setenv("WEBHOOK_PATH", "/tg/hook-1")
    settings = load_settings(env_file=None)
    assert settings.webhook_path == "/tg/hook-1"
    monkeypatch.setenv("WEBHOOK_SECRET", "x" * 257)
    with pytest.raises(SystemExit):
        load_settings(env_file=None)
