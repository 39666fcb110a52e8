"""The outbox against the fake Telegram: coalesced edits, nothing sent twice, 429 waited out, 403 reported.

In-process, the outbox and Telegram on one manual clock (``outbox_world``): Telegram's windows and the outbox's
pace are counted in the same seconds, moved only while the outbox has nothing to do."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram import Bot

from bot.delivery.outbox import ChatForbidden, Outbox, OutboxLimits
from bot.storage import Database
from tests.bot.conftest import clock_of, outbox_world
from tests.fakebot import FakeTelegram

SPEED = 60.0


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, Bot, Database]]:
    async with outbox_world(tmp_path, SPEED, None) as made:
        yield made


async def test_fast_changes_to_a_live_message_go_out_as_few_edits_ending_with_the_newest(
    world: tuple[FakeTelegram, Bot, Database],
) -> None:
    tg, bot, db = world
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    for n in range(40):
        outbox.show("table", group.id, f"state {n}")
    await tg.finish(outbox.drain())
    outbox.show("table", group.id, "state 39")  # unchanged: no call at all
    await tg.finish(outbox.drain())
    messages = group.bot_messages()
    assert len(messages) == 1
    assert messages[0].text == "state 39"
    assert messages[0].edit_count <= 3
    assert tg.stats.calls["sendMessage"] + tg.stats.calls["editMessageText"] <= 4
    await outbox.stop()


async def test_a_flood_is_paced_below_the_group_limit(world: tuple[FakeTelegram, Bot, Database]) -> None:
    tg, bot, db = world
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    for n in range(30):
        await outbox.say(group.id, f"notice {n}")
    await tg.finish(outbox.drain(), timeout=20)
    assert [m.text for m in group.bot_messages()] == [f"notice {n}" for n in range(30)]
    assert tg.stats.too_many_requests == 0
    await outbox.stop()


async def test_a_restarted_outbox_counts_the_group_calls_the_run_before_made(
    world: tuple[FakeTelegram, Bot, Database],
) -> None:
    tg, bot, db = world
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    first = Outbox(bot, db, clock_of(tg))
    await first.start()
    for n in range(20):  # the group's whole budget for a minute
        await first.say(group.id, f"notice {n}")
    await tg.finish(first.drain(), timeout=20)
    await first.stop()
    second = Outbox(bot, db, clock_of(tg))  # a restart within that minute
    await second.start()
    for n in range(20, 25):
        await second.say(group.id, f"notice {n}")
    await tg.finish(second.drain(), timeout=20)
    await second.stop()
    assert [m.text for m in group.bot_messages()] == [f"notice {n}" for n in range(25)]
    assert tg.stats.too_many_requests == 0


async def test_a_429_is_waited_out_and_the_message_still_goes_out(
    world: tuple[FakeTelegram, Bot, Database],
) -> None:
    tg, bot, db = world
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    # An outbox that believes in much looser limits than Telegram's: it will be refused, and must recover.
    outbox = Outbox(bot, db, clock_of(tg), OutboxLimits(chat_interval=0, group_per_minute=1000))
    await outbox.start()
    for n in range(5):
        await outbox.say(group.id, f"notice {n}")
    await tg.finish(outbox.drain(), timeout=20)
    assert tg.stats.too_many_requests >= 1
    assert [m.text for m in group.bot_messages()] == [f"notice {n}" for n in range(5)]
    await outbox.stop()


async def test_a_user_who_never_opened_the_bot_is_reported_not_retried(
    world: tuple[FakeTelegram, Bot, Database],
) -> None:
    tg, bot, db = world
    stranger = tg.add_user("Глеб")
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    outbox.show("hand", stranger.id, "your cards")
    await outbox.say(stranger.id, "a notice")
    await tg.finish(outbox.drain())
    assert outbox.reports.get_nowait() == ChatForbidden(stranger.id)
    assert outbox.reports.empty()
    assert tg.stats.error_count(403) == 1
    await outbox.stop()
    again = Outbox(bot, db, clock_of(tg))  # nothing left to re-send after a restart
    await again.start()
    await tg.finish(again.drain())
    assert tg.stats.error_count(403) == 1
    await again.stop()
