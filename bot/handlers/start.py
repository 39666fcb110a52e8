"""First contact: /start in private (the greeting, or the running game's hand brought back), ``/start play`` (the
private chat opened from a group's «/play»), /start in a group, and the private menu's «🎮 Играть с ботами»."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.callbacks import MenuCb, MenuOp
from bot.flow.service import GameService, People, Publisher, answer_press, cmd, person
from bot.games import plugins, rules_library
from bot.handlers.common import thread_of, tr_of
from bot.handlers.solo import play_menu
from bot.views.chats import PLAY_PAYLOAD, render_group_start, render_start


async def username_of(bot: Bot) -> str:
    return (await bot.me()).username or ""


async def on_start(message: Message, service: GameService, bot: Bot, publisher: Publisher) -> None:
    """/start in private: a running game's hand comes back below; otherwise the greeting with the ways on."""
    assert message.from_user is not None
    who = person(message.from_user)
    await service.run(cmd.Seen(who, started=True))
    if (await service.run(cmd.HandsBack(who))).counted:
        return
    tr = tr_of(message.from_user)
    rendered = render_start(
        tr,
        [p.name(tr) for p in plugins()],
        [f"/{p.command}" for p in plugins()],
        await username_of(bot),
        rules_library().first.id,
    )
    await publisher.say(message.chat.id, rendered.text, rendered.markup)


async def on_start_play(message: Message, service: GameService, publisher: Publisher) -> None:
    """``/start play``: the private chat opened from a group's «/play» answer: straight to the game menu."""
    assert message.from_user is not None
    who = person(message.from_user)
    await service.run(cmd.Seen(who, started=True))
    if (await service.run(cmd.HandsBack(who, solo_only=True))).counted:
        return
    rendered = play_menu(message.from_user)
    await publisher.say(message.chat.id, rendered.text, rendered.markup)


async def on_group_start(message: Message, service: GameService, bot: Bot, publisher: Publisher) -> None:
    """/start in a group (also the bot just added through «👥 Добавить в группу»): how to play here."""
    rendered = render_group_start(
        tr_of(message.from_user), [f"/{p.command}" for p in plugins()], await username_of(bot)
    )
    await publisher.say(message.chat.id, rendered.text, rendered.markup, thread_id=thread_of(message))


async def on_play_press(
    callback: CallbackQuery, service: GameService, publisher: Publisher, people: People
) -> None:
    """«🎮 Играть с ботами»: the running solo game's hand below; else the game menu — in place of this message,
    or, while the person plays in a group, anew below with that game's hand under it (as /play does: an old
    greeting high up in the chat must not open a set-up out of sight, the group game's hand lost above)."""
    who = person(callback.from_user)
    if not (await service.run(cmd.HandsBack(who, solo_only=True))).counted:
        rendered = play_menu(callback.from_user)
        message = callback.message
        if (
            isinstance(message, Message)
            and message.chat.id == callback.from_user.id
            and not await people.running(callback.from_user.id)
        ):
            publisher.turn_setup_page(message.chat.id, message.message_id, rendered)
        else:
            await publisher.say(callback.from_user.id, rendered.text, rendered.markup)
            await service.run(cmd.HandsBack(who))
    answer_press(callback)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only); it goes before the lobby's deep links."""
    router = Router(name="start")
    router.message.register(on_start, CommandStart(deep_link=False), F.chat.type == "private")
    router.message.register(
        on_start_play, CommandStart(deep_link=True, magic=F.args == PLAY_PAYLOAD), F.chat.type == "private"
    )
    router.message.register(on_group_start, Command("start"), F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.register(on_play_press, MenuCb.filter(F.op == MenuOp.PLAY))
    return router
