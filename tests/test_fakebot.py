"""The fake Bot API server, driven by a real aiogram Bot: Telegram's answers, refusals and limits."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.filters import CommandStart
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    WebAppInfo,
)

from tests.fakebot import Description, FakeTelegram, FakeUser, Limits, UpdateType, parse_html
from tests.fakebot.html import EntityParseError


def make_bot(tg: FakeTelegram, token: str | None = None) -> Bot:
    return Bot(token or tg.token, session=tg.session())


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=t, callback_data=d) for t, d in row] for row in rows]
    )


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=Limits.off()) as server:
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    client = make_bot(tg)
    yield client
    await client.session.close()


@pytest.fixture
async def alice(tg: FakeTelegram) -> FakeUser:
    user = tg.add_user("Аня", "Петрова", username="anya")
    await user.send_private("/start")
    return user


# --- identity, tokens, unknown methods --------------------------------------------------------------------
async def test_get_me_names_the_bot_and_a_wrong_token_is_unauthorized(tg: FakeTelegram, bot: Bot) -> None:
    # exactly how the bot is wired in production, with aiogram's own session
    plain = Bot(tg.token, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url)))
    assert (await plain.get_me()).username == "konchinka_test_bot"
    await plain.session.close()

    me = await bot.get_me()
    assert me.username == "konchinka_test_bot"
    assert me.is_bot and me.id == tg.bot_id

    stranger = make_bot(tg, token="42:not-our-token")
    with pytest.raises(TelegramUnauthorizedError, match="Unauthorized"):
        await stranger.get_me()
    await stranger.session.close()


async def test_unknown_method_is_404_and_method_names_ignore_case(tg: FakeTelegram) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{tg.base_url}/bot{tg.token}/sendTelepathy") as response:
            assert response.status == 404
            assert await response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
        async with http.post(f"{tg.base_url}/bot{tg.token}/GETME") as response:
            assert response.status == 200
            assert (await response.json())["result"]["username"] == "konchinka_test_bot"


async def test_json_multipart_and_query_string_requests_are_read_alike(
    tg: FakeTelegram, alice: FakeUser
) -> None:
    url = f"{tg.base_url}/bot{tg.token}/sendMessage"
    multipart = aiohttp.FormData({"chat_id": str(alice.id), "text": "из формы"})
    multipart.add_field("file", b"ignored", filename="x.bin")  # forces multipart/form-data
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"chat_id": alice.id, "text": "из JSON"}) as response:
            assert (await response.json())["result"]["text"] == "из JSON"
        async with http.post(url, data=multipart) as response:
            assert (await response.json())["result"]["text"] == "из формы"
        async with http.get(url, params={"chat_id": str(alice.id), "text": "из адреса"}) as response:
            assert (await response.json())["result"]["text"] == "из адреса"
    assert [m.text for m in alice.private_chat.bot_messages()] == ["из JSON", "из формы", "из адреса"]


# --- sending and editing ----------------------------------------------------------------------------------
async def test_send_html_message_with_keyboard_is_stored_as_telegram_renders_it(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    sent = await bot.send_message(
        alice.id,
        "<b>Ход</b> &amp; счёт: <i>Аня</i>",
        parse_mode="HTML",
        reply_markup=keyboard([("5♦", "p:1:5d"), ("Правила", "rules")]),
    )
    assert sent.text == "Ход & счёт: Аня"
    assert sent.from_user is not None and sent.from_user.id == tg.bot_id
    assert [(e.type, e.offset, e.length) for e in sent.entities or []] == [("bold", 0, 3), ("italic", 12, 3)]

    stored = alice.private_chat.last_bot_message()
    assert stored is not None and stored.message_id == sent.message_id
    assert stored.text == "Ход & счёт: Аня"
    assert stored.button("Правила").callback_data == "rules"
    assert [b.text for b in stored.flat_buttons] == ["5♦", "Правила"]


async def test_edits_keep_history_and_an_unchanged_edit_is_not_modified(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    board = keyboard([("Взять", "take")])
    sent = await bot.send_message(alice.id, "Стол: 3♠", reply_markup=board)
    chat_id, message_id = alice.id, sent.message_id

    edited = await bot.edit_message_text(
        chat_id=chat_id, message_id=message_id, text="Стол: 3♠ 5♦", reply_markup=board
    )
    assert isinstance(edited, Message) and edited.edit_date is not None
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(
            chat_id=chat_id, message_id=message_id, text="Стол: 3♠ 5♦", reply_markup=board
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=board)

    # editMessageText without reply_markup drops the keyboard, as Telegram does.
    await bot.edit_message_text(chat_id=chat_id, message_id=message_id, text="Стол: 3♠ 5♦")
    stored = alice.private_chat.messages[message_id]
    assert not stored.has_keyboard
    assert [v.text for v in stored.history] == ["Стол: 3♠", "Стол: 3♠ 5♦", "Стол: 3♠ 5♦"]
    assert stored.edit_count == 2


async def test_edit_and_delete_of_missing_messages_are_refused(bot: Bot, alice: FakeUser) -> None:
    sent = await bot.send_message(alice.id, "скоро исчезнет")
    assert await bot.delete_message(alice.id, sent.message_id)
    assert alice.private_chat.messages[sent.message_id].is_deleted
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(alice.id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text(chat_id=alice.id, message_id=sent.message_id, text="нет")
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text(chat_id=alice.id, message_id=999, text="нет")
    own = await alice.send_private("привет")
    with pytest.raises(TelegramBadRequest, match="message can't be edited"):
        await bot.edit_message_text(chat_id=alice.id, message_id=own.message_id, text="нет")


@pytest.mark.parametrize(
    ("text", "markup", "description"),
    [
        ("", None, Description.TEXT_EMPTY),
        ("  \n ", None, Description.TEXT_EMPTY),
        ("<b></b>", None, Description.TEXT_EMPTY),
        ("я" * 4097, None, Description.TEXT_TOO_LONG),
        ("🂡" * 2049, None, Description.TEXT_TOO_LONG),  # 4098 UTF-16 units
        ("ok", keyboard([("x", "a" * 65)]), Description.BUTTON_DATA_INVALID),
        ("ok", keyboard([("x", "ж" * 33)]), Description.BUTTON_DATA_INVALID),  # 66 bytes
        ("ok", keyboard([(str(i), str(i)) for i in range(9)]), Description.TOO_MANY_BUTTONS),
        (
            "ok",
            keyboard(*[[(str(i), f"{r}.{i}") for i in range(8)] for r in range(13)]),
            Description.TOO_MANY_BUTTONS,
        ),
        ("<b>ok", None, Description.CANT_PARSE_ENTITIES),
    ],
    ids=[
        "empty",
        "blank",
        "empty-after-parse",
        "4097",
        "utf16",
        "data65",
        "cyrillic-data",
        "row9",
        "101",
        "html",
    ],
)
async def test_send_refusals_raise_bad_request_with_telegram_text(
    bot: Bot, alice: FakeUser, text: str, markup: InlineKeyboardMarkup | None, description: str
) -> None:
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(alice.id, text, parse_mode="HTML", reply_markup=markup)
    assert refused.value.message.startswith(description)
    assert alice.private_chat.bot_message_count() == 0


async def test_limits_are_inclusive(bot: Bot, alice: FakeUser) -> None:
    long_text = "&lt;" * 4096  # 16384 characters of HTML, 4096 after parsing
    sent = await bot.send_message(
        alice.id,
        long_text,
        parse_mode="HTML",
        reply_markup=keyboard(*[[(str(i), f"{r}:{i:02}" + "x" * 59) for i in range(8)] for r in range(12)]),
    )
    assert sent.text == "<" * 4096
    assert len(alice.private_chat.messages[sent.message_id].flat_buttons) == 96


async def test_url_buttons_and_deep_links_are_readable(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    link = tg.deep_link("j_abc")
    markup = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="Присоединиться", url=link)]])
    await bot.send_message(alice.id, "Лобби", reply_markup=markup)
    lobby = alice.private_chat.last_bot_message()
    assert lobby is not None
    assert [b.url for b in lobby.url_buttons] == ["https://t.me/konchinka_test_bot?start=j_abc"]
    with pytest.raises(LookupError):
        await alice.press(lobby, "Присоединиться")


async def test_a_mini_app_button_opens_an_https_page_from_a_private_chat_only(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    def opening(url: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="🖥", web_app=WebAppInfo(url=url))]]
        )

    sent = await bot.send_message(
        alice.id, "Стол", reply_markup=opening("https://cards.example.org/app?game=1")
    )
    shown = alice.private_chat.messages[sent.message_id]
    assert [b.web_app for b in shown.flat_buttons] == ["https://cards.example.org/app?game=1"]
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(alice.id, "Стол", reply_markup=opening("http://cards.example.org/app"))
    assert refused.value.message == Description.WEB_APP_URL_INVALID
    group = tg.add_group("Друзья", [alice])
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(group.id, "Стол", reply_markup=opening("https://cards.example.org/app"))
    assert refused.value.message == Description.BUTTON_TYPE_INVALID
    table = await bot.send_message(group.id, "Стол")
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.edit_message_text(
            "Стол!", chat_id=group.id, message_id=table.message_id, reply_markup=opening("https://x.org/app")
        )
    assert refused.value.message == Description.BUTTON_TYPE_INVALID


# --- private chats: who may be written to ---------------------------------------------------------------
async def test_private_messages_need_a_started_unblocked_user(tg: FakeTelegram, bot: Bot) -> None:
    bob = tg.add_user("Боря")
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation with a user"):
        await bot.send_message(bob.id, "привет")
    await bob.send_private("/start j_abc")
    sent = await bot.send_message(bob.id, "привет")

    bob.block_bot()
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(bob.id, "ты тут?")
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.edit_message_text(chat_id=bob.id, message_id=sent.message_id, text="ау")
    await bob.send_private("/start")
    await bot.send_message(bob.id, "с возвращением")
    assert [m.text for m in bob.private_chat.bot_messages()] == ["привет", "с возвращением"]
    assert tg.stats.errors[("sendMessage", 403)] == 2
    assert tg.stats.chat_errors[(bob.id, 403)] == 3


async def test_unknown_chat_is_not_found(bot: Bot) -> None:
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(-100555, "кто здесь?")


# --- updates ----------------------------------------------------------------------------------------------
async def test_unconfirmed_updates_are_delivered_again_and_confirmed_ones_dropped(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    first = await bot.get_updates(timeout=0)
    assert [u.message.text for u in first if u.message] == ["/start"]
    again = await bot.get_updates(timeout=0)  # a restarted bot that confirmed nothing
    assert [u.update_id for u in again] == [u.update_id for u in first]
    assert again[0].message is not None and again[0].message.entities is not None
    assert again[0].message.entities[0].type == "bot_command"

    await alice.send_private("второе")
    after = await bot.get_updates(offset=first[-1].update_id + 1, timeout=0)
    assert [u.message.text for u in after if u.message] == ["второе"]
    assert await bot.get_updates(offset=after[-1].update_id + 1, timeout=0) == []
    assert tg.pending_updates == 0


@pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py
async def test_long_poll_returns_as_soon_as_an_update_arrives(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    confirmed = await bot.get_updates(timeout=0)
    offset = confirmed[-1].update_id + 1
    poll = asyncio.create_task(bot.get_updates(offset=offset, timeout=10))
    await tg.wait_for(lambda: tg.waiting_polls == 1, what="the long poll to wait")
    assert not poll.done()
    started = time.monotonic()
    await alice.send_private("ход")
    updates = await asyncio.wait_for(poll, 2)
    assert time.monotonic() - started < 1
    assert [u.message.text for u in updates if u.message] == ["ход"]


async def test_a_second_poller_ends_the_first_with_conflict(tg: FakeTelegram, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await tg.wait_for(lambda: tg.waiting_polls == 1, what="the first poll to wait")
    second = asyncio.create_task(bot.get_updates(timeout=0))
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates request"):
        await asyncio.wait_for(first, 2)
    assert await second == []


async def test_allowed_updates_filters_and_an_injected_duplicate_comes_twice(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    alice.block_bot()  # a my_chat_member update the bot did not ask for
    updates = await bot.get_updates(timeout=0, allowed_updates=[UpdateType.MESSAGE])
    assert [u.event_type for u in updates] == ["message"]
    offset = updates[-1].update_id + 1
    assert await bot.get_updates(offset=offset, timeout=0) == []

    await alice.send_private("/start")
    fresh = await bot.get_updates(offset=offset, timeout=0)
    assert len(fresh) == 1
    offset = fresh[0].update_id + 1
    tg.inject_duplicate(fresh[0].update_id)
    duplicate = await bot.get_updates(offset=offset, timeout=0)
    assert [u.update_id for u in duplicate] == [fresh[0].update_id]
    assert await bot.get_updates(offset=offset, timeout=0) == []


async def test_group_privacy_mode_shows_the_bot_only_its_commands(tg: FakeTelegram, bot: Bot) -> None:
    anya, borya = tg.add_user("Аня"), tg.add_user("Боря")
    group = tg.add_group("Друзья", members=[anya, borya], admins=[anya])
    await anya.send(group, "всем привет")
    await anya.send(group, "/start@other_bot")
    await borya.send(group, "/konchinka@konchinka_test_bot")
    await borya.send(group, "/score")
    updates = await bot.get_updates(timeout=0)
    assert [
        (u.message.text, u.message.from_user.id) for u in updates if u.message and u.message.from_user
    ] == [
        ("/konchinka@konchinka_test_bot", borya.id),
        ("/score", borya.id),
    ]
    assert [m.text for m in group.visible_messages()][:2] == ["всем привет", "/start@other_bot"]


# --- callback queries -------------------------------------------------------------------------------------
async def test_button_press_round_trip(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    await bot.get_updates(timeout=0)
    confirmed = (tg.last_update_id or 0) + 1
    sent = await bot.send_message(
        alice.id, "Твой ход", reply_markup=keyboard([("5♦", "p:5d"), ("Q♠", "p:Qs")])
    )
    message = alice.private_chat.messages[sent.message_id]
    press = asyncio.create_task(alice.press(message, "Q♠"))

    updates = await bot.get_updates(offset=confirmed, timeout=5)
    query = updates[0].callback_query
    assert query is not None and query.data == "p:Qs" and query.from_user.id == alice.id
    assert isinstance(query.message, Message) and query.message.message_id == sent.message_id
    assert await bot.answer_callback_query(query.id, text="Сейчас ходит Боря", show_alert=True)
    answer = await asyncio.wait_for(press, 2)
    assert answer.answered and answer.text == "Сейчас ходит Боря" and answer.show_alert

    with pytest.raises(TelegramBadRequest, match="query is too old and response timeout expired"):
        await bot.answer_callback_query(query.id)


async def test_late_or_too_long_callback_answers_are_refused(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    sent = await bot.send_message(alice.id, "Ход", reply_markup=keyboard([("Взять", "take")]))
    message = alice.private_chat.messages[sent.message_id]
    unanswered = await alice.press(message, data="take", timeout=0.05)
    assert not unanswered.answered
    updates = await bot.get_updates(timeout=0)
    query = updates[-1].callback_query
    assert query is not None
    with pytest.raises(TelegramBadRequest, match=Description.ANSWER_TOO_LONG):
        await bot.answer_callback_query(query.id, text="я" * 201)
    tg.expire_callback_queries()
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(query.id, text="поздно")
    with pytest.raises(LookupError):
        await alice.press(message, data="not-on-the-keyboard", timeout=0.05)


async def test_a_real_dispatcher_polls_answers_and_a_restart_rereads_unconfirmed(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    router = Router()

    @router.message(CommandStart())
    async def on_start(message: Message) -> None:
        await message.answer("Привет!", reply_markup=keyboard([("Играть", "play")]))

    @router.callback_query(F.data == "play")
    async def on_play(query: CallbackQuery) -> None:
        await query.answer("Поехали")

    # A bot that read the pending /start but crashed before confirming it.
    crashed = await bot.get_updates(timeout=0)
    assert len(crashed) == 1

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    polling = asyncio.create_task(dispatcher.start_polling(bot, polling_timeout=1, handle_signals=False))
    chat = alice.private_chat
    await tg.wait_for(lambda: chat.last_bot_message() is not None, what="the reply to /start")
    greeting = chat.last_bot_message()
    assert greeting is not None and greeting.text == "Привет!"
    answer = await alice.press(greeting, "Играть")
    assert answer.text == "Поехали"
    await tg.settle(quiet=0.1)
    assert chat.bot_message_count() == 1
    await dispatcher.stop_polling()
    await polling


# --- chats, members, commands, topics ---------------------------------------------------------------------
async def test_members_admins_and_chat_info(tg: FakeTelegram, bot: Bot) -> None:
    anya, borya, vera = tg.add_user("Аня"), tg.add_user("Боря"), tg.add_user("Вера")
    group = tg.add_group("Друзья", members=[anya, borya, vera], admins=[anya, borya])
    assert (await bot.get_chat_member(group.id, anya.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, borya.id)).status == "administrator"
    assert (await bot.get_chat_member(group.id, vera.id)).status == "member"
    outsider = tg.add_user("Гоша")
    assert (await bot.get_chat_member(group.id, outsider.id)).status == "left"
    admins = await bot.get_chat_administrators(group.id)
    assert [a.user.id for a in admins] == [anya.id, borya.id]
    info = await bot.get_chat(group.id)
    assert info.title == "Друзья" and info.type == "supergroup"
    assert await bot.send_chat_action(group.id, "typing")
    command = await anya.send(group, "/score")
    with pytest.raises(TelegramBadRequest, match="message can't be deleted"):
        await bot.delete_message(group.id, command.message_id)

    club = tg.add_group("Клуб", members=[anya], bot_is_admin=True)
    assert (await bot.get_chat_member(club.id, tg.bot_id)).status == "administrator"
    command = await anya.send(club, "/score")
    assert await bot.delete_message(club.id, command.message_id)
    assert club.visible_messages() == []


async def test_commands_are_stored_per_scope_and_language(tg: FakeTelegram, bot: Bot) -> None:
    group_scope = BotCommandScopeAllGroupChats()
    commands = [BotCommand(command="konchinka", description="Новая партия в кончинку")]
    assert await bot.set_my_commands(commands, scope=group_scope, language_code="ru")
    stored = await bot.get_my_commands(scope=group_scope, language_code="ru")
    assert [(c.command, c.description) for c in stored] == [("konchinka", "Новая партия в кончинку")]
    assert await bot.get_my_commands() == []
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Кончинка", description="нет")])
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert await bot.close()


async def test_forum_topics_carry_the_thread_id(tg: FakeTelegram, bot: Bot) -> None:
    anya = tg.add_user("Аня")
    group = tg.add_group("Клуб", members=[anya], forum=True)
    topic = group.add_topic("Кончинка")
    sent = await bot.send_message(group.id, "Лобби", message_thread_id=topic)
    assert sent.message_thread_id == topic and sent.is_topic_message
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await bot.send_message(group.id, "Лобби", message_thread_id=topic + 100)


# --- HTML -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("html", "plain", "kinds"),
    [
        ("<b>a</b><strong>b</strong><i>c</i><em>d</em>", "abcd", ["bold", "bold", "italic", "italic"]),
        (
            "<u>a</u><ins>b</ins><s>c</s><strike>d</strike><del>e</del>",
            "abcde",
            ["underline"] * 2 + ["strikethrough"] * 3,
        ),
        ('<tg-spoiler>a</tg-spoiler><span class="tg-spoiler">b</span>', "ab", ["spoiler", "spoiler"]),
        ('<a href="https://t.me/x?start=a&amp;b">ссылка</a>', "ссылка", ["text_link"]),
        ('<pre><code class="language-python">x = 1</code></pre>', "x = 1", ["pre"]),
        ("<code>&lt;b&gt;</code> &quot;&#65;&#x42;", '<b> "AB', ["code"]),
        ("<blockquote expandable>цитата</blockquote>", "цитата", ["expandable_blockquote"]),
        ('<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>', "👍", ["custom_emoji"]),
        ("<B>Жирный <i>и курсив</i></B>", "Жирный и курсив", ["bold", "italic"]),
        ("3 > 2", "3 > 2", []),
    ],
)
def test_html_telegram_accepts(html: str, plain: str, kinds: list[str]) -> None:
    text, entities = parse_html(html)
    assert text == plain
    assert [str(e.type) for e in entities] == kinds


@pytest.mark.parametrize(
    ("html", "description"),
    [
        ("<div>x</div>", 'Unsupported start tag "div" at byte offset 0'),
        ("2 < 3", 'Unsupported start tag "" at byte offset 2'),
        ("Tom & Jerry", 'Unescaped "&" at byte offset 4'),
        ("<b>жирный", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ('<span class="red">x</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("<b", "Unclosed start tag at byte offset 0"),
        ("Аня <br> Боря", 'Unsupported start tag "br" at byte offset 7'),
    ],
)
def test_html_telegram_refuses(html: str, description: str) -> None:
    with pytest.raises(EntityParseError) as refused:
        parse_html(html)
    assert str(refused.value) == description


async def test_bad_html_reaches_aiogram_as_cant_parse_entities(bot: Bot, alice: FakeUser) -> None:
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(alice.id, "Игрок <Вася> сходил", parse_mode="HTML")
    assert (
        refused.value.message
        == 'Bad Request: can\'t parse entities: Unsupported start tag "Вася" at byte offset 11'
    )


# --- rate limits ------------------------------------------------------------------------------------------
async def test_per_chat_limit_at_real_speed_refuses_then_accepts_after_retry_after() -> None:
    async with FakeTelegram() as tg:
        bot = make_bot(tg)
        alice = tg.add_user("Аня")
        await alice.send_private("/start")
        first = await bot.send_message(alice.id, "1")
        second = await bot.send_message(alice.id, "2")
        with pytest.raises(TelegramRetryAfter) as refused:
            await bot.edit_message_text(chat_id=alice.id, message_id=second.message_id, text="2!")
        assert "Original description: Too Many Requests: retry after " in refused.value.message
        assert 1 <= refused.value.retry_after <= 2
        stored = alice.private_chat.messages[second.message_id]
        assert stored.text == "2" and stored.edit_count == 0  # a refused edit changes nothing
        await asyncio.sleep(refused.value.retry_after)
        await bot.edit_message_text(chat_id=alice.id, message_id=second.message_id, text="2!")
        assert stored.text == "2!"
        # deletes are not counted
        await bot.delete_message(alice.id, first.message_id)
        assert tg.stats.too_many_requests == 1
        await bot.session.close()


async def test_group_gets_twenty_messages_a_minute_on_a_fast_clock() -> None:
    async with FakeTelegram(speed=60) as tg:
        bot = make_bot(tg)
        anya = tg.add_user("Аня")
        group = tg.add_group("Друзья", members=[anya])
        tg.scaled_clock.freeze()
        for n in range(20):
            await bot.send_message(group.id, f"ход {n}")
            tg.scaled_clock.advance(2)  # keeps the per-chat window clear; 40 Telegram seconds in all
        with pytest.raises(TelegramRetryAfter) as refused:
            await bot.send_message(group.id, "ход 20")
        assert refused.value.retry_after == 1  # 20 Telegram seconds = 1/3 real second, rounded up
        assert group.bot_message_count() == 20
        tg.scaled_clock.advance(20)
        await bot.send_message(group.id, "ход 20")
        assert tg.stats.successes["sendMessage"] == 21
        assert tg.stats.error_count(429, "sendMessage") == 1
        assert tg.stats.chat_calls[group.id] == 22
        await bot.session.close()


async def test_whole_bot_gets_thirty_messages_a_second() -> None:
    async with FakeTelegram() as tg:
        bot = make_bot(tg)
        players = [tg.add_user(f"Игрок {i}") for i in range(31)]
        for player in players:
            await player.send_private("/start")
        tg.scaled_clock.freeze()
        for player in players[:30]:
            await bot.send_message(player.id, "твой ход")
        with pytest.raises(TelegramRetryAfter) as refused:
            await bot.send_message(players[30].id, "твой ход")
        assert refused.value.retry_after == 1
        assert players[30].private_chat.bot_message_count() == 0
        tg.scaled_clock.advance(1)
        await bot.send_message(players[30].id, "твой ход")
        await bot.session.close()


# --- network faults and users deleting messages -------------------------------------------------------------


async def test_faults_answer_5xx_hang_or_delay_and_end_on_time(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    from aiogram.exceptions import ClientDecodeError, TelegramNetworkError, TelegramServerError

    await alice.send_private("/start")
    # Faults last longer than a busy machine's delay before the call (healed by hand, or left to end by itself).
    tg.fail(30, "sendMessage")
    with pytest.raises(TelegramServerError, match="Bad Gateway"):
        await bot.send_message(alice.id, "a")
    assert await bot.get_me()  # other methods unaffected
    tg.heal()
    tg.fail(1.0, code=502, html=True)
    with pytest.raises(ClientDecodeError):
        await bot.send_message(alice.id, "b")
    await asyncio.sleep(1.05)  # the fault ends by itself
    sent = await bot.send_message(alice.id, "c")
    assert [m.text for m in alice.private_chat.bot_messages()] == ["c"]  # refused calls were not executed

    tg.hang(30, "editMessageText")
    with pytest.raises(TelegramNetworkError):
        await bot.edit_message_text("d", chat_id=alice.id, message_id=sent.message_id, request_timeout=1)
    tg.heal()
    assert alice.private_chat.bot_messages()[0].text == "c"
    tg.slow(5, 0.3)
    started = time.monotonic()
    await bot.edit_message_text("e", chat_id=alice.id, message_id=sent.message_id)
    assert time.monotonic() - started >= 0.3
    assert (tg.faults.errors, tg.faults.hangs, tg.faults.delays) == (2, 1, 1)


async def test_garbled_and_lost_answers(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    """A garbled answer is not JSON and the call was not executed; a lost one was executed, and its request ends
    when the client gives up (the server counts it in flight no longer)."""
    from aiogram.exceptions import ClientDecodeError, TelegramNetworkError

    await alice.send_private("/start")
    tg.garble(5, "sendMessage")
    with pytest.raises(ClientDecodeError):
        await bot.send_message(alice.id, "a")
    assert alice.private_chat.bot_messages() == []
    tg.heal()
    tg.lose(5, "sendMessage")
    with pytest.raises(TelegramNetworkError):
        await bot.send_message(alice.id, "b", request_timeout=1)
    assert [m.text for m in alice.private_chat.bot_messages()] == ["b"]
    assert (tg.faults.garbled, tg.faults.lost) == (1, 1)
    await tg.wait_for(lambda: tg.calls_in_flight == 0, timeout=2, what="the lost call's request over")


async def test_a_message_the_user_deleted_cannot_be_edited_or_deleted(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    await alice.send_private("/start")
    sent = await bot.send_message(alice.id, "hand", reply_markup=keyboard([("x", "x")]))
    message = alice.private_chat.messages[sent.message_id]
    alice.delete(message)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("new", chat_id=alice.id, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(alice.id, sent.message_id)
