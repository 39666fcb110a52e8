"""Group lobbies: each game's command, /new, the lobby buttons, /start j_<game> in private, /cancel and Реванш."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.callbacks import DeepLink, LobbyCb, LobbyOp, NewCb, RematchCb, game_id_of, parse_start_payload
from bot.flow.service import GameService, Membership, Publisher, ServiceError, answer_press, cmd, person
from bot.games import is_hosted, plugins
from bot.handlers.common import is_private, thread_of, tr_of
from bot.views import Answer, LobbyScreen, answer_text
from bot.views.lobby import render_new_menu


async def on_open(message: Message, command: CommandObject, service: GameService) -> None:
    """A game's own command (its plug-in's ``command``) in a group: its lobby, with the default options."""
    assert message.from_user is not None
    plugin = next(p for p in plugins() if p.command == command.command.lower())
    await service.run(
        cmd.OpenLobby(message.chat.id, thread_of(message), person(message.from_user), plugin.kind)
    )


async def on_new(message: Message, publisher: Publisher) -> None:
    tr = tr_of(message.from_user)
    games = [
        [(label, NewCb(kind=p.kind, choice=choice).pack()) for label, choice in p.new_choices(tr)]
        for p in plugins()
    ]
    rendered = render_new_menu(games, tr)
    await publisher.say(message.chat.id, rendered.text, rendered.markup, thread_id=thread_of(message))


async def on_new_choice(callback: CallbackQuery, callback_data: NewCb, service: GameService) -> None:
    message = callback.message
    if not isinstance(message, Message):
        answer_press(callback)
        return
    if is_private(message.chat):
        raise ServiceError(Answer.GROUP_ONLY)  # a forged press: group lobbies open in groups only
    if not is_hosted(callback_data.kind):
        raise ServiceError(Answer.UNKNOWN)
    options = service.new_options(callback_data.kind, callback_data.choice)
    who = person(callback.from_user)
    await service.run(cmd.OpenLobby(message.chat.id, thread_of(message), who, callback_data.kind, options))
    answer_press(callback)


async def on_cancel(
    message: Message, service: GameService, publisher: Publisher, membership: Membership
) -> None:
    """``/cancel``: in a group its game (the creator or a chat admin), in private the solo game."""
    assert message.from_user is not None
    who = person(message.from_user)
    check = membership.admin_check(who.user_id)
    # Answered by the game's message itself, sent anew below: «✖️ Партия отменена.» with the standings so far.
    await service.run(cmd.Cancel(who, check, chat_id=message.chat.id, thread_id=thread_of(message)))


async def on_start_link(
    message: Message,
    command: CommandObject,
    service: GameService,
    publisher: Publisher,
    membership: Membership,
) -> None:
    assert message.from_user is not None
    who = person(message.from_user)
    await service.run(cmd.Seen(who, started=True))
    parsed = parse_start_payload(command.args or "")
    tr = tr_of(message.from_user)
    if parsed is None or game_id_of(parsed[1]) is None:
        await publisher.say(message.chat.id, answer_text(Answer.NO_GAME, tr))
        return
    kind, raw_id = parsed
    game_id = game_id_of(raw_id)
    assert game_id is not None
    if kind is DeepLink.JOIN:
        answer = (await service.run(cmd.Join(game_id, who, membership.member_check(who.user_id)))).answer
        joined = await service.joined_notice(game_id, who.lang) if answer is Answer.JOINED else None
        if joined is not None:
            await publisher.say(message.chat.id, joined.text, joined.markup)
        else:
            await publisher.say(message.chat.id, answer_text(answer or Answer.JOINED, tr))
    else:
        await service.run(cmd.ShowHand(game_id, who))


def _lobby_game(callback_data: LobbyCb) -> int:
    game_id = game_id_of(callback_data.game)
    if game_id is None:
        raise ServiceError(Answer.NO_GAME)
    return game_id


async def _answer(callback: CallbackQuery, done: cmd.Done | None = None) -> None:
    answer = done.answer if done is not None else None
    answer_press(callback, answer_text(answer, tr_of(callback.from_user)) if answer else None)


async def on_leave(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    await _answer(
        callback, await service.run(cmd.LeaveLobby(_lobby_game(callback_data), person(callback.from_user)))
    )


async def on_bot_menu(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    await service.run(
        cmd.ShowScreen(_lobby_game(callback_data), person(callback.from_user), LobbyScreen.BOT_LEVEL)
    )
    await _answer(callback)


async def on_add_bot(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    game_id, who = _lobby_game(callback_data), person(callback.from_user)
    await _answer(callback, await service.run(cmd.AddBot(game_id, who, callback_data.value)))


async def on_remove_bot(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    game_id, who = _lobby_game(callback_data), person(callback.from_user)
    await _answer(callback, await service.run(cmd.RemoveBot(game_id, who, callback_data.value)))


async def on_settings(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    await service.run(
        cmd.ShowScreen(_lobby_game(callback_data), person(callback.from_user), LobbyScreen.SETTINGS)
    )
    await _answer(callback)


async def on_set(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    game_id, who = _lobby_game(callback_data), person(callback.from_user)
    await _answer(
        callback, await service.run(cmd.SetOption(game_id, who, callback_data.key, callback_data.value))
    )


async def on_back(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    await service.run(
        cmd.ShowScreen(_lobby_game(callback_data), person(callback.from_user), LobbyScreen.MAIN)
    )
    await _answer(callback)


async def on_start(callback: CallbackQuery, callback_data: LobbyCb, service: GameService) -> None:
    await service.run(cmd.Start(_lobby_game(callback_data), person(callback.from_user)))
    await _answer(callback)


async def on_cancel_press(
    callback: CallbackQuery, callback_data: LobbyCb, service: GameService, membership: Membership
) -> None:
    # Rights are checked in the game's own chat, not in the chat the button was pressed in.
    game_id, who = _lobby_game(callback_data), person(callback.from_user)
    await _answer(callback, await service.run(cmd.Cancel(who, membership.admin_check(who.user_id), game_id)))


async def on_rematch(callback: CallbackQuery, callback_data: RematchCb, service: GameService) -> None:
    game_id = game_id_of(callback_data.game)
    if game_id is None:
        raise ServiceError(Answer.NO_GAME)
    await service.run(cmd.Rematch(game_id, person(callback.from_user)))
    answer_press(callback)


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
