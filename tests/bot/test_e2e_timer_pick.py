"""Issue 32, point 9: when a player's time runs out after a first tap opened a card's moves, the timer plays that
card (its best move as a plain player judges it), not another card of its own choosing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.callbacks import PickCb
from engine.core import State
from engine.konchinka.ai.policy import normal_action
from tests.bot.conftest import BotRunner, move_buttons, seat_names, start_party, take_turn, turn_message
from tests.bot.test_e2e_table_talk import party_state
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser


def card_of(code: str) -> str:
    """The card an action's code plays («l:Td», «c:Td:…»: ``Td``)."""
    return code.split(":")[1]


async def play_to_a_choice(
    tg: FakeTelegram, anna: FakeUser, boris: FakeUser, seen: Callable[[], Awaitable[tuple[State, int]]]
) -> tuple[FakeMessage, str, int]:
    """Plays a two-person party until Аня, to move, holds a card with two moves that «любитель» would not play
    itself; then taps it. Her hand's message, the card, and the moves made before the tap. ``seen``: the party's
    state as stored and Аня's seat."""
    deadline = tg.monotonic() + 60
    while True:
        assert tg.monotonic() < deadline, "Аня never had a card with two moves that «любитель» would not play"
        hand = turn_message(anna)
        if hand is not None:
            state, seat = await seen()
            plain_choice = card_of(normal_action(state.view(seat)).code)
            asking = [
                PickCb.unpack(b.callback_data).card
                for b in hand.flat_buttons
                if b.callback_data and b.callback_data.startswith("p:") and b.text.endswith("…")
            ]
            others = [code for code in asking if code != plain_choice]
            if others:
                break
            await take_turn(tg, anna)
        if turn_message(boris) is not None:
            await take_turn(tg, boris)
        await tg.sleep(0.02)
    card = others[0]
    moves_before = len(state.record().actions)
    data = next(
        b.callback_data for b in hand.flat_buttons if b.callback_data and b.callback_data.endswith(card)
    )
    assert not (await anna.press(hand, data=data)).text
    # the choice is told by its question: the hand's other cards may offer moves of their own (issue 48)
    await tg.wait_for(lambda: "что делаем" in hand.text, what="the card's moves")
    return hand, card, moves_before


async def test_the_timer_plays_the_card_picked_before_the_time_ran_out(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(
        turn_timeout=120, reminder_before=0
    )  # 2 real s: the pick fits in on a busy machine
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    seat = (await seat_names(running, game)).index("Аня")

    async def seen() -> tuple[State, int]:
        return await party_state(running, game), seat

    hand, card, moves_before = await play_to_a_choice(tg, anna, boris, seen)
    # Аня does not choose: the time runs out and the timer moves for her.
    await tg.wait_for(
        lambda: not any(d.startswith("m:") for d in move_buttons(hand)), timeout=30, what="the timer's move"
    )
    await tg.settle()
    actions = (await party_state(running, game)).record().actions
    assert len(actions) > moves_before
    assert card_of(actions[moves_before]) == card, (actions[moves_before], card)
