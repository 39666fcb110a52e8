"""Every command and every message gets an answer in every chat (issue 21, point 3; first contact, point 9).

A command meant for the other kind of chat says where it works and offers the button that gets there; plain text
in private gets the short menu; /start in private greets with «🎮 Играть с ботами» and «👥 Добавить в группу».
Texts are read as the person sees them, in Russian and in English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from bot.games import AnyPlugin, plugins
from bot.i18n import Locale, Translator, translator
from bot.views import SoloGame, render_play_menu
from tests.bot.conftest import BotRunner, plain, start_party
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

BOT = "konchinka_test_bot"
ADD_TO_GROUP = f"https://t.me/{BOT}?startgroup=new"
OPEN_PLAY = f"https://t.me/{BOT}?start=play"
GAME_COMMANDS = [f"/{plugin.command}" for plugin in plugins()]
"""Every hosted game's command, in menu order (/konchinka, /king, and any other game's)."""
NAMES = {"ru": {"konchinka": "Кончинка", "king": "Кинг"}, "en": {"konchinka": "Konchinka", "king": "King"}}
"""The two games' names as a person reads them."""


def _listed(items: Sequence[str], lang: str) -> str:
    """A list as a person writes it: «/konchinka или /king», «/konchinka, /king или /other»."""
    last = {"ru": " или ", "en": " or "}[lang]
    return last.join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else items[0]


def _games_named(tr: Translator, lang: str) -> str:
    """Every hosted game's name, in menu order: the two games' as above, any other game's in its own words."""
    return ", ".join(NAMES[lang].get(plugin.kind) or plugin.name(tr) for plugin in plugins())


async def _answer(tg: FakeTelegram, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    """``user`` writes ``text`` in ``chat``; the bot's newest message there after it."""
    sent = await user.send(chat, text)

    def reply() -> FakeMessage | None:
        last = chat.last_bot_message()
        return last if last is not None and last.message_id > sent.message_id else None

    await tg.wait_for(reply, what=f"an answer to {text!r}")
    answer = reply()
    assert answer is not None
    return answer


def _labels(message: FakeMessage) -> list[str]:
    return [b.text for b in message.flat_buttons]


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_group_commands_in_private_say_where_they_work(
    tg: FakeTelegram, bot_runner: BotRunner, lang: str
) -> None:
    await bot_runner()
    tr = translator(lang)
    anna = tg.add_user("Аня", language_code=lang)
    for command in ("/konchinka", "/king", "/new"):
        answer = await _answer(tg, anna, anna.private_chat, command)
        assert answer.text == plain(tr.t("chats-group-only", command=command))
        assert answer.button(tr.t("btn-add-group")).url == ADD_TO_GROUP
        assert answer.has_button(tr.t("btn-play-bots"))
    if lang == "ru":
        assert answer.text == (
            "/new — команда для группы: добавьте меня в чат с друзьями и наберите её там. "
            "А с ботами можно сыграть прямо здесь."
        )
    else:
        assert answer.text == (
            "/new works in a group: add me to a chat with your friends and type it there. "
            "You can play with bots right here."
        )


async def test_plain_text_in_private_gets_the_menu_and_its_play_button_opens_the_game_menu(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    menu = await _answer(tg, anna, anna.private_chat, "привет")
    assert menu.text == "Я понимаю команды и кнопки. Что делаем?"
    assert _labels(menu) == ["🎮 Играть с ботами", "👥 Добавить в группу", "📖 Правила"]
    assert (await anna.press(menu, "🎮 Играть с ботами")).answered
    await tg.wait_for(lambda: menu.has_button("👑 Кинг — с тремя ботами"), what="the game menu in place")
    unknown = await _answer(tg, anna, anna.private_chat, "/konchinka_rules")
    assert unknown.text == menu.history[0].text


async def test_an_old_menus_play_button_during_a_group_game_opens_the_menu_below_with_the_hand_under_it(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Issue 32, point 9: the greeting high up in the chat is not turned into a set-up out of sight."""
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    old = await _answer(tg, anna, anna.private_chat, "привет")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    shown = old.text
    assert (await anna.press(old, "🎮 Играть с ботами")).answered
    await tg.wait_for(
        lambda: any(m.has_button("👑 Кинг — с тремя ботами") for m in anna.private_chat.bot_messages()),
        what="the game menu",
    )
    await tg.settle()
    mine = anna.private_chat.bot_messages()
    menu = next(m for m in mine if m.has_button("👑 Кинг — с тремя ботами"))
    assert old.text == shown and menu is not old, "the old greeting stays as it was"
    assert mine[-1].text.startswith("🃏 Кончинка · Раздача 1"), "the group game's hand comes below the menu"
    assert mine.index(menu) < len(mine) - 1


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_private_commands_in_a_group_say_where_they_work(
    tg: FakeTelegram, bot_runner: BotRunner, lang: str
) -> None:
    await bot_runner()
    tr = translator(lang)
    anna = tg.add_user("Аня", language_code=lang)
    group = tg.add_group("Друзья", [anna], admins=[anna])
    play = await _answer(tg, anna, group, "/play")
    assert play.text == plain(tr.t("chats-private-only", command="/play"))
    assert play.button(tr.t("btn-open-private")).url == OPEN_PLAY
    start = await _answer(tg, anna, group, "/start")
    assert start.text == plain(tr.t("chats-group-start", commands=_listed(GAME_COMMANDS, lang)))
    assert start.button(tr.t("btn-open-private")).url == OPEN_PLAY
    if lang == "ru":
        assert play.text == "/play — команда для личного чата со мной: откройте его кнопкой ниже."
        assert start.text == (
            f"Чтобы сыграть здесь, наберите {_listed(GAME_COMMANDS, lang)}, а /new предложит выбрать игру. "
            "Сыграть с ботами можно в личке со мной."
        )


async def test_the_private_chat_opened_from_a_groups_play_shows_the_game_menu(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    menu = await _answer(tg, anna, anna.private_chat, "/start play")
    assert menu.has_button("👑 Кинг — с тремя ботами")


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_start_offers_play_with_bots_and_add_to_a_group(
    tg: FakeTelegram, bot_runner: BotRunner, lang: str
) -> None:
    await bot_runner()
    tr = translator(lang)
    anna = tg.add_user("Аня", language_code=lang)
    hello = await _answer(tg, anna, anna.private_chat, "/start")
    assert _labels(hello) == [tr.t("btn-play-bots"), tr.t("btn-add-group"), tr.t("btn-rules")]
    assert hello.button(tr.t("btn-add-group")).url == ADD_TO_GROUP
    if lang == "ru":
        assert hello.text.startswith(f"👋 Привет! Со мной можно сыграть в карты: {_games_named(tr, lang)}.")
        assert f"добавьте меня в группу и наберите там {_listed(GAME_COMMANDS, lang)}." in hello.text
    else:
        assert hello.text.startswith(f"👋 Hi! I host card games: {_games_named(tr, lang)}.")
    await anna.press(hello, tr.t("btn-play-bots"))
    await tg.wait_for(lambda: hello.has_button(tr.t("btn-solo-king")), what="the game menu")


async def test_the_done_when_of_issue_21_each_message_gets_an_answer(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """One person, one after another: three messages in private and two commands in a group, each answered (the
    private chat's window is its own: questions there do not use up the person's window in the group)."""
    await bot_runner()
    ru = translator(Locale.RU)
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna], admins=[anna])
    expected = [
        (anna.private_chat, "/konchinka", plain(ru.t("chats-group-only", command="/konchinka"))),
        (anna.private_chat, "/new", plain(ru.t("chats-group-only", command="/new"))),
        (anna.private_chat, "привет", plain(ru.t("chats-menu"))),
        (group, "/play", plain(ru.t("chats-private-only", command="/play"))),
        (group, "/start", plain(ru.t("chats-group-start", commands=_listed(GAME_COMMANDS, "ru")))),
    ]
    for chat, text, answer in expected:
        assert (await _answer(tg, anna, chat, text)).text == answer


def _own_buttons(plugin: AnyPlugin, tr: Translator) -> list[str]:
    """Another game's /play buttons, in its own words."""
    rendered = render_play_menu(tr, [SoloGame(plugin.kind, plugin.solo_opponents)])
    assert rendered.markup is not None
    return [b.text for row in rendered.markup.inline_keyboard for b in row]


@pytest.mark.parametrize(
    ("lang", "labels"),
    [
        (
            "ru",
            {
                "konchinka": [
                    "🃏 Кончинка — с одним ботом",
                    "🃏 Кончинка — с двумя ботами",
                    "🃏 Кончинка — с тремя ботами",
                ],
                "king": ["👑 Кинг — с тремя ботами"],
            },
        ),
        (
            "en",
            {
                "konchinka": [
                    "🃏 Konchinka — with one bot",
                    "🃏 Konchinka — with two bots",
                    "🃏 Konchinka — with three bots",
                ],
                "king": ["👑 King — with three bots"],
            },
        ),
    ],
)
async def test_play_buttons_name_the_game(
    tg: FakeTelegram, bot_runner: BotRunner, lang: str, labels: Mapping[str, list[str]]
) -> None:
    """Every game that can be played with bots, in menu order: the two games' buttons as a person reads them."""
    await bot_runner()
    tr = translator(lang)
    anna = tg.add_user("Аня", language_code=lang)
    menu = await _answer(tg, anna, anna.private_chat, "/play")
    solo = [plugin for plugin in plugins() if plugin.solo_opponents]
    assert {"konchinka", "king"} <= {plugin.kind for plugin in solo}
    assert _labels(menu) == [
        label for plugin in solo for label in labels.get(plugin.kind) or _own_buttons(plugin, tr)
    ]
