"""At Telegram's real rates: the fake server's limits and both clocks at speed 1, people pressing as fast as they
can. The outbox must pace every chat so that Telegram never answers 429, and the newest state must arrive."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest

from tests.bot.conftest import BotRunner, play_until, start_party, turn_message
from tests.fakebot import FakeTelegram, Limits

pytestmark = [
    pytest.mark.xdist_group("timing-2"),  # asserts on time (the second chain): see tests/conftest.py
    pytest.mark.over_http(
        "Telegram's real rates in real time, both clocks at speed 1 (its own fake Telegram)"
    ),
]


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    server = FakeTelegram(speed=1.0, limits=Limits())
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def test_fast_players_at_real_rates_get_no_429_and_see_the_newest_table(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    app = (await bot_runner(clock_speed=1.0, bot_delay=0.2)).app
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await start_party(tg, group, anna, [anna, boris, vera])
    assert tg.stats.too_many_requests == 0
    tg.stats.reset()  # the pace is measured over the play only (the lobby asked getChatMember of each joiner)
    started = time.monotonic()
    made = await play_until(tg, [anna, boris, vera], lambda: False, moves=12, timeout=60)
    await tg.settle()
    await app.outbox.drain(timeout=60)
    elapsed = time.monotonic() - started
    assert made == 12
    assert tg.stats.too_many_requests == 0
    # Each chat was kept near one message a second, the group well under 20 a minute.
    for chat in (group, anna.private_chat, boris.private_chat, vera.private_chat):
        assert tg.stats.chat_calls[chat.id] <= elapsed + 3, (chat, tg.stats.chat_calls[chat.id], elapsed)
    assert tg.stats.chat_calls[group.id] <= 20 * (elapsed / 60 + 1)
    # Nothing stale is left behind: exactly one person holds move buttons, and the group's table names them.
    to_move = [u for u in (anna, boris, vera) if turn_message(u) is not None]
    assert len(to_move) == 1
    table = next(m for m in reversed(group.visible_messages()) if m.is_from_bot and "Раздача" in m.text)
    assert f"Ходит: {to_move[0].first_name}" in table.text
