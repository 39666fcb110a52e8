"""Moves: the two taps of a move (card, then what it does), «another card», taking a seat back, and looking
without moving: «📋 Стол» (the whole table, privately), the solo «💡 Подсказка» and, once a party is over,
«🔍 Разбор партии» (one's own moves reviewed, privately)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.callbacks import BackCb, HintCb, MoveCb, PickCb, ReviewCb, SeatCb, TableCb
from bot.flow.service import GameService, ServiceError
from bot.handlers.common import answer_quietly, game_id_of, person, tr_of
from bot.views import Answer, answer_text


def _game(raw: str) -> int:
    game_id = game_id_of(raw)
    if game_id is None:
        raise ServiceError(Answer.NO_GAME)
    return game_id


async def _pressed(callback: CallbackQuery, service: GameService, game_id: int, version: int) -> None:
    """Which message the move was pressed in (a hand whose send the bot never recorded becomes the hand)."""
    message = callback.message
    if message is not None:
        await service.pressed(game_id, callback.from_user.id, message.chat.id, message.message_id, version)


async def on_move(callback: CallbackQuery, callback_data: MoveCb, service: GameService) -> None:
    game_id = _game(callback_data.game)
    await _pressed(callback, service, game_id, callback_data.version)
    await service.play(game_id, person(callback.from_user), callback_data.version, callback_data.index)
    await answer_quietly(callback)


async def on_pick(callback: CallbackQuery, callback_data: PickCb, service: GameService) -> None:
    game_id = _game(callback_data.game)
    await _pressed(callback, service, game_id, callback_data.version)
    await service.pick(game_id, person(callback.from_user), callback_data.version, callback_data.card)
    await answer_quietly(callback)


async def on_back(callback: CallbackQuery, callback_data: BackCb, service: GameService) -> None:
    game_id = _game(callback_data.game)
    await _pressed(callback, service, game_id, callback_data.version)
    await service.back(game_id, person(callback.from_user), callback_data.version)
    await answer_quietly(callback)


async def on_take_seat(callback: CallbackQuery, callback_data: SeatCb, service: GameService) -> None:
    answer = await service.take_seat(_game(callback_data.game), person(callback.from_user))
    await answer_quietly(callback, answer_text(answer, tr_of(callback.from_user)))


async def on_table(callback: CallbackQuery, callback_data: TableCb, service: GameService) -> None:
    await service.show_table(_game(callback_data.game), person(callback.from_user))
    await answer_quietly(callback)


async def on_hint(callback: CallbackQuery, callback_data: HintCb, service: GameService) -> None:
    hint = await service.hint(_game(callback_data.game), person(callback.from_user), callback_data.version)
    await answer_quietly(callback, hint, show_alert=True)


async def on_review(callback: CallbackQuery, callback_data: ReviewCb, service: GameService) -> None:
    await service.review(_game(callback_data.game), person(callback.from_user))
    await answer_quietly(callback)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="play")
    router.callback_query.register(on_move, MoveCb.filter())
    router.callback_query.register(on_pick, PickCb.filter())
    router.callback_query.register(on_back, BackCb.filter())
    router.callback_query.register(on_take_seat, SeatCb.filter())
    router.callback_query.register(on_table, TableCb.filter())
    router.callback_query.register(on_hint, HintCb.filter())
    router.callback_query.register(on_review, ReviewCb.filter())
    return router
