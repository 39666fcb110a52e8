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
