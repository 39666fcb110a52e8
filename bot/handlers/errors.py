"""The one error handler: a refusal of the service becomes a localized answer to the press or command."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import ErrorEvent

from bot.handlers.common import answer_quietly, tr_of
from bot.services.errors import ServiceError
from bot.services.outbox import Outbox
from bot.views import answer_text

log = logging.getLogger(__name__)


async def on_refusal(event: ErrorEvent, outbox: Outbox) -> bool:
    exc = event.exception
    assert isinstance(exc, ServiceError)
    update = event.update
    if update.callback_query is not None:
        query = update.callback_query
        await answer_quietly(query, answer_text(exc.reason, tr_of(query.from_user), **exc.params))
    elif update.message is not None:
        message = update.message
        text = answer_text(exc.reason, tr_of(message.from_user), **exc.params)
        await outbox.say(message.chat.id, text, thread_id=message.message_thread_id or 0)
    return True


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="errors")
    router.errors.register(on_refusal, ExceptionTypeFilter(ServiceError))
    return router
