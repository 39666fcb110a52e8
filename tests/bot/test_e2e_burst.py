"""A burst of presses: all answered, with no more than a bounded number handled at once."""

from __future__ import annotations

import asyncio

from bot.callbacks import MoveCb
from bot.guards.updates import MAX_UPDATES_IN_FLIGHT, InFlightLimit
from tests.bot.conftest import BotRunner, start_solo_konchinka, turn_message
from tests.fakebot import FakeTelegram

PRESSES = 150


async def test_a_burst_of_presses_is_answered_with_bounded_concurrency(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    limit = next(m for m in running.app.dispatcher.update.outer_middleware if isinstance(m, InFlightLimit))
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=2)
    await tg.wait_for(lambda: turn_message(anna) is not None, timeout=20, what="Anna's turn")
    message = turn_message(anna)
    assert message is not None
    stale = MoveCb(game="1", version=10_000, index=0).pack()  # a move of a version long gone: refused
    answers = await asyncio.gather(
        *(anna.press(message, data=stale, force=True, timeout=15) for _ in range(PRESSES))
    )
    assert all(a.answered and a.text for a in answers)
    # Answers go beside the updates (bot/delivery/outbox/core.py): refusals need no network, so may run one by one.
    assert 1 <= limit.peak <= MAX_UPDATES_IN_FLIGHT
