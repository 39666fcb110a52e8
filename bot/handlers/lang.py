"""/lang: a group's language, kept in the database (only the group's admins change it), or a person's choice for
their private chat; «как в Telegram» goes back to each person's Telegram language. ``/lang en`` (``ru``, ``auto``,
or the language's name) chooses at once; in a group, someone who may not change it is told the language and who
may, with no buttons to tap in vain."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.callbacks import AUTO_LANG, LangCb
from bot.flow.service import ChatLanguages, GameService, Membership, Publisher, answer_press
from bot.handlers.common import is_private, thread_of, tr_of
from bot.i18n import Locale, translator, translator_for
from bot.views.languages import render_lang_choice, render_lang_chosen, render_lang_not_yours

WORDS: dict[str, str] = {
    **{word: Locale.RU.value for word in ("ru", "rus", "russian", "русский", "по-русски", "рус")},
    **{word: Locale.EN.value for word in ("en", "eng", "english", "английский", "по-английски", "англ")},
    **{word: AUTO_LANG for word in (AUTO_LANG, "авто", "telegram", "как в telegram")},
}
"""What may follow /lang, lower-cased: a language's code or name."""


async def on_lang(
    message: Message,
    command: CommandObject,
    publisher: Publisher,
    languages: ChatLanguages,
    membership: Membership,
) -> None:
    tr = tr_of(message.from_user)
    chat_id, thread_id = message.chat.id, thread_of(message)
    is_group = not is_private(message.chat)
    current = await languages.of(chat_id)
    asker = message.from_user.id if message.from_user else 0
    if is_group and not await membership.admin_check(asker)(chat_id):
        rendered = render_lang_not_yours(tr, current)
    elif (choice := WORDS.get(" ".join((command.args or "").lower().split()))) is not None:
        chosen = None if choice == AUTO_LANG else Locale(choice)
        await languages.choose(chat_id, chosen)
        rendered = render_lang_chosen(
            translator(chosen) if chosen else translator_for(_code(message)), chosen
        )
    else:
        rendered = render_lang_choice(tr, current, is_group=is_group, unknown=(command.args or "").strip())
    await publisher.say(chat_id, rendered.text, rendered.markup, thread_id=thread_id)


def _code(message: Message) -> str | None:
    return message.from_user.language_code if message.from_user else None


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
        answer_press(callback)
        return
    chat_id = message.chat.id
    if not is_private(message.chat) and not await membership.admin_check(callback.from_user.id)(chat_id):
        answer_press(callback, tr_of(callback.from_user).t("lang-admins-only"))
        return
    chosen = None if callback_data.lang == AUTO_LANG else Locale(callback_data.lang)
    await languages.choose(chat_id, chosen)
    tr = translator(chosen) if chosen is not None else translator_for(callback.from_user.language_code)
    publisher.turn_setup_page(chat_id, message.message_id, render_lang_chosen(tr, chosen))
    answer_press(callback)


def _is_choice(value: str) -> bool:
    return value == AUTO_LANG or value in Locale.__members__.values()


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="lang")
    router.message.register(on_lang, Command("lang"))
    router.callback_query.register(on_choose, LangCb.filter(F.lang.func(_is_choice)))
    return router
