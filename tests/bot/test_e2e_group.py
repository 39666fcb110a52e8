"""Group parties of Кончинка through the fake Telegram: lobby, deep-link joins, a party played to the winner."""

from __future__ import annotations

from tests.bot.conftest import BotRunner, has_rematch, play_until, start_party, turn_message
from tests.fakebot import FakeTelegram


async def test_three_people_play_a_group_party_to_the_winner(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await start_party(tg, group, anna, [anna, boris, vera])
    before = tg.stats.copy()
    made = await play_until(
        tg, [anna, boris, vera], lambda: has_rematch(group.visible_messages()), timeout=120
    )
    await tg.settle()
    calls = {
        m: tg.stats.calls[m] - before.calls[m] for m in ("sendMessage", "editMessageText", "deleteMessage")
    }
    print(
        f"\n3-player group party: {made} moves; calls {calls}; per move "
        f"{sum(calls.values()) / made:.2f}; group calls {tg.stats.chat_calls[group.id]}; 429s {tg.stats.too_many_requests}"
    )
    assert tg.stats.too_many_requests == 0
    texts = [m.text for m in group.visible_messages() if m.is_from_bot]
    assert any("Раздача" in t for t in texts), "each deal's scoring is posted in the group"
    # Nobody's private chat is left with dead move buttons.
    for user in (anna, boris, vera):
        assert turn_message(user) is None
