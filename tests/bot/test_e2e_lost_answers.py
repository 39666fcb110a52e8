"""What Telegram did but the bot never heard: a message sent whose answer was lost on the way. It may leave no
trace people see: no second «your turn» message with live buttons."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.bot.conftest import (
    BotRunner,
    move_buttons,
    take_turn,
    turn_message,
    two_player_party,
)
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser


def _offering_moves(user: FakeUser) -> list[FakeMessage]:
    """The bot's messages in the user's private chat that still show move buttons."""
    return [m for m in user.private_chat.bot_messages() if move_buttons(m)]


def _one_more_lost(tg: FakeTelegram) -> Callable[[], bool]:
    """Whether a call's answer was lost since now."""
    before = tg.faults.lost
    return lambda: tg.faults.lost > before


def _someone_else_to_move(people: list[FakeUser], mover: FakeUser) -> Callable[[], bool]:
    return lambda: any(turn_message(u) for u in people if u is not mover)


@pytest.mark.long
async def test_a_turn_message_whose_answer_was_lost_is_not_left_twice(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, _group, _game = await two_player_party(tg, bot_runner)
    people = [anna, boris]
    await tg.settle()
    for _ in range(3):
        mover = next(u for u in people if turn_message(u))
        # The message that tells the next player it is their turn is sent, but its answer never reaches the bot,
        # which sends it again (after its request timeout: the loss is over by then).
        lost = _one_more_lost(tg)
        tg.lose(60 * tg.clock.speed, "sendMessage")
        assert await take_turn(tg, mover)
        await tg.wait_for(lost, what="a message whose answer is lost")
        tg.heal()
        await tg.wait_for(_someone_else_to_move(people, mover), timeout=10, what="the next turn")
        await tg.settle()
        await tg.wait_for(
            lambda: all(len(_offering_moves(u)) <= 1 for u in people),
            timeout=5,
            what="one message with move buttons per player",
        )
    assert tg.faults.lost >= 3
    assert running.app.outbox.calls["failed"] >= 3
    assert running.app.outbox.calls["lost_copies"] >= 1
