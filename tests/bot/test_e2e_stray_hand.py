"""A hand message the bot lost track of (sent, but its answer lost in a crash) keeps buttons of a turn long
over: its first stale press is answered and deletes it, so nobody keeps pressing a dead keyboard below the
live hand; a stale press on the live hand itself deletes nothing."""

from __future__ import annotations

from tests.bot.conftest import BotRunner, move_buttons, start_party, take_turn, turn_message
from tests.fakebot import FakeTelegram

LATE = "Этот ход уже сделан."


async def test_a_stale_press_on_a_stray_copy_of_the_hand_deletes_the_copy(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    mover = anna if turn_message(anna) else boris
    live = turn_message(mover)
    assert live is not None
    stray = tg.lost_send(live)
    old_moves = move_buttons(stray)

    assert await take_turn(tg, mover)  # through the stray copy: the newest message with moves
    await tg.wait_for(lambda: move_buttons(live) != old_moves, what="the live hand updated")
    await running.app.outbox.drain()

    answer = await mover.press(live, data=old_moves[0], force=True)
    assert answer.text == LATE
    await running.app.outbox.drain()
    assert not live.is_deleted, "the live hand is never deleted for a late press"

    answer = await mover.press(stray, data=old_moves[0])
    assert answer.text == LATE
    await tg.wait_for(lambda: stray.is_deleted, what="the stray copy deleted")
    assert not live.is_deleted
