"""Moves: a card's tap (its one move played, or its moves shown), then what it does, «another card», taking a
seat back, and looking without moving: «📋 Стол» (the whole table, privately), the solo «💡 Подсказка» and, once a
party is over, «🔍 Разбор партии» (one's own moves reviewed, privately), the score sheet's picture («📋 Запись») and
the party's history file («📜 История»). Each handler names its command; the pipeline does it and answers."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

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
    game_of,
)
from bot.flow import commands as cmd
from bot.handlers.common import refuse
from bot.model.answers import Answer
from bot.model.game import Person
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline


async def on_move(
    callback: CallbackQuery, callback_data: MoveCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    data = callback_data
    await pipeline.run(cmd.Play(game_of(data.game), who, data.version, data.index), origin)


async def on_pick(
    callback: CallbackQuery, callback_data: PickCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    data = callback_data
    await pipeline.run(cmd.Pick(game_of(data.game), who, data.version, data.card), origin)


async def on_back(
    callback: CallbackQuery, callback_data: BackCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.Back(game_of(callback_data.game), who, callback_data.version), origin)


async def on_take_seat(
    callback: CallbackQuery, callback_data: SeatCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.TakeSeat(game_of(callback_data.game), who), origin)


async def on_table(
    callback: CallbackQuery, callback_data: TableCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    await pipeline.run(cmd.ShowTable(who, game_of(callback_data.game)), origin)


async def on_sheet(
    callback: CallbackQuery, callback_data: SheetCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    if origin.message_id is None:  # a message too old for Telegram to tell where it is
        await refuse(pipeline, origin, Answer.STALE)
        return
    command = cmd.ShowSheet(who, origin.chat_id, origin.thread_id, game_of(callback_data.game))
    await pipeline.run(command, origin)


async def on_history(
    callback: CallbackQuery, callback_data: HistoryCb, pipeline: Pipeline, origin: Origin, who: Person
) -> None:
    if origin.message_id is None:
        await refuse(pipeline, origin, Answer.STALE)
        return
    await pipeline.run(
        cmd.SendHistory(who, game_of(callback_data.game), origin.chat_id, origin.thread_id), origin
    )


async def on_hint(callback: CallbackQuery, callback_data: HintCb, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.hint(origin, game_of(callback_data.game), callback_data.version)


async def on_review(
    callback: CallbackQuery, callback_data: ReviewCb, pipeline: Pipeline, origin: Origin
) -> None:
    await pipeline.replies.review(origin, game_of(callback_data.game))


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
