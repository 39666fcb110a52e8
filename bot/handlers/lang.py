"""/lang: a group's language, kept in the database (only the group's admins change it), or a person's choice for
their private chat; «как в Telegram» goes back to each person's Telegram language."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import AUTO_LANG, LangCb
from bot.flow.service import ChatLanguages, GameService, Membership, Publisher
from bot.handlers.common import answer_quietly, is_private, thread_of, tr_of
from bot.i18n import Locale, translator, translator_for
from bot.views.languages import render_lang_choice, render_lang_chosen


async def on_lang(
    message: Message, service: GameService, publisher: Publisher, languages: ChatLanguages
) -> None:
    current = await languages.of(message.chat.id)
    rendered = render_lang_choice(tr_of(message.from_user), current, is_group=not is_private(message.chat))
    await publisher.say(message.chat.id, rendered.text, rendered.markup, thread_id=thread_of(message))


async def on_choose(
    callback: CallbackQuery,
    callback_data: LangCb,
    service: GameService,
    publisher: Publisher,
    membership: Membership,
    languages: ChatLanguages,
) -> None:
    message = callback.message
    if not isinstance(message, Message):
        await answer_quietly(callback)
        return
    chat_id = message.chat.id
    if not is_private(message.chat) and not await membership.admin_check(callback.from_user.id)(chat_id):
        await answer_quietly(callback, tr_of(callback.from_user).t("lang-admins-only"))
        return
    chosen = None if callback_data.lang == AUTO_LANG else Locale(callback_data.lang)
    await languages.choose(chat_id, chosen)
    tr = translator(chosen) if chosen is not None else translator_for(callback.from_user.language_code)
    publisher.turn_setup_page(chat_id, message.message_id, render_lang_chosen(tr, chosen))
    await answer_quietly(callback)


def _is_choice(value: str) -> bool:
    return value == AUTO_LANG or value in Locale.__members__.values()


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="lang")
    router.message.register(on_lang, Command("lang"))
    router.callback_query.register(on_choose, LangCb.filter(F.lang.func(_is_choice)))
    return router
