"""The answers of last resort, tried after every other router: a command sent in the other kind of chat says where
it works (with the button that gets there), and anything else written in private gets the short menu.

Nothing a person writes to the bot in private goes unanswered; in a group the bot hears only commands (privacy
mode), and a command that is no one's is left alone there (it may be another bot's).
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.flow.service import GameService, Publisher
from bot.games import plugins, rules_library
from bot.handlers.common import thread_of, tr_of
from bot.handlers.start import username_of
from bot.views.chats import render_group_only, render_menu, render_private_only

GROUP_ONLY_COMMANDS = frozenset({"new", "top"})
"""The bot's own group commands, besides each game's (its plug-in's ``command``)."""
PRIVATE_ONLY_COMMANDS = frozenset({"play"})


def _group_only() -> frozenset[str]:
    return GROUP_ONLY_COMMANDS | {p.command for p in plugins()}


async def on_group_command_in_private(
    message: Message, command: CommandObject, service: GameService, bot: Bot, publisher: Publisher
) -> None:
    rendered = render_group_only(tr_of(message.from_user), command.command.lower(), await username_of(bot))
    await publisher.say(message.chat.id, rendered.text, rendered.markup)


async def on_private_command_in_group(
    message: Message, command: CommandObject, service: GameService, bot: Bot, publisher: Publisher
) -> None:
    tr = tr_of(message.from_user)
    rendered = render_private_only(tr, command.command.lower(), await username_of(bot))
    await publisher.say(message.chat.id, rendered.text, rendered.markup, thread_id=thread_of(message))


async def on_anything_in_private(
    message: Message, service: GameService, bot: Bot, publisher: Publisher
) -> None:
    """Plain text, an unknown command, a sticker…: the short menu."""
    rendered = render_menu(tr_of(message.from_user), await username_of(bot), rules_library().first.id)
    await publisher.say(message.chat.id, rendered.text, rendered.markup)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only); it goes last but the presses' fallback."""
    router = Router(name="elsewhere")
    router.message.register(
        on_group_command_in_private,
        Command(*sorted(_group_only()), ignore_case=True),
        F.chat.type == "private",
    )
    router.message.register(
        on_private_command_in_group,
        Command(*sorted(PRIVATE_ONLY_COMMANDS), ignore_case=True),
        F.chat.type.in_({"group", "supergroup"}),
    )
    router.message.register(on_anything_in_private, F.chat.type == "private", F.via_bot.is_(None))
    return router
