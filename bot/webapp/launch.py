"""Who opened the Mini App: Telegram's launch data (``initData``), checked as Telegram specifies before anything in
it is believed.

Telegram signs the launch data it hands a Mini App with a key only it and the bot know (an HMAC keyed by
``HMAC-SHA256("WebAppData", token)`` over the fields sorted by name, ``hash`` aside). The page sends the data
with every request and connection; each is checked again, and data older than :data:`MAX_AGE` is refused (a
page left open longer is reopened from its button, which hands it fresh data). A forged or altered field, data
signed for another bot, or data without a user is refused whole.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl

from aiogram.utils.web_app import check_webapp_signature

MAX_AGE: Final = 24 * 3600.0
"""Seconds launch data is believed after Telegram signed it."""
MAX_AHEAD: Final = 300.0
"""Seconds a signature may seem to come from the future (this machine's clock behind Telegram's)."""
MAX_LENGTH: Final = 8192
"""Characters of launch data read at all (Telegram's are well under 1,000)."""


class Refused(enum.StrEnum):
    """Why launch data is not believed."""

    MISSING = "missing"
    FORGED = "forged"
    EXPIRED = "expired"
    NO_USER = "no-user"


@dataclass(frozen=True, slots=True)
class Launch:
    """A person who opened the Mini App, as Telegram vouches for them."""

    user_id: int
    name: str
    language_code: str | None
    start_param: str
    """What the link that opened the app carried (``t.me/<bot>/<app>?startapp=...``); empty from a button."""
    signed_at: float


def check(init_data: str, token: str, now: float) -> Launch | Refused:
    """``init_data`` believed (``now``: the wall clock's seconds, as Telegram's ``auth_date`` counts them)."""
    if not init_data or len(init_data) > MAX_LENGTH:
        return Refused.MISSING
    if not check_webapp_signature(token, init_data):
        return Refused.FORGED
    fields = dict(parse_qsl(init_data, strict_parsing=True))
    try:
        signed_at = float(int(fields["auth_date"]))
    except (KeyError, ValueError):
        return Refused.FORGED  # signed, but not as Telegram signs: nothing to time it by
    if not now - MAX_AGE <= signed_at <= now + MAX_AHEAD:
        return Refused.EXPIRED
    try:
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        return Refused.NO_USER
    name = " ".join(str(user.get(part) or "") for part in ("first_name", "last_name")).strip()
    language = user.get("language_code")
    return Launch(
        user_id=user_id,
        name=name,
        language_code=language if isinstance(language, str) else None,
        start_param=fields.get("start_param", ""),
        signed_at=signed_at,
    )
