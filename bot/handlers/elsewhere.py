"""The answers of last resort, tried after every other router: a command sent in the other kind of chat says where
it works (with the button that gets there), and anything else written in private gets the short menu.

Nothing a person writes to the bot in private goes unanswered; in a group the bot hears only commands (privacy
mode), and a command that is no one's is left alone there (it may be another bot's).
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.games import plugins
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline

GROUP_ONLY_COMMANDS = frozenset({"new", "nextgame", "settings"})
"""The bot's own group commands, besides each game's (its plug-in's ``command``)."""
PRIVATE_ONLY_COMMANDS = frozenset({"play", "me", "privacy"})


def _group_only() -> frozenset[str]:
    return GROUP_ONLY_COMMANDS | {p.command for p in plugins()}


async def on_group_command_in_private(
    message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin
) -> None:
    await pipeline.replies.elsewhere(origin, command.command.lower(), group_only=True)


async def on_private_command_in_group(
    message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin
) -> None:
    await pipeline.replies.elsewhere(origin, command.command.lower(), group_only=False)


async def on_anything_in_private(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    """Plain text, an unknown command, a sticker…: the short menu."""
    await pipeline.replies.menu(origin)


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
