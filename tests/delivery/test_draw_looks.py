"""What a person asks to see again, drawn: their hand anew below («🃏 Мои карты»), the group's table anew (/score),
the whole table privately («📋 Стол»: one copy, which then follows the table), the score sheet (or, before a deal
has ended, the table), the party's history; the pressed message adopted; a game cancelled mid-party; a solo game's
one screen; and the drawing itself: the same arguments, the same orders, and nothing else read."""

from __future__ import annotations

import copy as copying
import dataclasses
import random

from bot.delivery.draw import Pressed, draw
from bot.delivery.outbox import Priority, SheetPhoto, TextFile
from bot.delivery.outbox.orders import Adopt
from bot.flow import lobby, moves, people
from bot.flow.commands import Cancel, Pick, Play, SendHistory, ShowHand, StartSolo, TakeSeat
from bot.games import plugin_of
from bot.model.game import Game
from bot.model.party import Party
from engine.ai import Level
from tests.delivery.drawing import (
    BOT,
    TABLE,
    Drawn,
    adopted,
    buttons,
    change,
    copy,
    deal_scored,
    from_scratch,
    hand,
    hurried,
    last_card_of_the_deal,
    moves_offered,
    posted,
    sheet,
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
    replaced,
    solo_party,
    with_user,
)


def played_out() -> Game:
    """A group party played to its end from a deal (to 11, each move drawn by lot), so its history replays."""
    plugin = plugin_of("konchinka")
    party: Party = plugin.new_party({**plugin.default_options(None), "target": 11}, 2, SEED)
    rng = random.Random(SEED)
    while not party.is_terminal:
        legal = party.view_of(party.current_player).legal_actions  # type: ignore[attr-defined]
        party, _ = party.after(rng.randrange(len(legal)))
    return finished(group_party(ANNA, BORIS), party)


def reminded_and_picked() -> Game:
    """Аня to move, reminded, with 2♠ picked (what her messages show beyond the rules)."""
    game = group_party(ANNA, BORIS)
    picks = {ANNA.user_id: ("2s", 0)}
    return dataclasses.replace(
        game, screens=dataclasses.replace(game.screens, picks=picks, reminders={ANNA.user_id: 0})
    )


def sheet_asked(game: Game, chat_id: int) -> Drawn:
    return change(game, people.show_sheet(game, ANNA.user_id, chat_id, 0, pressed=True))


# --- a hand, the table, a copy of it ------------------------------------------------------------------------------


def test_my_cards_sends_the_askers_hand_anew_and_no_one_elses() -> None:
    game = group_party(ANNA, BORIS)
    drawn = change(game, people.show_hand(ShowHand(GAME_ID, BORIS), game))
    boris, anna = shown(drawn.orders, hand(BORIS)), shown(drawn.orders, hand(ANNA))
    assert boris.resend and boris.priority is Priority.HAND and not moves_offered(boris)
    assert not anna.resend


def test_my_cards_on_ones_turn_comes_as_the_turn() -> None:
    game = group_party(ANNA, BORIS)
    drawn = change(game, people.show_hand(ShowHand(GAME_ID, ANNA), game))
    anna = shown(drawn.orders, hand(ANNA))
    assert anna.resend and anna.priority is Priority.TURN and moves_offered(anna)


def test_score_in_the_group_sends_the_table_anew_and_hurries_the_old_ones_deletion() -> None:
    game = group_party(ANNA, BORIS)
    drawn = change(game, people.repost(game))
    table = shown(drawn.orders, TABLE)
    assert table.resend and "Ходит: Аня" in table.text
    assert GROUP in hurried(drawn.orders)
    assert not any(shown(drawn.orders, hand(p)).resend for p in (ANNA, BORIS))


def test_the_table_button_sends_the_whole_table_to_the_asker_in_their_language() -> None:
    game = with_user(group_party(ANNA, BORIS), BORIS, lang="en")
    drawn = change(game, people.show_table(game, BORIS.user_id))
    table_copy = shown(drawn.orders, copy(BORIS))
    assert table_copy.chat_id == BORIS.user_id and table_copy.resend
    assert "On the table: 10♦  3♣  2♥  7♣" in table_copy.text and "Аня" in table_copy.text
    assert copy(ANNA) not in slots(drawn.orders)


def test_a_seat_taken_back_sends_the_players_hand_anew() -> None:
    game = replaced(group_party(ANNA, BORIS), BORIS)
    drawn = change(game, moves.take_seat(TakeSeat(GAME_ID, BORIS), game, NOW, CONFIG))
    boris = shown(drawn.orders, hand(BORIS))
    assert boris.resend and "↩️ Вернуться за стол" not in buttons(boris)
    assert not shown(drawn.orders, hand(ANNA)).resend


# --- the score sheet, the history ----------------------------------------------------------------------------------


def test_the_sheet_asked_in_the_group_before_any_deal_ended_is_the_table_anew() -> None:
    drawn = sheet_asked(group_party(ANNA, BORIS), GROUP)
    assert shown(drawn.orders, TABLE).resend
    assert sheet(GROUP) not in slots(drawn.orders)


def test_the_sheet_asked_in_private_before_any_deal_ended_is_the_table_copy() -> None:
    drawn = sheet_asked(group_party(ANNA, BORIS), ANNA.user_id)
    assert shown(drawn.orders, copy(ANNA)).resend
    assert not shown(drawn.orders, TABLE).resend


def test_the_sheet_asked_once_a_deal_ended_is_its_photo_anew_in_that_chat() -> None:
    game = deal_scored()
    for chat in (GROUP, ANNA.user_id):
        drawn = sheet_asked(game, chat)
        photo = shown(drawn.orders, sheet(chat))
        assert photo.resend and isinstance(photo.media, SheetPhoto)
        assert photo.text == "📋 Запись после раздачи 2: Аня 7 · Борис 1"
        assert not shown(drawn.orders, TABLE).resend


def test_the_history_is_a_text_file_in_the_chat_it_was_asked_in() -> None:
    game = played_out()
    for chat, priority in ((GROUP, Priority.ASKED), (BORIS.user_id, None)):
        decision = people.send_history(SendHistory(BORIS, GAME_ID, chat), game)
        file = shown(change(game, decision).orders, f"y{GAME_ID}:{chat}")
        assert isinstance(file.media, TextFile) and file.media.name.endswith(".txt")
        assert file.priority is priority


# --- the message pressed ----------------------------------------------------------------------------------------------


def test_a_hand_pressed_to_move_is_adopted_if_newer_than_the_one_known() -> None:
    game = group_party(ANNA, BORIS)
    pressed = Pressed(ANNA.user_id, 555, ANNA.user_id)
    for card in ("Kd", "2s"):  # a move; a first tap that opens a choice
        decision = moves.pick(Pick(GAME_ID, ANNA, 0, card), game, NOW, CONFIG)
        drawn = change(game, decision, pressed=pressed)
        assert adopted(drawn.orders) == [Adopt(hand(ANNA), ANNA.user_id, 555, newer_only=True)]
        assert drawn.orders[0] == adopted(drawn.orders)[0]  # before anything is shown in it


def test_a_press_in_the_group_or_one_that_moved_nothing_adopts_nothing() -> None:
    game = group_party(ANNA, BORIS)
    decision = moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG)
    assert adopted(change(game, decision, pressed=Pressed(GROUP, 9, ANNA.user_id)).orders) == []
    away = replaced(game, BORIS)
    back = moves.take_seat(TakeSeat(GAME_ID, BORIS), away, NOW, CONFIG)
    assert adopted(change(away, back, pressed=Pressed(BORIS.user_id, 9, BORIS.user_id)).orders) == []


def test_the_message_that_started_a_solo_game_becomes_its_screen() -> None:
    opening = lobby.Opening(GAME_ID, NOW)
    decision = lobby.start_solo(StartSolo(ANNA, "konchinka", 2, Level.EASY), opening, SEED, CONFIG)
    drawn = change(None, decision, pressed=Pressed(ANNA.user_id, 77, ANNA.user_id))
    assert drawn.orders[0] == Adopt(hand(ANNA), ANNA.user_id, 77)
    assert slots(drawn.orders) == [hand(ANNA)]
    screen = shown(drawn.orders, hand(ANNA))
    assert "🤖 Новичок 1" in screen.text and "🤖 Новичок 2" in screen.text
    assert moves_offered(screen) and "💡 Подсказка" in buttons(screen)


# --- a game cancelled mid-party -----------------------------------------------------------------------------------------


def test_a_party_cancelled_by_its_button_closes_the_table_and_the_hands_in_place() -> None:
    game = deal_scored()
    drawn = change(game, lobby.cancel(Cancel(ANNA, GAME_ID), game, None, NOW))
    table = shown(drawn.orders, TABLE)
    assert table.text.startswith("✖️ Партия отменена.") and "Аня 7 · Борис 1" in table.text
    assert not table.paced and not table.resend and table.markup is None
    for person in (ANNA, BORIS):
        closed = shown(drawn.orders, hand(person))
        assert closed.text.startswith("✖️ Партия отменена.")
        assert closed.only_existing and not closed.resend and closed.markup is None


def test_a_table_copy_of_a_cancelled_party_says_it_is_cancelled_not_whose_turn_it_was() -> None:
    game = deal_scored()
    drawn = change(game, lobby.cancel(Cancel(ANNA, GAME_ID), game, None, NOW), copies=[BORIS.user_id])
    kept = shown(drawn.orders, copy(BORIS))
    assert kept.text.startswith("✖️ Партия отменена.") and "Аня 7 · Борис 1" in kept.text
    assert "Ходит" not in kept.text and kept.markup is None
    assert kept.only_existing and not kept.resend
    assert copy(ANNA) not in slots(drawn.orders)


def test_a_party_cancelled_by_command_says_so_anew_below_in_the_group() -> None:
    game = group_party(ANNA, BORIS)
    drawn = change(game, lobby.cancel(Cancel(ANNA, None, GROUP), game, None, NOW))
    assert shown(drawn.orders, TABLE).resend and GROUP in hurried(drawn.orders)
    assert not shown(drawn.orders, hand(ANNA)).resend


def test_a_solo_game_cancelled_by_command_says_so_anew_in_its_chat() -> None:
    game = solo_party()
    drawn = change(game, lobby.cancel(Cancel(ANNA, None, ANNA.user_id), game, None, NOW))
    screen = shown(drawn.orders, hand(ANNA))
    assert screen.text == "✖️ Партия отменена." and screen.resend
    assert slots(drawn.orders) == [hand(ANNA)]


def test_a_cancelled_game_is_told_in_each_persons_language() -> None:
    game = with_user(group_party(ANNA, BORIS), BORIS, lang="en")
    drawn = change(game, lobby.cancel(Cancel(ANNA, GAME_ID), game, None, NOW))
    assert "отменена" in shown(drawn.orders, hand(ANNA)).text
    assert "cancelled" in shown(drawn.orders, hand(BORIS)).text


# --- the drawing itself --------------------------------------------------------------------------------------------------


def test_the_same_change_draws_the_same_orders_whatever_was_drawn_before() -> None:
    game = last_card_of_the_deal()  # a deal's end: notices, sheets, hands anew
    first = change(game, moves.play(Play(GAME_ID, ANNA, 1, 0), game, NOW, CONFIG), copies=[BORIS.user_id])
    solo = solo_party()
    change(solo, moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), solo, NOW, CONFIG))  # another game drawn between
    again = draw(first.before, first.after, first.events, first.notices, BOT, None, [BORIS.user_id])
    assert again == first.orders
    assert len(posted(again)) == 3 and sheet(GROUP) in slots(again)


def test_drawing_changes_none_of_its_arguments() -> None:
    game = reminded_and_picked()
    drawn = change(game, moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG))
    kept = copying.deepcopy((drawn.notices, dict(game.users), game.screens, dict(drawn.after.users)))
    copies = [BORIS.user_id]
    draw(game, drawn.after, drawn.events, drawn.notices, BOT, None, copies)
    assert (drawn.notices, dict(game.users), game.screens, dict(drawn.after.users)) == kept
    assert copies == [BORIS.user_id]


def test_a_game_drawn_from_scratch_shows_every_message_without_notifying_anyone() -> None:
    orders = from_scratch(group_party(ANNA, BORIS))
    assert slots(orders) == [TABLE, hand(ANNA), hand(BORIS)]
    assert not any(s.resend for s in shows(orders))
