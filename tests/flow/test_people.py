"""People's decisions (``bot.flow.people``) on games in memory: every look again (a hand, the table, the score
sheet — a lobby's table instead —, the history), /leave (group games only), a person the bot may not write to,
and one back after blocking it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.flow import people
from bot.flow.commands import Decided, Refusal, SendHistory, ShowHand
from bot.model.answers import Answer
from bot.model.game import (
    Blocked,
    DeadlineSet,
    Game,
    GameStatus,
    HandAsked,
    HistoryAsked,
    SeatLeft,
    SheetAsked,
    StartBotFirst,
    TableAsked,
    TableCopyAsked,
)
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    GROUP,
    NOW,
    OTHER_GROUP,
    STRANGER,
    TURN_START,
    VERA,
    after,
    closed,
    events,
    finished,
    group_party,
    in_lobby,
    nothing,
    replaced,
    solo_party,
)

# --- a hand again -------------------------------------------------------------------------------------------------


def test_my_cards_bring_the_players_hand_anew() -> None:
    decision = people.show_hand(ShowHand(GAME_ID, BORIS), group_party(ANNA, BORIS))
    assert decision == Decided((HandAsked(BORIS.user_id),))


def test_my_cards_of_a_lobby_bring_nothing_yet() -> None:
    assert nothing(people.show_hand(ShowHand(GAME_ID, BORIS), in_lobby(ANNA, BORIS)))


def test_my_cards_of_someone_elses_game_are_refused() -> None:
    decision = people.show_hand(ShowHand(GAME_ID, VERA), group_party(ANNA, BORIS))
    assert decision == Refusal(Answer.NOT_A_PLAYER)


@pytest.mark.parametrize("status", [GameStatus.FINISHED, GameStatus.CANCELLED])
def test_my_cards_of_a_game_that_is_over_are_refused(status: GameStatus) -> None:
    game = closed(group_party(ANNA, BORIS), status)
    assert people.show_hand(ShowHand(GAME_ID, ANNA), game) == Refusal(Answer.NO_GAME)


def test_start_in_private_brings_each_running_games_hand_back() -> None:
    assert people.hand_back(solo_party(ANNA), ANNA.user_id) == Decided((HandAsked(ANNA.user_id),))


def test_a_person_back_after_blocking_the_bot_gets_their_hand_anew() -> None:
    decision = people.back_after_blocking(
        group_party(ANNA, BORIS), BORIS.user_id, was_blocked=True, started=True
    )
    assert decision == Decided((HandAsked(BORIS.user_id),))


@pytest.mark.parametrize(("was_blocked", "started"), [(False, True), (True, False), (False, False)])
def test_a_person_seen_who_had_not_blocked_the_bot_or_did_not_open_it_gets_nothing_anew(
    was_blocked: bool, started: bool
) -> None:
    game = group_party(ANNA, BORIS)
    assert nothing(people.back_after_blocking(game, BORIS.user_id, was_blocked=was_blocked, started=started))


def test_a_person_back_after_blocking_gets_nothing_of_a_game_they_do_not_play() -> None:
    game = group_party(ANNA, BORIS)
    assert nothing(people.back_after_blocking(game, VERA.user_id, was_blocked=True, started=True))


# --- the table --------------------------------------------------------------------------------------------------


def test_the_table_is_sent_to_a_player_privately() -> None:
    assert people.show_table(group_party(ANNA, BORIS), BORIS.user_id) == Decided(
        (TableCopyAsked(BORIS.user_id),)
    )


def test_the_table_of_a_finished_party_is_still_shown_to_its_players() -> None:
    game = finished(group_party(ANNA, BORIS))
    assert people.show_table(game, ANNA.user_id) == Decided((TableCopyAsked(ANNA.user_id),))


def test_the_table_is_refused_to_someone_who_does_not_play() -> None:
    assert people.show_table(group_party(ANNA, BORIS), VERA.user_id) == Refusal(Answer.NOT_A_PLAYER)


def test_a_lobby_has_no_table_to_show() -> None:
    assert people.show_table(in_lobby(ANNA, BORIS), ANNA.user_id) == Refusal(Answer.NO_GAME)


def test_the_table_of_a_cancelled_party_is_not_shown() -> None:
    game = closed(group_party(ANNA, BORIS), GameStatus.CANCELLED)
    assert people.show_table(game, ANNA.user_id) == Refusal(Answer.NO_GAME)


def test_score_text_in_a_group_posts_its_table_anew() -> None:
    assert people.repost(group_party(ANNA, BORIS)) == Decided((TableAsked(),))
    assert people.repost(in_lobby(ANNA)) == Decided((TableAsked(),))


# --- the score sheet --------------------------------------------------------------------------------------------


def test_score_in_private_brings_the_sheet_of_a_game_one_plays() -> None:
    decision = people.show_sheet(group_party(ANNA, BORIS), BORIS.user_id, BORIS.user_id, 0, pressed=False)
    assert decision == Decided((SheetAsked(BORIS.user_id, 0),))


def test_score_in_private_is_refused_for_a_game_one_does_not_play() -> None:
    decision = people.show_sheet(group_party(ANNA, BORIS), VERA.user_id, VERA.user_id, 0, pressed=True)
    assert decision == Refusal(Answer.NOT_A_PLAYER)


def test_score_in_a_group_brings_its_games_sheet_to_its_topic() -> None:
    decision = people.show_sheet(group_party(ANNA, BORIS), VERA.user_id, GROUP, 7, pressed=False)
    assert decision == Decided((SheetAsked(GROUP, 7),))


def test_the_sheet_button_of_a_finished_party_brings_its_final_sheet() -> None:
    decision = people.show_sheet(finished(group_party(ANNA, BORIS)), VERA.user_id, GROUP, 0, pressed=True)
    assert decision == Decided((SheetAsked(GROUP, 0),))


def test_score_in_a_group_with_an_open_lobby_shows_the_lobby_anew_instead() -> None:
    decision = people.show_sheet(in_lobby(ANNA), BORIS.user_id, GROUP, 0, pressed=False)
    assert decision == Decided((TableAsked(),))


def test_a_sheet_button_of_a_game_without_a_party_is_refused() -> None:
    decision = people.show_sheet(in_lobby(ANNA), BORIS.user_id, GROUP, 0, pressed=True)
    assert decision == Refusal(Answer.NO_GAME)


def test_a_sheet_button_pressed_in_another_group_is_a_forged_press() -> None:
    decision = people.show_sheet(group_party(ANNA, BORIS), STRANGER.user_id, OTHER_GROUP, 0, pressed=True)
    assert decision == Refusal(Answer.UNKNOWN)


# --- the history --------------------------------------------------------------------------------------------------


def test_the_history_of_a_finished_party_comes_in_the_group_where_it_was_asked() -> None:
    command = SendHistory(VERA, GAME_ID, GROUP, 3)
    assert people.send_history(command, finished(group_party(ANNA, BORIS))) == Decided(
        (HistoryAsked(GROUP, 3),)
    )


def test_the_history_comes_in_a_players_private_chat() -> None:
    command = SendHistory(BORIS, GAME_ID, BORIS.user_id)
    decision = people.send_history(command, finished(group_party(ANNA, BORIS)))
    assert decision == Decided((HistoryAsked(BORIS.user_id, 0),))


def test_the_history_of_a_solo_party_comes_in_its_private_chat() -> None:
    command = SendHistory(ANNA, GAME_ID, ANNA.user_id)
    assert people.send_history(command, finished(solo_party(ANNA))) == Decided(
        (HistoryAsked(ANNA.user_id, 0),)
    )


def test_no_history_while_the_party_is_on() -> None:
    command = SendHistory(ANNA, GAME_ID, GROUP)
    assert people.send_history(command, group_party(ANNA, BORIS)) == Refusal(Answer.NO_GAME)


def test_no_history_of_a_cancelled_party() -> None:
    command = SendHistory(ANNA, GAME_ID, GROUP)
    game = closed(group_party(ANNA, BORIS), GameStatus.CANCELLED)
    assert people.send_history(command, game) == Refusal(Answer.NO_GAME)


def test_a_history_button_pressed_in_another_group_is_a_forged_press() -> None:
    command = SendHistory(ANNA, GAME_ID, OTHER_GROUP)
    assert people.send_history(command, finished(group_party(ANNA, BORIS))) == Refusal(Answer.UNKNOWN)


def test_a_history_asked_in_the_private_chat_of_someone_who_did_not_play_is_a_forged_press() -> None:
    command = SendHistory(STRANGER, GAME_ID, STRANGER.user_id)
    assert people.send_history(command, finished(group_party(ANNA, BORIS))) == Refusal(Answer.UNKNOWN)


# --- /leave -------------------------------------------------------------------------------------------------------


def numbered(game: Game, game_id: int) -> Game:
    return dataclasses.replace(game, id=game_id)


def test_leave_in_private_hands_over_the_seats_of_each_group_game() -> None:
    group, other, solo = (
        group_party(ANNA, BORIS),
        numbered(group_party(BORIS, ANNA), 42),
        numbered(solo_party(), 43),
    )
    assert people.leaving([group, solo, other], in_private=True) == [group, other]


def test_leave_in_private_with_only_a_solo_game_is_refused() -> None:
    assert people.leaving([solo_party(ANNA)], in_private=True) == Refusal(Answer.SOLO_LEAVE)


def test_leave_in_private_with_no_running_game_is_refused() -> None:
    games = [in_lobby(ANNA), finished(group_party(ANNA, BORIS))]
    assert people.leaving(games, in_private=True) == Refusal(Answer.NO_GAME)
    assert people.leaving([], in_private=True) == Refusal(Answer.NO_GAME)


def test_leave_in_a_group_hands_over_the_seat_of_its_party() -> None:
    game = group_party(ANNA, BORIS)
    assert people.leaving([game], in_private=False) == [game]


def test_leave_in_a_group_whose_game_is_a_lobby_is_refused() -> None:
    assert people.leaving([in_lobby(ANNA, BORIS)], in_private=False) == Refusal(Answer.NO_GAME)


def test_leaving_on_ones_turn_hands_it_to_a_bot_player_at_once() -> None:
    game = group_party(ANNA, BORIS)
    decision = people.leave(game, ANNA.user_id, NOW, CONFIG)
    assert decision == Decided((SeatLeft(0), DeadlineSet(None)))
    left = after(game, decision)
    assert left.seats[0].replaced and left.timed and left.deadline is None


def test_leaving_while_another_moves_leaves_their_time_alone() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), reminded=True)
    decision = people.leave(game, BORIS.user_id, NOW, CONFIG)
    assert decision == Decided((SeatLeft(1),))
    left = after(game, decision)
    assert (left.deadline, left.reminded) == (TURN_START + 60, True)


def test_leaving_forgets_the_missed_turns() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS))
    game = dataclasses.replace(game, seats=(game.seats[0], dataclasses.replace(game.seats[1], misses=1)))
    assert after(game, people.leave(game, BORIS.user_id, NOW, CONFIG)).seats[1].misses == 0


def test_leaving_a_seat_already_left_is_refused() -> None:
    game = replaced(group_party(ANNA, BORIS), BORIS)
    assert people.leave(game, BORIS.user_id, NOW, CONFIG) == Refusal(Answer.ALREADY_LEFT)


def test_leaving_a_game_one_does_not_play_is_refused() -> None:
    assert people.leave(group_party(ANNA, BORIS), VERA.user_id, NOW, CONFIG) == Refusal(Answer.NOT_A_PLAYER)
    assert people.leave(in_lobby(ANNA, BORIS), BORIS.user_id, NOW, CONFIG) == Refusal(Answer.NOT_A_PLAYER)


# --- a person the bot may not write to ------------------------------------------------------------------------


def test_a_blocked_person_is_asked_for_in_their_running_group_game() -> None:
    game = group_party(ANNA, BORIS)
    decision = people.blocked(game, BORIS.user_id, NOW, CONFIG)
    assert decision == Decided((Blocked(BORIS.user_id), StartBotFirst(1)))
    blocked = after(game, decision)
    assert not blocked.reachable(blocked.seats[1])
    assert blocked.deadline == game.deadline


def test_a_blocked_person_to_move_gets_a_limit_in_a_game_without_one() -> None:
    game = group_party(ANNA, BORIS, turn_timeout=0)
    decision = people.blocked(game, ANNA.user_id, NOW, CONFIG)
    assert decision == Decided(
        (Blocked(ANNA.user_id), StartBotFirst(0), DeadlineSet(NOW + CONFIG.turn_timeout))
    )
    assert after(game, decision).timed


def test_a_blocked_person_not_to_move_sets_no_limit_yet() -> None:
    game = group_party(ANNA, BORIS, turn_timeout=0)
    assert people.blocked(game, BORIS.user_id, NOW, CONFIG) == Decided(
        (Blocked(BORIS.user_id), StartBotFirst(1))
    )


def test_a_blocked_person_in_a_lobby_is_asked_to_open_the_bot() -> None:
    game = in_lobby(ANNA, BORIS)
    assert people.blocked(game, BORIS.user_id, NOW, CONFIG) == Decided(
        (Blocked(BORIS.user_id), StartBotFirst(1))
    )


def test_a_blocked_person_in_a_solo_game_is_only_marked_blocked() -> None:
    game = solo_party(ANNA)
    decision = people.blocked(game, ANNA.user_id, NOW, CONFIG)
    assert decision == Decided((Blocked(ANNA.user_id),))
    assert after(game, decision).users[ANNA.user_id].blocked


def test_a_blocked_person_of_a_game_that_is_over_is_only_marked_blocked() -> None:
    game = finished(group_party(ANNA, BORIS))
    assert people.blocked(game, BORIS.user_id, NOW, CONFIG) == Decided((Blocked(BORIS.user_id),))


def test_a_blocked_person_who_does_not_play_here_is_only_marked_blocked() -> None:
    game = group_party(ANNA, BORIS)
    decision = people.blocked(game, VERA.user_id, NOW, CONFIG)
    assert events(decision) == (Blocked(VERA.user_id),)
    assert after(game, decision).users[VERA.user_id].blocked
