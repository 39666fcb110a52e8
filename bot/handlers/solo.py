"""Solo games in the private chat: /play, then the number of bot opponents and their level."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import SoloCb
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline


async def on_play(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.replies.play(origin)


async def on_solo(callback: CallbackQuery, callback_data: SoloCb, pipeline: Pipeline, origin: Origin) -> None:
    data = callback_data
    await pipeline.replies.solo_step(origin, data.game, data.step, data.opponents, data.level)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="solo")
    router.message.register(on_play, Command("play"), F.chat.type == "private")
    router.callback_query.register(on_solo, SoloCb.filter())
    return router
