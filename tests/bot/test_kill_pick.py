"""A card picked with a first tap is part of the game in play, stored with it: the bot killed right after the tap
(SIGKILL: nothing flushed, no transaction since) comes back knowing the pick, and when the person's time runs out
the timer plays that card — not a card of its own choosing."""

from __future__ import annotations

import contextlib
import signal
import sqlite3
from pathlib import Path

import pytest

from engine.core import GameRecord, State, replay
from tests.bot.conftest import (
    SEED,
    SPEED,
    bot_process_env,
    start_party,
)
from tests.bot.test_e2e_timer_pick import card_of, play_to_a_choice
from tests.fakebot import FakeTelegram
from tests.forkserver import ForkServer, Process

pytestmark = pytest.mark.over_http("python -m bot in a process of its own, SIGKILLed after a pick")


async def _spawn(forkserver: ForkServer, tg: FakeTelegram, db_path: Path) -> Process:
    env = bot_process_env(
        tg,
        db_path,
        CLOCK_SPEED=str(SPEED),
        GAME_SEED=str(SEED),
        DEFAULT_TARGET="3",
        TURN_TIMEOUT="600",  # ten real seconds a turn: the pick and the kill come well within it
        REMINDER_BEFORE="0",
        LOG_LEVEL="WARNING",
    )
    return await forkserver.spawn("bot", env=env, cwd=db_path.parent)


async def test_the_timer_plays_the_card_picked_before_the_bot_was_killed(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Path
) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    process = await _spawn(forkserver, tg, db_path)
    try:
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start")
        game = await start_party(tg, group, anna, [anna, boris])

        async def seen() -> tuple[State, int]:
            state, seats = await party_state_at(db_path, game)
            return state, seats.index(anna.id)

        _hand, card, moves_before = await play_to_a_choice(tg, anna, boris, seen)
        process.send_signal(signal.SIGKILL)  # right after the tap: nothing of it in the database yet
        await process.wait()
        tg.commands.clear()
        process = await _spawn(forkserver, tg, db_path)
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start again")

        # Аня does not choose: her time runs out, and the timer moves for her.
        await tg.wait_for(
            lambda: len_actions(db_path, game) > moves_before,
            timeout=30,
            what="the timer's move after the restart",
        )
        actions = (await party_state_at(db_path, game))[0].record().actions
        assert card_of(actions[moves_before]) == card, (actions[moves_before], card)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)
            await process.wait()


def len_actions(db_path: Path, game: str) -> int:
    """The moves stored of the game (read beside the running bot, with a plain connection)."""
    with contextlib.closing(sqlite3.connect(db_path)) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (int(game),)).fetchone()
    return int(count)


async def party_state_at(db_path: Path, game: str) -> tuple[State, list[int | None]]:
    """The party as stored (its start replayed with its moves) and the people of its seats, in order."""
    with contextlib.closing(sqlite3.connect(db_path)) as conn:
        (record,) = conn.execute("SELECT record FROM games WHERE id = ?", (int(game),)).fetchone()
        actions = [
            a
            for (a,) in conn.execute(
                "SELECT action FROM moves WHERE game_id = ? ORDER BY version", (int(game),)
            )
        ]
        seats = [
            u
            for (u,) in conn.execute(
                "SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (int(game),)
            )
        ]
    start = GameRecord.from_json(record)
    return replay(GameRecord(start.game, start.options, start.seed, tuple(actions))), seats
