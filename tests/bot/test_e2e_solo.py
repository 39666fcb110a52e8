"""Solo: /play in private, one to three bot opponents, played to the end by button presses."""

from __future__ import annotations

from tests.bot.conftest import BotRunner, has_rematch, play_until, start_solo_konchinka
from tests.fakebot import FakeTelegram


async def test_a_solo_party_against_two_bots_is_played_to_the_end(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    chat = anna.private_chat
    await start_solo_konchinka(tg, anna, opponents=2)
    made = await play_until(tg, [anna], lambda: has_rematch(chat.visible_messages()), timeout=90)
    assert made > 10
    final = chat.visible_messages()
    print("solo messages", len(final), "calls", tg.stats.calls, "429s", tg.stats.too_many_requests)
    assert tg.stats.too_many_requests == 0


async def test_the_solo_end_says_the_players_place_last_below_the_final_sheet(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Issue 32, point 9: the result with its buttons is the chat's last word (no bare table under it), and says
    where the player finished."""
    await bot_runner(default_target=1)
    anna = tg.add_user("Аня")
    chat = anna.private_chat
    await start_solo_konchinka(tg, anna, opponents=2)
    await play_until(tg, [anna], lambda: has_rematch(chat.visible_messages()), timeout=90)
    await tg.settle()
    *_, table, sheet, result = chat.bot_messages()
    assert result.text.startswith("🏆 Партия окончена!")
    assert "Вы на " in result.text or "Вы победили" in result.text, result.text
    assert [b.text for b in result.flat_buttons][:2] == ["🔍 Разбор партии", "🔁 Реванш"]
    assert sheet.current.media is not None and sheet.current.media.kind == "photo"
    assert sheet.text.startswith("🏆 Итог партии")
    assert "Партия окончена." in table.text and table.history[0].text != table.text, (
        "the hand, edited in place"
    )
