"""The machine's wall clock steps (an NTP correction, a virtual machine resumed) in the middle of a party: the
next move's messages still come within two seconds, and the step alone plays no move for anyone.

Windows (rates, throttles, pauses, back-off) and the timers of running games must not notice the step; only
what is stored for a restart is wall time."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.clock import Clock
from tests.bot.conftest import BotRunner, game_row, move_buttons, start_party, take_turn, turn_message
from tests.fakebot import FakeTelegram, FakeUser
from tests.fakebot.wallclock import SteppedWallClock

pytestmark = pytest.mark.over_http(
    "the bot's real Clock against the machine's wall clock stepping (a manual clock reads no wall clock)"
)

WITHIN = 2.0
"""Real seconds the next move's messages may take."""


def _offered(user: FakeUser) -> int:
    message = turn_message(user)
    return -1 if message is None else int(move_buttons(message)[0].split(":")[2])


def _moved_past(people: list[FakeUser], version: int) -> Callable[[], bool]:
    """Whether someone is offered a move after ``version``."""
    return lambda: max(_offered(u) for u in people) > version


@pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py
@pytest.mark.parametrize("step", [-120.0, 3600.0, -3600.0])
async def test_a_wall_clock_step_mid_party_stalls_nothing(
    tg: FakeTelegram, bot_runner: BotRunner, step: float
) -> None:
    running = await bot_runner(turn_timeout=600)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    people = [anna, boris]
    # A move each, so every window has stamps of the time before the step.
    for _ in range(2):
        version = (await game_row(running, game)).version
        mover = next(u for u in people if _offered(u) == version)
        assert await take_turn(tg, mover, through=turn_message(mover))
        await tg.wait_for(_moved_past(people, version), what="the next turn")
    await tg.settle()
    loop = asyncio.get_running_loop()

    with SteppedWallClock() as wall:
        wall.step(step)
        version = (await game_row(running, game)).version
        await asyncio.sleep(0.5)  # 30 s of the bot's clock: a timer that took the step for time would act
        assert (await game_row(running, game)).version == version, "the step alone played a move"
        table = group.last_bot_message()
        assert table is not None
        table_text = table.text

        for _ in range(3):
            mover = next(u for u in people if _offered(u) == version)
            started = loop.time()
            assert await take_turn(tg, mover, through=turn_message(mover))
            await tg.wait_for(_moved_past(people, version), timeout=WITHIN, what="the next turn")
            took = loop.time() - started
            assert took < WITHIN, f"the move's messages took {took:.1f} s"
            version = (await game_row(running, game)).version
        await tg.wait_for(lambda: table.text != table_text, timeout=WITHIN, what="the group's table")


def test_the_bots_clock_starts_at_wall_time_and_ignores_later_steps() -> None:
    with SteppedWallClock() as wall:
        clock = Clock(speed=60.0)
        assert abs(clock.now() - time.time() * 60.0) < 60.0  # within a real second of the wall clock
        before = clock.now()
        wall.step(-3600.0)
        after = clock.now()
        assert 0 <= after - before < 60.0
        assert abs(Clock(speed=60.0).now() - time.time() * 60.0) < 60.0  # a new run takes the new wall time


@pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py
async def test_a_restart_with_the_wall_clock_an_hour_behind_keeps_the_game_and_the_group_on_time(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    """Run with the wall clock an hour ahead, stop, set it right, start again: what the first run stored (the
        turn's deadline, the group's rate stamps) lies an hour ahead of the new run's time. The turn still ends
        within its limit (the timer moves for the absent player), and the group hears of it at once (the group's
    minute window holds the stamps as made now, not an hour from now)."""
    # Nobody moves: the timer moves for each in turn, and never hands a seat to a bot player for good.
    settings = {"turn_timeout": 12, "group_per_minute": 4, "reminder_before": 0.0, "afk_strikes": 1000}
    with SteppedWallClock() as wall:
        wall.step(3600.0)
        running = await bot_runner(**settings)
        anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
        group = tg.add_group("Друзья", [anna, boris], admins=[anna])
        game = await start_party(tg, group, anna, [anna, boris])
        await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
        await tg.settle()
        version = (await game_row(running, game)).version
        await running.stop()
        wall.step(-3600.0)
        running = await bot_runner(**settings)
        loop = asyncio.get_running_loop()
        started = loop.time()
        table = next(m for m in group.bot_messages() if "Раздача" in m.text)
        table_text, said = table.text, len(group.bot_messages())
        limit = running.app.clock.real(12 + 15)  # the turn's limit, and the grace a restart gives at most
        while (await game_row(running, game)).version == version:
            assert loop.time() - started < limit + WITHIN, "no timer move after the restart"
            await asyncio.sleep(0.05)
        moved = loop.time() - started
        await tg.wait_for(
            lambda: table.text != table_text or len(group.bot_messages()) > said,
            timeout=WITHIN + 1,
            what="a message to the group",
        )
        shown = loop.time() - started
        print(
            f"after a restart an hour behind: the timer moved in {moved:.2f} s, the group heard in {shown:.2f} s"
        )
        stored = sqlite3.connect(db_path).execute("SELECT deadline FROM games WHERE id = ?", (int(game),))
        deadline = stored.fetchone()[0]
        assert deadline is None or deadline - running.app.clock.now() <= 12, (
            "a deadline beyond the turn's limit"
        )
