"""A person whose Telegram speaks English (language_code "en") gets English throughout: lobby, hand, answers."""

from __future__ import annotations

import re

from bot.callbacks import LobbyCb, LobbyOp, MoveCb
from bot.i18n import Locale, translator
from tests.bot.conftest import (
    BotRunner,
    game_row,
    has_rematch,
    joined_text,
    lobby_of,
    open_lobby,
    play_until,
    start_solo_konchinka,
    turn_message,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser

EN, RU = translator(Locale.EN), translator(Locale.RU)
CYRILLIC = re.compile("[\u0400-\u04ff]")


def russian_in(chat: FakeChat, names: tuple[str, ...] = ()) -> list[str]:
    """The bot's texts and button labels in ``chat`` that hold Cyrillic once the people's names are taken out."""
    found = []
    for message in chat.bot_messages():
        for version in message.history:
            rows = (version.reply_markup or {}).get("inline_keyboard") or []
            for text in [version.text, *(b.get("text", "") for row in rows for b in row)]:
                for name in names:
                    text = text.replace(name, "")
                if CYRILLIC.search(text):
                    found.append(text)
    return found


async def told(tg: FakeTelegram, user: FakeUser, text: str) -> None:
    """Wait until the bot has said ``text`` to the user in private."""
    await tg.wait_for(
        lambda: text in [m.text for m in user.private_chat.bot_messages()],
        what=f"{text!r} to {user.full_name}",
    )


async def test_an_english_group_game_speaks_english_to_english_players(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1)
    eve, frank = tg.add_user("Eve", language_code="en"), tg.add_user("Frank", language_code="en")
    anna = tg.add_user("Аня")
    group = tg.add_group("Friends", [eve, frank, anna], admins=[eve])
    game = await open_lobby(tg, group, eve, [eve, frank, anna])
    assert russian_in(group, ("Аня",)) == [], "an English creator's lobby is English"
    assert CYRILLIC.search(lobby_of(group).text.replace("Аня", "")) is None
    assert (await game_row(running, game)).lang == "en"
    await told(tg, frank, joined_text(EN, group))
    await told(tg, anna, joined_text(RU, group))
    start = LobbyCb(game=game, op=LobbyOp.START).pack()
    assert (await eve.press(lobby_of(group), data=start)).answered
    await tg.wait_for(lambda: any(turn_message(u) for u in (eve, frank, anna)), what="a turn")
    await tg.settle()
    mover = next(u for u in (eve, frank, anna) if turn_message(u))
    version = (await game_row(running, game)).version
    wrong = MoveCb(game=game, version=version, index=0).pack()
    waiting: dict[FakeUser, str] = {
        u: (EN if u is not anna else RU).t("answer-not-your-turn", name=mover.full_name)
        for u in (eve, frank, anna)
        if u is not mover
    }
    for user, expected in waiting.items():
        hand = user.private_chat.bot_messages()[-1]
        answer = await user.press(hand, data=wrong, force=True)
        assert answer.text == expected

    await play_until(tg, [eve, frank, anna], lambda: has_rematch(group.visible_messages()), timeout=60)
    await tg.settle()
    await frank.send(group, "/new")
    await tg.wait_for(lambda: "n:" in str(group.bot_messages()[-1].buttons), what="the /new choice")
    names = ("Аня",)
    assert russian_in(group, names) == []
    assert russian_in(eve.private_chat, names) == [] and russian_in(frank.private_chat, names) == []


async def test_an_english_solo_game_is_english_from_setup_to_the_end(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner(default_target=1, bot_delay=0.2)
    eve = tg.add_user("Eve", language_code="en")
    chat = eve.private_chat
    await start_solo_konchinka(tg, eve, opponents=2)
    await play_until(tg, [eve], lambda: has_rematch(chat.visible_messages()), timeout=60)
    await tg.settle()
    assert len(chat.bot_messages()) >= 2
    assert russian_in(chat) == []
    await eve.send_private("/cancel")
    await told(tg, eve, EN.t("answer-no-game"))
