"""The outbox: the only place that sends, edits and deletes game messages in Telegram.

``core`` is the façade (what to show, one call made), ``scheduler`` shares the bot's calls between chats,
``queue`` holds one chat's pending messages and their :class:`Priority`, ``limits`` the rate windows,
``delivery`` the calls themselves and ``session`` an aiogram session that builds its response types once.
"""

from __future__ import annotations

from bot.services.outbox.core import BACKOFF, REQUEST_TIMEOUT, ForbiddenHook, MigrateHook, Outbox
from bot.services.outbox.limits import SWEEP_EVERY, OutboxLimits, RateLimiter, is_group
from bot.services.outbox.queue import Priority, digest

__all__ = [
    "BACKOFF",
    "REQUEST_TIMEOUT",
    "SWEEP_EVERY",
    "ForbiddenHook",
    "MigrateHook",
    "Outbox",
    "OutboxLimits",
    "Priority",
    "RateLimiter",
    "digest",
    "is_group",
]
