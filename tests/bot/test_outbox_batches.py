"""Fewer calls per move: old messages without moves deleted in batches, old turns at once, group tables paced.

In-process, the outbox and Telegram on one manual clock (``outbox_world``): the calls' times are that clock's
seconds, so the pace and the waits are asserted exactly, whatever the machine's load."""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot

from bot.delivery.outbox import Outbox, OutboxLimits, Priority
from bot.delivery.outbox.queue import LAZY_AGE
from bot.storage import Database
from tests.bot.conftest import clock_of, outbox_world
from tests.fakebot import FakeChat, FakeTelegram
from tests.fakebot.server import ApiError, Params

SERVER_SPEED = 20.0
PACE = OutboxLimits().paced_interval
ROUNDING = 1e-3
"""Clock seconds two times may differ by in their floats' rounding (the clock counts from wall time × speed)."""


@dataclass
class Call:
    method: str
    chat_id: int | None
    at: float
    """Clock seconds (the test's manual clock, the outbox's)."""
    message_ids: list[int] = field(default_factory=list)


class CallLog:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.now: Callable[[], float] | None = None
        """The clock the calls are timed on (the observer's ``at`` is real time)."""

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if error is not None or method not in {"sendMessage", "editMessageText", "deleteMessages"}:
            return
        ids = params.raw.get("message_ids") or []
        ids = ids if isinstance(ids, list) else json.loads(ids)
        assert self.now is not None
        self.calls.append(Call(method, params.chat_id, self.now(), [int(i) for i in ids]))

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
        log.now = clock_of(tg).now
        yield tg, bot, db, log


def person(tg: FakeTelegram, name: str = "Аня") -> Any:
    user = tg.add_user(name)
    user.has_started = True
    return user


async def test_replaced_hands_without_moves_wait_to_be_deleted_together(world: World) -> None:
    tg, bot, db, log = world
    anna = person(tg)
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    outbox.show("hand", anna.id, "cards 1", priority=Priority.HAND)
    await tg.wait_for(lambda: len(log.of("sendMessage")) == 1, what="the hand")
    for n in (2, 3):  # each time a new message with the same (waiting) content as a hand
        outbox.show("hand", anna.id, f"cards {n}", resend=True, priority=Priority.HAND)
        await tg.wait_for(functools.partial(sent, log, n), what=f"hand {n}")
    await tg.wait_for(
        lambda: log.of("deleteMessages"), timeout=LAZY_AGE / SERVER_SPEED * 2, what="the old hands gone"
    )
    sends, deletes = log.of("sendMessage"), log.of("deleteMessages")
    assert len(deletes) == 1 and len(deletes[0].message_ids) == 2, "two old hands, one call"
    waited = deletes[0].at - sends[1].at
    assert waited >= LAZY_AGE - ROUNDING, f"the first old hand waited for a batch: {waited:.3f} s"
    assert waited < LAZY_AGE + 1, f"and went once it was LAZY_AGE old: {waited:.3f} s"
    assert [m.text for m in anna.private_chat.visible_messages()] == ["cards 3"]
    await outbox.stop()


async def test_an_old_message_that_offers_moves_is_deleted_at_once(world: World) -> None:
    tg, bot, db, log = world
    anna = person(tg)
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    outbox.show("hand", anna.id, "your turn: [7♦] [3♠]", priority=Priority.TURN)
    await tg.wait_for(lambda: log.of("sendMessage"), what="the turn")
    outbox.show("hand", anna.id, "your turn again: [7♦]", resend=True, priority=Priority.TURN)
    await tg.wait_for(
        lambda: log.of("deleteMessages"), timeout=LAZY_AGE / SERVER_SPEED * 2, what="the old turn gone"
    )
    sends, deletes = log.of("sendMessage"), log.of("deleteMessages")
    first = next(m for m in anna.private_chat.messages.values() if m.is_from_bot)
    assert deletes[0].message_ids == [first.message_id]
    interval = sends[1].at - sends[0].at  # the chat's pace: the new turn waited that long after the first
    assert deletes[0].at - sends[1].at <= interval + ROUNDING, "with the chat's next call, not in a batch"
    await outbox.stop()


async def test_the_end_of_a_deal_deletes_the_old_hands_that_wait(world: World) -> None:
    tg, bot, db, log = world
    anna = person(tg)
    clock = clock_of(tg)
    outbox = Outbox(bot, db, clock)
    await outbox.start()
    outbox.show("hand", anna.id, "cards 1", priority=Priority.HAND)
    await tg.wait_for(lambda: log.of("sendMessage"), what="the hand")
    outbox.show("hand", anna.id, "cards 2", resend=True, priority=Priority.HAND)
    outbox.hurry_deletions(anna.id)  # the deal ended with this change
    await tg.wait_for(
        lambda: log.of("deleteMessages"), timeout=LAZY_AGE / SERVER_SPEED * 2, what="the old hand gone"
    )
    sends, deletes = log.of("sendMessage"), log.of("deleteMessages")
    interval = sends[1].at - sends[0].at  # the chat's pace: the new hand waited that long after the first
    assert deletes[0].at - sends[1].at <= interval + ROUNDING, "with the chat's next call, not in a batch"
    assert [m.text for m in anna.private_chat.visible_messages()] == ["cards 2"]
    outbox.show("hand", anna.id, "cards 3", resend=True, priority=Priority.HAND)
    await tg.wait_for(lambda: len(log.of("sendMessage")) == 3, what="the next hand")
    started = clock.now()
    await tg.finish(outbox.drain())  # waiting for an outbox to be idle deletes them now
    assert clock.now() - started <= interval + ROUNDING, "with the chat's next call, not in a batch"
    assert [m.text for m in anna.private_chat.visible_messages()] == ["cards 3"]
    await outbox.stop()


async def paced_table(world: World) -> tuple[Outbox, FakeChat]:
    """A started outbox and a group whose paced table («state 0») has been sent."""
    tg, bot, db, log = world
    group = tg.add_group("Друзья", [person(tg)])
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    outbox.show("table", group.id, "state 0", paced=True)
    await tg.wait_for(lambda: log.of("sendMessage"), what="the table")
    return outbox, group


async def test_a_paced_table_is_edited_once_per_interval_with_the_newest_state(world: World) -> None:
    tg, log = world[0], world[3]
    outbox, group = await paced_table(world)
    moves = 24
    for n in range(1, moves + 1):  # a move every clock second
        outbox.show("table", group.id, f"state {n}", paced=True)
        await tg.sleep(1 / SERVER_SPEED)
    await tg.finish(outbox.drain())
    edits = log.of("editMessageText")
    assert group.bot_messages()[0].text == f"state {moves}"
    # moves for 24 clock seconds from the table's send: an edit at 5, 10, 15, 20 s and the last state at 25 s
    assert len(edits) == math.ceil(moves / PACE), "one edit per interval, not one per move"
    gaps = [b.at - a.at for a, b in itertools.pairwise(edits)]
    assert min(gaps) >= PACE - ROUNDING
    await outbox.stop()


async def test_a_notice_does_not_wait_for_a_paced_table(world: World) -> None:
    tg, log = world[0], world[3]
    outbox, group = await paced_table(world)
    outbox.show("table", group.id, "state 1", paced=True)  # inside the interval: it waits ...
    await outbox.say(group.id, "deal 1 is over")  # ... and the deal's end does not
    await tg.finish(outbox.drain())
    assert [(c.method) for c in log.calls] == ["sendMessage", "sendMessage", "editMessageText"]
    assert [m.text for m in group.bot_messages()] == ["state 1", "deal 1 is over"]
    await outbox.stop()
