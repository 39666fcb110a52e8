"""The fake's deleteMessages refuses what Telegram refuses: an empty or too long list, a message it may not delete."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest

from tests.fakebot import FakeTelegram, Limits


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=Limits.off()) as server:
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    client = Bot(tg.token, session=tg.session())
    yield client
    await client.session.close()


async def test_delete_messages_takes_one_to_a_hundred_ids_and_skips_the_missing(
    tg: FakeTelegram, bot: Bot
) -> None:
    anna = tg.add_user("Аня")
    anna.has_started = True
    sent = [(await bot.send_message(anna.id, f"m{n}")).message_id for n in range(3)]
    with pytest.raises(TelegramBadRequest):
        await bot.delete_messages(anna.id, [])
    with pytest.raises(TelegramBadRequest):
        await bot.delete_messages(anna.id, list(range(1, 102)))
    assert await bot.delete_messages(anna.id, [*sent[:2], 999])
    assert [m.text for m in anna.private_chat.bot_messages()] == ["m2"]


async def test_one_message_it_may_not_delete_refuses_the_whole_call(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    mine = (await bot.send_message(group.id, "the bot's")).message_id
    hers = (await anna.send(group, "hers")).message_id
    with pytest.raises(TelegramBadRequest, match="can't be deleted"):
        await bot.delete_messages(group.id, [mine, hers])
    assert not group.messages[mine].is_deleted
    assert not group.messages[hers].is_deleted
