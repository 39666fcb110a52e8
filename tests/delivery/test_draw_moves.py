"""A move drawn (``bot.delivery.draw``): the group's table edited in place and paced, the mover's hand stripped of
its buttons, the next person's hand sent anew with theirs (a notification) — not a bot player's seat, nor a seat a
bot player stands in for —, a card with two or more moves opening its choice, a turn's reminder shown and dropped
once the turn is over, the timer's move marked; Кончинка and Кинг alike."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from bot.delivery.draw import Pressed
from bot.delivery.outbox import Priority
from bot.flow import lobby, moves, turns
from bot.flow.commands import Back, BotMove, Cancel, Pick, Play
from bot.games.base import _Party
from bot.games.king import KING
from bot.model.game import Game, Person
from engine.ai import Level
from engine.cards import parse_cards
from engine.king import Contract, KingState
from tests.delivery.drawing import (
    TABLE,
    Drawn,
    buttons,
    change,
    copy,
    dropped,
    from_scratch,
    hand,
    hurried,
    moves_offered,
    posted,
    reminder,
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
    VERA,
    group_party,
    king_mockup,
    konchinka,
    replaced,
    to_move,
    version,
    with_seat,
    with_user,
)


def pick(game: Game, person: Person, card: str, pressed: Pressed | None = None) -> Drawn:
    return change(
        game, moves.pick(Pick(GAME_ID, person, version(game), card), game, NOW, CONFIG), pressed=pressed
    )


def play(game: Game, person: Person, index: int) -> Drawn:
    return change(game, moves.play(Play(GAME_ID, person, version(game), index), game, NOW, CONFIG))


def bot_moves(game: Game) -> Drawn:
    """The timer's move for the seat to move (its first legal action)."""
    assert game.party is not None
    seat = game.party.current_player
    action = game.party.view_of(seat).legal_actions[0]  # type: ignore[attr-defined]
    return change(game, moves.bot_move(BotMove(GAME_ID, version(game), seat, action), game, NOW, CONFIG))


def two_captures() -> Game:
    """Аня to move holds 10♦, which may take 7♦ + 3♠ or 4♣ + 6♥ (the mockup's «что делаем?»)."""
    party = konchinka("Td 4s", "Kd Qd", table="7d 3s 6h 4c", deck="2c 3c 5c 6c")
    return group_party(ANNA, BORIS, party=party)


def king_lead_again() -> Game:
    """«не брать взяток»: Борис and the bot players played 7♥ 8♥ 9♥; Аня's Т♥ takes the trick, so she leads the
    next one."""
    cards = parse_cards("Ah 7s 7h 8h 9h 8c 9c Tc")
    hands = [cards[:2], cards[5:6], cards[6:7], cards[7:8]]
    trick = [(1, cards[2]), (2, cards[3]), (3, cards[4])]
    state = KingState.from_position(
        hands, contract=Contract.NO_TRICKS, dealer=0, leader=1, trick=trick, tricks_done=6
    )
    return group_party(ANNA, BORIS, kind="king", party=_Party(KING, state))


GAMES: dict[str, Callable[[], Game]] = {
    "konchinka, two people": lambda: group_party(ANNA, BORIS),
    "konchinka, three people": lambda: group_party(ANNA, BORIS, VERA),
    "king, the mockup": lambda: group_party(ANNA, BORIS, kind="king", party=king_mockup()),
}


# --- the group's table -----------------------------------------------------------------------------------------


def test_a_move_edits_the_groups_table_in_place_paced_behind_the_hands() -> None:
    drawn = pick(group_party(ANNA, BORIS), ANNA, "Kd")
    table = shown(drawn.orders, TABLE)
    assert table.chat_id == GROUP
    assert not table.resend and table.paced
    assert table.priority is None  # a group's default: the table's, behind hands and turns
    assert "Аня кладёт К♦" in table.text and "Ходит: Борис · ⏱ 60 с на ход" in table.text
    assert "🃏 Мои карты" in buttons(table)


def test_the_table_is_drawn_in_the_forum_topic_of_its_game() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), thread_id=7)
    assert shown(pick(game, ANNA, "Kd").orders, TABLE).thread_id == 7


# --- whose hand has buttons ------------------------------------------------------------------------------------


@pytest.mark.parametrize("build", GAMES.values(), ids=GAMES.keys())
def test_only_the_hand_of_the_person_to_move_has_moves(build: Callable[[], Game]) -> None:
    game = build()
    orders = from_scratch(game)
    mover = to_move(game)
    for seat in game.people():
        person_hand = shown(orders, hand(Person(seat.user_id or 0, seat.name)))
        if seat.user_id == mover.user_id:
            assert moves_offered(person_hand) and person_hand.priority is Priority.TURN
            assert f"Ваш ход, {mover.name}!" in person_hand.text
        else:
            assert not moves_offered(person_hand) and person_hand.priority is Priority.HAND
            assert "Ваш ход" not in person_hand.text
        assert not person_hand.resend  # drawn from scratch: edited where it is


@pytest.mark.parametrize(
    ("build", "card"),
    [(GAMES["konchinka, two people"], "Kd"), (GAMES["king, the mockup"], "Td")],
    ids=["konchinka", "king"],
)
def test_the_movers_hand_loses_its_buttons_and_the_next_persons_is_sent_anew_with_theirs(
    build: Callable[[], Game], card: str
) -> None:
    game = build()
    drawn = pick(game, ANNA, card)
    mine, next_one = shown(drawn.orders, hand(ANNA)), shown(drawn.orders, hand(BORIS))
    assert not mine.resend and not moves_offered(mine)
    assert mine.priority is Priority.HAND
    assert next_one.resend and moves_offered(next_one)
    assert next_one.priority is Priority.TURN
    assert "Ваш ход, Борис!" in next_one.text


def test_each_hand_is_drawn_in_its_owners_language() -> None:
    game = with_user(group_party(ANNA, BORIS), BORIS, lang="en")
    drawn = pick(game, ANNA, "Kd")
    first, turn = shown(drawn.orders, hand(BORIS)).text.split("\n")[:2]
    assert (
        first.startswith("🃏 <b>Konchinka</b> · Deal 1")
        and turn == "👉 <b>Your move, Борис!</b> · ⏱ 60 s per move"
    )
    assert "Ходят по очереди: Борис → вы" in shown(drawn.orders, hand(ANNA)).text
    assert "Ходит: Борис" in shown(drawn.orders, TABLE).text  # the group's in the group's


def test_a_trick_taken_leaves_its_taker_to_lead_in_the_hand_they_just_pressed() -> None:
    drawn = pick(king_lead_again(), ANNA, "Ah")
    mine = shown(drawn.orders, hand(ANNA))
    assert moves_offered(mine) and mine.priority is Priority.TURN
    assert not mine.resend  # the same person moves again: the message they look at changes in place
    assert not shown(drawn.orders, hand(BORIS)).resend


def test_a_move_before_a_bot_players_turn_sends_no_hand_anew() -> None:
    party = konchinka("5s 6s", "Kd Kh", deck="2c 3c 4c 5c")
    drawn = pick(group_party(ANNA, bots=[Level.NORMAL], party=party), ANNA, "5s")
    assert [s.slot for s in shows(drawn.orders) if s.resend] == []
    assert not moves_offered(shown(drawn.orders, hand(ANNA)))
    assert "Ходит: 🤖 Любитель\n" in shown(drawn.orders, TABLE).text  # no clock runs for a bot player


def test_a_bot_players_move_sends_the_person_next_their_hand_anew() -> None:
    party = konchinka("5s 6s", "Kd Kh", to_move=1, deck="2c 3c 4c 5c")
    drawn = bot_moves(group_party(ANNA, bots=[Level.NORMAL], party=party))
    mine = shown(drawn.orders, hand(ANNA))
    assert mine.resend and moves_offered(mine)
    assert "🤖 Любитель кладёт К♦" in mine.text


def test_a_person_a_bot_player_stands_in_for_gets_no_turn_and_a_button_to_come_back() -> None:
    game = replaced(group_party(ANNA, BORIS), BORIS)
    drawn = pick(game, ANNA, "Kd")
    theirs = shown(drawn.orders, hand(BORIS))
    assert not theirs.resend and not moves_offered(theirs)
    assert "↩️ Вернуться за стол" in buttons(theirs)
    assert "🤖 пока играет бот" in shown(drawn.orders, TABLE).text


def test_a_person_who_blocked_the_bot_is_drawn_no_hand() -> None:
    game = with_user(group_party(ANNA, BORIS), BORIS, blocked=True)
    drawn = pick(game, ANNA, "Kd")
    assert hand(BORIS) not in slots(drawn.orders)
    assert hand(ANNA) in slots(drawn.orders)


# --- a card with two or more moves ------------------------------------------------------------------------------


def test_a_card_with_two_captures_lists_each_in_the_hand_it_was_tapped_in() -> None:
    drawn = pick(two_captures(), ANNA, "Td")
    mine = shown(drawn.orders, hand(ANNA))
    assert "10♦ — что делаем?" in mine.text
    labels = buttons(mine)
    assert labels[:4] == ["Взять 7♦ + 3♠", "Взять 4♣ + 6♥", "Положить на стол", "← Другая карта"]
    assert not mine.resend and mine.priority is Priority.TURN
    assert "Ваш ход" not in shown(drawn.orders, hand(BORIS)).text


def test_another_card_shows_the_whole_hand_again() -> None:
    picked = pick(two_captures(), ANNA, "Td").after
    back = change(picked, moves.back(Back(GAME_ID, ANNA, version(picked)), picked, NOW, CONFIG))
    mine = shown(back.orders, hand(ANNA))
    assert "что делаем" not in mine.text
    assert buttons(mine)[:5] == [
        "10♦ берёт 7♦+3♠",
        "10♦ берёт 4♣+6♥",
        "10♦ на стол",
        "4♠ берёт 4♣",
        "4♠ на стол",
    ]


def test_the_chosen_capture_is_played_and_told_on_the_table() -> None:
    picked = pick(two_captures(), ANNA, "Td").after
    drawn = play(picked, ANNA, 1)
    assert "Аня берёт 4♣ + 6♥ десяткой бубен" in shown(drawn.orders, TABLE).text
    assert not moves_offered(shown(drawn.orders, hand(ANNA)))


# --- the turn's reminder ------------------------------------------------------------------------------------------


def reminded(game: Game) -> Drawn:
    assert game.deadline is not None
    return change(game, turns.remind(game, game.deadline - 10, CONFIG))


def test_the_reminder_comes_to_the_person_to_move_as_a_turn() -> None:
    drawn = reminded(group_party(ANNA, BORIS))
    note = shown(drawn.orders, reminder(ANNA, 0))
    assert note.chat_id == ANNA.user_id and note.priority is Priority.TURN
    assert note.text == "⏰ Аня, ваш ход! Осталось 0:10."
    assert dropped(drawn.orders) == []


def test_no_reminder_goes_to_a_person_the_bot_cannot_write_to() -> None:
    game = with_user(group_party(ANNA, BORIS), ANNA, started=False)
    assert [s for s in slots(reminded(game).orders) if s.startswith("m")] == []


def test_the_reminder_is_deleted_once_the_turn_is_over() -> None:
    game = reminded(group_party(ANNA, BORIS)).after
    assert dropped(pick(game, ANNA, "Kd").orders) == [reminder(ANNA, 0)]


def test_the_reminder_is_deleted_when_the_game_is_cancelled() -> None:
    game = reminded(group_party(ANNA, BORIS)).after
    drawn = change(game, lobby.cancel(Cancel(ANNA, GAME_ID), game, None, NOW))
    assert dropped(drawn.orders) == [reminder(ANNA, 0)]


def test_a_change_that_leaves_the_turn_keeps_the_reminder() -> None:
    game = reminded(group_party(ANNA, BORIS)).after
    assert dropped(pick(game, ANNA, "2s").orders) == []  # a first tap: the choice opens, the turn goes on


# --- the timer's move ----------------------------------------------------------------------------------------------


def test_the_timers_move_is_told_once_in_the_group_before_the_hands_change() -> None:
    drawn = bot_moves(group_party(ANNA, BORIS))
    (group_notice,) = [n for n in posted(drawn.orders) if n.chat_id == GROUP]
    assert group_notice.text == "⏰ Аня: время на ход вышло, сыграл бот."
    (own,) = [n for n in posted(drawn.orders) if n.chat_id == ANNA.user_id]
    assert own.text == "⏰ Время вышло — бот сыграл за вас К♦."
    table = shown(drawn.orders, TABLE).text
    assert "К♦" in table and "⏰ Аня" not in table, (
        "said once in the group: by the notice, not the table's mark too"
    )
    for person in (ANNA, BORIS):
        assert shown(drawn.orders, hand(person)).after == (group_notice.id,)
    assert hurried(drawn.orders) == {ANNA.user_id, BORIS.user_id}
    assert shown(drawn.orders, hand(BORIS)).resend


def test_the_timers_second_move_hands_the_seat_over_and_no_turn_comes_back() -> None:
    drawn = bot_moves(with_seat(group_party(ANNA, BORIS), 0, misses=1))
    mine = shown(drawn.orders, hand(ANNA))
    assert not mine.resend and not moves_offered(mine)
    assert "За вас играет бот" in mine.text
    assert "🤖 пока играет бот" in shown(drawn.orders, TABLE).text


def test_a_table_copy_follows_the_move_paced_and_only_if_it_was_sent() -> None:
    game = group_party(ANNA, BORIS)
    decision = moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG)
    drawn = change(game, decision, copies=[BORIS.user_id])
    kept = shown(drawn.orders, copy(BORIS))
    assert kept.only_existing and kept.paced and not kept.resend
    assert "Аня кладёт К♦" in kept.text
    assert copy(ANNA) not in slots(drawn.orders)
