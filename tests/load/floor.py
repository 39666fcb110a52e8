"""The floor: a bare aiogram bot that answers each press and edits the pressed message (answer + edit).

``python -m tests.load.floor`` with ``BOT_TOKEN`` and ``TELEGRAM_API_URL`` in the environment, as the real bot.
``/play`` in a private chat sends one message with a row of buttons; each press is answered and the message
edited to the next turn's text and buttons. Nothing else: no database, no pacing — the cost of aiogram itself.
"""

from __future__ import annotations

import asyncio
import os

from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

BUTTONS = 4
PREFIX = "f:"


def keyboard(turn: int) -> InlineKeyboardMarkup:
    row = [
        InlineKeyboardButton(text=str(index + 1), callback_data=f"{PREFIX}{turn}:{index}")
        for index in range(BUTTONS)
    ]
    return InlineKeyboardMarkup(inline_keyboard=[row])


async def on_play(message: Message) -> None:
    await message.answer("<b>Ход 0</b>", reply_markup=keyboard(0))


async def on_press(callback: CallbackQuery) -> None:
    _, turn, index = (callback.data or "f:0:0").split(":")
    await callback.answer()
    if isinstance(callback.message, Message):
        following = int(turn) + 1
        await callback.message.edit_text(
            f"<b>Ход {following}</b>: нажата {int(index) + 1}", reply_markup=keyboard(following)
        )


def make_router() -> Router:
    router = Router(name="floor")
    router.message.register(on_play, Command("play"))
    router.callback_query.register(on_press, F.data.startswith(PREFIX))
    return router


async def run() -> None:
    session = AiohttpSession(api=TelegramAPIServer.from_base(os.environ["TELEGRAM_API_URL"]))
    bot = Bot(
        os.environ["BOT_TOKEN"], session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML)
    )
    dispatcher = Dispatcher()
    dispatcher.include_router(make_router())
    try:
        await bot.delete_webhook(drop_pending_updates=False)
        await dispatcher.start_polling(bot, allowed_updates=dispatcher.resolve_used_update_types())
    finally:
        await bot.session.close()


if __name__ == "__main__":
    asyncio.run(run())
