"""«🃏 Мои карты» (``/start g_<game>``) brings back a hand the player deleted."""

from __future__ import annotations

from tests.bot.conftest import BotRunner, turn_message, two_player_party
from tests.fakebot import FakeTelegram


async def test_my_cards_sends_a_deleted_hand_again(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    _running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    mover = anna if turn_message(anna) else boris
    other = boris if mover is anna else anna
    hand = turn_message(mover)
    assert hand is not None
    mover.delete(hand)
    other_hand = other.private_chat.last_bot_message()
    assert other_hand is not None and not other_hand.is_deleted
    other.delete(other_hand)
    await tg.settle()
    assert turn_message(mover) is None

    await mover.send_private(f"/start g_{game}")
    await tg.wait_for(lambda: turn_message(mover) is not None, what="the hand sent again")
    await other.send_private(f"/start g_{game}")
    await tg.wait_for(
        lambda: any(not m.is_deleted and m is not other_hand for m in other.private_chat.bot_messages()),
        what="the other player's hand sent again",
    )

    # A stranger's link to the game answers that it is not theirs, and sends no hand.
    gleb = tg.add_user("Глеб")
    await gleb.send_private(f"/start g_{game}")
    await tg.settle()
    replies = gleb.private_chat.bot_messages()
    assert len(replies) == 1 and not replies[0].flat_buttons
