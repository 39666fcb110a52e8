"""One rules message per person and chat (issue 21, point 5; issue 32, point 8), and a rules press from someone the
bot cannot write to (issue 21, point 3).

A new rules request replaces its asker's rules message (sent anew below, the old one deleted), never someone else's
in a group; pressing the section
a message already shows answers the press and edits nothing (the fake Bot API refuses identical edits, as
Telegram does); «📖 Правила» pressed in a group by someone who never opened the bot gets a toast saying what to
do, with the link that opens the private chat on that section.
"""

from __future__ import annotations

import pytest

from bot.callbacks import RulesCb
from bot.games import rules_library
from bot.i18n import translator
from tests.bot.conftest import BotRunner, find_lobby, lobby_of
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

BOT = "konchinka_test_bot"


def _rules(chat: FakeChat) -> list[FakeMessage]:
    return [m for m in chat.visible_messages() if m.is_from_bot and m.text.startswith(("📖", "💬", "❓"))]


async def _ask(tg: FakeTelegram, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    sent = await user.send(chat, text)

    def reply() -> FakeMessage | None:
        last = chat.last_bot_message()
        return last if last is not None and last.message_id > sent.message_id else None

    await tg.wait_for(reply, what=f"the answer to {text!r}")
    answer = reply()
    assert answer is not None
    return answer


async def test_a_new_rules_request_replaces_the_askers_rules_message_and_nobody_elses(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    first = await _ask(tg, anna, group, "/rules ералаш")
    second = await _ask(tg, anna, group, "/rules взятки")
    theirs = await _ask(tg, boris, group, "/rules валет")
    third = await _ask(tg, anna, group, "/rules")
    await tg.wait_for(
        lambda: first.is_deleted and second.is_deleted, what="Аня's older rules messages deleted"
    )
    await tg.settle()
    assert _rules(group) == [theirs, third], "Борис's answer stays when Аня asks again"
    assert third is group.last_bot_message()


async def test_in_private_the_rules_message_is_one_and_each_typed_question_keeps_its_answer(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    chat = anna.private_chat
    await _ask(tg, anna, chat, "/start")  # the first message to a bot is always /start («Запустить»)
    first = await _ask(tg, anna, chat, "/rules")
    question = await _ask(tg, anna, chat, "/rules ералаш")
    second = await _ask(tg, anna, chat, "/rules")
    await tg.wait_for(lambda: first.is_deleted, what="the older rules message deleted")
    assert _rules(chat) == [question, second]
    # «📖 Правила» pressed on a game message sends the section here: it replaces the rules message too.
    await anna.press(question, data=RulesCb(section=rules_library().first.id).pack(), force=True)
    await tg.wait_for(lambda: second.is_deleted, what="the rules message replaced")
    assert len(_rules(chat)) == 2 and _rules(chat)[0] is question


async def test_pressing_the_section_already_shown_answers_and_edits_nothing(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    rules = await _ask(tg, anna, anna.private_chat, "/rules")
    shown = next(b for b in rules.flat_buttons if b.text.startswith("• "))
    other = next(b for b in rules.flat_buttons if b.callback_data and not b.text.startswith("• "))
    for _ in range(3):
        answer = await anna.press(rules, data=shown.callback_data)
        assert answer.answered and not answer.text
    await tg.settle()
    assert rules.edit_count == 0
    assert tg.stats.error_count(400) == 0, "no identical edit was tried"
    assert (await anna.press(rules, data=other.callback_data)).answered
    await tg.wait_for(lambda: rules.edit_count == 1, what="the other section shown in place")
    assert rules.button("• " + other.text).callback_data == other.callback_data
    for _ in range(2):  # pressed again and again: the new section is shown already
        await anna.press(rules, data=other.callback_data)
    await tg.settle()
    assert rules.edit_count == 1
    assert tg.stats.error_count(400) == 0


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_rules_pressed_in_a_group_by_someone_who_never_opened_the_bot_get_a_toast(
    tg: FakeTelegram, bot_runner: BotRunner, lang: str
) -> None:
    await bot_runner()
    tr = translator(lang)
    anna, gleb = tg.add_user("Аня"), tg.add_user("Глеб", language_code=lang)
    group = tg.add_group("Друзья", [anna, gleb], admins=[anna])
    await anna.send(group, "/konchinka")
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    lobby = lobby_of(group)
    press = next(b for b in lobby.flat_buttons if b.text == "📖 Правила")
    answer = await gleb.press(lobby, data=press.callback_data)
    assert answer.text == tr.t("answer-open-private-first")
    assert answer.url is not None and answer.url.startswith(f"https://t.me/{BOT}?start=r_")
    if lang == "ru":
        assert answer.text == (
            "Правила придут в личку, а вы её со мной ещё не открывали: откройте и нажмите «Запустить»."
        )
    await tg.settle()
    assert tg.stats.chat_errors[(gleb.id, 403)] == 0, "nothing was tried that Telegram refuses"
    # Following the link opens the private chat on that section.
    section = await _ask(tg, gleb, gleb.private_chat, "/start " + answer.url.split("start=", 1)[1])
    assert section.text.startswith("📖")
