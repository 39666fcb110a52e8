"""Per-chat language (issue 21, point 6): a group chooses its language with /lang, kept in the database across a
restart; the lobby, the table and the answers there follow it, whoever opens the lobby. Only the group's admins
change it. A private chat follows the person's Telegram language unless they choose."""

from __future__ import annotations

import re

from tests.bot.conftest import BotRunner, find_lobby, lobby_of
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

CYRILLIC = re.compile("[\u0400-\u04ff]")


async def _answer(tg: FakeTelegram, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    sent = await user.send(chat, text)

    def reply() -> FakeMessage | None:
        last = chat.last_bot_message()
        return last if last is not None and last.message_id > sent.message_id else None

    await tg.wait_for(reply, what=f"an answer to {text!r}")
    answer = reply()
    assert answer is not None
    return answer


async def test_a_group_chooses_english_and_keeps_it_whoever_opens_a_lobby(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, eve = tg.add_user("Аня"), tg.add_user("Eve", language_code="en")
    group = tg.add_group("Друзья", [anna, eve], admins=[anna])
    choice = await _answer(tg, anna, group, "/lang")
    assert (
        choice.text == "🌐 На каком языке мне говорить в этом чате? Сейчас: с каждым на языке его Telegram."
    )
    assert [b.text for b in choice.flat_buttons] == ["🇷🇺 Русский", "🇬🇧 English", "🌐 Как в Telegram"]
    refused = await eve.press(choice, "🇬🇧 English")
    assert refused.text == "Only the group's admins change its language."
    assert (await anna.press(choice, "🇬🇧 English")).answered
    await tg.wait_for(lambda: choice.text == "✅ I speak English here now.", what="the choice confirmed")

    await running.stop()
    await bot_runner()  # kept in the database
    await anna.send(group, "/konchinka")
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    lobby = lobby_of(group)
    assert CYRILLIC.search(lobby.text.replace("Аня", "")) is None, lobby.text
    assert all(CYRILLIC.search(b.text) is None for b in lobby.flat_buttons)
    help_answer = await _answer(tg, anna, group, "/help")
    assert CYRILLIC.search(help_answer.text) is None, help_answer.text

    again = await _answer(tg, eve, group, "/lang")
    assert again.text == "🌐 Here I speak English. Only the group's admins change its language."


async def test_a_russian_group_stays_russian_when_an_english_speaker_opens_the_lobby(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, eve = tg.add_user("Аня"), tg.add_user("Eve", language_code="en")
    group = tg.add_group("Друзья", [anna, eve], admins=[anna])
    choice = await _answer(tg, anna, group, "/lang")
    await anna.press(choice, "🇷🇺 Русский")
    await tg.wait_for(
        lambda: choice.text == "✅ Теперь я говорю здесь по-русски.", what="the choice confirmed"
    )
    await eve.send(group, "/konchinka")
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    assert "Присоединиться" in " ".join(b.text for b in lobby_of(group).flat_buttons)


async def test_a_private_chat_follows_telegram_until_the_person_chooses(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    choice = await _answer(tg, anna, anna.private_chat, "/lang")
    assert choice.text == "🌐 На каком языке мне говорить с вами? Сейчас: как в вашем Telegram."
    await anna.press(choice, "🇬🇧 English")
    await tg.wait_for(lambda: choice.text == "✅ I speak English here now.", what="the choice confirmed")
    menu = await _answer(tg, anna, anna.private_chat, "/play")
    assert menu.has_button("👑 King — with three bots")
    again = await _answer(tg, anna, anna.private_chat, "/lang")
    await anna.press(again, "🌐 As in Telegram")
    await tg.wait_for(
        lambda: again.text == "✅ Теперь я говорю с каждым на языке его Telegram.", what="back to Telegram's"
    )
    menu = await _answer(tg, anna, anna.private_chat, "/play")
    assert menu.has_button("👑 Кинг — с тремя ботами")


async def test_lang_with_a_language_chooses_it_at_once_and_a_non_admin_gets_no_buttons(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Issue 32, point 9: «/lang en» is not ignored; in a group someone who may not change it gets no menu."""
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    told = await _answer(tg, boris, group, "/lang en")
    assert told.text == "🌐 Здесь я говорю с каждым на языке его Telegram. Язык чата меняют админы группы."
    assert not told.flat_buttons
    chosen = await _answer(tg, anna, group, "/lang en")
    assert chosen.text == "✅ I speak English here now." and not chosen.flat_buttons
    told = await _answer(tg, boris, group, "/lang ru")
    assert told.text == "🌐 Here I speak English. Only the group's admins change its language."
    unknown = await _answer(tg, anna, group, "/lang <b>klingon</b>")
    assert unknown.text.startswith(
        "I don't know that language: “<b>klingon</b>”. Choose with a button.\n🌐 Which"
    )
    assert [b.text for b in unknown.flat_buttons] == ["🇷🇺 Русский", "🇬🇧 English", "🌐 As in Telegram"]
    back = await _answer(tg, anna, anna.private_chat, "/lang English")
    assert back.text == "✅ I speak English here now."
    back = await _answer(tg, anna, anna.private_chat, "/lang авто")
    assert back.text == "✅ Теперь я говорю с каждым на языке его Telegram."
