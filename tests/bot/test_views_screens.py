"""What a player reads on a phone (issue 12), text for text in Russian and English: the compact private hand, time
shown without edits, the moves the timer made, how a Кинг deal ended, the party's end in a private chat, the
lobby and «Вы записаны в партию», short bot names and the solo hint."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.callbacks import HintCb, RematchCb, TableCb
from bot.games.king import KING
from bot.games.king import results as kr
from bot.games.king import views as kv
from bot.games.konchinka import KONCHINKA
from bot.games.konchinka import results as cr
from bot.games.konchinka import views as cv
from bot.games.konchinka.views import KonchinkaTable
from bot.i18n import Locale, Translator, ftl_files
from bot.model.game import GameMode
from bot.storage.models import UserStats
from bot.views import Rendered, SeatInfo, TableInfo, render_joined, render_lobby, render_timed_out
from bot.views.common import bot_name, number_bots, seat_name
from bot.views.stats import render_stats
from engine.ai import Level
from engine.cards import Card, parse_cards
from engine.king import Contract, KingGame, KingState, KingView, Play
from engine.konchinka import Finish, KonchinkaGame, KonchinkaOptions, KonchinkaState, Lay
from tests.bot.conftest import lobby_info
from tests.bot.test_views import EN, RU, assert_valid, buttons

SEATS = (
    SeatInfo("Аня", 1),
    SeatInfo("Борис", 2),
    SeatInfo("Вера", 3),
    SeatInfo("", None, True, Level.NORMAL),
)
LOCALES = pytest.mark.parametrize("tr", [RU, EN], ids=["ru", "en"])


def rows(rendered: Rendered) -> list[list[str]]:
    if rendered.markup is None:
        return []
    return [[b.text for b in row] for row in rendered.markup.inline_keyboard]


def konchinka_position() -> KonchinkaState:
    """The mockup's table (7♦ 3♠ Д♥ 9♣) after Вера put down 5♥; Аня to move, deal 3, the tally 6 / 3 / 4."""
    game = KonchinkaGame(KonchinkaOptions(players=3))
    state = KonchinkaState.from_position(
        game,
        hands=[parse_cards("Td 4s Qc Jh"), parse_cards("8c 2h 6d Ks"), parse_cards("5h 9d Ac 7s")],
        table=parse_cards("7d 3s Qh 9c"),
        deck=parse_cards("2s 3d 4h 5c 6s 7c 8d 9h Tc Js"),
        current_player=2,
        dealer=1,
        deal_number=3,
        captured=[parse_cards("2c 3c 4d"), parse_cards("5d"), []],
        tally=[(2, 6), (1, 3), (2, 4)],
    )
    state.apply(Lay(Card.parse("5h")))
    return state


def konchinka_table(player: int = 0, **fields: object) -> KonchinkaTable:
    info = TableInfo("g1", SEATS[:3], bot_username="kbot", view=konchinka_position().view(player))
    return dataclasses.replace(info, **fields)  # type: ignore[arg-type]


def king_position() -> KingState:
    """«не брать кинга», deal 6: Борис led Т♥, Вера and the bot followed; Аня must give up К♥ (8♠ dimmed)."""
    return KingState.from_position(
        [parse_cards("Kh 8s"), parse_cards("9s"), parse_cards("Ts"), parse_cards("Js")],
        contract=Contract.NO_KING,
        dealer=0,
        leader=1,
        trick=[(1, Card.parse("Ah")), (2, Card.parse("7h")), (3, Card.parse("8h"))],
    )


def king_table(state: KingState, player: int = 0, **fields: object) -> TableInfo[KingView]:
    info: TableInfo[KingView] = TableInfo("g1", SEATS, bot_username="kbot", view=state.view(player))
    return dataclasses.replace(info, **fields)  # type: ignore[arg-type]


def lines_above_buttons(rendered: Rendered) -> int:
    return len(rendered.text.splitlines())


# ------------------------------------------------------------------------------------ the compact hand

KONCHINKA_TURN = {
    "ru": (
        "👉 <b>Ваш ход, Аня!</b> · ⏱ 60 с на ход\n"
        "На столе: 7♦  3♠  Д♥  9♣  5♥\n"
        "· Вера кладёт 5♥\n"
        "Счёт: Аня 6 · Борис 3 · Вера 4\n"
        "Ваши карты — выберите, чем ходить:",
        [
            ["4♠"],
            ["Д♣ берёт Д♥", "Д♣ на стол"],
            ["10♦ берёт 7♦+3♠", "10♦ на стол"],
            ["В♥ берёт всё (5)", "В♥ на стол"],
            ["📋 Стол", "📖 Правила"],
        ],
    ),
    "en": (
        "👉 <b>Your move, Аня!</b> · ⏱ 60 s per move\n"
        "On the table: 7♦  3♠  Q♥  9♣  5♥\n"
        "· Вера puts down 5♥\n"
        "Score: Аня 6 · Борис 3 · Вера 4\n"
        "Your cards — pick one to play:",
        [
            ["4♠"],
            ["Q♣ takes Q♥", "Q♣ to the table"],
            ["10♦ takes 7♦+3♠", "10♦ to the table"],
            ["J♥ takes all (5)", "J♥ to the table"],
            ["📋 Table", "📖 Rules"],
        ],
    ),
}


@LOCALES
def test_konchinka_private_turn_is_compact_and_the_whole_table_is_one_tap_away(tr: Translator) -> None:
    rendered = cv.render_private(konchinka_table(turn_seconds=60), tr)
    assert_valid(rendered)
    text, keyboard = KONCHINKA_TURN[tr.locale.value]
    assert rendered.text == text
    assert rows(rendered) == keyboard
    assert TableCb.unpack(buttons(rendered)[-2].callback_data or "").game == "g1"


@LOCALES
def test_konchinka_second_tap_and_waiting_hands_stay_compact(tr: Translator) -> None:
    picked = cv.render_private(konchinka_table(turn_seconds=60), tr, Card.parse("Td"))
    waiting = cv.render_private(konchinka_table(1, turn_seconds=60), tr)
    if tr is RU:
        assert picked.text.splitlines()[-1] == "<b>10♦ — что делаем?</b>"
        assert rows(picked)[:3] == [["Взять 7♦ + 3♠"], ["Положить на стол"], ["← Другая карта"]]
        assert waiting.text == (
            "🃏 <b>Кончинка</b> · Раздача 3 · сдаёт Борис\n"
            "Счёт: Аня 6 · Борис 3 · Вера 4\n"
            "⏳ Ходят по очереди: Вера → Аня → вы. Стол и ходы — в группе.\n"
            "Ваши карты: 8♣  6♦  2♥  К♠"
        )
    else:
        assert picked.text.splitlines()[-1] == "<b>10♦ — what now?</b>"
        assert waiting.text == (
            "🃏 <b>Konchinka</b> · Deal 3 · dealer Борис\n"
            "Score: Аня 6 · Борис 3 · Вера 4\n"
            "⏳ Moving in turn: Вера → Аня → you. The table and the moves are in the group.\n"
            "Your cards: 8♣  6♦  2♥  K♠"
        )
    for rendered in (picked, waiting):
        assert_valid(rendered)
        assert lines_above_buttons(rendered) <= 5
    assert rows(waiting) == [[tr.t("btn-table"), tr.t("btn-rules")]]


def test_a_konchinka_waiting_hand_stays_the_same_while_the_others_move() -> None:
    state = konchinka_position()
    waiting = cv.render_private(konchinka_table(2), RU)
    unchanged = 0
    while state.current_player != 2:
        state.apply(state.legal_actions()[-1])
        later = cv.render_private(TableInfo("g1", SEATS[:3], bot_username="kbot", view=state.view(2)), RU)
        if state.current_player != 2:
            assert later == waiting
            unchanged += 1
    assert unchanged == 1, "Аня moved, then Борис: Вера's hand changed only when her turn came"
    assert later != waiting


@LOCALES
def test_konchinka_solo_shows_every_pile_and_score_within_fifteen_lines(tr: Translator) -> None:
    rendered = cv.render_private(konchinka_table(solo=True), tr)
    assert_valid(rendered)
    if tr is RU:
        assert rendered.text == (
            "🃏 <b>Кончинка</b> · Раздача 3 · сдаёт Борис\n"
            "👉 <b>Ваш ход, Аня!</b>\n"
            "На столе: 7♦  3♠  Д♥  9♣  5♥\n"
            "Колода: 10\n"
            "\n"
            "👉 Аня — взято 3 (♣ 2) · кончинка: 2♣ · счёт 6\n"
            "Борис — взято 1 (♣ 0) · счёт 3\n"
            "Вера — взято 0 (♣ 0) · счёт 4\n"
            "\n"
            "· Вера кладёт 5♥\n"
            "\n"
            "Ваши карты — выберите, чем ходить:"
        )
        assert rows(rendered)[-1] == ["💡 Подсказка", "📋 Стол", "📖 Правила"]
    else:
        assert rendered.text.splitlines()[5] == "👉 Аня — pile 3 (♣ 2) · konchinka: 2♣ · score 6"
        assert rows(rendered)[-1] == ["💡 Hint", "📋 Table", "📖 Rules"]
    hint = HintCb.unpack(buttons(rendered)[-3].callback_data or "")
    assert (hint.game, hint.version) == ("g1", konchinka_position().version)


def test_solo_with_four_players_and_many_moves_fits_fifteen_lines() -> None:
    state = KonchinkaGame(KonchinkaOptions(players=4)).new_initial_state(7)
    seen = 0
    while not state.is_terminal and seen < 400:
        info = TableInfo("g1", SEATS, solo=True, turn_seconds=60, view=state.view(0))
        for tr in (RU, EN):
            assert lines_above_buttons(cv.render_private(info, tr)) <= 15
            assert lines_above_buttons(cv.render_private(dataclasses.replace(info, solo=False), tr)) <= 6
        actions = [a for a in state.legal_actions() if not isinstance(a, Finish)] or state.legal_actions()
        state.apply(actions[seen % len(actions)])
        seen += 1
    assert seen > 40


KING_TURN = {
    "ru": (
        "👑 <b>Кинг</b> · 6/15 · 📜 «не брать кинга»\n"
        "На столе: Борис Т♥ · Вера 7♥ · 🤖 Любитель 8♥\n"
        "👉 <b>Ваш ход, Аня!</b> · ⏱ 60 с на ход\n"
        "Ваши карты — чем ходите?",
        [["·8♠·"], ["К♥"], ["📋 Стол", "📖 Правила"]],
    ),
    "en": (
        "👑 <b>King</b> · 6/15 · 📜 “no king of hearts”\n"
        "On the table: Борис A♥ · Вера 7♥ · 🤖 Amateur 8♥\n"
        "👉 <b>Your move, Аня!</b> · ⏱ 60 s per move\n"
        "Your cards — which one do you play?",
        [["·8♠·"], ["K♥"], ["📋 Table", "📖 Rules"]],
    ),
}


@LOCALES
def test_king_private_turn_is_four_lines_with_unplayable_cards_dimmed(tr: Translator) -> None:
    rendered = kv.render_private(king_table(king_position(), turn_seconds=60), tr)
    assert_valid(rendered)
    text, keyboard = KING_TURN[tr.locale.value]
    assert rendered.text == text
    assert rows(rendered) == keyboard


def test_king_hands_of_a_whole_party_stay_compact_and_solo_within_fifteen_lines() -> None:
    king = KingGame().new_initial_state(4)
    moves = 0
    while not king.is_terminal:
        for player in range(4):
            info = king_table(king, player, turn_seconds=60)
            for tr in (RU, EN):
                assert lines_above_buttons(kv.render_private(info, tr)) <= 5
                assert lines_above_buttons(kv.render_private(dataclasses.replace(info, solo=True), tr)) <= 15
        legal = king.legal_actions()
        king.apply(legal[moves % len(legal)])
        moves += 1
    assert moves > 200


# ------------------------------------------------------------------------------------ time and the timer


@LOCALES
def test_time_is_the_limit_per_move_and_never_changes_by_itself(tr: Translator) -> None:
    timed = cv.render_table(konchinka_table(turn_seconds=60), tr).text
    limit = "⏱ 60 с на ход" if tr is RU else "⏱ 60 s per move"
    assert (("Ходит: Аня · " if tr is RU else "To move: Аня · ") + limit) in timed.splitlines()
    untimed = cv.render_table(konchinka_table(), tr).text
    assert ("Ходит: Аня" if tr is RU else "To move: Аня") in untimed.splitlines()
    for rendered in (
        cv.render_private(konchinka_table(turn_seconds=60), tr),
        kv.render_private(king_table(king_position(), turn_seconds=60), tr),
    ):
        assert not re.search(r"\d:\d\d", rendered.text)


def test_the_group_is_told_once_when_the_timer_played_for_someone() -> None:
    boris = SeatInfo("Борис", 2)
    assert render_timed_out(boris, RU) == Rendered("⏰ Борис: время на ход вышло, сыграл бот.", None)
    assert render_timed_out(boris, EN) == Rendered("⏰ Борис: time ran out, the bot played.", None)


@LOCALES
def test_a_move_the_timer_made_is_marked_as_the_bots(tr: Translator) -> None:
    hand = cv.render_private(konchinka_table(auto_move=True), tr).text.splitlines()
    group = cv.render_table(konchinka_table(auto_move=True), tr).text.splitlines()
    state = king_position()
    state.apply(Play(Card.parse("Kh")))
    king = kv.render_table(king_table(state, auto_move=True), tr).text.splitlines()
    if tr is RU:
        assert hand[2] == "· ⏰ Вера кладёт 5♥ — сыграл бот: время вышло"
        assert "· ⏰ Вера кладёт 5♥ — сыграл бот: время вышло" in group
        assert "⏰ Аня К♥ — сыграл бот: время вышло" in king
    else:
        assert hand[2] == "· ⏰ Вера puts down 5♥ — played by the bot: time ran out"
        assert "· ⏰ Вера puts down 5♥ — played by the bot: time ran out" in group
        assert "⏰ Аня K♥ — played by the bot: time ran out" in king
    plain = cv.render_table(konchinka_table(), tr).text
    assert "⏰" not in plain


# ------------------------------------------------------------------------------------ Кинг deal endings


DEAL_END = {
    "ru": [
        "<b>Раздача 6/15 окончена</b> · «не брать кинга»",
        "Последняя взятка: Борис Т♥ · Вера 7♥ · 🤖 Любитель 8♥ · Аня К♥ → берёт Борис",
        "⏭ Сыграно 7 взяток из 8: все штрафные карты уже взяты, остальные взятки не разыгрываются.",
        "Аня <b>0</b> · Борис <b>−16</b> · Вера <b>0</b> · 🤖 Любитель <b>0</b>",
    ],
    "en": [
        "<b>Deal 6/15 is over</b> · “no king of hearts”",
        "Final trick: Борис A♥ · Вера 7♥ · 🤖 Amateur 8♥ · Аня K♥ → Борис takes it",
        "⏭ 7 of 8 tricks played: every penalty card is taken, the rest are not played.",
        "Аня <b>0</b> · Борис <b>−16</b> · Вера <b>0</b> · 🤖 Amateur <b>0</b>",
    ],
}


@LOCALES
def test_king_deal_end_shows_the_last_trick_and_why_the_deal_stopped_early(tr: Translator) -> None:
    state = king_position()
    state.apply(Play(Card.parse("Kh")))
    assert state.deal_index == 6, "the deal stopped: К♥ was the last penalty"
    (end,) = state.deal_ends
    assert end.deal_index == 5 and end.tricks_played == 7 and end.stopped_early
    assert end.last_trick.winner == 1
    rendered = kr.render_deal_end(king_table(state), tr, 6)
    assert_valid(rendered)
    assert rendered.text.splitlines()[:4] == DEAL_END[tr.locale.value]


def test_a_deal_played_to_the_end_shows_its_last_trick_and_no_reason() -> None:
    state = KingGame().new_initial_state(2)
    while state.deals_completed < 1:
        state.apply(state.legal_actions()[0])
    (end,) = state.deal_ends
    assert end.tricks_played == 8 and not end.stopped_early
    text = kr.render_deal_end(king_table(state), RU, 1).text
    names = ["Аня", "Борис", "Вера", "🤖 Любитель"]
    plays = " · ".join(f"{names[p]} {c.ru}" for p, c in end.last_trick.plays)
    assert text.splitlines()[1] == f"Последняя взятка: {plays} → берёт {names[end.last_trick.winner]}"
    assert "🛑" not in text
    assert state.view(2).deal_ends == state.deal_ends
    assert state.clone().deal_ends == state.deal_ends


# ------------------------------------------------------------------------------------ the party's end


def finished_konchinka() -> KonchinkaState:
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=3, target=7)),
        hands=[parse_cards("Jc"), parse_cards("4h"), parse_cards("5s")],
        table=parse_cards("2c Td 3h"),
        current_player=0,
        dealer=2,
        deal_number=3,
        captured=[
            parse_cards("Ac Kc Qc 9c 8c 7c As Ks Qs Js Ts 9s"),
            parse_cards("Ah Kh"),
            parse_cards("Ad"),
        ],
        tally=[(2, 6), (1, 3), (2, 4)],
    )
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    return state


@LOCALES
def test_party_end_in_a_private_chat_names_the_winner_and_the_totals_by_place(tr: Translator) -> None:
    state = finished_konchinka()
    outcome = state.outcome
    assert outcome is not None and outcome.winners == (0,)
    info = TableInfo("g1", SEATS[:3], view=state.view(1))
    with_rematch = cr.render_party_end(info, tr)
    without = cr.render_party_end(info, tr, rematch=False)
    assert_valid(with_rematch)
    lines = with_rematch.text.splitlines()
    total = state.tally[0][-1]
    if tr is RU:
        assert lines[:2] == [
            "🏆 <b>Партия окончена!</b>",
            "Победа: Аня — " + RU.t("rules-answer-value", value=total),
        ]
        assert f"Итог: Аня {total} · Вера {state.tally[2][-1]} · Борис {state.tally[1][-1]}" in lines
        assert rows(with_rematch) == [["🔁 Реванш", "📖 Правила"]]
        assert rows(without) == [["📖 Правила"]]
    else:
        assert lines[:2] == [
            "🏆 <b>The game is over!</b>",
            "Winner: Аня — " + EN.t("rules-answer-value", value=total),
        ]
        assert rows(with_rematch) == [["🔁 Rematch", "📖 Rules"]]
    assert RematchCb.unpack(buttons(with_rematch)[0].callback_data or "").game == "g1"
    assert without.text == with_rematch.text
    assert KONCHINKA.render_party_end(info, tr, rematch=False) == without


def test_king_party_end_offers_the_rematch_only_where_asked() -> None:
    state = KingGame().new_initial_state(1)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    info = king_table(state)
    assert rows(kr.render_party_end(info, RU)) == [["🔁 Реванш", "📖 Правила"]]
    assert rows(KING.render_party_end(info, EN, rematch=False)) == [["📖 Rules"]]


@LOCALES
def test_stats_say_whose_they_are(tr: Translator) -> None:
    stats = [UserStats("konchinka", GameMode.GROUP, games=3, wins=1, points=20, settlement=0)]
    games = [("konchinka", "🃏")]
    named = render_stats(stats, games, tr, "<Аня>").text.splitlines()[0]
    own = render_stats(stats, games, tr).text.splitlines()[0]
    if tr is RU:
        assert (named, own) == ("📊 <b>Статистика: &lt;Аня&gt;</b>", "📊 <b>Ваша статистика</b>")
    else:
        assert (named, own) == ("📊 <b>Stats: &lt;Аня&gt;</b>", "📊 <b>Your stats</b>")


# ------------------------------------------------------------------------------------ lobby


LOBBY = {
    "ru": (
        "🃏 <b>Кончинка</b> · классика · до 15\n"
        "⏱ На ход: 60 с\n"
        "Игроки (1/4):\n"
        " 1. &lt;b&gt;Аня&lt;/b&gt; <i>(организатор)</i>\n"
        "Кто сдаёт первым — решит жребий.\n"
        "Нужен ещё 1 игрок."
    ),
    "en": (
        "🃏 <b>Konchinka</b> · classic · to 15\n"
        "⏱ Per move: 60 s\n"
        "Players (1/4):\n"
        " 1. &lt;b&gt;Аня&lt;/b&gt; <i>(host)</i>\n"
        "The first dealer is drawn by lot.\n"
        "One more player needed."
    ),
}


@LOCALES
def test_a_lobby_with_the_creator_already_seated(tr: Translator) -> None:
    creator = SeatInfo("<b>Аня</b>", 1)
    info = lobby_info(
        "g1", "konchinka", {"target": 15}, (creator,), tr, creator_name="<b>Аня</b>", creator_id=1
    )
    rendered = render_lobby(info, tr)
    assert_valid(rendered)
    assert rendered.text == LOBBY[tr.locale.value]
    unseated = render_lobby(dataclasses.replace(info, seats=()), tr).text
    assert ("Организатор: &lt;b&gt;Аня&lt;/b&gt;" if tr is RU else "Host: &lt;b&gt;Аня&lt;/b&gt;") in unseated


@LOCALES
def test_you_are_in_names_the_group_and_what_comes_next(tr: Translator) -> None:
    rendered = render_joined("<Клуб & друзья>", tr.t("game-konchinka"), tr)
    assert_valid(rendered)
    if tr is RU:
        assert rendered.text == (
            "✅ Вы записаны в партию «Кончинка» в группе «&lt;Клуб &amp; друзья&gt;». "
            "Когда организатор начнёт её, карты придут сюда."
        )
    else:
        assert rendered.text == (
            "✅ You are in the Konchinka game in “&lt;Клуб &amp; друзья&gt;”. "
            "When the host starts it, your cards will come here."
        )


# ------------------------------------------------------------------------------------ names and words


@LOCALES
def test_bot_names_are_short_and_distinct(tr: Translator) -> None:
    names = {bot_name(level, n, tr) for level in Level for n in range(5)}
    assert len(names) == len(Level) * 5
    assert max(len(name) for name in names) <= 12
    seats = number_bots([SeatInfo("", is_bot=True, level=Level.HARD) for _ in range(3)])
    expected = ["Мастер", "Master"][tr is EN]
    assert [seat_name(s, tr) for s in seats] == [f"🤖 {expected} {n}" for n in (1, 2, 3)]


def test_english_never_calls_the_game_a_party() -> None:
    for path in ftl_files(Locale.EN):  # the shared texts and each game's folder
        for line in path.read_text(encoding="utf-8").splitlines():
            value = line.split("=", 1)[1] if re.match(r"^[a-z][\w-]* =", line) else line
            assert "party" not in value.lower(), (path.name, line)
            assert "parties" not in value.lower(), (path.name, line)


@LOCALES
def test_a_king_hand_in_a_group_shows_the_previous_trick_and_who_took_it(tr: Translator) -> None:
    """«С вашего хода» in Кинг: with a trick on the table, the previous one (with the plays after one's own) and
    its taker come first, within six lines."""
    state = KingGame().new_initial_state(3)
    while not (state.view(state.current_player).tricks_this_deal and state.view(state.current_player).trick):
        state.apply(state.legal_actions()[0])
    player = state.current_player
    last = state.view(player).tricks_this_deal[-1]
    bot = "🤖 Любитель" if tr is RU else "🤖 Amateur"

    def name(seat: int) -> str:
        return SEATS[seat].name or bot

    plays = " · ".join(f"{name(p)} {c.ru if tr is RU else c.text}" for p, c in last.plays)
    lines = kv.render_private(king_table(state, player), tr).text.splitlines()
    if tr is RU:
        assert lines[1] == f"Прошлая взятка: {plays} → берёт {name(last.winner)}"
        assert lines[2].startswith("На столе: ")
    else:
        assert lines[1] == f"Last trick: {plays} → {name(last.winner)} takes it"
        assert lines[2].startswith("On the table: ")
    assert len(lines) <= 6


@LOCALES
def test_a_seat_a_bot_player_plays_never_shows_its_owner_a_turn(tr: Translator) -> None:
    """Issue 32, item 2: at the replaced seat's turn, its owner's hand says the bot plays for them, with the
    button that brings them back — no «Ваш ход», no cards to press (the bot moves a moment later)."""
    replaced = tuple(dataclasses.replace(s, is_replaced=True) if i == 0 else s for i, s in enumerate(SEATS))
    hands = [
        cv.render_private(konchinka_table(seats=replaced[:3]), tr),
        kv.render_private(king_table(king_position(), seats=replaced), tr),
    ]
    for hand in hands:
        assert_valid(hand)
        assert tr.t("hand-replaced") in hand.text
        assert "👉" not in hand.text
        data = (
            [b.callback_data or "" for row in hand.markup.inline_keyboard for b in row] if hand.markup else []
        )
        assert not [d for d in data if d.startswith(("p:", "m:"))], data
        assert any(d.startswith("t:") for d in data), "the button that takes the seat back"
