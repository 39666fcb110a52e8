"""Kill the bot at any moment, start it again: the party continues where it was and finishes."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bot.model.game import GameStatus
from bot.storage import Database, repo
from engine.core import replay
from tests.bot.conftest import SEED, SPEED, BotRunner, bot_process_env, has_rematch, play_until, start_party
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer, Process


async def _check_record(db_path: Path, game: str) -> None:
    """Every stored move once, in order, and the record replays to a finished party."""
    db = await Database.open(db_path)
    try:
        async with db.tx() as tx:
            row = await repo.get_game(tx, int(game))
            moves = await repo.moves_of(tx, int(game))
            record = await repo.record_of(tx, int(game))
    finally:
        await db.close()
    assert row is not None and record is not None
    assert row.status is GameStatus.FINISHED
    assert len(moves) == row.version
    assert [m.code for m in moves] == list(record.actions)
    assert replay(record).is_terminal


async def test_a_restarted_bot_finishes_the_party(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    first = await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris, vera])
    await play_until(tg, [anna, boris, vera], lambda: False, moves=20, timeout=60)
    await first.stop()
    await bot_runner()
    await play_until(tg, [anna, boris, vera], lambda: has_rematch(group.visible_messages()), timeout=90)
    await _check_record(db_path, game)


async def _spawn(forkserver: ForkServer, tg: FakeTelegram, db_path: Path) -> Process:
    env = bot_process_env(
        tg,
        db_path,
        CLOCK_SPEED=str(SPEED),
        GAME_SEED=str(SEED),
        DEFAULT_TARGET="3",
        TURN_TIMEOUT="0",
        LOG_LEVEL="WARNING",
    )
    return await forkserver.spawn("bot", env=env, cwd=db_path.parent)


@pytest.mark.over_http("python -m bot in a process of its own, SIGKILLed")
async def test_python_m_bot_killed_mid_deal_and_restarted_finishes_the_party(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Path
) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    vera = tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    process = await _spawn(forkserver, tg, db_path)
    try:
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start")
        game = await start_party(tg, group, anna, [anna, boris, vera])
        await play_until(tg, [anna, boris, vera], lambda: False, moves=15, timeout=60)
        process.send_signal(signal.SIGKILL)
        await process.wait()
        tg.commands.clear()
        process = await _spawn(forkserver, tg, db_path)
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start again")
        await play_until(tg, [anna, boris, vera], lambda: has_rematch(group.visible_messages()), timeout=120)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)
            await process.wait()
    await _check_record(db_path, game)
    assert tg.stats.too_many_requests == 0
