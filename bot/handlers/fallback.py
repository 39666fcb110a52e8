"""The last router: a press no other handler accepts (forged, or a button of an older bot) is still answered.

Telegram shows a spinning button until the bot answers the press; an unknown button gets a short hint instead.
"""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline

log = logging.getLogger(__name__)


async def on_unknown_press(callback: CallbackQuery, pipeline: Pipeline, origin: Origin) -> None:
    log.info("unknown callback data from %s: %r", callback.from_user.id, (callback.data or "")[:64])
    await pipeline.replies.unknown_press(origin)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="fallback")
    router.callback_query.register(on_unknown_press)
    return router
