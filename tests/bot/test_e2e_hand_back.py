"""A player who clears the private chat on their turn finds the game again with the commands everyone knows:
``/start``, ``/play`` and ``/score`` in the private chat bring the live hand back below, with its buttons
(issue 27, point 3; drafted on branch «faults»)."""

from __future__ import annotations

import pytest

from tests.bot.conftest import (
    BotRunner,
    move_buttons,
    start_party,
    start_solo_konchinka,
    take_turn,
    turn_message,
)
from tests.fakebot import FakeTelegram, FakeUser


def _clear(user: FakeUser) -> None:
    """Delete every message of the private chat, the person's own and the bot's, as «Clear history» does."""
    for message in user.private_chat.visible_messages():
        user.delete(message)


@pytest.mark.parametrize("command", ["/start", "/play", "/score"])
async def test_a_solo_hand_deleted_on_its_turn_comes_back_with_a_plain_command(
    tg: FakeTelegram, bot_runner: BotRunner, command: str
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.wait_for(lambda: turn_message(anna) is not None, what="Anna's turn")
    await tg.settle()
    _clear(anna)
    assert turn_message(anna) is None

    await anna.send_private(command)
    await tg.wait_for(lambda: turn_message(anna) is not None, what=f"the hand back after {command}")
    await tg.settle()
    hand = turn_message(anna)
    assert hand is not None
    assert hand is anna.private_chat.visible_messages()[-1], "the hand comes last, below any reply"
    if command != "/score":
        assert len(anna.private_chat.bot_messages()) == 1, "only the hand: no menu above it"
    # And it plays on.
    buttons = move_buttons(hand)
    assert await take_turn(tg, anna)
    await tg.wait_for(
        lambda: hand.is_deleted or move_buttons(hand) != buttons,
        what="the move taken from the hand brought back",
    )


async def test_a_group_players_hand_comes_back_with_start_in_private(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    await tg.settle()
    mover = anna if turn_message(anna) else boris
    for command in ("/start", "/play"):
        _clear(mover)
        await mover.send_private(command)
        await tg.wait_for(lambda: turn_message(mover) is not None, what=f"the hand back after {command}")
        await tg.settle()
        assert turn_message(mover) is mover.private_chat.visible_messages()[-1]
    # /play also offers a game with bots, above the hand.
    assert mover.private_chat.visible_messages()[-2].has_button("👑 Кинг — с тремя ботами")
