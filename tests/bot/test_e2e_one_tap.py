"""One tap for a move with one meaning (issue 48): a Кончинка card that can take one capture or go on the table
shows both on its row of the hand, and the capture is made by one press through the fake Bot API; the same
press again, or one forged for a move that is not there, is refused and changes nothing."""

from __future__ import annotations

from bot.callbacks import MoveCb
from engine.konchinka import Capture, KonchinkaState
from tests.bot.conftest import (
    BotRunner,
    Running,
    game_row,
    move_buttons,
    plain,
    start_party,
    take_turn,
    turn_message,
)
from tests.bot.test_e2e_table_talk import party_state
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser


async def a_card_that_takes_or_lays(
    tg: FakeTelegram, running: Running, game: str, people: list[FakeUser]
) -> tuple[FakeUser, FakeMessage, KonchinkaState]:
    """Plays on (each move a card's own tap, else the first button) until the person to move holds a card whose
    one capture is a button of its own: that person, their hand, the party then."""
    deadline = tg.monotonic() + 60
    while True:
        assert tg.monotonic() < deadline, "no hand offered a capture on its own button"
        mover = next((u for u in people if turn_message(u) is not None), None)
        hand = turn_message(mover) if mover is not None else None
        version = (await game_row(running, game)).version
        buttons = move_buttons(hand) if hand is not None else []
        if mover is None or hand is None or not buttons or int(buttons[0].split(":")[2]) != version:
            await tg.sleep(0.01)
            continue
        if any(" берёт " in b.text for b in hand.flat_buttons):
            return mover, hand, await party_state(running, game)
        await take_turn(tg, mover, through=hand)
        while (await game_row(running, game)).version == version:
            assert tg.monotonic() < deadline, "the move was not made"
            await tg.sleep(0.01)


async def test_a_card_with_one_capture_takes_it_on_one_tap_and_a_stale_or_forged_press_changes_nothing(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    mover, hand, state = await a_card_that_takes_or_lays(tg, running, game, [anna, boris])
    view = state.view(state.current_player)
    take = next(b for b in hand.flat_buttons if " берёт " in b.text)
    data = MoveCb.unpack(take.callback_data or "")
    action = view.legal_actions[data.index]
    assert isinstance(action, Capture) and take.text.startswith(f"{action.card.ru} берёт ")
    lay = MoveCb.unpack(hand.button(f"{action.card.ru} на стол").callback_data or "")
    assert view.legal_actions[lay.index].code == f"l:{action.card.code}", "its other move beside it"
    version = data.version
    assert version == (await game_row(running, game)).version

    answer = await mover.press(hand, take.text)
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: len(hand.history) > 1 or hand.is_deleted, what="the hand taken in")
    after = await party_state(running, game)
    assert (await game_row(running, game)).version == version + 1, "one press, one move"
    assert after.record().actions[-1] == action.code
    await tg.wait_for(
        lambda: any(" берёт " in plain(m.text) for m in group.visible_messages() if m.is_from_bot),
        what="the capture on the group's table",
    )

    # The same press again (a second tap on the old hand), or one forged for a move the party does not have:
    # refused in words, and the game is where it was.
    again = await mover.press(hand, data=take.callback_data, force=True)
    assert again.answered and again.text == "Этот ход уже сделан."
    now = (await game_row(running, game)).version
    other = boris if mover is anna else anna
    await tg.wait_for(lambda: turn_message(other) is not None, what="the other's turn")
    their_hand = turn_message(other)
    assert their_hand is not None
    forged = MoveCb(game=game, version=now, index=99).pack()
    refused = await other.press(their_hand, data=forged, force=True)
    assert refused.answered and refused.text == "Этот ход уже сделан."
    assert (await game_row(running, game)).version == now
    assert (await party_state(running, game)).record().actions == after.record().actions
