"""What a press costs the database, counted on the real database file while the whole bot runs: a move is one
transaction (the move with its mark; the game is read from memory), a refused press none of its own, and no
statement ever runs on the event loop's thread."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter

from bot.callbacks import LobbyCb, LobbyOp, MoveCb
from bot.guards.updates import CURRENT_UPDATE
from bot.storage import repo
from tests.bot.conftest import (
    BotRunner,
    Running,
    game_row,
    has_rematch,
    lobby_of,
    open_lobby,
    play_until,
    start_party,
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


async def test_a_move_costs_one_transaction_and_a_refused_press_none(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    mover = anna if turn_message(anna) else boris
    message = turn_message(mover)
    assert message is not None
    version = (await game_row(running, game)).version
    counts = count_per_update(running)
    db = running.app.db
    statements, ridden, transactions = db.statements, db.ridden, db.transactions

    # The second tap of a move (pressed straight away: a card's move buttons come after its first tap).
    answer = await mover.press(message, data=MoveCb(game=game, version=version, index=0).pack(), force=True)
    await tg.settle()
    assert answer.answered and answer.text is None
    assert (await game_row(running, game)).version == version + 1
    # The move with its mark; the woken timer finds nothing due in the game the move committed.
    assert len(counts) == 1 and list(counts.values()) == [1]
    # The game's row, the move and the mark, with BEGIN and COMMIT; the test's own read of the game row. The
    # delivered messages' marks ride along or come in transactions of their own (one, or more when the deliveries
    # spread over more than half a second, as on a busy machine): each adds its BEGIN and COMMIT, and what it
    # stores is counted apart.
    own = (db.statements - statements) - (db.ridden - ridden) - 2 * (db.transactions - transactions)
    assert own == 3 + 1

    counts.clear()
    stale = await mover.press(message, data=MoveCb(game=game, version=version, index=0).pack(), force=True)
    await tg.settle()
    assert stale.answered and stale.text  # refused: that move was made already
    assert not counts, "a refusal writes nothing: its mark rides along with a later transaction"


async def test_a_lobby_press_costs_one_transaction(tg: FakeTelegram, bot_runner: BotRunner) -> None:
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
    assert len(counts) == 1 and list(counts.values()) == [1]


async def test_a_whole_party_runs_no_statement_on_the_loops_thread_and_few_per_move(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Every statement of a whole group party — moves, timers, deliveries, the outbox's marks — runs on the
    database's own thread; a move costs at most two transactions and eight statements on average."""
    running = await bot_runner()
    db = running.app.db
    loop_thread = threading.get_ident()
    threads: Counter[bool] = Counter()
    await db.trace(lambda _sql: threads.update([threading.get_ident() == loop_thread]))
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    transactions, statements = db.transactions, db.statements
    await play_until(tg, [anna, boris], lambda: has_rematch(group.visible_messages()), timeout=120)
    await tg.settle()
    moves = len(await repo.moves_of(db, int(game)))
    assert moves >= 20
    assert threads[False] > 0 and threads[True] == 0, "a statement ran on the event loop's thread"
    assert (db.transactions - transactions) / moves <= 2.0
    assert (db.statements - statements) / moves <= 8.0
