"""The outbox: the only place that sends, edits and deletes game messages in Telegram.

``core`` is its interface (what to show, what to post), ``scheduler`` shares the bot's calls between chats
within the rate windows (the :class:`CallScheduler`, :class:`RateLimiter`), ``serving`` makes one call for a
chat and reads Telegram's answer (the calls themselves, and an aiogram session that builds its response types
once), ``queue`` holds one chat's pending messages and their :class:`Priority` and remembers what Telegram last
accepted for each live message, and ``reports`` is what it tells the game flow back.
"""

from __future__ import annotations

from bot.delivery.outbox.core import REQUEST_TIMEOUT, Outbox
from bot.delivery.outbox.queue import Priority, SheetPhoto, TextFile, digest
from bot.delivery.outbox.reports import ChatForbidden, ChatMigrated, DeliveryReport
from bot.delivery.outbox.scheduler import SWEEP_EVERY, OutboxLimits, RateLimiter, is_group
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
    "SheetPhoto",
    "TextFile",
    "digest",
    "is_group",
]
