"""Helpers every router shares: in which chat and thread, in which language (who pressed, as the flow sees them:
:func:`bot.guards.updates.person`; a press answered: :func:`bot.delivery.outbox.core.answer_press`)."""

from __future__ import annotations

from aiogram.enums import ChatType
from aiogram.types import Chat, Message, User

from bot.flow.service import CHAT_LOCALE, USER_LOCALE
from bot.i18n import Translator, translator, translator_for


def tr_of(user: User | None) -> Translator:
    """The texts for an answer: the chat's chosen language (/lang), else the person's choice, else Telegram's."""
    chosen = CHAT_LOCALE.get() or USER_LOCALE.get()
    if chosen is not None:
        return translator(chosen)
    return translator_for(user.language_code if user else None)


def is_private(chat: Chat) -> bool:
    return chat.type == ChatType.PRIVATE


def thread_of(message: Message) -> int:
    """The forum topic a group message belongs to (0 outside forums): one game per topic."""
    if message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0
