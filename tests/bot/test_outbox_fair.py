"""The outbox shares the bot's calls: chats take turns, urgent messages first, old turn messages deleted in
batches, and no edit Telegram would refuse as unchanged.

In-process, the outbox and Telegram on one manual clock (``outbox_world``): the calls come in the order the
outbox makes them, whatever the machine's load."""

from __future__ import annotations

import gc
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.methods import Response
from aiogram.types import User

from bot.clock import Clock
from bot.delivery.outbox import Outbox, OutboxLimits, Priority, RateLimiter
from bot.delivery.outbox.queue import ChatQueue, Live
from bot.delivery.outbox.scheduler import CallScheduler
from bot.delivery.outbox.serving import KeptResponsesSession, tls_context
from bot.storage import Database
from tests.bot.conftest import BotRunner, clock_of, outbox_world, play_until, turn_message, two_player_party
from tests.fakebot import FakeTelegram
from tests.fakebot.models import FakeUser
from tests.fakebot.server import ApiError, Params

SPEED = 20.0
"""Slower than the other outbox tests: over HTTP (the chats' turns) the order of calls is checked, so they must not
overlap on a busy machine."""
PACED = OutboxLimits().paced_interval
MESSAGE_CALLS = {"sendMessage", "editMessageText", "deleteMessages", "deleteMessage"}


class CallLog:
    """The message calls Telegram answered, in order: (method, chat id)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None]] = []

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if method in MESSAGE_CALLS and error is None:
            self.calls.append((method, params.chat_id))

    def on_update(self, update: Any, at: float) -> None:
        pass


@pytest.fixture
async def world(
    tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[FakeTelegram, Bot, Database, CallLog]]:
    """In-process on a manual clock, or over HTTP in real time for a test marked ``over_http``."""
    log = CallLog()
    over_http = request.node.get_closest_marker("over_http") is not None
    async with outbox_world(tmp_path, SPEED, log, over_http=over_http) as (tg, bot, db):
        yield tg, bot, db, log


def people(tg: FakeTelegram, count: int) -> list[FakeUser]:
    users = [tg.add_user(f"Игрок {n}") for n in range(count)]
    for user in users:
        user.has_started = True
    return users


World = tuple[FakeTelegram, Bot, Database, CallLog]


async def test_chats_take_turns_so_a_busy_chat_does_not_go_twice_before_the_others_went_once(
    world: World,
) -> None:
    tg, bot, db, log = world
    users = people(tg, 10)
    # Five calls a second for the bot, one a second per chat: a round of ten chats takes two seconds.
    outbox = Outbox(bot, db, clock_of(tg), OutboxLimits(global_per_second=5))
    await outbox.start()
    for n in range(3):
        for user in users:
            outbox.show(f"note{n}:{user.id}", user.id, f"note {n}")  # a slot names one message
    await tg.finish(outbox.drain())
    chats = [chat for method, chat in log.calls if method == "sendMessage"]
    assert len(chats) == 30
    for round_ in range(3):
        assert sorted(c for c in chats[round_ * 10 : round_ * 10 + 10] if c is not None) == sorted(
            u.id for u in users
        )
    await outbox.stop()


async def test_a_group_out_of_budget_does_not_hold_the_private_chats(world: World) -> None:
    tg, bot, db, _log = world
    clock = clock_of(tg)
    users = people(tg, 20)
    group = tg.add_group("Друзья", users[:2])
    outbox = Outbox(bot, db, clock)
    await outbox.start()
    for n in range(30):  # more than the group's 20 a minute
        await outbox.say(group.id, f"notice {n}")
    started = clock.now()
    for user in users:
        outbox.show("hand", user.id, "your cards")
    await tg.wait_for(lambda: all(u.private_chat.bot_messages() for u in users), what="every hand")
    assert clock.now() - started < 1.0  # all in the bot's first second (it has 30 calls a second)
    assert len(group.bot_messages()) < 20  # the hands did not wait for the group's minute
    await tg.finish(outbox.drain(), timeout=60)
    assert [m.text for m in group.bot_messages()] == [f"notice {n}" for n in range(30)]
    assert tg.stats.too_many_requests == 0
    await outbox.stop()


async def test_the_player_to_move_goes_first_then_hands_then_group_tables(world: World) -> None:
    tg, bot, db, log = world
    mover, presser, other = people(tg, 3)
    group = tg.add_group("Друзья", [mover, presser, other])
    outbox = Outbox(bot, db, clock_of(tg), OutboxLimits(global_per_second=1))
    await outbox.start()
    outbox.show("table", group.id, "the table")  # a group: a table's priority unless told
    outbox.show("hand-other", other.id, "other's hand")  # a private chat: a hand's
    outbox.show("hand-presser", presser.id, "presser's hand", priority=Priority.HAND)
    outbox.show("hand-mover", mover.id, "your turn", priority=Priority.TURN, resend=True)
    await tg.finish(outbox.drain())
    assert [chat for _, chat in log.calls] == [mover.id, other.id, presser.id, group.id]
    await outbox.stop()


async def test_replaced_turn_messages_are_deleted_together_in_one_call(world: World) -> None:
    tg, bot, db, log = world
    (anna,) = people(tg, 1)
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    for slot in ("a", "b", "c"):
        outbox.show(slot, anna.id, f"{slot} 1")
    await tg.finish(outbox.drain())
    old = [m.message_id for m in anna.private_chat.bot_messages()]
    for slot in ("a", "b", "c"):
        outbox.show(slot, anna.id, f"{slot} 2", resend=True)
    await tg.finish(outbox.drain())
    assert [m.text for m in anna.private_chat.bot_messages()] == ["a 2", "b 2", "c 2"]
    assert all(anna.private_chat.messages[i].is_deleted for i in old)
    assert [method for method, _ in log.calls] == ["sendMessage"] * 6 + ["deleteMessages"]
    await outbox.stop()


async def test_content_that_returns_to_what_telegram_shows_costs_no_call(world: World) -> None:
    tg, bot, db, log = world
    (anna,) = people(tg, 1)
    outbox = Outbox(bot, db, clock_of(tg))
    await outbox.start()
    outbox.show("hand", anna.id, "A")
    await tg.finish(outbox.drain())
    for _ in range(5):
        outbox.show("hand", anna.id, "B")
        outbox.show("hand", anna.id, "A")  # merged back before the edit went out
    outbox.show("hand", anna.id, "B")
    outbox.show("hand", anna.id, "C")
    await tg.finish(outbox.drain())
    assert [method for method, _ in log.calls] == ["sendMessage", "editMessageText"]
    assert anna.private_chat.bot_messages()[0].text == "C"
    assert tg.stats.error_count(400) == 0
    await outbox.stop()


async def test_a_group_party_makes_no_edit_telegram_refuses_as_not_modified(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, _group, _ = await two_player_party(tg, bot_runner)
    await play_until(tg, [anna, boris], lambda: False, moves=12)
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    await tg.finish(running.app.outbox.drain())
    assert tg.stats.calls["editMessageText"] > 0
    assert tg.stats.error_count(400, "editMessageText") == 0
    assert running.app.outbox.calls["not_modified"] == 0
    assert tg.stats.too_many_requests == 0


def response_class_ref() -> weakref.ref[type[Response[User]]]:
    """A weak reference to ``Response[User]`` as pydantic hands it out now (built anew if none is alive)."""
    return weakref.ref(Response[User])


@pytest.mark.over_http("the bot's own aiohttp session, talking to the server")
async def test_the_session_builds_each_response_class_once(tg: FakeTelegram) -> None:
    session = KeptResponsesSession(api=TelegramAPIServer.from_base(tg.base_url))
    bot = Bot(tg.token, session=session)
    try:
        built: list[weakref.ref[type[Response[User]]]] = []
        for _ in range(3):
            await bot.get_me()
            built.append(response_class_ref())
            gc.collect()  # what pydantic keeps only weakly is gone now
        classes = [ref() for ref in built]
        assert classes[0] is not None
        assert all(c is classes[0] for c in classes)
    finally:
        await session.close()


def test_the_session_is_aiogram_s_own_but_for_one_tls_context_a_process() -> None:
    """KeptResponsesSession sets what AiohttpSession's ``__init__`` sets (it skips that to build no TLS context of
    its own): an aiogram that sets more, or other values, shows here."""
    ours, theirs = KeptResponsesSession(limit=7, timeout=9), AiohttpSession(limit=7, timeout=9)
    mine = {k: v for k, v in vars(ours).items() if k != "response_types"}
    assert mine.keys() == vars(theirs).keys()
    for name, value in mine.items():
        other = vars(theirs)[name]
        if name != "_connector_init" and value != other:  # an object without ``==`` of its own: by its fields
            assert type(value) is type(other) and vars(value) == vars(other), name
    ssl_of = {"ours": ours._connector_init.pop("ssl"), "theirs": theirs._connector_init.pop("ssl")}
    assert ours._connector_init == theirs._connector_init
    shared, built = ssl_of["ours"], ssl_of["theirs"]
    assert shared is KeptResponsesSession()._connector_init["ssl"] is tls_context()
    assert (shared.verify_mode, shared.check_hostname, shared.minimum_version, shared.options) == (
        built.verify_mode,
        built.check_hostname,
        built.minimum_version,
        built.options,
    )
    assert len(shared.get_ca_certs()) == len(built.get_ca_certs()) > 100


def test_a_call_on_its_way_keeps_its_place_in_the_bots_window() -> None:
    clock = Clock(1.0)
    limiter = RateLimiter(OutboxLimits(global_per_second=2), clock)
    now = clock.now()
    first, _second = limiter.take(1, now), limiter.take(2, now)
    assert (
        limiter.global_wait(now + 5) > 0
    )  # unanswered seconds later: Telegram may not have counted them yet
    limiter.restamp(1, first)
    assert limiter.global_wait(clock.now()) > 0  # counted from its answer on
    assert limiter.global_wait(clock.now() + 5) == 0  # and out of the window a second later


async def _no_call(_queue: ChatQueue, _stamp: float, _message: bool) -> None:
    raise AssertionError("pick alone makes no call")


def test_a_paced_message_ahead_of_one_held_back_goes_when_its_time_comes() -> None:
    """A hand waiting for a notice to another chat holds its chat's line only while it is next: a paced copy of
    the table asked for before it goes once its own time comes (the scheduler remembers what it found of a
    chat, never past what time changes)."""
    clock = Clock(1.0)
    scheduler = CallScheduler(RateLimiter(OutboxLimits(), clock), clock, _no_call)
    now = clock.now()
    queue = scheduler.queue(7)
    queue.lives["v1:7"] = Live("v1:7", 7, 0, "the table", None, False, paced=True)
    queue.add("v1:7", now, Priority.HAND, ready=now + PACED)
    queue.lives["h1:7"] = Live("h1:7", 7, 0, "the hand", None, False, after=frozenset({99}))
    queue.add("h1:7", now, Priority.HAND)
    scheduler.unsent.add(99)  # the deal's result in the group, not sent yet
    assert scheduler.pick(now)[0] is None
    assert scheduler.pick(now + PACED / 2)[0] is None
    assert scheduler.pick(now + PACED)[0] is queue
    assert queue.next_key(now + PACED) == "v1:7"  # the call it makes: the table's copy


def test_deleting_old_messages_takes_no_place_of_a_groups_minute() -> None:
    """Telegram's 20 a minute into a group are messages sent (and edited); a ``deleteMessages`` call sends none, and
    the fake Bot API counts it in no window (``tests/fakebot/limits.py``). A group whose minute is full of sends
    still has its old messages deleted, and the deletion leaves the next message's wait as it was."""
    clock = Clock(1.0)
    limiter = RateLimiter(OutboxLimits(), clock)
    scheduler = CallScheduler(limiter, clock, _no_call)
    group = -1000000001
    now = clock.now()
    for _ in range(OutboxLimits().group_per_minute):
        limiter.restamp(group, limiter.take(group, now))
    queue = scheduler.queue(group)
    queue.delete_later(7, now, urgent=True)
    later = now + 2  # past the chat's second and the bot's
    message_wait = limiter.chat_wait(group, later)
    assert message_wait > 50, "the group's minute is full of sends"
    assert scheduler.pick(later)[0] is queue, "its old messages may go all the same"
    assert queue.next_key(later) is None, "the call deletes"
    limiter.restamp(group, limiter.take(group, later, message=False), message=False)
    assert limiter.chat_wait(group, later) == pytest.approx(message_wait, abs=0.1), "and takes no place of it"
