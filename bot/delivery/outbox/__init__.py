"""The outbox: the only place that sends, edits and deletes game messages in Telegram.

``core`` is the façade (what to show), ``scheduler`` shares the bot's calls between chats (the
:class:`CallScheduler`), ``serving`` makes one call for a chat and reads Telegram's answer, ``queue`` holds one
chat's pending messages and their :class:`Priority`, ``limits`` the rate windows, ``sent`` what Telegram last
accepted for each live message, ``delivery`` the calls themselves and ``session`` an aiogram session that
builds its response types once.
"""

from __future__ import annotations

from bot.delivery.outbox.core import REQUEST_TIMEOUT, Outbox
from bot.delivery.outbox.limits import SWEEP_EVERY, OutboxLimits, RateLimiter, is_group
from bot.delivery.outbox.queue import Priority, digest
from bot.delivery.outbox.reports import ChatForbidden, ChatMigrated, DeliveryReport
from bot.delivery.outbox.serving import BACKOFF

__all__ = [
    "BACKOFF",
    "REQUEST_TIMEOUT",
    "SWEEP_EVERY",
    "ChatForbidden",
    "ChatMigrated",
    "DeliveryReport",
    "Outbox",
    "OutboxLimits",
    "Priority",
    "RateLimiter",
    "digest",
    "is_group",
]
