"""Solo: /play in private, one to three bot opponents, played to the end by button presses."""

from __future__ import annotations

from bot.callbacks import GameKind, SoloCb, SoloStep
from tests.bot.conftest import BotRunner, has_rematch, play_until
from tests.fakebot import FakeTelegram


async def test_a_solo_party_against_two_bots_is_played_to_the_end(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    chat = anna.private_chat
    await anna.send_private("/play")
    await tg.wait_for(lambda: chat.last_bot_message() is not None, what="the setup")
    setup = chat.last_bot_message()
    assert setup is not None
    two = SoloCb(step=SoloStep.OPPONENTS, game=GameKind.KONCHINKA, opponents=2).pack()
    answer = await anna.press(setup, data=two)
    assert answer.answered
    level = SoloCb(step=SoloStep.LEVEL, game=GameKind.KONCHINKA, opponents=2, level="normal").pack()
    await tg.wait_for(lambda: level in [b.callback_data for b in setup.flat_buttons], what="the levels")
    await anna.press(setup, data=level)
    made = await play_until(tg, [anna], lambda: has_rematch(chat.visible_messages()), timeout=90)
    assert made > 10
    final = chat.visible_messages()
    print("solo messages", len(final), "calls", tg.stats.calls, "429s", tg.stats.too_many_requests)
    assert tg.stats.too_many_requests == 0
