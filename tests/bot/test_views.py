"""The views as a player sees them: texts, buttons and what the buttons do, on real engine states.

Every rendered message also passes the Telegram checks: only Telegram's HTML tags, balanced, names escaped,
≤ 4096 characters, ≤ 8 buttons a row, ≤ 100 buttons, callback data ≤ 64 bytes.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser

import pytest
from aiogram.types import InlineKeyboardButton

from bot.callbacks import (
    BackCb,
    LobbyCb,
    LobbyOp,
    MoveCb,
    PickCb,
    RematchCb,
    RulesCb,
    SeatCb,
    SoloCb,
    SoloStep,
)
from bot.games import rules_library
from bot.games.king import KING
from bot.games.king.sections import KingSection as G
from bot.games.konchinka import KONCHINKA
from bot.games.konchinka.results import render_deal_end, render_party_end
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.games.konchinka.settings import KonchinkaSetting
from bot.games.konchinka.sheet import deal_note
from bot.games.konchinka.views import (
    KonchinkaTable,
    actions_of_card,
    event_text,
    moves_since,
    render_private,
    render_table,
)
from bot.i18n import Locale, Translator, translator
from bot.views import (
    Answer,
    LobbyScreen,
    LobbyStatus,
    Rendered,
    SeatInfo,
    SoloGame,
    TableInfo,
    answer_text,
    bot_commands,
    illegal_answer,
    render_game_cancelled,
    render_help,
    render_lobby,
    render_rules,
    render_seat_back,
    render_seat_replaced,
    render_solo_setup,
    render_start_bot,
    render_turn_reminder,
)
from bot.views.common import named
from engine import IllegalActionError, make_game
from engine.ai import Level
from engine.ai.advice import Advice
from engine.cards import Card, parse_cards
from engine.core import CommonIllegal, JSONValue
from engine.king import KingIllegal
from engine.konchinka import (
    Capture,
    Event,
    EventKind,
    Finish,
    KonchinkaAction,
    KonchinkaGame,
    KonchinkaIllegal,
    KonchinkaOptions,
    KonchinkaState,
    KonchinkaView,
    Lay,
)
from engine.konchinka.actions import FINISH
from engine.konchinka.ai.advice import Why as KonchinkaWhy
from engine.konchinka.views import DealScore
from tests.bot.conftest import lobby_info

RU = translator(Locale.RU)
EN = translator(Locale.EN)
LIB = rules_library()
HOSTILE = "<b>&Аня</script>"
SEATS = (
    SeatInfo("Аня", 1),
    SeatInfo("Борис", 2),
    SeatInfo("Вера", 3),
    SeatInfo("", None, True, Level.NORMAL),
)
HOSTILE_SEATS = (
    SeatInfo(HOSTILE, 1),
    SeatInfo("x" * 64 + "&lt;", 2),
    SeatInfo("<i>Вера", 3),
    SeatInfo("<s>bot", None, True, Level.HARD),
)
ALLOWED_TAGS = {"b", "i", "u", "s", "code", "pre", "a", "blockquote", "tg-spoiler"}
ENTITY = re.compile(r"&(amp|lt|gt|quot|#\d+);")


SOLO_GAMES = (SoloGame("konchinka", (1, 2, 3)), SoloGame("king", (3,)))
"""The /play screens' games, as the two plug-ins offer them."""


# ------------------------------------------------------------------------------------------- checks


class _TelegramHTML(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.errors.append(f"tag <{tag}>")
        if attrs and not (tag == "a" and [k for k, _ in attrs] == ["href"]):
            self.errors.append(f"attributes on <{tag}>")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"unbalanced </{tag}>")

    def handle_data(self, data: str) -> None:
        if "<" in data or ">" in data:
            self.errors.append(f"raw bracket in {data!r}")


def assert_telegram_html(text: str) -> None:
    parser = _TelegramHTML()
    parser.feed(text)
    parser.close()
    assert not parser.errors, (parser.errors, text)
    assert not parser.stack, ("unclosed", parser.stack, text)
    for match in re.finditer("&", text):
        assert ENTITY.match(text, match.start()), ("raw &", text[match.start() : match.start() + 12])
    assert "\u2068" not in text and "\u2069" not in text


def buttons(rendered: Rendered) -> list[InlineKeyboardButton]:
    if rendered.markup is None:
        return []
    return [b for row in rendered.markup.inline_keyboard for b in row]


def assert_valid(rendered: Rendered) -> None:
    """Everything Telegram would refuse, checked at once."""
    assert 0 < len(rendered.text) <= 4096
    assert_telegram_html(rendered.text)
    if rendered.markup is not None:
        rows = rendered.markup.inline_keyboard
        assert all(0 < len(row) <= 8 for row in rows)
        assert len(buttons(rendered)) <= 100
        for b in buttons(rendered):
            assert b.text
            assert (b.callback_data is None) != (b.url is None)
            if b.callback_data is not None:
                assert b.callback_data.isascii() and len(b.callback_data.encode()) <= 64


def by_text(rendered: Rendered, text: str) -> InlineKeyboardButton:
    found = [b for b in buttons(rendered) if b.text == text]
    assert len(found) == 1, (text, [b.text for b in buttons(rendered)])
    return found[0]


# ------------------------------------------------------------------------------------------- states


def new_state(players: int = 3, seed: int = 1, **options: object) -> KonchinkaState:
    state = make_game("konchinka", {"players": players, **options}).new_initial_state(seed)
    assert isinstance(state, KonchinkaState)
    return state


def play_until(
    state: KonchinkaState, done: Callable[[KonchinkaState], bool], seed: int = 0
) -> KonchinkaState:
    """Random legal play (Finish only when nothing else is left) until ``done``."""
    rng = random.Random(seed)
    for _ in range(5000):
        if done(state):
            return state
        actions: list[KonchinkaAction] = [a for a in state.legal_actions() if not isinstance(a, Finish)]
        actions = actions or list(state.legal_actions())
        state.apply(rng.choice(actions))
    raise AssertionError("condition never reached")


def table(
    state: KonchinkaState,
    player: int | None = None,
    seats: tuple[SeatInfo, ...] = SEATS,
    *,
    turn_seconds: int = 0,
    bot_username: str = "",
) -> KonchinkaTable:
    view = state.view(state.current_player if player is None else player)
    return TableInfo(
        "g1", seats[: state.game.num_players], bot_username=bot_username, turn_seconds=turn_seconds, view=view
    )


def has_card_with(n_actions: Callable[[int], bool]) -> Callable[[KonchinkaState], bool]:
    def check(state: KonchinkaState) -> bool:
        if state.is_terminal:
            return False
        view = state.view(state.current_player)
        return any(n_actions(len(actions_of_card(view, c))) for c in view.hand)

    return check


def all_renders(seats: tuple[SeatInfo, ...]) -> Iterator[tuple[str, Rendered]]:
    """One of every screen, in both locales, for these seats."""
    deal_over = play_until(new_state(3, 5), lambda s: len(s.deal_scores) >= 1 and not s.is_terminal, 5)
    over = play_until(new_state(3, 6, target=3, early_finish=False), lambda s: s.is_terminal, 6)
    two_tap = play_until(new_state(3, 7), has_card_with(lambda n: n >= 2), 7)
    for tr in (RU, EN):
        lobby = lobby_info("g1", "konchinka", {"target": 15}, seats[:3], tr, creator_name=seats[0].name)
        for screen in (LobbyScreen.MAIN, LobbyScreen.BOT_LEVEL):
            yield f"lobby-{screen}", render_lobby(dataclasses.replace(lobby, screen=screen), tr)
        yield "lobby-settings", KONCHINKA.render_settings(lobby, tr)
        for status in LobbyStatus:
            yield f"lobby-{status}", render_lobby(dataclasses.replace(lobby, status=status), tr)
        king = lobby_info("g2", "king", {}, seats[:2], tr)
        yield "king-lobby", render_lobby(king, tr)
        yield "king-settings", KING.render_settings(king, tr)
        for state in (deal_over, over, two_tap):
            info = table(state, 0, seats, turn_seconds=60, bot_username="kbot")
            yield "table", render_table(info, tr)
            yield "hand", render_private(info, tr)
            yield "solo", render_private(dataclasses.replace(info, solo=True), tr)
            yield "deal-end", render_deal_end(info, tr)
            yield "party-end", render_party_end(info, tr)
        current = table(two_tap, None, seats)
        card = next(c for c in current.view.hand if len(actions_of_card(current.view, c)) >= 2)
        yield "hand-selected", render_private(current, tr, card)
        for section in LIB.sections:
            yield (
                f"rules-{section.id}",
                render_rules(LIB, section.id, tr, game_id="g1", options={"variant": "points"}),
            )
        yield "help", render_help(LIB, tr)
        yield "start-bot", render_start_bot(seats[0], "g1", "kbot", tr)
        yield "reminder", render_turn_reminder(seats[0], 15, tr)
        yield "replaced", render_seat_replaced(seats[0], "g1", tr)
        yield "back", render_seat_back(seats[0], tr)
        yield "cancelled", render_game_cancelled(tr)
        yield "solo-1", render_solo_setup(tr, SOLO_GAMES)
        yield "solo-2", render_solo_setup(tr, SOLO_GAMES, SOLO_GAMES[0])
        yield "solo-3", render_solo_setup(tr, SOLO_GAMES, SOLO_GAMES[0], 2)
        yield "solo-king", render_solo_setup(tr, SOLO_GAMES, SOLO_GAMES[1])


# ------------------------------------------------------------------------------------------- limits


def test_every_screen_is_valid_telegram_html_with_hostile_names() -> None:
    count = 0
    for name, rendered in all_renders(HOSTILE_SEATS):
        assert "<script" not in rendered.text and "</script" not in rendered.text, name
        assert_valid(rendered)
        count += 1
    assert count > 60


def test_hostile_name_is_shown_escaped_not_dropped() -> None:
    state = new_state(2, 3)
    text = render_table(table(state, 0, HOSTILE_SEATS), RU).text
    assert "&lt;b&gt;&amp;Аня&lt;/script&gt;" in text


def test_a_very_long_party_still_fits_and_keeps_the_current_totals() -> None:
    state = play_until(new_state(4, 2), lambda s: len(s.deal_scores) >= 1, 2)
    view = state.view(0)
    long_tally = tuple(tuple(range(1, 400)) for _ in range(4))
    view = dataclasses.replace(view, tally=long_tally)
    info = TableInfo("g1", HOSTILE_SEATS, view=view)
    for render in (render_table, render_deal_end, render_party_end):
        rendered = render(info, RU)
        assert_valid(rendered)
        assert "<s>" not in rendered.text, "the crossed-out tally is the picture's"
    assert render_table(info, RU).text.count("счёт 399") == 4


# ------------------------------------------------------------------------------------------- lobby


def test_lobby_lists_players_and_offers_join_link_and_creator_buttons() -> None:
    info = lobby_info("g1", "konchinka", {"variant": "classic", "target": 15}, SEATS[:2] + SEATS[3:], RU)
    rendered = render_lobby(info, RU)
    lines = rendered.text.splitlines()
    assert lines[0] == "🃏 <b>Кончинка</b> · классика · до 15"
    assert "Игроки (3/4):" in lines
    assert " 1. Аня" in lines and " 2. Борис" in lines
    assert " 3. 🤖 Любитель <i>(любитель)</i>" in lines
    assert by_text(rendered, "✋ Присоединиться").url == "https://t.me/kbot?start=j_g1"
    ops = {
        LobbyCb.unpack(b.callback_data).op
        for b in buttons(rendered)
        if b.callback_data and b.callback_data[0] == "l"
    }
    assert ops == {LobbyOp.LEAVE, LobbyOp.BOT_MENU, LobbyOp.SETTINGS, LobbyOp.START, LobbyOp.CANCEL}
    assert RulesCb.unpack(by_text(rendered, "📖 Правила").callback_data or "").section == K.BASICS


def test_full_lobby_hides_join_and_add_bot() -> None:
    rendered = render_lobby(lobby_info("g1", "konchinka", {}, SEATS, RU), RU)
    texts = [b.text for b in buttons(rendered)]
    assert "✋ Присоединиться" not in texts and "🤖 + Бот" not in texts
    assert "Игроки (4/4):" in rendered.text


def test_bot_level_screen_adds_a_bot_of_each_level() -> None:
    info = lobby_info("g1", "konchinka", {}, SEATS[:1], RU, screen=LobbyScreen.BOT_LEVEL)
    rendered = render_lobby(info, RU)
    added = [LobbyCb.unpack(b.callback_data) for b in buttons(rendered) if "🤖" in b.text and b.callback_data]
    assert [(d.op, d.value) for d in added] == [(LobbyOp.ADD_BOT, lv.value) for lv in Level]
    assert LobbyCb.unpack(by_text(rendered, "← Назад").callback_data or "").op is LobbyOp.BACK


def test_a_full_table_with_bots_offers_their_removal_only() -> None:
    main = render_lobby(lobby_info("g1", "konchinka", {}, SEATS, RU), RU)
    assert LobbyCb.unpack(by_text(main, "🤖 Боты").callback_data or "").op is LobbyOp.BOT_MENU
    info = lobby_info("g1", "konchinka", {}, SEATS, RU, screen=LobbyScreen.BOT_LEVEL)
    rendered = render_lobby(info, RU)
    pressed = [LobbyCb.unpack(b.callback_data) for b in buttons(rendered) if b.callback_data]
    assert [(d.op, d.value) for d in pressed] == [(LobbyOp.REMOVE_BOT, "3"), (LobbyOp.BACK, "")]
    assert by_text(rendered, "✖️ Убрать: 🤖 Любитель").callback_data == pressed[0].pack()
    assert "Какой силы бот?" not in rendered.text


def test_settings_buttons_carry_the_new_value_and_mark_the_current_one() -> None:
    options: dict[str, JSONValue] = {
        "variant": "points",
        "target": 21,
        "multi_capture": False,
        "early_finish": True,
        "settlement": "stake",
        "stake": 5,
    }
    rendered = KONCHINKA.render_settings(lobby_info("g1", "konchinka", options, SEATS[:2], RU), RU)
    assert "Вариант: очковая Кончинка" in rendered.text
    assert "Расчёт: на кон, ставка 5" in rendered.text
    assert "✅ очковая" in [b.text for b in buttons(rendered)]
    assert "✅ до 21" in [b.text for b in buttons(rendered)]
    multi = LobbyCb.unpack(by_text(rendered, "Несколько взяток: нет").callback_data or "")
    assert (multi.op, multi.key, multi.value) == (LobbyOp.SET, KonchinkaSetting.MULTI_CAPTURE.value, "1")
    early = LobbyCb.unpack(by_text(rendered, "Прикончить: да").callback_data or "")
    assert (early.key, early.value) == (KonchinkaSetting.EARLY_FINISH.value, "0")
    stake = LobbyCb.unpack(by_text(rendered, "✅ на кон 5").callback_data or "")
    assert (stake.key, stake.value) == (KonchinkaSetting.STAKE.value, "5")
    times = [
        LobbyCb.unpack(b.callback_data)
        for b in buttons(rendered)
        if b.callback_data and ":time:" in b.callback_data
    ]
    assert [t.value for t in times] == ["30", "60", "120", "0"]


# ------------------------------------------------------------------------------------------- table


def test_group_table_shows_public_state_and_never_a_hand() -> None:
    state = new_state(3, 11)
    info = table(state, 0, turn_seconds=45, bot_username="kbot")
    rendered = render_table(info, RU)
    text = rendered.text
    view = info.view
    assert "На столе: " + "  ".join(c.ru for c in view.table) in text
    assert "Ходит: " + ["Аня", "Борис", "Вера"][view.current_player] + " · ⏱ 45 с на ход" in text
    assert f"Колода: {view.deck_size}" in text
    assert f"Раздача 1 · сдаёт {['Аня', 'Борис', 'Вера'][view.dealer]}" in text
    assert "Аня — взято 0 (♣ 0)" in text
    for hand in state.hands:
        for c in hand:
            assert c.ru not in text, c
    assert by_text(rendered, "🃏 Мои карты").url == "https://t.me/kbot?start=g_g1"


def test_table_writes_moves_in_words_and_each_ones_score() -> None:
    state = play_until(
        new_state(3, 4), lambda s: len(s.deal_scores) >= 1 and len(s.view(0).recent_events) >= 3, 4
    )
    view = dataclasses.replace(state.view(0), tally=((2, 6, 9), (1, 3), (2, 3, 4)))
    text = render_table(TableInfo("g1", SEATS[:3], view=view), RU).text
    assert "Последние ходы:" in text
    assert f"Аня — взято {view.pile_sizes[0]} (♣ {view.pile_clubs[0]}) · счёт 9" in text
    assert f"Борис — взято {view.pile_sizes[1]} (♣ {view.pile_clubs[1]}) · счёт 3" in text
    assert "Запись:" not in text and "<s>" not in text, "the crossed-out tally is the sheet's picture"
    told = [t for t in (event_text(e, SEATS, RU) for e in view.recent_events) if t]
    for line in told[-4:]:
        assert f"· {line}" in text


@pytest.mark.parametrize(
    ("event", "ru", "en"),
    [
        (
            Event(0, EventKind.CAPTURE, Card.parse("8h"), (Card.parse("3s"), Card.parse("5d")), 1),
            "Аня берёт 3♠ + 5♦ восьмёркой червей",
            "Аня takes 3♠ + 5♦ with 8♥",
        ),
        (
            Event(
                1,
                EventKind.SWEEP,
                Card.parse("Js"),
                tuple(Card.parse(c) for c in ("4h", "2c", "Qd", "7s")),
                1,
            ),
            "Борис берёт валетом пик весь стол (4 карты) · 🎯 кончинка 2♣",
            "Борис sweeps the table with J♠ (4 cards) · 🎯 konchinka 2♣",
        ),
        (Event(2, EventKind.LAY, Card.parse("Qh"), (), 1), "Вера кладёт Д♥", "Вера puts down Q♥"),
        (
            Event(0, EventKind.FINISH, None, (), 1),
            "🏁 Аня приканчивает партию!",
            "🏁 Аня finishes the game!",
        ),
        (
            Event(1, EventKind.LEFTOVERS, None, (Card.parse("Td"),), 2),
            "Остаток стола — 1 карта — забирает Борис · 🎯 кончинка 10♦",
            "The rest of the table — 1 card — goes to Борис · 🎯 konchinka 10♦",
        ),
        (
            Event(-1, EventKind.LEFTOVERS, None, (Card.parse("5d"),), 2),
            "Остаток стола — 1 карта — не достаётся никому",
            None,
        ),
        (Event(1, EventKind.DEAL_START, None, (), 2), None, None),
    ],
)
def test_moves_in_words(event: Event, ru: str | None, en: str | None) -> None:
    assert event_text(event, SEATS, RU) == ru
    if en is not None:
        assert event_text(event, SEATS, EN) == en


# ------------------------------------------------------------------------------------------- private


def test_a_card_with_many_moves_is_marked_and_its_tap_shows_what_it_can_do() -> None:
    state = play_until(new_state(3, 7), has_card_with(lambda n: n >= 4), 7)
    info = table(state, turn_seconds=30)
    view = info.view
    me = ["Аня", "Борис", "Вера"][view.player]
    first = render_private(info, RU)
    assert first.text.startswith(f"👉 <b>Ваш ход, {me}!</b> · ⏱ 30 с на ход\n")
    card = next(c for c in view.hand if len(actions_of_card(view, c)) >= 4)
    pick = PickCb.unpack(by_text(first, card.ru + "…").callback_data or "")
    assert (pick.game, pick.version, pick.card) == ("g1", view.version, card.code)

    second = render_private(info, RU, Card.parse(pick.card))
    assert f"<b>{card.ru} — что делаем?</b>" in second.text
    moves = [
        MoveCb.unpack(b.callback_data)
        for b in buttons(second)
        if b.callback_data and b.callback_data[0] == "m"
    ]
    chosen = [view.legal_actions[m.index] for m in moves]
    assert {a for a in chosen} == {a for _, a in actions_of_card(view, card)}
    assert all(m.version == view.version for m in moves)
    labels = [b.text for b in buttons(second)]
    assert "Положить на стол" in labels
    for action in chosen:
        if isinstance(action, Capture):
            assert any(label.startswith("Взять") for label in labels)
    assert BackCb.unpack(by_text(second, "← Другая карта").callback_data or "").version == view.version


def test_capture_button_writes_the_cards_out() -> None:
    state = play_until(
        new_state(2, 9),
        lambda s: (
            not s.is_terminal and any(isinstance(a, Capture) and a.card.rank <= 10 for a in s.legal_actions())
        ),
        9,
    )
    info = table(state)
    action = next(a for a in info.view.legal_actions if isinstance(a, Capture) and a.card.rank <= 10)
    rendered = render_private(info, RU, action.card)
    label = "Взять " + " + ".join(c.ru for c in action.groups[0])
    data = MoveCb.unpack(by_text(rendered, label).callback_data or "")
    assert info.view.legal_actions[data.index] == action


def test_a_card_with_up_to_three_moves_shows_each_as_a_tap_and_one_with_more_asks() -> None:
    # Over many hands: a card with two or three moves (a capture or two, and the table) has each as a button
    # of its own, named by the card, that plays it at this version (while the rows fit a phone: four below the
    # hand's); a card with more moves, or a finishing capture, is marked «…»; the rest play on their one tap.
    spelled = {2: 0, 3: 0}
    asking = 0
    for seed in range(60):
        state = play_until(new_state(3, seed), has_card_with(lambda n: n >= 2), seed)
        info = table(state)
        view = info.view
        hand = render_private(info, RU)
        assert_valid(hand)
        rows = hand.markup.inline_keyboard  # type: ignore[union-attr]
        moves_rows = [row for row in rows if all((b.callback_data or "").startswith("m:") for b in row)]
        assert len(moves_rows) <= 4
        assert all(len(b.text) <= 16 for row in moves_rows if len(row) == 2 for b in row), "half a row each"
        for c in view.hand:
            options = actions_of_card(view, c)
            own = [b for b in buttons(hand) if b.text.startswith(f"{c.ru} ")]
            if own:
                played = [MoveCb.unpack(b.callback_data or "") for b in own]
                assert all(m.version == view.version and m.game == "g1" for m in played)
                assert sorted(m.index for m in played) == sorted(i for i, _ in options), "each move, once"
                for b, m in zip(own, played, strict=True):
                    action = view.legal_actions[m.index]
                    assert b.text == (f"{c.ru} на стол" if isinstance(action, Lay) else b.text)
                    assert isinstance(action, Lay) or b.text.startswith(f"{c.ru} берёт ")
                    assert not (isinstance(action, Capture) and action.finish)
                assert not [b for b in buttons(hand) if b.text.rstrip("…") == c.ru], "no choice to open"
                spelled[len(options)] += 1
                continue
            label = c.ru + "…" if len(options) > 1 else c.ru if options else f"·{c.ru}·"
            asking += len(options) > 1
            assert PickCb.unpack(by_text(hand, label).callback_data or "").card == c.code
            assert (
                len(options) != 2
                or any(isinstance(a, Capture) and a.finish for _, a in options)
                or (len(moves_rows) >= 3)
            ), "a card with two moves asks only when the rows are full"
    assert spelled[2] >= 20 and spelled[3] >= 3 and asking >= 1, (spelled, asking)


def test_a_card_with_one_capture_shows_it_beside_the_table_and_a_long_one_gets_a_row_each() -> None:
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions()),
        hands=[parse_cards("Td Jh 4s"), parse_cards("Ks 8s")],
        table=parse_cards("2s 3s 5d Qh"),
        deck=parse_cards("3d 4d 5h 6d"),
    )
    info = table(state)
    rows = [[b.text for b in row] for row in render_private(info, RU).markup.inline_keyboard]  # type: ignore[union-attr]
    assert rows[:4] == [
        ["4♠"],
        ["10♦ берёт 5♦+2♠+3♠"],
        ["10♦ на стол"],
        ["В♥ берёт всё (4)", "В♥ на стол"],
    ]
    english = [[b.text for b in row] for row in render_private(info, EN).markup.inline_keyboard]  # type: ignore[union-attr]
    assert english[3] == ["J♥ takes all (4)", "J♥ to the table"]


def test_not_your_turn_shows_cards_as_text_without_move_buttons() -> None:
    state = new_state(3, 12)
    other = (state.current_player + 1) % 3
    info = table(state, other, turn_seconds=50)
    rendered = render_private(info, RU)
    assert "Ваш ход" not in rendered.text
    assert "Ваши карты: " + "  ".join(c.ru for c in info.view.hand) in rendered.text
    assert [b.text for b in buttons(rendered)] == ["📋 Стол", "📖 Правила"]


def test_finish_button_says_why_and_asks_once() -> None:
    state = play_until(
        new_state(2, 3, target=1), lambda s: any(isinstance(a, Finish) for a in s.legal_actions()), 3
    )
    info = table(state)
    data = PickCb.unpack(by_text(render_private(info, RU), "🏁 Прикончить!").callback_data or "")
    assert data.card == "f"
    asked = render_private(info, RU, FINISH)
    view = info.view
    held = view.konchinki[view.player]
    assert held, "a target of 1 is reached by a кончинка"
    reason = " ".join(c.ru for c in held) + (" даёт" if len(held) == 1 else " дают") + f" +{len(held)}"
    assert asked.text.splitlines()[-1].startswith(f"🏁 <b>Прикончить партию?</b> {reason}")
    assert asked.text.endswith(f"→ {len(held)} — и партия ваша.")
    yes = MoveCb.unpack(by_text(asked, "🏁 Да, прикончить!").callback_data or "")
    assert isinstance(view.legal_actions[yes.index], Finish)
    assert by_text(asked, "← Не приканчивать")
    english = render_private(info, EN, FINISH)
    assert "🏁 <b>Finish the game?</b> " in english.text and by_text(english, "🏁 Yes, finish it!")


def test_the_card_that_secures_the_win_offers_take_and_finish() -> None:
    # Аня at 14 of 15 takes 10♦ with 10♥: the card offers the capture alone and «взять … и прикончить»
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions()),
        hands=[parse_cards("Th 9h"), parse_cards("Ks 8s")],
        table=parse_cards("Td Qd"),
        deck=parse_cards("3d 4d 5d 6d"),
        tally=[[14], [3]],
    )
    info = table(state)
    assert not any(b.text == "🏁 Прикончить!" for b in buttons(render_private(info, RU)))  # not secured yet
    ten = Card.parse("Th")
    picked = render_private(info, RU, ten)
    labels = [b.text for b in buttons(picked)]
    assert labels[:3] == ["Взять 10♦", "🏁 Взять 10♦ и прикончить", "Положить на стол"]
    move = MoveCb.unpack(by_text(picked, "🏁 Взять 10♦ и прикончить").callback_data or "")
    action = info.view.legal_actions[move.index]
    assert isinstance(action, Capture) and action.finish
    english = [b.text for b in buttons(render_private(info, EN, ten))]
    assert "🏁 Take 10♦ and finish" in english
    hint = KONCHINKA.hint(info.view, Advice(action, KonchinkaWhy.FINISH, None, None), RU)
    assert (
        hint
        == "💡 Мастер сыграл бы так: взять 10♦ картой 10♥ и прикончить партию — очков уже хватает для победы."
    )
    state.apply(action)
    assert state.is_terminal and state.outcome is not None and state.outcome.winners == (0,)
    party = render_party_end(table(state, 0), RU).text
    assert "🏁 Аня приканчивает партию посреди раздачи" in party and "Победа: Аня — 15 очков" in party


def test_english_uses_english_ranks() -> None:
    state = play_until(
        new_state(2, 21), lambda s: any(c.rank >= 11 for c in s.view(s.current_player).hand), 21
    )
    info = table(state)
    face = next(c for c in info.view.hand if c.rank >= 11)
    # the card's own button, or the first word of its moves' buttons on its row
    assert any(b.text.rstrip("…").split()[0] == face.text for b in buttons(render_private(info, EN)))
    assert any(b.text.rstrip("…").split()[0] == face.ru for b in buttons(render_private(info, RU)))


def test_solo_shows_more_bot_moves_and_every_score() -> None:
    state = play_until(
        new_state(3, 13), lambda s: len(s.deal_scores) >= 1 and len(s.view(0).recent_events) >= 6, 13
    )
    info = dataclasses.replace(table(state, 0), solo=True)
    solo = render_private(info, RU).text
    hand = render_private(dataclasses.replace(info, solo=False), RU).text
    assert solo.count("\n· ") > hand.count("\n· ")
    for i, name in enumerate(["Аня", "Борис", "Вера"]):
        assert f"{name} — взято {info.view.pile_sizes[i]} (♣ {info.view.pile_clubs[i]})" in solo
        assert f" · счёт {info.view.tally[i][-1]}" in solo


# ------------------------------------------------------------------------------------------- results


def test_deal_end_shows_each_scoring_line() -> None:
    state = play_until(new_state(3, 14), lambda s: len(s.deal_scores) >= 1, 14)
    info = table(state, 0)
    score = info.view.deal_scores[0]
    text = render_deal_end(info, RU).text
    names = ["Аня", "Борис", "Вера"]
    assert "Карты: " + " · ".join(f"{n} {score.cards[i]}" for i, n in enumerate(names)) in text
    if score.cards_winner is None:
        assert "поровну — никому" in text
    else:
        assert f"→ {names[score.cards_winner]} +2" in text
    for c, holder in score.konchinki.items():
        assert f"{c.ru} — {names[holder]}" in text
    assert (
        "<b>Раздача 1 окончена:</b> "
        + " · ".join(
            f"{n} {'+' if score.points[i] > 0 else ''}{score.points[i]}" for i, n in enumerate(names)
        )
        in text
    )


def test_party_end_names_the_winner_settles_and_offers_a_rematch() -> None:
    state = play_until(new_state(3, 15, target=3, early_finish=False), lambda s: s.is_terminal, 15)
    info = table(state, 0)
    outcome = info.view.outcome
    assert outcome is not None
    rendered = render_party_end(info, RU)
    names = ["Аня", "Борис", "Вера"]
    winner = outcome.winners[0]
    assert f"Победа: {names[winner]} — {outcome.scores[winner]}" in rendered.text
    for payer, amount in enumerate(outcome.settlement):
        if amount < 0:
            assert f"{names[payer]} → {names[winner]}: {-amount}" in rendered.text
    assert RematchCb.unpack(by_text(rendered, "🔁 Реванш").callback_data or "").game == "g1"


# ------------------------------------------------------------------------------------------- rules, help, answers


@pytest.mark.parametrize("tr", [RU, EN], ids=["ru", "en"])
def test_rules_sections_navigate_to_every_section(tr: Translator) -> None:
    for section in LIB.sections:
        rendered = render_rules(LIB, section.id, tr, game_id="g1")
        targets = [RulesCb.unpack(b.callback_data or "") for b in buttons(rendered)]
        assert {t.section for t in targets} == {s.id for s in LIB.sections}
        assert all(t.game == "g1" for t in targets)
        title, _, text = rendered.text.partition("\n\n")
        assert title.startswith("📖 ") and text.strip(), "a title and the section's rules"
        if section.id in {*K, *G}:
            assert len(rendered.text) > 200, "the two games' sections hold their rules in full"


def test_rules_state_the_numbers_of_the_spec() -> None:
    scoring = render_rules(LIB, K.SCORING, RU).text
    assert "2 очка" in scoring and "1 очко" in scoring and "2♣ и 10♦" in scoring
    early = render_rules(LIB, K.EARLY_FINISH, RU).text
    assert "7 треф" in early and "27 карт" in early and "не больше двух очков" in early
    tally = render_rules(LIB, K.TALLY, RU, options={"target": 21, "settlement": "stake", "stake": 3}).text
    assert "<s>2</s> <s>6</s> 9" in tally
    assert "• Играем до: 21" in tally and "• Расчёт: на кон, ставка 3" in tally
    king = render_rules(LIB, G.SCORING, RU).text
    assert "192" in king and "96" in king


def test_rules_state_the_deliberate_readings_of_the_spec() -> None:
    # each house reading is worded as the bot's, beside what the old rules say (issue 33)
    points = render_rules(LIB, K.POINTS, RU).text
    assert "В этом боте король берёт набор на 13 очков" in points and "написано «14»" in points
    captures = render_rules(LIB, K.CAPTURES, RU).text
    assert "В этом боте за ход берут только одну взятку" in captures
    assert "«более одной взятки подряд брать нельзя»" in captures
    early = render_rules(LIB, K.EARLY_FINISH, RU).text
    assert "27 карт и больше — 2 очка за карты" in early and "Так правило читает этот бот" in early
    assert "«если удалось взять 2 кончинки или семь треф»" in early
    assert "«🏁 Взять … и прикончить»" in early and "даже последней картой колоды" in early
    assert "на следующем вашем ходу" not in early
    assert (
        "<b>строго больше</b>, чем у каждого из остальных" in early
        and "если у лидеров ничья" in early.lower()
    )
    negative = render_rules(LIB, G.NEGATIVE, RU).text
    assert "Этот досрочный конец раздачи тоже можно выключить в настройках" in negative
    assert "В седьмой раздаче, <b>ералаше</b>, штрафуют за всё это сразу" in negative
    assert "В этом боте кинга отдают и тогда, когда зашли с червей" in negative
    assert "О порядке семи раздач (кругов) договариваются заранее" in negative
    trump = render_rules(LIB, G.TRUMP, RU).text
    assert (
        "Первую раздачу отыгрыша сдаёт" in trump
        and "сосед слева того, кто сдавал седьмую раздачу «не брать»" in trump
    )
    basics = render_rules(LIB, K.BASICS, RU).text
    assert "В этом боте игра старых правил — <b>раздача</b>" in basics
    options = render_rules(LIB, K.OPTIONS, RU).text
    assert "<b>Старые правила и этот бот.</b>" in options
    for tr in (RU, EN):
        every = " ".join(render_rules(LIB, s.id, tr).text for s in LIB.sections)
        assert "печатн" not in every and "printed" not in every and "опечатка" not in every
    english = render_rules(LIB, K.POINTS, EN).text
    assert "In this bot a king takes sets worth 13" in english


def test_help_and_command_menus() -> None:
    assert "/konchinka" in render_help(LIB, RU).text and "/play" in render_help(LIB, EN).text
    for tr in (RU, EN):
        private, group = bot_commands(LIB, tr)
        assert [c.command for c in private] == [
            "play",
            "rules",
            "stats",
            "me",
            "privacy",
            "leave",
            "lang",
            "help",
        ]
        assert "konchinka" in [c.command for c in group] and "cancel" in [c.command for c in group]
        for command in (*private, *group):
            assert re.fullmatch(r"[a-z0-9_]{1,32}", command.command)
            assert 0 < len(command.description) <= 256


def test_answers_are_localized_and_short() -> None:
    assert answer_text(Answer.STALE, RU) == "Этот ход уже сделан."
    assert answer_text(CommonIllegal.NOT_YOUR_TURN, RU, name="Аня") == "Сейчас ходит Аня."
    generic = answer_text(Answer.UNKNOWN, RU)
    for tr in (RU, EN):
        for reason in (*Answer, *CommonIllegal, *KonchinkaIllegal, *KingIllegal):
            text = answer_text(reason, tr, name="x" * 300, card="10♦", suit="♦", need=2, secured=1)
            assert 0 < len(text) <= 200
            if reason is not Answer.UNKNOWN and tr is RU:
                assert text != generic, reason


def test_illegal_answer_uses_the_error_params() -> None:
    state = new_state(2, 1, forced_capture=True)
    state = play_until(
        state,
        lambda s: not s.is_terminal and any(isinstance(a, Capture) for a in s.legal_actions()),
        1,
    )
    card = state.view(state.current_player).hand[0]
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Lay(card))
    assert illegal_answer(caught.value, RU) == "Брать обязательно: этой картой нужно что-то взять."


def test_start_bot_notice_and_seat_buttons() -> None:
    notice = render_start_bot(SeatInfo(HOSTILE), "g1", "kbot", RU)
    assert notice.text.startswith("&lt;b&gt;&amp;Аня&lt;/script&gt;, бот не может вам написать")
    assert by_text(notice, "▶️ Открыть бота").url == "https://t.me/kbot?start=g_g1"
    replaced = render_seat_replaced(SeatInfo("Аня"), "g1", RU)
    assert SeatCb.unpack(by_text(replaced, "↩️ Вернуться за стол").callback_data or "").game == "g1"


def test_solo_setup_walks_game_opponents_level() -> None:
    first = render_solo_setup(RU, SOLO_GAMES)
    games = [SoloCb.unpack(b.callback_data or "") for b in buttons(first)]
    assert [(g.step, g.game) for g in games] == [
        (SoloStep.GAME, "konchinka"),
        (SoloStep.GAME, "king"),
    ]
    second = render_solo_setup(RU, SOLO_GAMES, SOLO_GAMES[0])
    assert [b.text for b in buttons(second)] == ["1 соперник", "2 соперника", "3 соперника"]
    third = render_solo_setup(RU, SOLO_GAMES, SOLO_GAMES[0], 2)
    levels = [SoloCb.unpack(b.callback_data or "") for b in buttons(third)]
    assert [(s.step, s.opponents, s.level) for s in levels] == [(SoloStep.LEVEL, 2, lv.value) for lv in Level]
    king = render_solo_setup(RU, SOLO_GAMES, SOLO_GAMES[1])
    assert {SoloCb.unpack(b.callback_data or "").opponents for b in buttons(king)} == {3}


def test_view_types_are_the_engine_ones() -> None:
    state = new_state(2, 1)
    assert isinstance(state.view(0), KonchinkaView)


def test_forced_capture_card_without_a_capture_explains_instead_of_playing() -> None:
    state = play_until(new_state(2, 4, forced_capture=True), has_card_with(lambda n: n == 0), 4)
    info = table(state)
    card = next(c for c in info.view.hand if not actions_of_card(info.view, c))
    first = render_private(info, RU)
    assert PickCb.unpack(by_text(first, f"·{card.ru}·").callback_data or "").card == card.code
    playable = [c for c in info.view.hand if actions_of_card(info.view, c)]
    assert playable and all(by_text(first, c.ru) for c in playable)
    second = render_private(info, RU, card)
    assert f"{card.ru} сейчас не сыграть" in second.text
    assert [b.text for b in buttons(second)] == ["← Другая карта", "📋 Стол", "📖 Правила"]
    version = state.version
    refusal = KONCHINKA.refusal(state, card.code)
    assert refusal is not None and refusal.reason is KonchinkaIllegal.MUST_CAPTURE
    assert state.version == version and card in state.hands[state.current_player]
    assert illegal_answer(refusal, RU) == "Брать обязательно: этой картой нужно что-то взять."


def test_early_finish_is_told_in_the_deal_and_party_results() -> None:
    state = play_until(
        new_state(2, 3, target=1), lambda s: any(isinstance(a, Finish) for a in s.legal_actions()), 3
    )
    finisher = state.current_player
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Finish)))
    info = table(state, 0)
    name = ["Аня", "Борис"][finisher]
    deal = render_deal_end(info, RU).text
    assert f"🏁 {name} приканчивает партию посреди раздачи" in deal
    assert "поровну" not in deal
    party = render_party_end(info, RU).text
    assert f"🏁 {name} приканчивает партию посреди раздачи" in party  # the last deal folded in
    assert f"Победа: {name}" in party
    mine = render_party_end(table(state, finisher), RU, personal=True).text
    assert mine.splitlines()[:3] == [
        "🏆 <b>Партия окончена!</b>",
        "🎉 <b>Вы победили</b> с 1 очком!",
        f"🏁 {name} приканчивает партию!",
    ]


def test_table_marks_seats_played_by_a_bot_or_unreachable() -> None:
    seats = (
        SeatInfo("Аня", 1, is_replaced=True),
        SeatInfo("Борис", 2, is_reachable=False),
        SeatInfo("Вера", 3),
    )
    text = render_table(table(new_state(3, 2), 0, seats), RU).text
    assert "Аня — взято 0 (♣ 0) · 🤖 пока играет бот\n" in text
    assert "Борис — взято 0 (♣ 0) · ⚠️ бот не может написать" in text
    assert text.splitlines()[-1] == "Вера — взято 0 (♣ 0)"


def test_unnamed_bots_of_one_level_are_told_apart_by_number() -> None:
    from bot.views.common import number_bots, seat_name

    seats = number_bots(
        [
            SeatInfo("Аня", user_id=1),
            SeatInfo("", is_bot=True, level=Level.HARD),
            SeatInfo("", is_bot=True, level=Level.NORMAL),
            SeatInfo("", is_bot=True, level=Level.HARD),
        ]
    )
    assert [seat_name(s, RU) for s in seats] == [
        "Аня",
        "🤖 Мастер 1",
        "🤖 Любитель",
        "🤖 Мастер 2",
    ]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Аня", "Аня"),
        ("<b>Аня", "&lt;b&gt;Аня"),
        ("\u202eБорис", "Борис"),  # the override taken out: nothing left to isolate
        ("Ева\u2069\u202eXY", "ЕваXY"),  # a PDI of its own cannot close an isolate early
        ("\u2069\u202eדוד", "\u2068דוד\u2069"),
        ("דוד", "\u2068דוד\u2069"),
        ("Ali \u0639\u0644\u064a", "\u2068Ali \u0639\u0644\u064a\u2069"),
    ],
)
def test_a_name_that_could_reorder_its_line_is_isolated_and_escaped(name: str, shown: str) -> None:
    assert named(name) == shown


# ------------------------------------------------------------------------------------------- said once


def test_the_deal_end_and_the_party_end_say_each_fact_once_beside_the_picture() -> None:
    """Issue 48, item 5: the score sheet's picture carries the tally and the per-deal grid; the deal's message
    says its points and why in a few lines, the party's end its winner, totals by place and settlement."""
    state = play_until(new_state(4, 15, target=7), lambda s: s.is_terminal, 3)
    names = ["Аня", "Борис", "Вера", "🤖 Любитель"]
    scores = state.deal_scores
    deal = render_deal_end(table(state, 0), RU, scores[0].deal_number).text
    lines = deal.splitlines()
    points = " · ".join(
        f"{n} {'+' if p > 0 else ''}{p}" for n, p in zip(names, scores[0].points, strict=True)
    )
    assert lines[0] == f"<b>Раздача {scores[0].deal_number} окончена:</b> {points}"
    assert len(lines) <= 5 and sum(points in line for line in lines) == 1
    party = render_party_end(table(state, 0), RU).text
    outcome = state.outcome
    assert outcome is not None
    ranked = sorted(range(4), key=lambda s: -outcome.scores[s])
    assert "Итог: " + " · ".join(f"{names[s]} {outcome.scores[s]}" for s in ranked) in party
    for text in (deal, party, render_party_end(table(state, 0), RU, personal=True).text):
        assert "Запись:" not in text and "<pre>" not in text and "<s>" not in text
    assert len([line for line in party.splitlines() if line]) <= 4 + 1 + len(names), party


def test_the_leftovers_taker_hears_the_last_moves_and_that_the_table_is_theirs() -> None:
    """Issue 32, item 3: the leftovers are no move of the one who takes them — their own summary of the deal
    tells the others' last moves and the leftovers, as everyone else's does."""
    events = [
        Event(0, EventKind.CAPTURE, Card.parse("8h"), (Card.parse("3s"), Card.parse("5d")), 1),
        Event(1, EventKind.LAY, Card.parse("2c"), (), 1),
        Event(0, EventKind.LEFTOVERS, None, (Card.parse("2c"), Card.parse("9d")), 1),
    ]
    mine = moves_since(events, 0, SEATS, RU)
    others = moves_since(events, 1, SEATS, RU)
    leftovers = event_text(events[-1], SEATS, RU)
    assert leftovers is not None and f"· {leftovers}" in mine and f"· {leftovers}" in others
    assert f"· {event_text(events[1], SEATS, RU)}" in mine


def test_the_sheets_note_of_an_early_finish_names_the_finisher_without_a_gendered_verb() -> None:
    score = DealScore(1, (20, 16), (5, 3), {}, 0, 0, (2, 0), (2, 0), finished_early_by=1)
    note = deal_note(score, ["Аня", "Борис"], RU)
    assert note.endswith(" · Борис приканчивает партию") and "(а)" not in note, note
