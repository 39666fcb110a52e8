"""The one error handler: a refusal of the service becomes a localized answer to the press or command."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import ErrorEvent

from bot.handlers.common import answer_quietly, tr_of
from bot.i18n import Translator
from bot.services.errors import ServiceError
from bot.services.outbox import Outbox
from bot.views import answer_text, illegal_answer
from engine.core import IllegalActionError

log = logging.getLogger(__name__)


def _text(exc: ServiceError, tr: Translator) -> str:
    """The answer; a refusal of the rules engine shows its cards and suits the way the locale writes them."""
    cause = exc.__cause__
    if isinstance(cause, IllegalActionError) and cause.reason is exc.reason:
        return illegal_answer(cause, tr, **exc.params)
    return answer_text(exc.reason, tr, **exc.params)


async def on_refusal(event: ErrorEvent, outbox: Outbox) -> bool:
    exc = event.exception
    assert isinstance(exc, ServiceError)
    update = event.update
    if update.callback_query is not None:
        query = update.callback_query
        await answer_quietly(query, _text(exc, tr_of(query.from_user)))
    elif update.message is not None:
        message = update.message
        text = _text(exc, tr_of(message.from_user))
        await outbox.say(message.chat.id, text, thread_id=message.message_thread_id or 0)
    return True


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="errors")
    router.errors.register(on_refusal, ExceptionTypeFilter(ServiceError))
    return router
