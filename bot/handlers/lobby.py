"""Group lobbies: each game's command, /new, the lobby buttons, /start j_<game> in private, /cancel and Реванш."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

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


LOBBY_COMMANDS: Final[dict[LobbyOp, Callable[[LobbyCb, Person], cmd.Command]]] = {
    LobbyOp.LEAVE: lambda data, who: cmd.LeaveLobby(game_of(data.game), who),
    LobbyOp.BOT_MENU: lambda data, who: cmd.ShowScreen(game_of(data.game), who, LobbyScreen.BOT_LEVEL),
    LobbyOp.ADD_BOT: lambda data, who: cmd.AddBot(game_of(data.game), who, data.value),
    LobbyOp.REMOVE_BOT: lambda data, who: cmd.RemoveBot(game_of(data.game), who, data.value),
    LobbyOp.SETTINGS: lambda data, who: cmd.ShowScreen(game_of(data.game), who, LobbyScreen.SETTINGS),
    LobbyOp.SET: lambda data, who: cmd.SetOption(game_of(data.game), who, data.key, data.value),
    LobbyOp.BACK: lambda data, who: cmd.ShowScreen(game_of(data.game), who, LobbyScreen.MAIN),
    LobbyOp.START: lambda data, who: cmd.Start(game_of(data.game), who),
    # rights are checked in the game's own chat, not in the chat the button was pressed in
    LobbyOp.CANCEL: lambda data, who: cmd.Cancel(who, game_of(data.game)),
}
"""The command each lobby button stands for."""


async def on_lobby_press(
    callback: CallbackQuery, callback_data: LobbyCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(LOBBY_COMMANDS[callback_data.op](callback_data, who), origin)


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
    router.callback_query.register(on_lobby_press, LobbyCb.filter(F.op.in_(LOBBY_COMMANDS)))
    router.callback_query.register(on_rematch, RematchCb.filter())
    return router
