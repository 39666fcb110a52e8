"""Moves: a card's tap (its one move played, or its moves shown), then what it does, «another card», taking a
seat back, and looking without moving: «📋 Стол» (the whole table, privately), the solo «💡 Подсказка» and, once a party is over,
«🔍 Разбор партии» (one's own moves reviewed, privately), the score sheet's picture («📋 Запись») and the party's
history file («📜 История»)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery, Message

from bot.callbacks import (
    BackCb,
    HintCb,
    HistoryCb,
    MoveCb,
    PickCb,
    ReviewCb,
    SeatCb,
    SheetCb,
    TableCb,
    game_id_of,
)
from bot.flow.service import GameService, Hints, Publisher, ServiceError, answer_press, cmd, person
from bot.handlers.common import thread_of, tr_of
from bot.views import Answer, answer_text


def _game(raw: str) -> int:
    game_id = game_id_of(raw)
    if game_id is None:
        raise ServiceError(Answer.NO_GAME)
    return game_id


def _pressed(callback: CallbackQuery) -> cmd.Pressed | None:
    """Which message the button was pressed in (a private hand the bot never recorded sending is adopted)."""
    message = callback.message
    return cmd.Pressed(message.chat.id, message.message_id) if message is not None else None


async def on_move(callback: CallbackQuery, callback_data: MoveCb, service: GameService) -> None:
    data, who = callback_data, person(callback.from_user)
    await service.run(cmd.Play(_game(data.game), who, data.version, data.index, _pressed(callback)))
    answer_press(callback)


async def on_pick(callback: CallbackQuery, callback_data: PickCb, service: GameService) -> None:
    data, who = callback_data, person(callback.from_user)
    await service.run(cmd.Pick(_game(data.game), who, data.version, data.card, _pressed(callback)))
    answer_press(callback)


async def on_back(callback: CallbackQuery, callback_data: BackCb, service: GameService) -> None:
    data, who = callback_data, person(callback.from_user)
    await service.run(cmd.Back(_game(data.game), who, data.version, _pressed(callback)))
    answer_press(callback)


async def on_take_seat(callback: CallbackQuery, callback_data: SeatCb, service: GameService) -> None:
    done = await service.run(cmd.TakeSeat(_game(callback_data.game), person(callback.from_user)))
    answer_press(callback, answer_text(done.answer or Answer.SEAT_TAKEN_BACK, tr_of(callback.from_user)))


async def on_table(callback: CallbackQuery, callback_data: TableCb, service: GameService) -> None:
    await service.run(cmd.ShowTable(person(callback.from_user), _game(callback_data.game)))
    answer_press(callback)


def _pressed_in(callback: CallbackQuery) -> tuple[int, int]:
    """The chat (and forum topic) of the pressed message."""
    message = callback.message
    if not isinstance(message, Message):
        raise ServiceError(Answer.STALE)  # a message too old for Telegram to tell where it is
    return message.chat.id, thread_of(message)


async def on_sheet(callback: CallbackQuery, callback_data: SheetCb, service: GameService) -> None:
    chat_id, thread_id = _pressed_in(callback)
    who = person(callback.from_user)
    await service.run(cmd.ShowSheet(who, chat_id, thread_id, game_id=_game(callback_data.game)))
    answer_press(callback)


async def on_history(callback: CallbackQuery, callback_data: HistoryCb, service: GameService) -> None:
    chat_id, thread_id = _pressed_in(callback)
    who = person(callback.from_user)
    await service.run(cmd.SendHistory(who, _game(callback_data.game), chat_id, thread_id))
    answer_press(callback)


async def on_hint(callback: CallbackQuery, callback_data: HintCb, hints: Hints) -> None:
    hint = await hints.hint(_game(callback_data.game), person(callback.from_user), callback_data.version)
    answer_press(callback, hint, show_alert=True)


async def on_review(
    callback: CallbackQuery, callback_data: ReviewCb, hints: Hints, publisher: Publisher
) -> None:
    who = person(callback.from_user)
    game_id = _game(callback_data.game)
    if publisher.review_shown(game_id, who.user_id):
        answer_press(callback, tr_of(callback.from_user).t("review-shown"))
        return
    rendered = await hints.review(game_id, who)
    publisher.show_review(game_id, who.user_id, rendered)  # the same review again costs no call
    answer_press(callback)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="play")
    router.callback_query.register(on_move, MoveCb.filter())
    router.callback_query.register(on_pick, PickCb.filter())
    router.callback_query.register(on_back, BackCb.filter())
    router.callback_query.register(on_take_seat, SeatCb.filter())
    router.callback_query.register(on_table, TableCb.filter())
    router.callback_query.register(on_sheet, SheetCb.filter())
    router.callback_query.register(on_history, HistoryCb.filter())
    router.callback_query.register(on_hint, HintCb.filter())
    router.callback_query.register(on_review, ReviewCb.filter())
    return router
