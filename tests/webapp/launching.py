"""Launch data as Telegram signs it (its documented scheme, done here from the fields up), for the tests."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode


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
