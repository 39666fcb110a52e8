"""Кинг screens as a player sees them, on real engine states: the hand in suit rows, the trump choice, the
group table, the ends of deals and of the party with the score sheet, and the answers to unplayable cards."""

from __future__ import annotations

import dataclasses
import html
import random
import re
from collections.abc import Callable, Iterator

import pytest

from bot.callbacks import LobbyCb, MoveCb, PickCb, RematchCb
from bot.games.king import KING
from bot.games.king import results as kr
from bot.games.king import views as kv
from bot.games.king.settings import KingSetting
from bot.views import Rendered, SeatInfo, TableInfo, illegal_answer, render_lobby
from bot.views.common import seat_name
from engine.ai import Level
from engine.cards import PIQUET_DECK, Card, Suit, parse_cards
from engine.king import ChooseTrump, Contract, KingGame, KingOptions, KingState, KingView, Phase, Play
from tests.bot.conftest import lobby_info
from tests.bot.test_views import EN, HOSTILE, HOSTILE_SEATS, RU, assert_valid, buttons, by_text

SEATS = (
    SeatInfo("Аня", 1),
    SeatInfo("Борис", 2),
    SeatInfo("Вера", 3),
    SeatInfo("", None, True, Level.NORMAL),
)


def table(
    state: KingState,
    player: int,
    seats: tuple[SeatInfo, ...] = SEATS,
    *,
    turn_seconds: int = 0,
    solo: bool = False,
) -> TableInfo[KingView]:
    return TableInfo("g1", seats, "kbot", solo, turn_seconds, view=state.view(player))


def play_until(state: KingState, done: Callable[[KingState], bool], seed: int = 0) -> KingState:
    rng = random.Random(seed)
    for _ in range(2000):
        if done(state):
            return state
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("condition never reached")


def plain(rendered: Rendered) -> str:
    """The text as Telegram shows it: tags gone, entities unescaped."""
    return html.unescape(re.sub(r"<[^>]+>", "", rendered.text))


def rows_of(rendered: Rendered) -> list[list[str]]:
    assert rendered.markup is not None
    return [[b.text for b in row] for row in rendered.markup.inline_keyboard]


def mockup_position() -> KingState:
    """The mockup: «не брать кинга», Вера led 9♦, the bot played В♦, and Аня holds two diamonds (and K♥)."""
    anna = parse_cards("As 8s Kh Td 7d Qc 9c 7c")
    trick = parse_cards("9d Jd")
    rest = [c for c in PIQUET_DECK if c not in anna and c not in trick]
    hands = [anna, rest[:8], rest[8:15], rest[15:22]]
    return KingState.from_position(
        hands, contract=Contract.NO_KING, dealer=1, leader=2, trick=[(2, trick[0]), (3, trick[1])]
    )


def positive_choice(seed: int = 3) -> KingState:
    return play_until(KingGame().new_initial_state(seed), lambda s: s.phase is Phase.CHOOSE_TRUMP, seed)


# ------------------------------------------------------------------------------------------- the hand


def test_hand_is_grouped_by_suit_and_legal_cards_play_on_one_tap() -> None:
    state = mockup_position()
    assert state.current_player == 0
    info = table(state, 0)
    rendered = kv.render_private(info, RU)
    assert_valid(rendered)
    assert rows_of(rendered) == [
        ["·Т♠·", "·8♠·"],
        ["·К♥·"],
        ["10♦", "7♦"],
        ["·Д♣·", "·9♣·", "·7♣·"],
        ["📋 Стол", "📖 Правила"],
    ]
    for b in buttons(rendered)[:-2]:
        c = Card.parse(b.text.strip("·"))
        if c.suit is Suit.DIAMONDS:
            move = MoveCb.unpack(b.callback_data or "")
            assert info.view.legal_actions[move.index] == Play(c)
            assert move.version == state.version
        else:
            pick = PickCb.unpack(b.callback_data or "")
            assert pick.card == c.code and pick.version == state.version
    assert rendered.text == (
        "👑 <b>Кинг</b> · 6/15 · 📜 «не брать кинга»\n"
        "На столе: Вера 9♦ · 🤖 Любитель В♦\n"
        "👉 <b>Ваш ход, Аня!</b>\n"
        "Ваши карты — чем ходите?"
    )


def test_an_unplayable_card_is_answered_with_the_reason_and_changes_nothing() -> None:
    follow = mockup_position()
    version = follow.version
    assert KING.actions_of_card(follow.view(0), "Kh") == []
    assert KING.actions_of_card(follow.view(0), "Td") != []
    refusal = KING.refusal(follow, "Kh")
    assert refusal is not None and follow.version == version and "Kh" in [c.code for c in follow.hands[0]]
    assert illegal_answer(refusal, RU) == "Нужно класть карту в масть: у вас есть ♦."
    assert illegal_answer(refusal, EN).endswith("♦.")

    lead = KingState.from_position(
        [
            parse_cards("7h 8s Kd Ac"),
            parse_cards("8h 9s Qd Kc"),
            parse_cards("9h Ts Jd Qc"),
            parse_cards("Th Js Td Jc"),
        ],
        contract=Contract.NO_HEARTS,
        dealer=3,
    )
    assert lead.current_player == 0
    no_heart = KING.refusal(lead, "7h")
    assert no_heart is not None
    assert illegal_answer(no_heart, RU) == "Заходить с червей нельзя, пока есть другие масти."

    king = KingState.from_position(
        [parse_cards("8s"), parse_cards("Kh 9s"), parse_cards("9h Ts"), parse_cards("Th Js")],
        contract=Contract.NO_KING,
        dealer=3,
        leader=0,
        trick=[(0, Card.parse("Ac"))],
    )
    forced = KING.refusal(king, "9s")
    assert forced is not None
    assert illegal_answer(forced, RU) == "Сейчас нужно отдать кинга (К♥)."

    trump = KingState.from_position(
        [parse_cards("8s"), parse_cards("7h 9s"), parse_cards("9h Ts"), parse_cards("Th Js")],
        deal_index=9,
        dealer=1,
        leader=0,
        trump=Suit.HEARTS,
        trick=[(0, Card.parse("Ac"))],
    )
    must_trump = KING.refusal(trump, "9s")
    assert must_trump is not None
    assert illegal_answer(must_trump, RU) == "Масти нет — нужно бить козырем ♥."


def test_not_your_turn_shows_the_hand_as_text_by_suit_without_buttons() -> None:
    state = mockup_position()
    state.apply(Play(Card.parse("7d")))
    rendered = kv.render_private(table(state, 0, turn_seconds=30), RU)
    assert_valid(rendered)
    assert rows_of(rendered) == [["📋 Стол", "📖 Правила"]]
    assert rendered.text == (
        "👑 <b>Кинг</b> · 6/15 · 📜 «не брать кинга»\n"
        "⏳ После вас во взятке: Борис; следующую начнёт взявший. Стол и ходы — в группе.\n"
        "Ваши карты: Т♠ 8♠ · К♥ · 10♦ · Д♣ 9♣ 7♣"
    )
    english = kv.render_private(table(state, 0, turn_seconds=30), EN)
    assert (
        "⏳ After you in the trick: Борис; whoever takes it leads the next. The table and the moves are in the group."
        in english.text
    )


def test_a_waiting_hand_stays_the_same_while_the_others_play_the_trick() -> None:
    state = mockup_position()
    state.apply(Play(Card.parse("7d")))
    waiting = kv.render_private(table(state, 0, turn_seconds=30), RU)
    mover = state.current_player
    assert mover != 0
    state.apply(state.legal_actions()[0])
    assert state.current_player != 0, "the trick goes on without Аня"
    assert kv.render_private(table(state, 0, turn_seconds=30), RU) == waiting


# ------------------------------------------------------------------------------------------- trump choice


def test_the_chooser_sees_three_cards_and_names_trump_the_others_wait() -> None:
    state = positive_choice()
    chooser = state.current_player
    assert state.view(chooser).chooser == chooser
    mine = kv.render_private(table(state, chooser), RU)
    assert_valid(mine)
    three = state.view(chooser).hand
    assert len(three) == 3
    assert "Ваши первые три карты: " + "  ".join(c.ru for c in three) in plain(mine)
    assert "козыря назначаете вы" in plain(mine)
    assert rows_of(mine) == [["♠", "♥", "♦", "♣"], ["🂠 По последней"], ["📋 Стол", "📖 Правила"]]
    legal = state.view(chooser).legal_actions
    chosen = {b.text: legal[MoveCb.unpack(b.callback_data or "").index] for b in buttons(mine)[:5]}
    assert chosen == {
        "♠": ChooseTrump(Suit.SPADES),
        "♥": ChooseTrump(Suit.HEARTS),
        "♦": ChooseTrump(Suit.DIAMONDS),
        "♣": ChooseTrump(Suit.CLUBS),
        "🂠 По последней": ChooseTrump(None),
    }
    name = ["Аня", "Борис", "Вера", "🤖 Любитель"][chooser]
    for other in range(4):
        if other == chooser:
            continue
        theirs = kv.render_private(table(state, other), RU)
        assert f"⏳ Ждём козыря — назначает {name}" in plain(theirs)
        assert rows_of(theirs) == [["📋 Стол", "📖 Правила"]] and "Ваши карты" not in plain(theirs)
    group = kv.render_table(table(state, chooser), RU)
    assert f"Ждём козыря — назначает {name}" in plain(group)
    assert not any(c.ru in plain(group) for c in three), "the chooser's cards stay private"


def test_trump_by_the_last_card_shows_the_eighth_card_to_everyone() -> None:
    state = positive_choice()
    chooser = state.current_player
    state.apply(ChooseTrump(None))
    eighth = state.trump_card_shown
    assert eighth is not None
    line = f"козырь {eighth.suit.symbol} — по последней: {eighth.ru}"
    assert line in plain(kv.render_table(table(state, 0), RU))
    for seat in range(4):
        assert line in plain(kv.render_private(table(state, seat), RU))
    named = positive_choice()
    named.apply(ChooseTrump(Suit.HEARTS))
    text = plain(kv.render_table(table(named, chooser), RU))
    assert "козырь ♥ (назначил" in text and "по последней" not in text


# ------------------------------------------------------------------------------------------- group table


def test_group_table_shows_deal_contract_trick_tricks_penalties_last_trick_and_totals() -> None:
    state = play_until(
        KingGame().new_initial_state(11),
        lambda s: s.deal_index == 3 and s.tricks_done >= 2 and len(s.trick) == 1 and any(s.penalty_cards),
        11,
    )
    rendered = kv.render_table(table(state, 0, turn_seconds=42), RU)
    assert_valid(rendered)
    text = plain(rendered)
    assert text.startswith("👑 Кинг · раздача 4/15 · сдаёт ")
    assert "📜 «не брать червей»" in text
    leader, led = state.trick[0]
    assert f"На столе: {['Аня', 'Борис', 'Вера', '🤖 Любитель'][leader]} {led.ru}" in text
    assert " · ⏱ 42 с на ход" in text
    for seat, name in enumerate(["Аня", "Борис", "Вера", "🤖 Любитель"]):
        line = next(x for x in text.splitlines() if x.lstrip("👉 ").startswith(f"{name} — взяток: "))
        assert line.lstrip("👉 ").startswith(f"{name} — взяток: {state.tricks_won[seat]}")
        for c in state.penalty_cards[seat]:
            assert c.ru in line
    last = state.tricks_this_deal[-1]
    assert (
        "Прошлая взятка: "
        + " · ".join(f"{['Аня', 'Борис', 'Вера', '🤖 Любитель'][p]} {c.ru}" for p, c in last.plays)
        in text
    )
    totals = state.results
    assert "Итого: Аня " + kv.signed(totals[0]) in text
    assert [b.text for b in buttons(rendered)] == ["📖 Правила", "🃏 Мои карты"]
    in_hands = [c for hand in state.hands for c in hand]
    assert in_hands and not any(c.ru in text for c in in_hands), "no card of any hand in the group"


# ------------------------------------------------------------------------------------------- results


def test_deal_end_says_the_deal_once_beside_the_picture() -> None:
    """Issue 48, item 5: the deal's last trick and points in a few lines; the sheet so far is the picture."""
    state = play_until(KingGame().new_initial_state(5), lambda s: s.deals_completed == 9, 5)
    rendered = kr.render_deal_end(table(state, 0), RU, 9)
    assert_valid(rendered)
    text = plain(rendered)
    row = state.score_sheet[8]
    assert text.startswith("Раздача 9/15 окончена · отыгрыш 2/8\nПоследняя взятка: ")
    assert "Аня " + kv.signed(row[0]) + " · Борис " + kv.signed(row[1]) in text
    assert len(text.splitlines()) <= 4 and "Запись:" not in text and "<pre>" not in rendered.text
    # The penalties of every negative deal are what the contract is worth.
    assert [sum(r) for r in state.score_sheet[:7]] == [-16] * 6 + [-96]


def test_party_end_results_winners_and_rematch_in_a_few_lines() -> None:
    state = play_until(KingGame().new_initial_state(8), lambda s: s.is_terminal, 8)
    rendered = kr.render_party_end(table(state, 0), RU)
    assert_valid(rendered)
    text = plain(rendered)
    assert text.startswith("🏆 Партия окончена!")
    outcome = state.outcome
    assert outcome is not None and sum(outcome.scores) == 0
    names = ["Аня", "Борис", "Вера", "🤖 Любитель"]
    for w in outcome.winners:
        assert f"Победа: {names[w]} — {kv.signed(outcome.scores[w])}" in text
    for seat, name in enumerate(names):
        plus = sum(r[seat] for r in state.score_sheet[7:])
        minus = -sum(r[seat] for r in state.score_sheet[:7])
        assert f"{name}: {plus} − {minus} = {kv.signed(plus - minus)}" in text
    assert "<pre>" not in rendered.text and "Запись:" not in text, "the whole sheet is the final picture"
    assert len([line for line in text.splitlines() if line]) <= 4 + 1 + len(names), text
    assert RematchCb.unpack(by_text(rendered, "🔁 Реванш").callback_data or "").game == "g1"
    last = kr.render_deal_end(table(state, 0), RU, 15)
    assert "<pre>" not in last.text, "the last deal's sheet comes with the results"
    solo = kv.render_private(table(state, 0, solo=True), RU)
    assert "🔁 Реванш" in [b.text for b in buttons(solo)]


# ------------------------------------------------------------------------------------------- limits


def _all_screens(seats: tuple[SeatInfo, ...]) -> Iterator[Rendered]:
    game = KingGame(KingOptions(king_forced_on_heart_lead=False))
    states = [
        mockup_position(),
        positive_choice(4),
        play_until(game.new_initial_state(2), lambda s: s.deals_completed == 7 and s.phase is Phase.PLAY, 2),
        play_until(game.new_initial_state(3), lambda s: s.is_terminal, 3),
    ]
    for tr in (RU, EN):
        for state in states:
            for seat in range(4):
                info = table(state, seat, seats, turn_seconds=75)
                yield kv.render_private(info, tr)
                yield kv.render_private(TableInfo("g1", seats, "kbot", True, view=info.view), tr)
            yield kv.render_table(table(state, 0, seats), tr)
            yield kr.render_deal_end(table(state, 0, seats), tr)
            yield kr.render_party_end(table(state, 0, seats), tr)
        lobby = lobby_info("g1234567890ab", "king", KING.default_options(None), seats[:2], tr)
        yield render_lobby(lobby, tr)
        yield KING.render_settings(lobby, tr)


def test_every_king_screen_is_valid_telegram_html_with_hostile_names() -> None:
    count = 0
    for rendered in _all_screens(HOSTILE_SEATS):
        assert_valid(rendered)
        count += 1
    assert count > 60
    text = kv.render_table(table(mockup_position(), 0, HOSTILE_SEATS), RU).text
    assert "&lt;b&gt;&amp;Аня&lt;/script&gt;" in text and HOSTILE not in text


# ------------------------------------------------------------------------------------------- settings


def test_order_presets_in_the_settings_and_the_options_they_set() -> None:
    options = KING.default_options(None)
    lobby = lobby_info("g1", "king", options, SEATS[:1], RU)
    rendered = KING.render_settings(lobby, RU)
    assert "Порядок раздач «не брать»: взятки → мальчики → девочки → черви" in plain(rendered)
    usual = by_text(rendered, "✅ Обычный")
    jacks = LobbyCb.unpack(by_text(rendered, "Сначала мальчики").callback_data or "")
    assert LobbyCb.unpack(usual.callback_data or "").value == "std"
    assert (jacks.key, jacks.value) == (KingSetting.ORDER.value, "jacks")
    changed = KING.set_option(options, KingSetting.ORDER, "jacks")
    assert KingOptions.from_dict(changed).order[:2] == (Contract.NO_JACKS, Contract.NO_TRICKS)
    again = KING.render_settings(dataclasses.replace(lobby, options=changed), RU)
    assert "✅ Сначала мальчики" in [b.text for b in buttons(again)]
    assert "мальчики → взятки → девочки" in plain(again)
    off = KING.set_option(changed, KingSetting.STOP, "0")
    assert KingOptions.from_dict(off).stop_when_decided is False
    assert KING.game_options(off, 2) == KingOptions.from_dict(off).to_dict()
    for key, value in (
        (KingSetting.ORDER, "nope"),
        (KingSetting.FORCED, "2"),
        ("target", "5"),
    ):
        with pytest.raises(ValueError):
            KING.set_option(options, key, value)


def test_a_replaced_players_waiting_hand_says_what_the_bot_played_for_them_last() -> None:
    """Issue 32, point 2: the owner of a seat a bot player plays sees its last move for them, never a turn."""
    state = mockup_position()
    state.apply(Play(Card.parse("7d")))  # seat 0's play; seat 1 moves next
    seats = (dataclasses.replace(SEATS[0], is_replaced=True), *SEATS[1:])
    rendered = kv.render_private(table(state, 0, seats), RU)
    assert rendered.text.splitlines()[1:3] == [
        "🤖 За вас играет бот — вернуться можно кнопкой ниже.",
        "Последний ход бота за вас: 7♦",
    ]
    assert not any("Ваш ход" in line for line in rendered.text.splitlines())


def test_the_waiting_line_says_who_moves_until_ones_turn_and_stays_true_unedited() -> None:
    """Drawn as Аня's card goes (her hand is edited then anyway), the line names who is on the move: the trick's
    leader and who follows up to her, or who follows her card in its trick; it stays true, and the same (no
    edit), while the others play up to her next turn."""
    state = mockup_position()
    names = [seat_name(s, RU) for s in SEATS]
    deal = state.view(0).deal_index
    periods: list[tuple[set[str], list[str]]] = []
    while not state.is_terminal and state.view(0).deal_index == deal:
        if state.current_player == 0:
            state.apply(state.legal_actions()[0])
            periods.append((set(), []))
            continue
        if periods:
            text = kv.render_private(table(state, 0), RU).text.splitlines()[1]
            periods[-1][0].add(text)
            periods[-1][1].append(names[state.current_player])
        state.apply(state.legal_actions()[0])
    periods = [p for p in periods if p[1]]  # not after the deal's last card
    assert len(periods) >= 5
    forms = set()
    for texts, movers in periods:
        assert len(texts) == 1, texts
        (line,) = texts
        lead = re.fullmatch(
            r"⏳ Взятку начинает (.+?), затем (?:(.+) → )?вы\. Стол и ходы — в группе\.", line
        )
        after = re.fullmatch(
            r"⏳ После вас во взятке: (.+); следующую начнёт взявший\. Стол и ходы — в группе\.", line
        )
        forms.add(lead is not None)
        if lead is not None:
            said = [lead[1], *(lead[2].split(" → ") if lead[2] else [])]
            assert movers == said, (line, movers)
        else:
            assert after is not None, line
            said = after[1].split(" → ")
            assert movers[: len(said)] == said, (line, movers)
    assert forms == {True, False}, "both: after her card in mid-trick, and after she ended one"
