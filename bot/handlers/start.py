"""First contact: /start in private (the greeting, or the running game's hand brought back), ``/start play`` (the
private chat opened from a group's «/play»), /start in a group, and the private menu's «🎮 Играть с ботами»."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.callbacks import MenuCb, MenuOp
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline
from bot.views.chats import PLAY_PAYLOAD


async def on_start(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.greet(origin)


async def on_start_play(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.start_play(origin)


async def on_group_start(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.group_start(origin)


async def on_play_press(callback: CallbackQuery, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.play_pressed(origin)


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
