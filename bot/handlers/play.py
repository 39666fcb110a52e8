"""Moves: a card's tap (its one move played, or its moves shown), then what it does, «another card», taking a
seat back, and looking without moving: «📋 Стол» (the whole table, privately), the solo «💡 Подсказка» and, once a
party is over, «🔍 Разбор партии» (one's own moves reviewed, privately), the score sheet's picture («📋 Запись») and
the party's history file («📜 История»). Each handler names its command; the pipeline does it and answers."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery

from bot.callbacks import (
    MOVE_BUTTONS,
    BackCb,
    HintCb,
    HistoryCb,
    MeCb,
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


def move_command(data: str, who: Person) -> cmd.Command | None:
    """The command the callback data of one of :data:`MOVE_BUTTONS` stands for, pressed in the chat or in the
    Mini App alike (None: no move button's)."""
    try:
        if data.startswith(f"{MoveCb.__prefix__}:"):
            move = MoveCb.unpack(data)
            return cmd.Play(game_of(move.game), who, move.version, move.index)
        if data.startswith(f"{PickCb.__prefix__}:"):
            pick = PickCb.unpack(data)
            return cmd.Pick(game_of(pick.game), who, pick.version, pick.card)
        if data.startswith(f"{BackCb.__prefix__}:"):
            back = BackCb.unpack(data)
            return cmd.Back(game_of(back.game), who, back.version)
        if data.startswith(f"{SeatCb.__prefix__}:"):
            return cmd.TakeSeat(game_of(SeatCb.unpack(data).game), who)
    except (TypeError, ValueError):  # a prefix of ours with fields that are not
        return None
    return None


async def on_move(callback: CallbackQuery, pipeline: Pipeline, origin: Origin, who: Person) -> None:
    """One of :data:`MOVE_BUTTONS` (its filter is :func:`make_router`'s), as :func:`move_command` reads it."""
    command = move_command(callback.data or "", who)
    assert command is not None, "a move button's filter let it through"
    await pipeline.run(command, origin)


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


async def on_player_page(callback: CallbackQuery, pipeline: Pipeline, origin: Origin) -> None:
    """«📊 Моя страница» under a party's result in the player's own chat: their page below."""
    await pipeline.replies.me(origin)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="play")
    for button in MOVE_BUTTONS:
        router.callback_query.register(on_move, button.filter())
    router.callback_query.register(on_table, TableCb.filter())
    router.callback_query.register(on_sheet, SheetCb.filter())
    router.callback_query.register(on_history, HistoryCb.filter())
    router.callback_query.register(on_hint, HintCb.filter())
    router.callback_query.register(on_review, ReviewCb.filter())
    router.callback_query.register(on_player_page, MeCb.filter(), F.message.chat.type == "private")
    return router
