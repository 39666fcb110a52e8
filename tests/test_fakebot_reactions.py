"""The fake's setMessageReaction refuses what Telegram refuses (an emoji a bot may not use or the chat does not
allow, more than one reaction, a message that is not there) and counts in no flood window: it sends no message."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.types import ReactionTypeEmoji

from tests.fakebot import FakeTelegram, Limits

SEEN = ReactionTypeEmoji(emoji="👀")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=Limits(per_chat=10, per_group=2)) as server:
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    client = Bot(tg.token, session=tg.session())
    yield client
    await client.session.close()


async def test_a_reaction_is_set_on_a_members_message_and_taken_back(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    asked = await anna.send(group, "/rules")
    assert await bot.set_message_reaction(group.id, asked.message_id, [SEEN])
    assert await bot.set_message_reaction(group.id, asked.message_id, [])
    assert asked.reactions == [("👀",), ()]


async def test_what_telegram_refuses_is_refused(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    asked = await anna.send(group, "/rules")
    with pytest.raises(TelegramBadRequest, match="REACTION_INVALID"):
        await bot.set_message_reaction(group.id, asked.message_id, [ReactionTypeEmoji(emoji="⏳")])
    with pytest.raises(TelegramBadRequest, match="REACTIONS_TOO_MANY"):
        await bot.set_message_reaction(group.id, asked.message_id, [SEEN, ReactionTypeEmoji(emoji="👍")])
    with pytest.raises(TelegramBadRequest, match="not found"):
        await bot.set_message_reaction(group.id, 999, [SEEN])
    group.available_reactions = frozenset({"👍"})
    with pytest.raises(TelegramBadRequest, match="REACTION_INVALID"):
        await bot.set_message_reaction(group.id, asked.message_id, [SEEN])
    assert asked.reactions == []


async def test_reactions_take_no_place_in_a_groups_minute(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    asked = [await anna.send(group, f"/rules {n}") for n in range(5)]
    for message in asked:
        assert await bot.set_message_reaction(group.id, message.message_id, [SEEN])
    await bot.send_message(group.id, "one")  # the group's minute (two here) still has both places
    await bot.send_message(group.id, "two")
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(group.id, "three")
