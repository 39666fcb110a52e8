"""The fake Bot API in-process: the manual clock and its driver, and a bot that sees what it sees over HTTP.

The same calls are made over HTTP and in-process and must end the same way for aiogram (a result, or the same
exception with the same message): refusals, 429s, a proxy's pages, garbled and hung answers, uploads."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable
from typing import TypeVar

import pytest
from aiogram import Bot
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import BufferedInputFile

from tests.fakebot import FakeTelegram, Limits, ManualClock
from tests.fakebot.manual import Driver

T = TypeVar("T")
SPEED = 60.0


def driver() -> Driver:
    clock = ManualClock(SPEED, start=1_000_000.0)
    moving = Driver(clock)
    moving.install()
    return moving


async def test_sleepers_wake_in_deadline_order_each_in_its_turn() -> None:
    moving = driver()
    clock, start = moving.clock, moving.clock.now()
    woke: list[tuple[str, float]] = []

    async def sleeper(name: str, *pauses: float) -> None:
        for pause in pauses:
            await clock.sleep(pause)
            woke.append((name, clock.now() - start))

    tasks = [asyncio.create_task(sleeper("a", 10, 1)), asyncio.create_task(sleeper("b", 12))]
    await moving.sleep(20 / SPEED)
    assert woke == [("a", 10), ("a", 11), ("b", 12)]
    assert clock.now() - start == 20
    await asyncio.gather(*tasks)


async def test_an_event_set_before_its_deadline_ends_a_wait_on_the_clock() -> None:
    moving = driver()
    clock, start = moving.clock, moving.clock.now()
    event = asyncio.Event()
    waited = asyncio.create_task(clock.wait(event, 30))
    asyncio.get_running_loop().call_soon(event.set)
    await moving.wait_for(waited.done, timeout=1)
    assert waited.result() is True and clock.now() == start
    never = asyncio.create_task(clock.wait(asyncio.Event(), 30))
    await moving.wait_for(never.done, timeout=1)
    assert never.result() is False and clock.now() - start == 30


async def test_a_wait_with_nothing_asleep_fails_at_once_at_its_deadline() -> None:
    moving = driver()
    start, real = moving.clock.now(), time.monotonic()
    with pytest.raises(TimeoutError, match="nothing slept"):
        await moving.wait_for(lambda: False, timeout=5, what="what never comes")
    assert moving.clock.now() - start == 5 * SPEED
    assert time.monotonic() - real < 1.0


async def test_waits_side_by_side_return_each_at_its_own_moment() -> None:
    moving = driver()
    clock, start = moving.clock, moving.clock.now()
    flag = False
    late = asyncio.create_task(clock.sleep(120))  # something of the bot's, far ahead
    background = asyncio.create_task(moving.wait_for(lambda: flag, timeout=5))
    await moving.sleep(0.2)  # the test's pause: 12 clock seconds, whatever else waits meanwhile
    assert clock.now() - start == 0.2 * SPEED
    flag = True
    await background
    assert clock.now() - start == 0.2 * SPEED, "a wait that came true moved no time"
    late.cancel()


async def test_a_settle_waits_for_work_in_a_thread_but_not_for_a_loop_that_sleeps_for_ever() -> None:
    moving = driver()

    async def beat() -> None:  # as the health beat does, less often
        while True:
            await asyncio.sleep(5.0)

    beating = asyncio.create_task(beat())
    work = asyncio.create_task(asyncio.to_thread(time.sleep, 0.2))
    real = time.monotonic()
    await moving.settle()
    assert work.done(), "the thread's work is back on the loop"
    assert 0.2 <= time.monotonic() - real < 2.5, "and the beat was not waited for"
    beating.cancel()


# --- the same calls over HTTP and in-process ---------------------------------------------------------------


@pytest.fixture(params=["http", "in-process"])
async def world(request: pytest.FixtureRequest) -> AsyncIterator[tuple[FakeTelegram, Bot]]:
    if request.param == "http":
        tg = FakeTelegram(speed=SPEED, limits=Limits())
        await tg.start()
    else:
        tg = FakeTelegram(speed=SPEED, clock=ManualClock(SPEED), limits=Limits())
        assert tg.driver is not None
        tg.driver.install()
    bot = Bot(tg.token, session=tg.session())
    try:
        yield tg, bot
    finally:
        await bot.session.close()
        await tg.stop()


async def _refused(tg: FakeTelegram, call: Awaitable[T]) -> tuple[type[BaseException], str]:
    """How a call that must fail failed: the exception aiogram raised, and its message."""
    try:
        await tg.finish(call, timeout=30)
    except Exception as exc:
        return type(exc), str(exc)
    raise AssertionError("the call went through")


async def test_refusals_reach_aiogram_as_over_http(world: tuple[FakeTelegram, Bot]) -> None:
    tg, bot = world
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    await anna.send_private("/start")
    assert await _refused(tg, bot.send_message(boris.id, "hi")) == (
        TelegramForbiddenError,
        "Telegram server says - Forbidden: bot can't initiate conversation with a user",
    )
    sent = await tg.finish(bot.send_message(anna.id, "<b>ход</b>", parse_mode="HTML"))
    assert anna.private_chat.last_bot_message() is not None
    assert anna.private_chat.messages[sent.message_id].text == "ход"
    kind, message = await _refused(
        tg,
        bot.edit_message_text("<b>ход</b>", chat_id=anna.id, message_id=sent.message_id, parse_mode="HTML"),
    )
    assert kind is TelegramBadRequest and "message is not modified" in message
    kind, message = await _refused(tg, bot.send_message(anna.id, "<b>x", parse_mode="HTML"))
    assert kind is TelegramBadRequest and "can't parse entities" in message


async def test_a_429_carries_its_retry_after(world: tuple[FakeTelegram, Bot]) -> None:
    tg, bot = world
    anna = tg.add_user("Аня")
    await anna.send_private("/start")
    await tg.finish(bot.send_message(anna.id, "1"))
    await tg.finish(bot.send_message(anna.id, "2"))
    with pytest.raises(TelegramRetryAfter) as refused:
        await tg.finish(bot.send_message(anna.id, "3"))
    assert refused.value.retry_after == 1
    assert tg.stats.too_many_requests == 1


async def test_faults_reach_aiogram_as_over_http(world: tuple[FakeTelegram, Bot]) -> None:
    tg, bot = world
    anna = tg.add_user("Аня")
    await anna.send_private("/start")
    tg.fail(60, "sendMessage", code=502)
    kind, _ = await _refused(tg, bot.send_message(anna.id, "a"))
    assert kind is TelegramServerError
    tg.heal()
    tg.fail(60, "sendMessage", code=502, html=True)  # a proxy's page: not JSON
    kind, _ = await _refused(tg, bot.send_message(anna.id, "b"))
    assert kind is ClientDecodeError
    tg.heal()
    tg.garble(60, "sendMessage")
    kind, _ = await _refused(tg, bot.send_message(anna.id, "c"))
    assert kind is ClientDecodeError
    tg.heal()
    assert anna.private_chat.bot_message_count() == 0, "none of them was executed"
    assert (tg.faults.errors, tg.faults.garbled) == (2, 1)


async def test_a_hung_call_gives_up_after_its_timeout_and_a_lost_one_is_made(
    world: tuple[FakeTelegram, Bot],
) -> None:
    tg, bot = world
    anna = tg.add_user("Аня")
    await anna.send_private("/start")
    started = tg.monotonic()
    tg.hang(600, "sendMessage")
    assert await _refused(tg, bot.send_message(anna.id, "a", request_timeout=1)) == (
        TelegramNetworkError,
        "HTTP Client says - Request timeout error",
    )
    assert 1 <= tg.monotonic() - started < 3  # real seconds over HTTP; in-process, the clock's at its speed
    tg.heal()
    tg.lose(600, "sendMessage")
    kind, _ = await _refused(tg, bot.send_message(anna.id, "b", request_timeout=1))
    assert kind is TelegramNetworkError
    assert [m.text for m in anna.private_chat.bot_messages()] == ["b"], "made, its answer lost"
    assert (tg.faults.hangs, tg.faults.lost) == (1, 1)
    await tg.wait_for(lambda: tg.calls_in_flight == 0, what="the hung handlers ended with their clients")


async def test_an_upload_arrives_as_over_http(world: tuple[FakeTelegram, Bot]) -> None:
    tg, bot = world
    anna = tg.add_user("Аня")
    await anna.send_private("/start")
    sent = await tg.finish(
        bot.send_document(
            anna.id, BufferedInputFile(b"records", "party.txt"), caption="<i>запись</i>", parse_mode="HTML"
        )
    )
    assert sent.document is not None and sent.document.file_name == "party.txt"
    message = anna.private_chat.messages[sent.message_id]
    assert message.text == "запись" and message.current.media is not None
    assert message.current.media.file.mime_type == "application/octet-stream"
