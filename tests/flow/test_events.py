"""The events of a game in play (``bot.model.game``): what each does to the game when folded over it (``evolve``),
and the told ones stored as notices and read back (``dump_told``, ``load_told``) — rows written by an older
version of the bot included."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.model.game import (
    Abandoned,
    Actor,
    Blocked,
    Cancelled,
    ChatMoved,
    DeadlineSet,
    DealEnded,
    Dealt,
    Event,
    Expired,
    GameStatus,
    HandAsked,
    HistoryAsked,
    LobbyScreen,
    LobbyShows,
    Move,
    Moved,
    Opened,
    OptionsSet,
    PartyEnded,
    Person,
    Picked,
    RematchCalled,
    Reminded,
    Returned,
    Screens,
    Seat,
    SeatBack,
    Seated,
    SeatLeft,
    SeatReplaced,
    Seen,
    SheetAsked,
    Shown,
    StartBotFirst,
    TableAsked,
    TableCopyAsked,
    TimedOut,
    Unpicked,
    Unseated,
    User,
    dump_told,
    evolve,
    is_told,
    load_told,
)
from engine.ai import Level
from tests.flow.builders import (
    ANNA,
    BORIS,
    GROUP,
    NOW,
    OTHER_GROUP,
    VERA,
    finished_party,
    group_party,
    in_lobby,
    konchinka,
    solo_party,
    user,
    with_seat,
)

# --- evolve: a lobby ----------------------------------------------------------------------------------------------


def test_a_game_opened_is_the_game_the_event_carries() -> None:
    new = in_lobby(BORIS)
    assert evolve(solo_party(ANNA), [Opened(new)]) is new


def test_events_are_folded_in_their_order() -> None:
    game = evolve(in_lobby(), [Seated(ANNA.user_id, "Аня"), Seated(None, "", "easy"), Unseated(0)])
    assert game.seats == (Seat(0, None, "", "easy"),)


def test_a_person_seen_for_the_first_time_is_known_but_not_yet_written_to() -> None:
    game = evolve(in_lobby(ANNA), [Seen(Person(105, "Дима", "dima", "en"))])
    assert game.users[105] == User(105, "Дима", "dima", "en", started=False, blocked=False)


def test_a_person_seen_keeps_their_language_when_telegram_gives_none() -> None:
    game = evolve(in_lobby(ANNA), [Seen(Person(ANNA.user_id, "Анна"))])
    assert game.users[ANNA.user_id] == User(ANNA.user_id, "Анна", None, "ru", started=True, blocked=False)


def test_a_person_who_opens_the_bot_may_be_written_to_again() -> None:
    game = evolve(in_lobby(ANNA), [Blocked(ANNA.user_id)])
    assert not game.users[ANNA.user_id].reachable
    assert evolve(game, [Seen(ANNA)]).users[ANNA.user_id].blocked  # seen in a group: still blocked
    assert evolve(game, [Seen(ANNA, started=True)]).users[ANNA.user_id].reachable


def test_a_person_blocked_whom_the_game_did_not_know_is_remembered_blocked() -> None:
    game = evolve(in_lobby(ANNA), [Blocked(VERA.user_id)])
    assert game.users[VERA.user_id] == User(VERA.user_id, "", blocked=True)


def test_seats_are_taken_in_order_by_people_and_bot_players() -> None:
    game = evolve(in_lobby(), [Seated(ANNA.user_id, "Аня"), Seated(None, "", "hard")])
    assert game.seats == (Seat(0, ANNA.user_id, "Аня"), Seat(1, None, "", "hard"))


def test_a_seat_left_moves_the_later_seats_up_and_renumbers_them() -> None:
    game = evolve(in_lobby(ANNA, BORIS, VERA), [Unseated(0)])
    assert game.seats == (Seat(0, BORIS.user_id, "Борис"), Seat(1, VERA.user_id, "Вера"))


def test_options_set_change_the_options_and_the_time_per_turn() -> None:
    game = evolve(in_lobby(ANNA), [OptionsSet({"target": 11}, 90)])
    assert (game.options, game.turn_timeout) == ({"target": 11}, 90)


def test_a_lobby_shows_the_screen_it_turned_to() -> None:
    assert evolve(in_lobby(ANNA), [LobbyShows(LobbyScreen.BOT_LEVEL)]).screens.lobby is LobbyScreen.BOT_LEVEL


def test_dealing_starts_the_party_fills_the_seats_and_shows_the_main_screens() -> None:
    lobby = evolve(in_lobby(ANNA), [LobbyShows(LobbyScreen.SETTINGS)])
    party = konchinka("5s", "Kd", "Qd", "Jd", deck="2c")
    game = evolve(lobby, [Dealt(party, 3, "normal")])
    assert (game.status, game.party, game.expires_at, game.screens) == (
        GameStatus.PLAYING,
        party,
        None,
        Screens(),
    )
    assert [s.level for s in game.seats] == [None, "normal", "normal", "normal"]
    assert [s.seat for s in game.seats] == [0, 1, 2, 3]


def test_a_deadline_set_is_a_new_turns_and_its_reminder_is_due_again() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), reminded=True)
    assert evolve(game, [DeadlineSet(NOW + 5)]).deadline == NOW + 5
    assert evolve(game, [DeadlineSet(NOW + 5)]).reminded is False
    assert evolve(game, [DeadlineSet(None)]).deadline is None


def test_a_group_become_a_supergroup_takes_its_game_along() -> None:
    assert evolve(group_party(ANNA, BORIS), [ChatMoved(OTHER_GROUP)]).chat_id == OTHER_GROUP


# --- evolve: the end of a game ----------------------------------------------------------------------------------


def assert_closes_cleanly(event: Event) -> None:
    """A party with a pick, a reminder on show and a deadline, closed by the event given."""
    game = group_party(ANNA, BORIS)
    game = dataclasses.replace(
        game, screens=dataclasses.replace(game.screens, picks={101: ("2s", 0)}, reminders={101: 0})
    )
    closed = evolve(game, [event])
    assert closed.deadline is None and closed.finished_at == NOW
    assert (closed.screens.picks, closed.screens.reminders) == ({}, {})


@pytest.mark.parametrize(
    ("event", "status"),
    [
        (Cancelled(ANNA.user_id, NOW), GameStatus.CANCELLED),
        (Expired(NOW), GameStatus.EXPIRED),
        (Abandoned(3, NOW), GameStatus.CANCELLED),
    ],
)
def test_a_game_closed_runs_no_deadline_and_shows_no_pick_or_reminder(
    event: Event, status: GameStatus
) -> None:
    assert_closes_cleanly(event)
    assert evolve(group_party(ANNA, BORIS), [event]).status is status


def test_a_party_ended_writes_each_seats_score_win_and_settlement() -> None:
    game = group_party(ANNA, BORIS, party=finished_party())
    over = evolve(game, [PartyEnded(NOW)])
    assert (over.status, over.finished_at) == (GameStatus.FINISHED, NOW)
    assert [(s.score, s.won, s.settlement) for s in over.seats] == [(15, True, 10), (5, False, -10)]


def test_a_party_ended_without_an_outcome_writes_no_results() -> None:
    over = evolve(group_party(ANNA, BORIS), [PartyEnded(NOW)])
    assert over.status is GameStatus.FINISHED
    assert [(s.score, s.won) for s in over.seats] == [(None, None), (None, None)]


# --- evolve: play -------------------------------------------------------------------------------------------------


def test_a_move_is_recorded_with_who_made_it_and_clears_the_pick_and_the_reminder() -> None:
    game = group_party(ANNA, BORIS)
    assert game.party is not None
    party, code = game.party.after(0)
    game = dataclasses.replace(
        game, screens=Screens(picks={101: ("2s", 0), 102: ("Qd", 0)}, reminders={101: 0}, timer_move=3)
    )
    moved = evolve(game, [Moved(0, code, Actor.PLAYER, party, NOW)])
    assert moved.party is party and moved.version == 1
    assert moved.moves == (Move("l:Kd", 0, Actor.PLAYER, NOW),)
    assert moved.screens == Screens()


def test_a_move_the_timer_made_is_marked_with_the_partys_version_after_it() -> None:
    game = group_party(ANNA, BORIS)
    assert game.party is not None
    party, code = game.party.after(0)
    assert evolve(game, [Moved(0, code, Actor.AFK, party, NOW)]).screens.timer_move == 1
    assert evolve(game, [Moved(0, code, Actor.BOT, party, NOW)]).screens.timer_move is None


def test_a_pick_shows_at_its_version_only_and_another_card_forgets_it() -> None:
    game = evolve(group_party(ANNA, BORIS), [Picked(ANNA.user_id, "2s", 0), Picked(BORIS.user_id, "Qd", 0)])
    assert game.screens.picked(ANNA.user_id, 0) == "2s"
    assert game.screens.picked(ANNA.user_id, 1) is None
    forgot = evolve(game, [Unpicked(ANNA.user_id)])
    assert forgot.screens.picks == {BORIS.user_id: ("Qd", 0)}


def test_a_person_back_at_the_table_has_no_missed_turns_and_no_bot_player_in_their_seat() -> None:
    game = with_seat(group_party(ANNA, BORIS), 1, misses=2, replaced=True)
    for event in (Returned(1), SeatBack(1, ("l:2h",))):
        seat = evolve(game, [event]).seats[1]
        assert (seat.misses, seat.replaced) == (0, False)


def test_a_missed_turn_is_counted_and_the_second_hands_the_seat_over() -> None:
    game = evolve(group_party(ANNA, BORIS), [TimedOut(0, "l:Kd")])
    assert (game.seats[0].misses, game.seats[0].replaced) == (1, False)
    game = evolve(game, [SeatReplaced(0, "l:Qs")])
    assert (game.seats[0].misses, game.seats[0].replaced) == (2, True)


def test_a_seat_left_goes_to_a_bot_player_with_no_missed_turns() -> None:
    game = with_seat(group_party(ANNA, BORIS), 0, misses=1)
    seat = evolve(game, [SeatLeft(0)]).seats[0]
    assert (seat.misses, seat.replaced) == (0, True)


def test_a_reminder_is_on_show_for_a_person_the_bot_may_write_to() -> None:
    game = evolve(group_party(ANNA, BORIS), [Reminded(0, 15)])
    assert game.reminded and game.screens.reminders == {ANNA.user_id: 0}
    blocked = evolve(group_party(ANNA, BORIS), [Blocked(ANNA.user_id), Reminded(0, 15)])
    assert blocked.reminded and blocked.screens.reminders == {}


@pytest.mark.parametrize(
    "event",
    [
        DealEnded(1),
        StartBotFirst(1),
        RematchCalled(0),
        Shown(),
        HandAsked(ANNA.user_id),
        TableCopyAsked(ANNA.user_id),
        TableAsked(),
        SheetAsked(GROUP),
        HistoryAsked(ANNA.user_id),
    ],
)
def test_what_is_only_told_or_looked_at_changes_nothing(event: Event) -> None:
    game = group_party(ANNA, BORIS)
    assert evolve(game, [event]) == game


# --- notices stored and read back -------------------------------------------------------------------------------

TOLD = [
    DealEnded(3),
    TimedOut(1, "l:Kd"),
    SeatReplaced(0, "c:5s:3c2h"),
    SeatBack(1, ("l:2h", "c:3h:3d")),
    SeatLeft(2),
    StartBotFirst(1),
    RematchCalled(0),
]


@pytest.mark.parametrize("event", TOLD, ids=lambda e: e.kind)
@pytest.mark.parametrize("seat", [None, 1])
def test_a_told_event_is_read_back_as_stored_with_the_seat_it_is_for(event: Event, seat: int | None) -> None:
    assert load_told(dump_told(event, seat)) == (event, seat)


def test_the_time_of_a_partys_end_or_an_abandoned_game_is_not_stored_with_its_notice() -> None:
    assert "at" not in json.loads(dump_told(PartyEnded(NOW), None))
    assert load_told(dump_told(PartyEnded(NOW), None)) == (PartyEnded(), None)
    assert load_told(dump_told(Abandoned(4, NOW), 0)) == (Abandoned(4), 0)


def test_a_notice_is_stored_as_its_kind_its_fields_and_its_seat() -> None:
    assert json.loads(dump_told(SeatBack(1, ("l:2h",)), 1)) == {
        "kind": "seat_back",
        "player": 1,
        "codes": ["l:2h"],
        "seat": 1,
    }


def test_an_old_row_without_the_newer_fields_reads_with_their_defaults() -> None:
    assert load_told('{"kind":"seat_back","player":1,"seat":null}') == (SeatBack(1, ()), None)
    assert load_told('{"kind":"abandoned","days":3}') == (Abandoned(3), None)


def test_a_row_with_a_field_this_code_no_longer_has_reads_without_it() -> None:
    assert load_told('{"kind":"deal_ended","deal":2,"scores":[1,2],"seat":null}') == (DealEnded(2), None)


@pytest.mark.parametrize(
    "row",
    ['{"kind":"dealt","seat":null}', '{"deal":2}', '{"kind":"timed_out","player":1}', "[1, 2]", "not json"],
)
def test_a_row_this_code_cannot_read_is_a_value_error(row: str) -> None:
    with pytest.raises(ValueError):
        load_told(row)


def test_only_the_told_events_are_told() -> None:
    assert all(is_told(e) for e in [*TOLD, PartyEnded(), Abandoned(1)])
    assert not any(
        is_told(e)
        for e in [Picked(ANNA.user_id, "2s", 0), Seen(ANNA), Returned(0), DeadlineSet(None), Shown()]
    )


# --- what the screens keep --------------------------------------------------------------------------------------


def test_the_screens_are_stored_and_read_back_as_they_were() -> None:
    screens = Screens(LobbyScreen.SETTINGS, {101: ("2s", 4)}, {102: 5}, 6)
    assert Screens.from_json(screens.to_json()) == screens


def test_the_main_screens_with_nothing_on_show_are_stored_as_nothing() -> None:
    assert Screens().to_json() is None
    assert Screens.from_json(None) == Screens() == Screens.from_json("")


def test_a_seats_level_the_bot_does_not_know_plays_as_a_plain_player() -> None:
    assert Seat(1, None, "", "genius").bot_level is None
    assert Seat(1, None, "", "genius").plays_at is Level.NORMAL
    assert Seat(1, None, "", "hard").plays_at is Level.HARD
    assert Seat(0, ANNA.user_id, "Аня", "hard").bot_level is None


def test_a_user_the_bot_may_write_to_opened_it_and_did_not_block_it() -> None:
    assert user(ANNA).reachable
    assert not user(ANNA, started=False).reachable
    assert not user(ANNA, blocked=True).reachable
