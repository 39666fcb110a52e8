"""The rules: «/rules [words]», its section buttons, the deep link that opens them in private, and inline mode.

In a group the answer is short (the one section asked for) and the whole rules open in the private chat; where a
game is open in the chat, the answer also says which of that game's options are on.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InlineQuery, Message

from bot.callbacks import DeepLink, RulesCb
from bot.games import rules_library
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline
from bot.views.rules import SHOWN_MARK
from bot.views.rules_lookup import find_sections


async def on_rules(message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin) -> None:
    """«/rules»: the first section (a group gets the contents); «/rules ералаш»: the section meant."""
    await pipeline.replies.rules(origin, (command.args or "").strip())


async def on_rules_start(
    message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin
) -> None:
    """``t.me/<bot>?start=r_<section>``: the whole section, with every button, in the private chat."""
    await pipeline.replies.rules_start(origin, (command.args or "").removeprefix(DeepLink.RULES.value))


def _is_shown(message: Message, data: str) -> bool:
    """Whether the pressed page button is the one marked as the section the message shows («• …»)."""
    markup = message.reply_markup
    buttons = [b for row in markup.inline_keyboard for b in row] if markup is not None else []
    return any(b.callback_data == data and b.text.startswith(SHOWN_MARK) for b in buttons)


async def on_rules_section(
    callback: CallbackQuery, callback_data: RulesCb, pipeline: Pipeline, origin: Origin
) -> None:
    message = callback.message
    shown = isinstance(message, Message) and _is_shown(message, callback.data or "")
    page = callback_data.page and isinstance(message, Message)
    await pipeline.replies.rules_pressed(
        origin, callback_data.section, callback_data.game, page=page, shown=shown
    )


async def on_inline_query(query: InlineQuery, pipeline: Pipeline, origin: Origin) -> None:
    """«@bot ералаш» in any chat: the matching sections to post there."""
    await pipeline.replies.inline(query.id, query.query, origin)


def _is_section(section_id: str) -> bool:
    return rules_library().has(section_id)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only); it goes before the lobby's /start."""
    router = Router(name="rules")
    # load the dictionaries and build the index now, not in the first person's query
    find_sections(rules_library(), "сколько карт сдают")
    router.message.register(
        on_rules_start,
        CommandStart(deep_link=True, magic=F.args.startswith(DeepLink.RULES.value)),
        F.chat.type == "private",
    )
    router.message.register(on_rules, Command("rules"))
    # a section no hosted game has (a forged button, or one of a game this bot no longer hosts) is no rules press
    router.callback_query.register(on_rules_section, RulesCb.filter(F.section.func(_is_section)))
    router.inline_query.register(on_inline_query)
    return router
