"""The service's memory holds only what is in use: locks while held, active and recently used games."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.callbacks import MoveCb
from bot.clock import Clock
from bot.delivery.outbox import SWEEP_EVERY
from bot.model.game import Game, GameMode, GameStatus
from bot.pipeline.store import GameCache, GameLocks
from tests.bot.conftest import SPEED, BotRunner
from tests.bot.test_soak import play_one
from tests.fakebot import FakeTelegram


async def test_a_game_lock_excludes_and_is_gone_once_nobody_holds_or_waits_for_it() -> None:
    locks = GameLocks()
    inside: list[int] = []
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks[7]:
            inside.append(1)
            assert len(inside) == 1
            order.append(name)
            await asyncio.sleep(0.01)
            inside.pop()

    await asyncio.gather(*(hold(str(i)) for i in range(5)))
    assert sorted(order) == ["0", "1", "2", "3", "4"]
    assert len(locks) == 0


async def test_a_cancelled_waiter_leaves_no_lock_behind() -> None:
    locks = GameLocks()
    async with locks[1]:
        waiter = asyncio.create_task(locks[1].__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
    assert len(locks) == 0


def test_the_game_cache_keeps_the_most_recent_and_drops_idle_and_finished_games() -> None:
    class Stopped(Clock):
        def __init__(self) -> None:
            super().__init__()
            self.at = 0.0

        def now(self) -> float:
            return self.at

    clock = Stopped()
    cache = GameCache(clock, limit=3, idle=100.0)
    game = Game(0, "konchinka", GameMode.SOLO, GameStatus.PLAYING, 1, 0, 1, {}, 0, "ru", 0.0)
    matches = [dataclasses.replace(game, id=game_id) for game_id in range(7)]
    for match in matches[:5]:
        cache.put(match)
    assert len(cache) == 3 and 0 not in cache and 4 in cache
    assert cache.get(2) is matches[2]  # used: now the most recent
    cache.put(matches[5])
    assert 2 in cache and 3 not in cache
    clock.at = 150.0
    cache.put(matches[6])
    assert len(cache) == 1 and 6 in cache  # the others were idle for more than 100 s
    cache.put(dataclasses.replace(matches[6], status=GameStatus.FINISHED))
    assert len(cache) == 0


async def test_presses_for_games_that_do_not_exist_leave_nothing_in_memory(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня")
    await anna.send_private("/help")
    await tg.wait_for(lambda: anna.private_chat.last_bot_message() is not None, what="the help")
    message = anna.private_chat.last_bot_message()
    assert message is not None
    for game in range(900_001, 900_004):
        answer = await anna.press(message, data=MoveCb(game=str(game), version=0, index=0).pack(), force=True)
        assert answer.answered and answer.text
    store = running.app.pipeline.store
    assert len(store.locks) == 0
    assert all(game not in store.games for game in range(900_001, 900_004))


async def test_finished_games_and_idle_chats_leave_nothing_in_memory(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Each game by a new person: afterwards no state, lock, queue or rate window is kept for any of them."""
    running = await bot_runner(bot_delay=0.0, default_target=1)
    for n in range(5):
        await play_one(tg, tg.add_user(f"Игрок {n}"))
    await tg.settle()
    app = running.app
    assert len(app.pipeline.store.games) == 0
    assert len(app.pipeline.store.locks) == 0
    assert len(app.outbox) == 0
    # A bot-clock minute later the next event sweeps the emptied rate windows: only the newcomer's are left.
    await tg.sleep(SWEEP_EVERY / SPEED + 0.5)
    late = tg.add_user("Поздний")
    await late.send_private("/help")
    await tg.wait_for(lambda: late.private_chat.last_bot_message() is not None, what="the help")
    assert len(app.outbox.limiter) == 1
    assert len(app.throttle.windows) == 1
