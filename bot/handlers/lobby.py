"""Group lobbies: each game's command, /new, the lobby buttons, /start j_<game> in private, /cancel and Реванш."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.callbacks import LobbyCb, LobbyOp, NewCb, RematchCb, game_of
from bot.flow import commands as cmd
from bot.games import plugins
from bot.model.game import LobbyScreen, Person
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline


async def on_open(
    message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    """A game's own command (its plug-in's ``command``) in a group: its lobby, with the default options."""
    plugin = next(p for p in plugins() if p.command == command.command.lower())
    await pipeline.run(cmd.OpenLobby(origin.chat_id, origin.thread_id, who, plugin.kind), origin)


async def on_new(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.new_menu(origin)


async def on_new_choice(
    callback: CallbackQuery, callback_data: NewCb, pipeline: Pipeline, origin: Origin
) -> None:
    await pipeline.replies.new_choice(origin, callback_data.kind, callback_data.choice)


async def on_cancel(message: Message, pipeline: Pipeline, origin: Origin, who: Person) -> None:
    """``/cancel``: in a group its game (the creator or a chat admin), in private the solo game — answered by the
    game's message itself, sent anew below: «✖️ Партия отменена.» with the standings so far."""
    await pipeline.run(cmd.Cancel(who, chat_id=origin.chat_id, thread_id=origin.thread_id), origin)


async def on_start_link(message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.start_link(origin, command.args or "")


async def on_leave(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.LeaveLobby(game_of(callback_data.game), who), origin)


async def on_bot_menu(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.ShowScreen(game_of(callback_data.game), who, LobbyScreen.BOT_LEVEL), origin)


async def on_add_bot(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.AddBot(game_of(callback_data.game), who, callback_data.value), origin)


async def on_remove_bot(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.RemoveBot(game_of(callback_data.game), who, callback_data.value), origin)


async def on_settings(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.ShowScreen(game_of(callback_data.game), who, LobbyScreen.SETTINGS), origin)


async def on_set(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    data = callback_data
    await pipeline.run(cmd.SetOption(game_of(data.game), who, data.key, data.value), origin)


async def on_back(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.ShowScreen(game_of(callback_data.game), who, LobbyScreen.MAIN), origin)


async def on_start(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.Start(game_of(callback_data.game), who), origin)


async def on_cancel_press(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    # Rights are checked in the game's own chat, not in the chat the button was pressed in.
    await pipeline.run(cmd.Cancel(who, game_of(callback_data.game)), origin)


async def on_rematch(
    callback: CallbackQuery, callback_data: RematchCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.Rematch(game_of(callback_data.game), who), origin)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="lobby")
    router.message.register(on_open, Command(*(p.command for p in plugins())), ~F.chat.type.in_({"private"}))
    router.message.register(on_new, Command("new"), ~F.chat.type.in_({"private"}))
    router.callback_query.register(on_new_choice, NewCb.filter())
    router.message.register(on_cancel, Command("cancel"))
    router.message.register(on_start_link, CommandStart(deep_link=True), F.chat.type == "private")
    for op, handler in (
        (LobbyOp.LEAVE, on_leave),
        (LobbyOp.BOT_MENU, on_bot_menu),
        (LobbyOp.ADD_BOT, on_add_bot),
        (LobbyOp.REMOVE_BOT, on_remove_bot),
        (LobbyOp.SETTINGS, on_settings),
        (LobbyOp.SET, on_set),
        (LobbyOp.BACK, on_back),
        (LobbyOp.START, on_start),
        (LobbyOp.CANCEL, on_cancel_press),
    ):
        router.callback_query.register(handler, LobbyCb.filter(F.op == op))
    router.callback_query.register(on_rematch, RematchCb.filter())
    return router
