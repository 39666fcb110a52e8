"""Plain commands: /help, /score, /stats, /me, /top, /privacy, /nextgame, /settings, /leave, and a person blocking or unblocking the bot (the rules and
/start have their own routers)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.filters import Command, CommandObject
from aiogram.types import ChatMemberUpdated, Message

from bot.flow import commands as cmd
from bot.model.game import Person
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline

AS_TEXT = frozenset({"text", "текст", "t", "т"})
"""What after /score asks for the table as text."""


async def on_help(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.help(origin)


async def on_score(message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.score(origin, as_text=(command.args or "").strip().lower() in AS_TEXT)


async def on_stats(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.stats(origin)


async def on_me(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.me(origin)


async def on_top(message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin) -> None:
    """/top: the chat's board by rating (in a group), the global one (``/top all``, or in private)."""
    await pipeline.replies.top(origin, command.args or "")


async def on_privacy(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    """/privacy in private: on the global board, or off it."""
    await pipeline.replies.privacy(origin)


async def on_next_game(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    """/nextgame: called in private when the group's next lobby opens (again: not)."""
    await pipeline.replies.next_game(origin)


async def on_settings(message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin) -> None:
    """/settings: the open lobby's settings saved as the chat's own (an admin), or the saved ones shown."""
    await pipeline.replies.chat_settings(origin, command.args or "")


async def on_my_chat_member(
    event: ChatMemberUpdated, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    """A person blocked or unblocked the bot in private."""
    status = event.new_chat_member.status
    if status == ChatMemberStatus.KICKED:
        await pipeline.run(cmd.Forbidden(event.chat.id), origin)
    elif status == ChatMemberStatus.MEMBER:
        await pipeline.run(cmd.Seen(who, started=True), origin)


async def on_leave(message: Message, pipeline: Pipeline, origin: Origin, who: Person) -> None:
    """/leave: a bot player takes the person's seat in the running game (one tap brings them back)."""
    await pipeline.run(cmd.LeaveGame(origin.chat_id, origin.thread_id, who), origin)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="commands")
    router.message.register(on_help, Command("help"))
    router.message.register(on_score, Command("score"))
    router.message.register(on_stats, Command("stats"))
    router.message.register(on_leave, Command("leave"))
    router.message.register(on_me, Command("me"), F.chat.type == "private")
    router.message.register(on_top, Command("top"))
    router.message.register(on_privacy, Command("privacy"), F.chat.type == "private")
    router.message.register(on_next_game, Command("nextgame"), F.chat.type.in_({"group", "supergroup"}))
    router.message.register(on_settings, Command("settings"), F.chat.type.in_({"group", "supergroup"}))
    router.my_chat_member.register(on_my_chat_member, F.chat.type == "private")
    return router
