"""Plain commands: /start, /help, /score, /stats, /top (the rules have their own router)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.filters import Command, CommandStart
from aiogram.types import ChatMemberUpdated, Message

from bot.games import rules_library
from bot.handlers.common import is_private, person, thread_of, tr_of
from bot.services.facade import GameService
from bot.views import render_help
from bot.views.stats import render_stats, render_top


async def on_start(message: Message, service: GameService, bot: Bot) -> None:
    assert message.from_user is not None
    await service.seen(person(message.from_user), started=True)
    rendered = render_help(rules_library(), tr_of(message.from_user), (await bot.me()).username or "")
    await service.say(message.chat.id, rendered.text, rendered.markup)


async def on_help(message: Message, service: GameService, bot: Bot) -> None:
    rendered = render_help(rules_library(), tr_of(message.from_user), (await bot.me()).username or "")
    await service.say(message.chat.id, rendered.text, rendered.markup, thread_id=thread_of(message))


async def on_score(message: Message, service: GameService) -> None:
    """/score: in a group the table again below; in private the whole table of each game one plays in."""
    if is_private(message.chat):
        assert message.from_user is not None
        await service.show_tables(person(message.from_user))
    else:
        await service.repost(message.chat.id, thread_of(message))


async def on_stats(message: Message, service: GameService) -> None:
    assert message.from_user is not None
    name = None if is_private(message.chat) else message.from_user.full_name
    rendered = render_stats(await service.stats(message.from_user.id), tr_of(message.from_user), name=name)
    await service.say(message.chat.id, rendered.text, thread_id=thread_of(message))


async def on_top(message: Message, service: GameService) -> None:
    """/top in a group: the chat's leaderboard over its finished parties."""
    rendered = render_top(await service.top(message.chat.id), tr_of(message.from_user))
    await service.say(message.chat.id, rendered.text, thread_id=thread_of(message))


async def on_my_chat_member(event: ChatMemberUpdated, service: GameService) -> None:
    """A person blocked or unblocked the bot in private."""
    if event.chat.type != ChatType.PRIVATE:
        return
    status = event.new_chat_member.status
    if status == ChatMemberStatus.KICKED:
        await service.on_forbidden(event.chat.id)
    elif status == ChatMemberStatus.MEMBER:
        await service.seen(person(event.from_user), started=True)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="commands")
    router.message.register(on_start, CommandStart(deep_link=False), F.chat.type == "private")
    router.message.register(on_help, Command("help"))
    router.message.register(on_score, Command("score"))
    router.message.register(on_stats, Command("stats"))
    router.message.register(on_top, Command("top"), F.chat.type.in_({"group", "supergroup"}))
    router.my_chat_member.register(on_my_chat_member, F.chat.type == "private")
    return router
