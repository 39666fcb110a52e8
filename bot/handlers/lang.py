"""/lang: a group's language, kept in the database (only the group's admins change it), or a person's choice for
their private chat; «как в Telegram» goes back to each person's Telegram language. ``/lang en`` (``ru``, ``auto``,
or the language's name) chooses at once; in a group, someone who may not change it is told the language and who
may, with no buttons to tap in vain."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.callbacks import AUTO_LANG, LangCb
from bot.i18n import Locale
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline

WORDS: dict[str, str] = {
    **{word: Locale.RU.value for word in ("ru", "rus", "russian", "русский", "по-русски", "рус")},
    **{word: Locale.EN.value for word in ("en", "eng", "english", "английский", "по-английски", "англ")},
    **{word: AUTO_LANG for word in (AUTO_LANG, "авто", "telegram", "как в telegram")},
}
"""What may follow /lang, lower-cased: a language's code or name."""


async def on_lang(message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin) -> None:
    words = command.args or ""
    await pipeline.replies.lang(origin, WORDS.get(" ".join(words.lower().split())), words)


async def on_choose(
    callback: CallbackQuery, callback_data: LangCb, pipeline: Pipeline, origin: Origin
) -> None:
    await pipeline.replies.lang_pressed(origin, callback_data.lang)


def _is_choice(value: str) -> bool:
    return value == AUTO_LANG or value in Locale.__members__.values()


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="lang")
    router.message.register(on_lang, Command("lang"))
    router.callback_query.register(on_choose, LangCb.filter(F.lang.func(_is_choice)))
    return router
