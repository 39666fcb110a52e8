"""Launch data as Telegram signs it (its documented scheme, done here from the fields up), for the tests."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import TYPE_CHECKING, Final
from urllib.parse import urlencode

if TYPE_CHECKING:
    from tests.fakebot import FakeTelegram, FakeUser
    from tests.fakebot.models import FakeMessage

PAGE: Final = "https://cards.example.org/app"
"""The Mini App's public address as the tests' bots are told it (``WEBAPP_URL``)."""


def signed(token: str, fields: dict[str, str]) -> str:
    """``fields`` as a query string with the ``hash`` Telegram would add for the bot of ``token``."""
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def launch_data(
    token: str, user_id: int, signed_at: float, *, name: str = "Аня", lang: str = "ru", start: str = ""
) -> str:
    """What Telegram hands a Mini App that ``user_id`` opened at ``signed_at``."""
    user = {"id": user_id, "first_name": name, "language_code": lang, "allows_write_to_pm": True}
    fields = {
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(signed_at)),
        "chat_instance": "-4815162342",
        "chat_type": "sender",
        "signature": "not checked: the HMAC covers it",
    }
    if start:
        fields["start_param"] = start
    return signed(token, fields)


def launch_of(
    tg: FakeTelegram, user: FakeUser, *, token: str = "", age: float = 0.0, lang: str = "ru", start: str = ""
) -> str:
    """What Telegram hands the Mini App of ``tg``'s bot (or of another bot's ``token``) that the fake person ``user``
    opened ``age`` seconds ago."""
    return launch_data(
        token or tg.token, user.id, time.time() - age, name=user.first_name, lang=lang, start=start
    )


def page_of(message: FakeMessage) -> int:
    """The game a hand's «🖥 Стол и карты» opens (its only Mini App button)."""
    (opens,) = [b.web_app for b in message.flat_buttons if b.web_app]
    assert opens is not None and opens.startswith(f"{PAGE}?game=")
    return int(opens.rsplit("=", 1)[1])
