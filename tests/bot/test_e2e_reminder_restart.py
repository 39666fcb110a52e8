"""A reminder on show when the bot restarts is still deleted once its turn is over: the new run finds it in the
database (the memory of it died with the old run)."""

from __future__ import annotations

from pathlib import Path

from bot.model.game import GameStatus
from bot.storage import Database
from bot.storage import repo as stored
from tests.bot.conftest import BotRunner, start_party, take_turn, turn_message
from tests.fakebot import FakeMessage, FakeTelegram

REMINDER = "ваш ход! Осталось"


async def test_a_reminder_shown_before_a_restart_is_deleted_after_the_move(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    # A reminder early in a long turn: the restart and the move fit in what is left on a busy machine too.
    first = await bot_runner(turn_timeout=600, reminder_before=590)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    mover = anna if turn_message(anna) else boris

    def reminder() -> FakeMessage | None:
        return next((m for m in mover.private_chat.visible_messages() if REMINDER in m.text), None)

    await tg.wait_for(lambda: reminder() is not None, timeout=20, what="the reminder")
    shown = reminder()
    assert shown is not None
    await first.stop()

    running = await bot_runner(turn_timeout=600, reminder_before=590)
    await tg.wait_for(lambda: turn_message(mover) is not None, what="the turn, republished")
    assert not shown.is_deleted, "the turn is not over yet: its reminder stays"
    assert await take_turn(tg, mover)
    await tg.wait_for(lambda: shown.is_deleted, timeout=20, what="the reminder deleted")
    await tg.finish(running.app.outbox.drain())
    async with running.app.db.tx() as tx:
        assert await stored.live_with_prefix(tx, "m") == [], "no reminder left in the database"


async def test_a_reminder_of_a_game_ended_while_the_bot_was_down_is_deleted_at_start(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    first = await bot_runner(turn_timeout=30)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    mover = anna if turn_message(anna) else boris
    await tg.wait_for(
        lambda: any(REMINDER in m.text for m in mover.private_chat.visible_messages()),
        timeout=20,
        what="the reminder",
    )
    shown = next(m for m in mover.private_chat.visible_messages() if REMINDER in m.text)
    await first.stop()
    # The party ends while the bot is down (cancelled by hand in the database): its reminder belongs to no
    # running game any more.
    db = await Database.open(db_path)
    try:
        async with db.tx() as tx:
            await tx.execute("UPDATE games SET status = ? WHERE id = ?", (GameStatus.CANCELLED, int(game)))
    finally:
        await db.close()

    await bot_runner(turn_timeout=30)
    await tg.wait_for(lambda: shown.is_deleted, timeout=20, what="the stale reminder deleted")
