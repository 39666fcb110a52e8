"""The last router: a press no other handler accepts (forged, or a button of an older bot) is still answered.

Telegram shows a spinning button until the bot answers the press; an unknown button gets a short hint instead.
"""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.flow.service import answer_press
from bot.handlers.common import tr_of
from bot.views import Answer, answer_text

log = logging.getLogger(__name__)


async def on_unknown_press(callback: CallbackQuery) -> None:
    log.info("unknown callback data from %s: %r", callback.from_user.id, (callback.data or "")[:64])
    answer_press(callback, answer_text(Answer.MALFORMED, tr_of(callback.from_user)))


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="fallback")
    router.callback_query.register(on_unknown_press)
    return router
