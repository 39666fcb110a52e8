"""The error handlers: a refusal of the service becomes a localized answer to the press or command; any other
failure is logged with its traceback and the game it touched, and the press is still answered."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import ErrorEvent

from bot.flow.service import (
    GameService,
    Operator,
    Publisher,
    RefusalThrottle,
    ServiceError,
    answer_press,
    current_game,
)
from bot.handlers.common import tr_of
from bot.i18n import Translator
from bot.views import Answer, answer_text, illegal_answer
from engine.core import IllegalActionError

log = logging.getLogger(__name__)

PERSONAL = frozenset({Answer.NOT_CREATOR_OR_ADMIN, Answer.CANNOT_CHECK, Answer.CANNOT_CHECK_RIGHTS})
"""Refusals about the person's own rights: one person's is never merged with another's (an admin refused
because Telegram did not answer is told so, even just after a stranger's /cancel was refused)."""


def _text(exc: ServiceError, tr: Translator) -> str:
    """The answer; a refusal of the rules engine shows its cards and suits the way the locale writes them."""
    cause = exc.__cause__
    if isinstance(cause, IllegalActionError) and cause.reason is exc.reason:
        return illegal_answer(cause, tr, **exc.params)
    return answer_text(exc.reason, tr, **exc.params)


def _who(event: ErrorEvent) -> tuple[int | None, int | None]:
    """The user and the chat of the update that failed (either may be unknown)."""
    update = event.update
    try:
        subject: object = update.event
    except Exception:  # an update of a kind aiogram does not know
        subject = None
    user = getattr(subject, "from_user", None)
    chat = getattr(subject, "chat", None)
    query = update.callback_query
    if query is not None and query.message is not None:
        chat = query.message.chat
    return (user.id if user else None), (chat.id if chat else None)


async def on_refusal(
    event: ErrorEvent,
    service: GameService,
    operator: Operator,
    publisher: Publisher,
    refusals: RefusalThrottle,
) -> bool:
    exc = event.exception
    assert isinstance(exc, ServiceError)
    update = event.update
    user_id, chat_id = _who(event)
    operator.refused(str(exc.reason.value), user_id, chat_id, current_game())
    if update.callback_query is not None:
        query = update.callback_query
        log.info("game %s: a press by %s refused: %s", current_game(), query.from_user.id, exc.reason.value)
        answer_press(query, _text(exc, tr_of(query.from_user)))
        game_id = current_game()
        if exc.reason is Answer.STALE and game_id is not None and query.message is not None:
            await publisher.delete_stray(
                game_id, query.from_user.id, query.message.chat.id, query.message.message_id
            )
    elif update.message is not None:
        message = update.message
        thread_id = message.message_thread_id or 0
        command = (message.text or "").split(maxsplit=1)[0].split("@", 1)[0].lower() if message.text else ""
        log.info(
            "game %s: %s in chat %s refused: %s",
            current_game(),
            command or "a message",
            message.chat.id,
            exc.reason.value,
        )
        person = message.from_user.id if message.from_user and exc.reason in PERSONAL else 0
        if not refusals.allow(message.chat.id, thread_id, command, str(exc.reason.value), person):
            log.info(
                "chat %s: refusal %s to %s merged with the last one", message.chat.id, exc.reason, command
            )
            return True
        text = _text(exc, tr_of(message.from_user))
        await publisher.say(message.chat.id, text, thread_id=thread_id)
    return True


async def on_failure(event: ErrorEvent, operator: Operator) -> bool:
    """Anything else that went wrong: logged with its traceback and who met it, reported to the operators' chat
    (once per place and while); a press gets a short apology, not a spinner."""
    update = event.update
    user_id, chat_id = _who(event)
    log.error(
        "game %s: update %s (user %s, chat %s) failed: %r",
        current_game(),
        update.update_id,
        user_id,
        chat_id,
        event.exception,
        exc_info=event.exception,
    )
    operator.failed(event.exception, user_id, chat_id, current_game())
    query = update.callback_query
    if query is not None:
        answer_press(query, tr_of(query.from_user).t("answer-failed"))
    return True


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="errors")
    router.errors.register(on_refusal, ExceptionTypeFilter(ServiceError))
    router.errors.register(on_failure)
    return router
