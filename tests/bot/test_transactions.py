"""What a press costs the database: at most two SQLite transactions (the update-once check, then the move with
its mark), counted on the real database file while the whole bot runs."""

from __future__ import annotations

import asyncio
from collections import Counter

from bot.callbacks import LobbyCb, LobbyOp, MoveCb
from bot.services.updates import CURRENT_UPDATE
from tests.bot.conftest import (
    BotRunner,
    Running,
    game_row,
    lobby_of,
    open_lobby,
    turn_message,
    two_player_party,
)
from tests.fakebot import FakeTelegram

TIMERS = -1
"""The key under which the game timers' transactions are counted."""


def count_per_update(running: Running) -> Counter[int]:
    """From now on: how many transactions the handling of each update began (known by its update-once claim).

    Only the update's own task counts: the outbox's delivery tasks started meanwhile inherit the claim, but what
    they store (each delivered message's id) is the delivery's cost, not the press's. Transactions of the game
    timers (which a change wakes) are counted under :data:`TIMERS`.
    """
    counts: Counter[int] = Counter()
    handlers: dict[int, asyncio.Task[object] | None] = {}

    def seen() -> None:
        claim = CURRENT_UPDATE.get()
        task = asyncio.current_task()
        if task is not None and task.get_name().startswith("game:"):
            counts[TIMERS] += 1  # a game's timer, woken by the press
            return
        if claim is None:
            return
        if handlers.setdefault(claim.update_id, task) is task:
            counts[claim.update_id] += 1

    running.app.db.on_transaction = seen
    return counts


async def test_a_move_costs_two_transactions_and_a_refused_press_no_more(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    mover = anna if turn_message(anna) else boris
    message = turn_message(mover)
    assert message is not None
    version = (await game_row(running, game)).version
    counts = count_per_update(running)

    answer = await mover.press(message, data=MoveCb(game=game, version=version, index=0).pack())
    await tg.settle()
    assert answer.answered and answer.text is None
    assert (await game_row(running, game)).version == version + 1
    # The check, then the move with its mark; the woken timer finds nothing due in the game the move committed.
    assert len(counts) == 1 and list(counts.values()) == [2]

    counts.clear()
    stale = await mover.press(message, data=MoveCb(game=game, version=version, index=0).pack(), force=True)
    await tg.settle()
    assert stale.answered and stale.text  # refused: that move was made already
    assert len(counts) == 1 and list(counts.values()) == [2]


async def test_a_lobby_press_costs_two_transactions(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, boris])
    await tg.settle()
    counts = count_per_update(running)
    answer = await boris.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.LEAVE).pack())
    await tg.settle()
    assert answer.answered
    assert "Борис" not in lobby_of(group).text
    assert len(counts) == 1 and list(counts.values()) == [2]
