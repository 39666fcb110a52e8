"""Group parties of Кончинка through the fake Telegram: lobby, deep-link joins, a party played to the winner."""

from __future__ import annotations

import re

from tests.bot.conftest import BotRunner, has_rematch, play_until, start_party, turn_message
from tests.fakebot import FakeChat, FakeTelegram


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


def last_text(chat: FakeChat) -> str:
    message = chat.last_bot_message()
    return message.text if message else ""


async def test_top_and_stats_count_a_finished_party(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await boris.send(group, "/top")
    await tg.wait_for(lambda: "ещё не доиграли" in last_text(group), timeout=5, what="/top")
    await start_party(tg, group, anna, [anna, boris])
    await play_until(tg, [anna, boris], lambda: has_rematch(group.visible_messages()), timeout=120)
    await tg.settle()
    final = next(m.text for m in group.visible_messages() if m.is_from_bot and "Партия окончена" in m.text)
    winner = "Аня" if "Победа: Аня" in final else "Борис"

    await boris.send(group, "/top")
    await tg.wait_for(lambda: "Лучшие игроки" in last_text(group), timeout=5, what="/top")
    top = last_text(group).splitlines()
    assert top[:3] == ["🏆 Лучшие игроки чата", "", "🃏 Кончинка"], top
    assert re.fullmatch(rf"1\. {winner} — \d+ ± \d+ · 1 партия, 1 победа", top[3]), top
    assert top[5].startswith("Сезон — ") and top[6].startswith(f"1. {winner} +"), top

    await boris.send(group, "/top победы")  # the board by wins and points, as before ratings
    await tg.wait_for(lambda: "1 победа из 1" in last_text(group), timeout=5, what="/top победы")
    top = last_text(group).splitlines()
    assert top[3].startswith(f"1. {winner} — 1 победа из 1, "), top
    assert len(top) == 5

    await anna.send_private("/stats")
    await tg.wait_for(lambda: "статистика" in last_text(anna.private_chat), timeout=5)
    stats = last_text(anna.private_chat).splitlines()
    assert stats[:3] == ["📊 Ваша статистика", "", "🃏 Кончинка"], stats
    wins = "1 победа" if winner == "Аня" else "0 побед"
    assert re.fullmatch(
        rf"В группах: 1 партия, {wins}, очков набрано: \d+, расчёт на бумаге: "
        + (r"\+\d+ \(столько получить\)" if winner == "Аня" else r"−\d+ \(столько отдать\)"),
        stats[3],
    ), stats
    assert len(stats) == 4, "no Кинг, no games with bots"
