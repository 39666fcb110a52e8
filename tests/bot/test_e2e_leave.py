"""/leave in a running game hands the seat to a bot player, and the person's own chat says how to come back
(issue 21, point 9)."""

from __future__ import annotations

import pytest

from bot.i18n import Locale, translator
from tests.bot.conftest import (
    BotRunner,
    game_row,
    plain,
    start_solo_konchinka,
    take_turn,
    turn_message,
    two_player_party,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram


def _said(chat: FakeChat, text: str) -> FakeMessage | None:
    return next((m for m in reversed(chat.bot_messages()) if m.text == text), None)


async def _told(tg: FakeTelegram, chat: FakeChat, text: str) -> FakeMessage:
    await tg.wait_for(lambda: _said(chat, text) is not None, what=repr(text))
    found = _said(chat, text)
    assert found is not None
    return found


@pytest.mark.parametrize("where", ["group", "private"])
async def test_leave_hands_the_seat_to_a_bot_and_one_tap_brings_the_person_back(
    tg: FakeTelegram, bot_runner: BotRunner, where: str
) -> None:
    running, anna, boris, group, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    version = (await game_row(running, game)).version
    if where == "group":
        await anna.send(group, "/leave")
    else:
        await anna.send_private("/leave")
    await _told(tg, group, "🚪 Аня выходит из-за стола — место временно занял бот.")
    private = await _told(
        tg,
        anna.private_chat,
        "🚪 Вы вышли из-за стола — дальше за вас играет бот. Передумаете — нажмите «↩️ Вернуться за стол».",
    )
    # The bot player moves for Anna: the party goes on while only Boris plays.
    for _ in range(3):
        await tg.wait_for(lambda: turn_message(boris) is not None, timeout=10, what="Boris's turn")
        assert await take_turn(tg, boris)
        await tg.settle()
    assert (await game_row(running, game)).version >= version + 3
    assert turn_message(anna) is None, "no turn is offered to someone who left"

    again = await anna.send_private("/leave")
    await tg.wait_for(
        lambda: (anna.private_chat.last_bot_message() or again).message_id > again.message_id,
        what="the answer",
    )
    last = anna.private_chat.last_bot_message()
    assert last is not None and last.text == translator(Locale.RU).t("answer-already-left")

    back = await anna.press(private, "↩️ Вернуться за стол")
    assert back.answered and not back.text  # the notice in her chat says it
    await tg.wait_for(
        lambda: turn_message(anna) is not None or turn_message(boris) is not None, what="a turn"
    )


async def test_leave_without_a_running_game_says_there_is_none(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня", language_code="en")
    sent = await anna.send_private("/leave")
    await tg.wait_for(lambda: anna.private_chat.last_bot_message() is not None, what="the answer")
    last = anna.private_chat.last_bot_message()
    assert last is not None and last.message_id > sent.message_id
    assert last.text == plain(translator(Locale.EN).t("answer-no-game"))


async def test_leave_in_a_game_with_bots_says_how_to_end_it(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    """Issue 32, item 9: /leave in a solo game says there is no seat to hand over and /cancel ends it (not «no
    game»), and the game goes on."""
    await bot_runner()
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.wait_for(lambda: turn_message(anna) is not None, what="her turn")
    sent = await anna.send_private("/leave")
    chat = anna.private_chat
    await tg.wait_for(
        lambda: any(m.message_id > sent.message_id for m in chat.bot_messages()), what="the answer"
    )
    said = [m.text for m in chat.bot_messages() if m.message_id > sent.message_id]
    assert said == [plain(translator(Locale.RU).t("answer-solo-leave"))]
    assert turn_message(anna) is not None
