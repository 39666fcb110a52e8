"""Helpers every router shares: who pressed, in which chat and thread, in which language."""

from __future__ import annotations

from typing import Final

from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Chat, Message, User

from bot.flow.service import CHAT_LOCALE, USER_LOCALE, Person, answer_press
from bot.i18n import Translator, translator, translator_for


def tr_of(user: User | None) -> Translator:
    """The texts for an answer: the chat's chosen language (/lang), else the person's choice, else Telegram's."""
    chosen = CHAT_LOCALE.get() or USER_LOCALE.get()
    if chosen is not None:
        return translator(chosen)
    return translator_for(user.language_code if user else None)


def person(user: User) -> Person:
    """The person as the service needs them; their language is the one they chose for their private chat, if
    any (their hands and notices follow it), else Telegram's."""
    chosen = USER_LOCALE.get()
    lang = chosen.value if chosen is not None else user.language_code
    return Person(user.id, user.full_name, user.username, lang)


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


async def answer_quietly(
    callback: CallbackQuery, text: str | None = None, *, show_alert: bool = False, url: str | None = None
) -> None:
    """Answer a press beside the update, within a few seconds (:mod:`bot.delivery.outbox.core`): the handler does not
    wait for the network; a query too old to answer (the bot was down) is not worth an error. ``url``: a link
    Telegram opens (such as the private chat)."""
    answer_press(callback, text, show_alert=show_alert, url=url)
