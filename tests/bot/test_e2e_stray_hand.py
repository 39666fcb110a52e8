"""A hand message the bot lost track of (sent, but its id never recorded: a crash, or the answer lost on the
way). Pressed while its buttons are current, it is the newest hand on show, so it becomes the player's hand and
the older one goes; pressed after its turn is over, it is a dead keyboard: the press is answered and the copy
deleted. A stale press on the live hand itself deletes nothing."""

from __future__ import annotations

from tests.bot.conftest import (
    BotRunner,
    move_buttons,
    play_until,
    start_party,
    start_solo_king,
    take_turn,
    turn_message,
)
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser

LATE = "Этот ход уже сделан."


async def _party(tg: FakeTelegram, bot_runner: BotRunner) -> tuple[FakeUser, FakeMessage]:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    mover = anna if turn_message(anna) else boris
    live = turn_message(mover)
    assert live is not None
    return mover, live


async def test_a_current_press_on_an_unrecorded_copy_makes_it_the_hand(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    mover, live = await _party(tg, bot_runner)
    copy = tg.lost_send(live)
    moves = move_buttons(copy)

    assert await take_turn(tg, mover)  # through the copy: the newest message with moves
    await tg.wait_for(lambda: live.is_deleted, what="the older hand deleted")
    await tg.wait_for(lambda: move_buttons(copy) != moves, what="the copy showing the move made")
    assert not copy.is_deleted


async def test_a_stale_press_on_a_stray_copy_of_the_hand_deletes_the_copy(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    mover, live = await _party(tg, bot_runner)
    stray = tg.lost_send(live)
    old_moves = move_buttons(stray)

    assert await take_turn(tg, mover, through=live)
    # the move made (not only its first tap shown): the hand waits for the other player, offering no move
    await tg.wait_for(lambda: move_buttons(live) == [], what="the live hand waiting")

    answer = await mover.press(live, data=old_moves[0], force=True)
    assert answer.text == LATE
    answer = await mover.press(stray, data=old_moves[0])
    assert answer.text == LATE
    await tg.wait_for(lambda: stray.is_deleted, what="the stray copy deleted")
    assert not live.is_deleted, "the live hand is never deleted for a late press"


async def test_a_press_on_a_hand_from_an_earlier_deal_says_the_message_is_old(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    await start_solo_king(tg, anna)
    await tg.wait_for(lambda: turn_message(anna) is not None, what="Anna's first turn")
    live = turn_message(anna)
    assert live is not None
    old_moves = move_buttons(live)
    chat = anna.private_chat

    def second_deal() -> bool:
        return any("Раздача 1/15 окончена" in m.text for m in chat.visible_messages() if m.is_from_bot)

    await play_until(tg, [anna], second_deal)
    answer = await anna.press(live, data=old_moves[0], force=True)  # a button the first deal's hand showed
    assert answer.text == "Это сообщение из прошлой раздачи — ваши карты в последнем сообщении."
