"""Solo games in the private chat: /play, then the number of bot opponents and their level."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message, User

from bot.callbacks import SoloCb, SoloStep
from bot.flow.service import GameService, Publisher, ServiceError, answer_press, cmd, person
from bot.games import is_hosted, plugins
from bot.handlers.common import tr_of
from bot.views import Answer, Rendered, SoloGame, render_play_menu, render_solo_setup
from engine.ai import Level


def _games() -> list[SoloGame]:
    return [SoloGame(p.kind, p.solo_opponents) for p in plugins() if p.solo_opponents]


def play_menu(user: User | None) -> Rendered:
    """One screen: each game with its numbers of opponents (a game with one number goes on to the level)."""
    return render_play_menu(tr_of(user), _games())


async def on_play(message: Message, service: GameService, publisher: Publisher) -> None:
    """/play: with a solo game running, its hand at once, below (one game per private chat); else the menu, and
    below it the hand of any group game the person plays in (their game finds them again)."""
    assert message.from_user is not None
    who = person(message.from_user)
    if (await service.run(cmd.HandsBack(who, solo_only=True))).counted:
        return
    rendered = play_menu(message.from_user)
    await publisher.say(message.chat.id, rendered.text, rendered.markup)
    await service.run(cmd.HandsBack(who))


async def on_solo(
    callback: CallbackQuery, callback_data: SoloCb, service: GameService, publisher: Publisher
) -> None:
    message = callback.message
    if not isinstance(message, Message) or not is_hosted(callback_data.game):
        raise ServiceError(Answer.UNKNOWN)
    chat_id, message_id = message.chat.id, message.message_id
    tr = tr_of(callback.from_user)
    if callback_data.step is SoloStep.LEVEL:
        try:
            level = Level(callback_data.level)
        except ValueError:
            raise ServiceError(Answer.UNKNOWN) from None
        who, data = person(callback.from_user), callback_data
        await service.run(cmd.StartSolo(who, data.game, data.opponents, level, adopt_message=message_id))
    else:
        opponents = callback_data.opponents if callback_data.step is SoloStep.OPPONENTS else 0
        games = _games()
        game = next(g for g in games if g.kind == callback_data.game)
        rendered = render_solo_setup(tr, games, game, opponents)
        publisher.turn_setup_page(chat_id, message_id, rendered)
    answer_press(callback)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="solo")
    router.message.register(on_play, Command("play"), F.chat.type == "private")
    router.callback_query.register(on_solo, SoloCb.filter())
    return router
