"""A burst of new lobbies does not starve the games in play: five hundred groups open a lobby at once (17 s of the
bot's whole budget of 30 calls a second, at Telegram's real rates; a thousand, 33 s, in the slow tier), and a
running party's next hand still comes before most of them, within a second — the lobbies are low stakes and go
in the time the games leave unused.

In-process, on a manual clock at real speed (1 clock second a second): time moves only when the bot has nothing to
do, so the figures are the bot's own order and pace, the same on a loaded machine as on a quiet one."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.conftest import BotRunner, move_buttons, start_party, take_turn, turn_message
from tests.fakebot import FakeTelegram, FakeUser, Limits
from tests.fakebot.manual import ManualClock
from tests.tiers import size

LOBBIES = size(500, 1000)
WITHIN = 1.0
"""Clock seconds the running party's next hand may take while the lobbies wait (17 s of calls): the bot's pause
before a hand (0.2 s), a call to send it and one to edit the last, each chat's one call a second."""


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """The fake Telegram in-process, at real speed: Telegram's rates count real seconds."""
    server = FakeTelegram(speed=1.0, clock=ManualClock(1.0), limits=Limits())
    assert server.driver is not None
    server.driver.install()
    try:
        yield server
    finally:
        await server.stop()
        await server.driver.close()


def _offered(user: FakeUser) -> int:
    message = turn_message(user)
    return -1 if message is None else int(move_buttons(message)[0].split(":")[2])


def _lobbies(db_path: Path) -> int:
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM games WHERE status = 'lobby'").fetchone()[0])


@pytest.mark.timeout(size(120, 240))
async def test_a_running_partys_next_hand_goes_before_hundreds_of_new_lobbies(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    running = await bot_runner(clock_speed=1.0, bot_delay=0.2, turn_timeout=0)
    clock = tg.driver.clock if tg.driver else None
    assert clock is not None
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), timeout=10, what="a turn")
    await tg.settle()
    people = [anna, boris]
    creators = [tg.add_user(f"Игрок {i}") for i in range(LOBBIES)]
    groups = [tg.add_group(f"Группа {i}", [u], admins=[u]) for i, u in enumerate(creators)]
    for user, chat in zip(creators, groups, strict=True):
        await user.send(chat, "/konchinka")
    await tg.wait_for(lambda: _lobbies(db_path) == LOBBIES, timeout=120, what="every lobby opened")
    backlog, _oldest = running.app.outbox.backlog()
    latencies, lobbies_sent = [], []
    for _ in range(3):
        mover = next(u for u in people if _offered(u) >= 0)
        other = next(u for u in people if u is not mover)
        version = _offered(mover)
        started = clock.now()
        assert await take_turn(tg, mover)
        await tg.wait_for(lambda: _offered(other) > version, timeout=60, what="the next hand")  # noqa: B023
        latencies.append(clock.now() - started)
        lobbies_sent.append(sum(1 for chat in groups if chat.bot_messages()))
        await tg.sleep(1.5)  # the next person thinks (and each chat's one call a second has passed)
    sent = sum(1 for chat in groups if chat.bot_messages())
    print(
        f"{LOBBIES} lobbies opened, {backlog} calls waiting: the next hand took "
        + ", ".join(f"{t:.2f}" for t in latencies)
        + f" s, with {', '.join(map(str, lobbies_sent))} lobbies sent by then; {sent} sent meanwhile"
    )
    assert max(latencies) < WITHIN, latencies
    assert all(count < LOBBIES // 2 for count in lobbies_sent), (
        f"the hand waited for the lobbies: {lobbies_sent}"
    )
    assert tg.stats.too_many_requests == 0
