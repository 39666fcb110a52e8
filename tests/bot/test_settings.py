"""Settings: a missing or malformed token stops the bot at once with a message pointing to @BotFather."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
GOOD_TOKEN = "123456789:AAE" + "x" * 32


def _run_bot(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "TELEGRAM_API_URL", "DATABASE_PATH")
    }
    clean.update(env)
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=cwd, env=clean, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("token", [None, "not-a-token", "123:short"])
def test_python_m_bot_without_a_valid_token_exits_at_once_saying_how_to_get_one(
    tmp_path: Path, token: str | None
) -> None:
    result = _run_bot({} if token is None else {"BOT_TOKEN": token}, tmp_path)
    assert result.returncode != 0
    assert "@BotFather" in result.stderr
    assert "Traceback" not in result.stderr


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
