"""The lobby drawn: the group's one message (behind the games in play) as it opens, as people sit down, on its
settings and bot-level pages, as it starts (the same message becomes the table, every hand is sent), is
cancelled (by its button in place, by /cancel anew below) or expires; a rematch's players called."""

from __future__ import annotations

import dataclasses

import pytest

from bot.delivery.outbox import Priority
from bot.flow import lobby
from bot.flow.commands import Cancel, Join, OpenLobby, Rematch, ShowScreen, Start
from bot.model.game import Game, LobbyScreen
from tests.delivery.drawing import (
    BOT,
    TABLE,
    Drawn,
    buttons,
    callbacks,
    change,
    hand,
    moves_offered,
    posted_to,
    shown,
    shows,
    slots,
)
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    GROUP,
    NOW,
    SEED,
    finished,
    group_party,
    in_lobby,
    user,
)


def opened(kind: str = "konchinka") -> Drawn:
    """Аня (who opened the bot) opens a lobby in the group."""
    opening = lobby.Opening(GAME_ID, NOW, users={ANNA.user_id: user(ANNA)})
    return change(None, lobby.open_lobby(OpenLobby(GROUP, 0, ANNA, kind), opening, CONFIG))


def on_screen(game: Game, screen: LobbyScreen) -> Game:
    return change(game, lobby.show_screen(ShowScreen(GAME_ID, ANNA, screen), game)).after


def cancelled(game: Game, *, by_command: bool = False) -> Drawn:
    command = Cancel(ANNA, None, GROUP) if by_command else Cancel(ANNA, GAME_ID)
    return change(game, lobby.cancel(command, game, None, NOW))


def test_a_new_lobby_shows_its_game_its_players_and_its_buttons_behind_the_games_in_play() -> None:
    drawn = opened()
    (message,) = shows(drawn.orders)
    assert message.slot == TABLE
    assert message.chat_id == GROUP and message.priority is Priority.LOW and not message.resend
    assert message.text.startswith("🃏 <b>Кончинка</b> · классика · до 15")
    assert "Игроки (1/4):\n 1. Аня <i>(организатор)</i>" in message.text
    assert f"https://t.me/{BOT}?start=j_{GAME_ID}" in callbacks(message)
    assert buttons(message) == [
        "✋ Присоединиться",
        "🚪 Выйти",
        "🤖 + Бот",
        "⚙️ Настройки",
        "📖 Правила",
        "▶️ Начать",
        "✖️ Отмена",
    ]


def test_a_king_lobby_names_its_game() -> None:
    message = shown(opened("king").orders, TABLE)
    assert "<b>Кинг</b> · 15 раздач, четверо" in message.text
    assert "Пустые места займут боты." in message.text


def test_a_person_who_joins_is_listed_in_the_same_message() -> None:
    game = in_lobby(ANNA)
    drawn = change(game, lobby.join(Join(GAME_ID, BORIS), game, True))
    message = shown(drawn.orders, TABLE)
    assert "Игроки (2/4):" in message.text and " 2. Борис" in message.text
    assert not message.resend and message.priority is Priority.LOW
    assert slots(drawn.orders) == [TABLE]  # nobody has a hand yet


@pytest.mark.parametrize(
    ("screen", "line", "button"),
    [
        (LobbyScreen.SETTINGS, "⚙️ <b>Настройки</b> · Кончинка", "✔️ Готово"),
        (LobbyScreen.BOT_LEVEL, "Какой силы бот?", "🤖 мастер"),
    ],
)
def test_the_lobby_turns_to_its_page_in_place(screen: LobbyScreen, line: str, button: str) -> None:
    game = in_lobby(ANNA, BORIS)
    drawn = change(game, lobby.show_screen(ShowScreen(GAME_ID, ANNA, screen), game))
    message = shown(drawn.orders, TABLE)
    assert line in message.text and button in buttons(message)
    assert not message.resend


def test_a_start_turns_the_lobby_into_the_table_and_sends_every_hand() -> None:
    game = in_lobby(ANNA, BORIS)
    drawn = change(game, lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG))
    table = shown(drawn.orders, TABLE)
    assert not table.resend and table.paced and table.priority is None  # no longer a lobby's LOW
    assert "Раздача 1" in table.text and "Присоединиться" not in table.text
    anna, boris = shown(drawn.orders, hand(ANNA)), shown(drawn.orders, hand(BORIS))
    assert anna.resend and boris.resend
    assert moves_offered(anna) and anna.priority is Priority.TURN
    assert not moves_offered(boris) and boris.priority is Priority.HAND


def test_a_king_start_seats_the_bot_players_at_the_table() -> None:
    game = in_lobby(ANNA, BORIS, kind="king")
    drawn = change(game, lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG))
    table = shown(drawn.orders, TABLE)
    assert "🤖 Любитель 1" in table.text and "🤖 Любитель 2" in table.text


def test_a_lobby_cancelled_by_its_button_says_so_in_place_without_buttons() -> None:
    drawn = cancelled(in_lobby(ANNA, BORIS))
    message = shown(drawn.orders, TABLE)
    assert message.text.endswith("✖️ Партия отменена.")
    assert message.markup is None and not message.resend


def test_a_lobby_cancelled_by_command_says_so_anew_below_it() -> None:
    message = shown(cancelled(in_lobby(ANNA, BORIS), by_command=True).orders, TABLE)
    assert message.text.endswith("✖️ Партия отменена.") and message.resend


def test_a_lobby_cancelled_on_its_settings_page_says_it_is_cancelled() -> None:
    game = on_screen(in_lobby(ANNA, BORIS), LobbyScreen.SETTINGS)
    message = shown(cancelled(game).orders, TABLE)
    assert message.text.endswith("✖️ Партия отменена.") and "Настройки" not in message.text
    assert message.markup is None


def test_a_lobby_nobody_started_says_it_closed() -> None:
    game = in_lobby(ANNA, BORIS)
    drawn = change(game, lobby.expire(game, NOW + CONFIG.lobby_ttl))
    message = shown(drawn.orders, TABLE)
    assert message.text.endswith("⌛ Никто не начал партию — набор закрыт.")
    assert message.markup is None and not message.resend


def test_an_english_groups_lobby_is_in_english() -> None:
    game = dataclasses.replace(in_lobby(ANNA, BORIS), lang="en")
    message = shown(cancelled(game).orders, TABLE)
    assert "Konchinka" in message.text and "отмен" not in message.text


def test_a_rematch_opens_a_lobby_with_the_players_and_calls_them_in_the_group() -> None:
    over = finished(group_party(ANNA, BORIS))
    command = lobby.rematch(Rematch(GAME_ID, BORIS), over)
    assert isinstance(command, OpenLobby)
    opening = lobby.Opening(GAME_ID + 1, NOW, users=dict(over.users))
    drawn = change(None, lobby.open_lobby(command, opening, CONFIG))
    called = posted_to(drawn.orders, GROUP)
    assert "Аня" in called.text and "Борис" in called.text
    message = shown(drawn.orders, f"g{GAME_ID + 1}")
    assert " 1. Аня" in message.text and " 2. Борис" in message.text
