"""Plain commands: /help, /score, /stats, /top (the rules and /start have their own routers)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import ChatMemberUpdated, Message

from bot.flow.service import GameService, People, Publisher, cmd, person
from bot.games import plugins, rules_library
from bot.handlers.common import is_private, thread_of, tr_of
from bot.i18n import Translator
from bot.views import render_help
from bot.views.stats import render_stats, render_top


async def on_help(message: Message, service: GameService, bot: Bot, publisher: Publisher) -> None:
    rendered = render_help(rules_library(), tr_of(message.from_user), (await bot.me()).username or "")
    await publisher.say(message.chat.id, rendered.text, rendered.markup, thread_id=thread_of(message))


async def on_score(message: Message, command: CommandObject, service: GameService) -> None:
    """/score: the score sheet's picture anew below — in a group of its game, in private of each game one plays
    in (before the first deal's end: the table). ``/score text``: the table as text, as before (in a group again
    below; in private the whole table of each game, and the hands below them)."""
    assert message.from_user is not None
    who = person(message.from_user)
    as_text = (command.args or "").strip().lower() in {"text", "текст", "t", "т"}
    if not as_text:
        await service.run(cmd.ShowSheet(who, message.chat.id, thread_of(message)))
    elif is_private(message.chat):
        await service.run(cmd.ShowTable(who))
    else:
        await service.run(cmd.Repost(message.chat.id, thread_of(message)))
    if is_private(message.chat):
        # below them: a hand the person deleted comes back with its buttons
        await service.run(cmd.HandsBack(who))


def _games(tr: Translator) -> list[tuple[str, str]]:
    """Each hosted game's kind and its name on a button, in the bot's order."""
    return [(p.kind, p.button(tr)) for p in plugins()]


async def on_stats(message: Message, service: GameService, publisher: Publisher, people: People) -> None:
    """/stats: each game apart, groups apart from games with bots."""
    assert message.from_user is not None
    name = None if is_private(message.chat) else message.from_user.full_name
    tr = tr_of(message.from_user)
    rendered = render_stats(await people.stats(message.from_user.id), _games(tr), tr, name=name)
    await publisher.say(message.chat.id, rendered.text, thread_id=thread_of(message))


async def on_top(message: Message, service: GameService, publisher: Publisher, people: People) -> None:
    """/top in a group: the chat's leaderboard over its finished parties, each game apart."""
    tr = tr_of(message.from_user)
    tops = [(name, await people.top(message.chat.id, kind)) for kind, name in _games(tr)]
    rendered = render_top(tops, tr)
    await publisher.say(message.chat.id, rendered.text, thread_id=thread_of(message))


async def on_my_chat_member(event: ChatMemberUpdated, service: GameService) -> None:
    """A person blocked or unblocked the bot in private."""
    if event.chat.type != ChatType.PRIVATE:
        return
    status = event.new_chat_member.status
    if status == ChatMemberStatus.KICKED:
        await service.run(cmd.Forbidden(event.chat.id))
    elif status == ChatMemberStatus.MEMBER:
        await service.run(cmd.Seen(person(event.from_user), started=True))


async def on_leave(message: Message, service: GameService) -> None:
    """/leave: a bot player takes the person's seat in the running game (one tap brings them back)."""
    assert message.from_user is not None
    await service.run(cmd.LeaveGame(message.chat.id, thread_of(message), person(message.from_user)))


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="commands")
    router.message.register(on_help, Command("help"))
    router.message.register(on_score, Command("score"))
    router.message.register(on_stats, Command("stats"))
    router.message.register(on_leave, Command("leave"))
    router.message.register(on_top, Command("top"), F.chat.type.in_({"group", "supergroup"}))
    router.my_chat_member.register(on_my_chat_member, F.chat.type == "private")
    return router
