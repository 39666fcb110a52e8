"""Helpers every router shares: who pressed, in which chat and thread, in which language."""

from __future__ import annotations

from aiogram import Bot
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.types import CallbackQuery, Chat, Message, User

from bot.i18n import Translator, translator_for
from bot.services.game import AdminCheck, Person


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


def admin_check(bot: Bot, chat_id: int, user_id: int) -> AdminCheck:
    """Ask Telegram (only when needed) whether the user administers the chat."""

    async def check() -> bool:
        member = await bot.get_chat_member(chat_id, user_id)
        return member.status in (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR)

    return check


def game_id_of(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value > 0 else None


async def answer_quietly(callback: CallbackQuery, text: str | None = None) -> None:
    """Answer a press; a query that is too old (the bot was down) is not worth an error."""
    try:
        await callback.answer(text)
    except Exception:
        return
