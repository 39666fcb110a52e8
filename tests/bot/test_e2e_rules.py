"""/rules with words, in private and in a group, with a game open in the chat, and inline mode — end to end
through the fake Bot API."""

from __future__ import annotations

import asyncio

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineQueryResultArticle, InlineQueryResultUnion, InputTextMessageContent

from bot.callbacks import LobbyCb, LobbyOp, RulesCb
from bot.games import rules_library
from bot.games.konchinka.settings import KonchinkaSetting
from tests.bot.conftest import BotRunner, lobby_of, open_king_lobby, open_lobby, pause_like_a_person
from tests.fakebot import FakeTelegram
from tests.fakebot.models import FakeChat, FakeMessage

SECTIONS = [s.id for s in rules_library().sections]


async def _answer(tg: FakeTelegram, chat: FakeChat, after: int) -> FakeMessage:
    """The bot's first message in ``chat`` newer than message id ``after``."""

    def newer() -> list[FakeMessage]:
        return [m for m in chat.bot_messages() if m.message_id > after]

    await tg.wait_for(lambda: newer(), what="the bot's answer")
    return newer()[0]


async def test_rules_with_words_in_private_answer_the_section_with_examples(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    asked = await anna.send_private("/rules ерлаш")
    answer = await _answer(tg, anna.private_chat, asked.message_id)
    assert answer.text.startswith("📖 Кинг: раздачи «не брать»")
    assert "В седьмой раздаче, ералаше, штрафуют за всё это сразу" in answer.text
    assert (
        "Примеры\n• В раздаче «не брать червей» заходите вы, у вас 9♥ 10♥ 8♣: заходить можно только с 8♣.\n"
        "• В раздаче «не брать кинга» зашли с 8♠, у вас К♥ Д♣ 7♦: класть можно только К♥."
    ) in answer.text
    buttons = [b.text for b in answer.flat_buttons]
    assert buttons[-1] == "📚 Все правила"
    # «Все правила» turns the same message into the first page, with every section's button.
    await anna.press(answer, "📚 Все правила")
    await tg.wait_for(lambda: answer.text.startswith("📖 Кончинка: раздача и ход"), what="the first page")
    targets = {RulesCb.unpack(b.callback_data or "").section for b in answer.flat_buttons}
    assert targets == set(SECTIONS)

    asked = await anna.send_private("/rules абракадабра")
    answer = await _answer(tg, anna.private_chat, asked.message_id)
    assert answer.text.startswith("📖 Такого правила я не нашёл.")
    assert "Кинг: Раздача и ход, Не брать, Отыгрыш, Очки." in answer.text


async def test_in_a_group_the_answer_is_short_and_the_whole_rules_open_in_private(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris])
    asked = await boris.send(group, "/rules прикончил")
    answer = await _answer(tg, group, asked.message_id)
    assert answer.text.startswith("📖 Прикончить\n\nКому до победы осталось не больше двух очков")
    assert "Пример" not in answer.text  # the examples stay in private
    assert "Пример" not in answer.text and len(answer.text) < 500
    link = answer.button("📚 Подробно — в личке").url
    assert link == tg.deep_link("r_kf")
    # The deep link: Telegram opens the private chat and sends /start r_kf.
    started = await boris.send_private("/start r_kf")
    private = await _answer(tg, boris.private_chat, started.message_id)
    assert private.text.startswith("📖 Прикончить") and "Примеры" in private.text
    assert {RulesCb.unpack(b.callback_data or "").section for b in private.flat_buttons} == set(SECTIONS)

    # A bare /rules in a group: the topics, not a page of text.
    asked = await anna.send(group, "/rules")
    answer = await _answer(tg, group, asked.message_id)
    assert "Кончинка: Раздача и ход, Взятки" in answer.text and len(answer.text) < 400


async def test_with_a_game_open_the_answer_says_which_options_are_on(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris])
    game = await open_lobby(tg, group, anna, [anna, boris])
    forced = LobbyCb(game=game, op=LobbyOp.SET, key=KonchinkaSetting.FORCED_CAPTURE.value, value="1").pack()
    await anna.press(lobby_of(group), data=forced, force=True)
    await tg.settle()
    asked = await boris.send(group, "/rules взятки")
    answer = await _answer(tg, group, asked.message_id)
    assert answer.text.startswith("📖 Кончинка: как брать")
    assert "⚙️ В этой партии Кончинки:" in answer.text
    assert "• Брать обязательно: да" in answer.text
    assert "• Несколько взяток за ход: нет" in answer.text
    assert "• Можно прикончить: да" in answer.text
    assert "• Вариант: классика" in answer.text
    assert "• Время на ход: без лимита" in answer.text  # the test bot's lobbies have no turn limit


async def test_in_a_points_game_the_jack_is_answered_from_the_points_rules(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """The issue's case: at a table of «очковая» Кончинка, «/rules валет» must not say the jack sweeps the table."""
    await bot_runner(turn_timeout=45)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris])
    game = await open_lobby(tg, group, anna, [anna, boris])
    points = LobbyCb(game=game, op=LobbyOp.SET, key=KonchinkaSetting.VARIANT.value, value="points").pack()
    await anna.press(lobby_of(group), data=points, force=True)
    started = await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())
    assert started.answered and not started.text
    await tg.settle()
    asked = await boris.send(group, "/rules валет")
    answer = await _answer(tg, group, asked.message_id)
    assert answer.text.startswith(
        "💬 В очковой Кончинке валет — 11 очков: он берёт валета или набор карт на 11, а весь стол не забирает.\n\n"
        "📖 Очковая Кончинка\n\nОчки есть у всех карт"
    )
    assert "забирает весь стол" not in answer.text.replace("весь стол не забирает", "")
    assert "• Вариант: очковая Кончинка" in answer.text and "• Время на ход: 45 с" in answer.text
    # asked about Кинг at this table, the answer is Кинг's
    await pause_like_a_person(tg)
    asked = await boris.send(group, "/rules сколько стоит кинг червей")
    answer = await _answer(tg, group, asked.message_id)
    assert answer.text.startswith("💬 Кинг (К♥) — 16 штрафных очков в раздаче «не брать кинга»")
    assert "В этой партии Кончинки" not in answer.text


async def test_in_a_king_game_the_words_of_both_games_mean_kings(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    await open_king_lobby(tg, group, anna, [anna])
    for question, start in (
        ("/rules очки", "📖 Кинг: очки"),
        ("/rules сколько стоит валет", "💬 Каждый валет (мальчик) — 4 штрафных очка"),
        ("/rules сколько карт сдают", "💬 Каждому сдают по 8 карт"),
    ):
        await pause_like_a_person(tg)
        asked = await anna.send(group, question)
        answer = await _answer(tg, group, asked.message_id)
        assert answer.text.startswith(start), (question, answer.text[:80])
        assert "В этой партии Кинга" in answer.text


async def test_inline_mode_offers_the_sections_to_post(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    assert "inline_query" in running.app.dispatcher.resolve_used_update_types()
    vera = tg.add_user("Вера")  # never wrote to the bot: inline mode needs no /start

    answer = await tg.user_types_inline(vera, "кинг червей")
    assert answer.answered
    best = answer.results[0]
    assert (best.id, best.title) == ("ru-gn", "Кинг: раздачи «не брать»")
    assert best.text.startswith("📖 Кинг: раздачи «не брать»")
    assert "кинга нужно отдать при первой возможности" in best.text
    assert best.reply_markup is not None
    assert best.reply_markup["inline_keyboard"][0][0]["url"] == tg.deep_link("r_gn")
    assert answer.is_personal  # in the asker's language: not to be cached for others

    contents = await tg.user_types_inline(vera, "")
    assert [r.id for r in contents.results] == ["ru-contents"] + [f"ru-{s}" for s in SECTIONS]
    assert contents.results[0].text.startswith("📖 ")
    assert "Кончинка: Раздача и ход, Взятки, Очковая, Очки" in contents.results[0].text

    nothing = await tg.user_types_inline(vera, "абракадабра")
    assert nothing.results[0].id == "ru-contents" and len(nothing.results) == len(SECTIONS) + 1

    english = tg.add_user("Eve", language_code="en")
    answer = await tg.user_types_inline(english, "trumps")
    assert answer.results[0].id == "en-gt" and answer.results[0].title == "King: trumps"


async def test_the_fake_refuses_inline_answers_telegram_refuses(tg: FakeTelegram) -> None:
    """answerInlineQuery is held to Telegram's checks, so a bad answer from the bot cannot pass in tests."""
    bot = Bot(tg.token, session=tg.session())
    user = tg.add_user("Аня")

    def article(result_id: str, text: str = "ok") -> InlineQueryResultArticle:
        return InlineQueryResultArticle(
            id=result_id,
            title="t",
            input_message_content=InputTextMessageContent(message_text=text, parse_mode="HTML"),
        )

    async def refusal(results: list[InlineQueryResultUnion]) -> str:
        typed = asyncio.create_task(tg.user_types_inline(user, "x", timeout=2))
        await tg.wait_for(lambda: tg.pending_updates > 0, what="the inline query")
        update = (await bot.get_updates(timeout=0))[-1]
        await bot.get_updates(offset=update.update_id + 1, timeout=0)
        assert update.inline_query is not None
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.answer_inline_query(update.inline_query.id, results)
        typed.cancel()
        return refused.value.message

    try:
        assert "RESULT_ID_INVALID" in await refusal([article("x" * 65)])
        assert "RESULT_ID_DUPLICATE" in await refusal([article("a"), article("a")])
        assert "RESULTS_TOO_MUCH" in await refusal([article(str(i)) for i in range(51)])
        assert "can't parse entities" in await refusal([article("a", "<b>unclosed")])
        assert "MESSAGE_TOO_LONG" in await refusal([article("a", "я" * 4097)])
    finally:
        await bot.session.close()


async def test_a_bare_rules_in_a_group_with_a_game_open_lists_that_games_topics(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris])
    await open_lobby(tg, group, anna, [anna, boris])
    asked = await boris.send(group, "/rules")
    answer = await _answer(tg, group, asked.message_id)
    lines = answer.text.splitlines()
    assert lines[0] == "📖 Правила: Кончинка" and lines[2].startswith("Кончинка: Раздача и ход"), answer.text
    assert "Кинг:" not in answer.text, "the other game's topics are not listed"
    assert "Другие игры: Кинг — «/rules» и название игры." in answer.text
    assert answer.button("📚 Подробно — в личке").url == tg.deep_link("r_k")
