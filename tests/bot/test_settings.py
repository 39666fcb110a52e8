"""Settings: a missing or malformed token stops the bot at once with a message pointing to @BotFather.

These runs are genuine fresh ``python -m bot`` interpreters (the other tests fork theirs from one that did the
imports, see ``tests/forkserver.py``): how long a start that fails takes is the start-up's own import cost.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import ExitCode, Settings, load_settings

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
    tmp_path: Path, token: str | None
) -> None:
    result, cpu = _run_bot({} if token is None else {"BOT_TOKEN": token}, tmp_path)
    assert result.returncode == ExitCode.SETTINGS
    assert "@BotFather" in result.stderr
    assert "Traceback" not in result.stderr
    assert cpu < AT_ONCE_CPU


def test_a_bad_setting_stops_the_bot_before_aiogram_is_imported(tmp_path: Path) -> None:
    """``-X importtime`` lists every module the interpreter imported: none of aiogram's, nor the bot's app."""
    result, _ = _run_bot({"BOT_TOKEN": GOOD_TOKEN, "TURN_TIMEOUT": "-5"}, tmp_path, "-X", "importtime")
    assert result.returncode == ExitCode.SETTINGS
    imported = [
        line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "import time:" in line
    ]
    assert "bot.settings" in imported
    assert [m for m in imported if m.startswith(("aiogram", "aiohttp", "bot.app", "bot.startup"))] == []


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
