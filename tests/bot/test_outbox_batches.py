"""Fewer calls per move: old messages without moves deleted in batches, old turns at once, group tables paced."""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot

from bot.clock import Clock
from bot.delivery.outbox import Outbox, OutboxLimits, Priority
from bot.delivery.outbox.queue import LAZY_AGE
from bot.storage import Database
from tests.bot.conftest import outbox_world
from tests.fakebot import FakeChat, FakeTelegram
from tests.fakebot.server import ApiError, Params

SERVER_SPEED = 20.0
PACE = OutboxLimits().paced_interval


@dataclass
class Call:
    method: str
    chat_id: int | None
    at: float
    """Real seconds (``time.monotonic``)."""
    message_ids: list[int] = field(default_factory=list)


class CallLog:
    def __init__(self) -> None:
        self.calls: list[Call] = []

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if error is not None or method not in {"sendMessage", "editMessageText", "deleteMessages"}:
            return
        ids = params.raw.get("message_ids") or []
        ids = ids if isinstance(ids, list) else json.loads(ids)
        self.calls.append(Call(method, params.chat_id, at, [int(i) for i in ids]))

    def on_update(self, update: Any, at: float) -> None:
        pass

    def of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]


def sent(log: CallLog, count: int) -> bool:
    return len(log.of("sendMessage")) == count


World = tuple[FakeTelegram, Bot, Database, CallLog]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    log = CallLog()
    async with outbox_world(tmp_path, SERVER_SPEED, log) as (tg, bot, db):
        yield tg, bot, db, log


def person(tg: FakeTelegram, name: str = "Аня") -> Any:
    user = tg.add_user(name)
    user.has_started = True
    return user


async def test_replaced_hands_without_moves_wait_to_be_deleted_together(world: World) -> None:
    tg, bot, db, log = world
    anna = person(tg)
    speed = SERVER_SPEED
    outbox = Outbox(bot, db, Clock(speed))
    await outbox.start()
    outbox.show("hand", anna.id, "cards 1", priority=Priority.HAND)
    await tg.wait_for(lambda: len(log.of("sendMessage")) == 1, what="the hand")
    for n in (2, 3):  # each time a new message with the same (waiting) content as a hand
        outbox.show("hand", anna.id, f"cards {n}", resend=True, priority=Priority.HAND)
        await tg.wait_for(functools.partial(sent, log, n), what=f"hand {n}")
    await tg.wait_for(
        lambda: log.of("deleteMessages"), timeout=LAZY_AGE / speed * 10, what="the old hands gone"
    )
    sends, deletes = log.of("sendMessage"), log.of("deleteMessages")
    assert len(deletes) == 1 and len(deletes[0].message_ids) == 2, "two old hands, one call"
    assert deletes[0].at - sends[1].at >= LAZY_AGE / speed * 0.9, "the first old hand waited for a batch"
    assert [m.text for m in anna.private_chat.visible_messages()] == ["cards 3"]
    await outbox.stop()


async def test_an_old_message_that_offers_moves_is_deleted_at_once(world: World) -> None:
    tg, bot, db, log = world
    anna = person(tg)
    speed = 4.0  # a slower clock than the server's: LAZY_AGE is 5 real seconds here
    outbox = Outbox(bot, db, Clock(speed))
    await outbox.start()
    outbox.show("hand", anna.id, "your turn: [7♦] [3♠]", priority=Priority.TURN)
    await tg.wait_for(lambda: log.of("sendMessage"), what="the turn")
    outbox.show("hand", anna.id, "your turn again: [7♦]", resend=True, priority=Priority.TURN)
    await tg.wait_for(
        lambda: log.of("deleteMessages"), timeout=LAZY_AGE / speed * 0.8, what="the old turn gone"
    )
    first = next(m for m in anna.private_chat.messages.values() if m.is_from_bot)
    assert log.of("deleteMessages")[0].message_ids == [first.message_id]
    await outbox.stop()


async def test_the_end_of_a_deal_deletes_the_old_hands_that_wait(world: World) -> None:
    tg, bot, db, log = world
    anna = person(tg)
    speed = 4.0
    outbox = Outbox(bot, db, Clock(speed))
    await outbox.start()
    outbox.show("hand", anna.id, "cards 1", priority=Priority.HAND)
    await tg.wait_for(lambda: log.of("sendMessage"), what="the hand")
    outbox.show("hand", anna.id, "cards 2", resend=True, priority=Priority.HAND)
    outbox.hurry_deletions(anna.id)  # the deal ended with this change
    await tg.wait_for(
        lambda: log.of("deleteMessages"), timeout=LAZY_AGE / speed * 0.8, what="the old hand gone"
    )
    assert [m.text for m in anna.private_chat.visible_messages()] == ["cards 2"]
    outbox.show("hand", anna.id, "cards 3", resend=True, priority=Priority.HAND)
    await tg.wait_for(lambda: len(log.of("sendMessage")) == 3, what="the next hand")
    await outbox.drain(timeout=LAZY_AGE / speed * 0.8)  # waiting for an outbox to be idle deletes them now
    assert [m.text for m in anna.private_chat.visible_messages()] == ["cards 3"]
    await outbox.stop()


async def paced_table(world: World) -> tuple[Outbox, FakeChat]:
    """A started outbox and a group whose paced table («state 0») has been sent."""
    tg, bot, db, log = world
    group = tg.add_group("Друзья", [person(tg)])
    outbox = Outbox(bot, db, Clock(SERVER_SPEED))
    await outbox.start()
    outbox.show("table", group.id, "state 0", paced=True)
    await tg.wait_for(lambda: log.of("sendMessage"), what="the table")
    return outbox, group


async def test_a_paced_table_is_edited_once_per_interval_with_the_newest_state(world: World) -> None:
    log = world[3]
    outbox, group = await paced_table(world)
    moves = 24
    started = time.monotonic()
    for n in range(1, moves + 1):  # a move every clock second
        outbox.show("table", group.id, f"state {n}", paced=True)
        await asyncio.sleep(1 / SERVER_SPEED)
    clock_seconds = (time.monotonic() - started) * SERVER_SPEED  # a busy machine oversleeps
    await outbox.drain(timeout=30)
    edits = log.of("editMessageText")
    assert group.bot_messages()[0].text == f"state {moves}"
    assert 2 <= len(edits) <= max(moves, clock_seconds) / PACE + 2, "one edit per interval, not one per move"
    gaps = [b.at - a.at for a, b in itertools.pairwise(edits)]
    assert min(gaps) >= PACE / SERVER_SPEED * 0.9
    await outbox.stop()


async def test_a_notice_does_not_wait_for_a_paced_table(world: World) -> None:
    log = world[3]
    outbox, group = await paced_table(world)
    outbox.show("table", group.id, "state 1", paced=True)  # inside the interval: it waits ...
    await outbox.say(group.id, "deal 1 is over")  # ... and the deal's end does not
    await outbox.drain(timeout=30)
    assert [(c.method) for c in log.calls] == ["sendMessage", "sendMessage", "editMessageText"]
    assert [m.text for m in group.bot_messages()] == ["state 1", "deal 1 is over"]
    await outbox.stop()
