"""Helpers every router shares: who pressed, in which chat and thread, in which language."""

from __future__ import annotations

from typing import Final

from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Chat, Message, User

from bot.i18n import Translator, translator_for
from bot.services.facade import Person


def tr_of(user: User | None) -> Translator:
    return translator_for(user.language_code if user else None)


def person(user: User) -> Person:
    return Person.from_user(user)


def is_private(chat: Chat) -> bool:
    return chat.type == ChatType.PRIVATE


def thread_of(message: Message) -> int:
    """The forum topic a group message belongs to (0 outside forums): one game per topic."""
    if message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


MAX_GAME_ID: Final = 2**63 - 1
"""SQLite's largest integer: a forged id beyond it is no game (and must not reach a query)."""


def game_id_of(text: str) -> int | None:
    """The game id a button or link carries: plain ASCII digits, 1..2^63-1; None for anything else."""
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        return None
    value = int(text)
    return value if 0 < value <= MAX_GAME_ID else None


async def answer_quietly(callback: CallbackQuery, text: str | None = None, url: str | None = None) -> None:
    """Answer a press (``url``: a link to open, such as the private chat); a query that is too old (the bot was
    down) is not worth an error."""
    try:
        await callback.answer(text, url=url)
    except Exception:
        return
