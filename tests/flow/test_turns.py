"""What a game's timer finds due (``bot.flow.turns``), decided from a game in memory and the time: a lobby's
expiry, a bot player's move after its pause, a reminder shortly before a person's time runs out (once), the
move the bot makes when it has run out — or nothing, and for how long."""

from __future__ import annotations

import dataclasses

import pytest

from bot.flow import moves, turns
from bot.flow.commands import Decided, FlowConfig, Pick
from bot.flow.turns import Due, DueKind, Turn
from bot.model.game import GameStatus, Reminded
from bot.model.party import Party
from engine.ai import Level
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    NOW,
    SEED,
    TURN_START,
    after,
    closed,
    finished,
    group_party,
    in_lobby,
    konchinka,
    nothing,
    replaced,
    solo_party,
    with_seat,
)

DEADLINE = TURN_START + 60
"""When Аня's time runs out in a group party built here (50 s after :data:`NOW`)."""
REMIND_AT = DEADLINE - CONFIG.reminder_before


def bot_to_move() -> Party:
    return konchinka("5s Kd", "Qd 2h", to_move=1, deck="2c 3c 4c 5c")


# --- what is due, and when ----------------------------------------------------------------------------------------


def test_nothing_falls_due_while_people_move_without_a_time_limit() -> None:
    game = group_party(ANNA, BORIS, turn_timeout=0)
    assert turns.due(game, NOW, CONFIG, NOW) == Due()
    assert not game.timed


def test_an_open_lobby_waits_for_its_expiry() -> None:
    game = in_lobby(ANNA)
    assert game.expires_at == NOW + 1740
    assert turns.due(game, NOW, CONFIG, NOW) == Due(wait=1740)


@pytest.mark.parametrize("late", [0.0, 5.0])
def test_an_open_lobby_expires_at_its_time(late: float) -> None:
    game = in_lobby(ANNA)
    assert game.expires_at is not None
    assert turns.due(game, game.expires_at + late, CONFIG, NOW) == Due(DueKind.EXPIRE)


def test_a_bot_player_moves_after_its_pause() -> None:
    game = group_party(ANNA, bots=[Level.EASY], party=bot_to_move())
    assert turns.due(game, NOW, CONFIG, NOW - 0.25) == Due(wait=0.75)
    assert turns.due(game, NOW + 0.75, CONFIG, NOW - 0.25) == Due(DueKind.TURN)


def test_a_bot_players_pause_is_the_configured_one() -> None:
    game = solo_party(ANNA, party=bot_to_move())
    config = FlowConfig(bot_delay=2.5)
    assert turns.due(game, NOW, config, NOW) == Due(wait=2.5)
    assert turns.due(game, NOW + 2.5, config, NOW) == Due(DueKind.TURN)


def test_a_seat_a_bot_player_stands_in_for_is_moved_after_the_pause() -> None:
    game = replaced(group_party(ANNA, BORIS), ANNA)
    assert turns.due(game, NOW, CONFIG, NOW - 5) == Due(DueKind.TURN)


def test_a_person_to_move_waits_first_for_the_reminder() -> None:
    game = group_party(ANNA, BORIS)
    assert game.deadline == DEADLINE
    assert turns.due(game, NOW, CONFIG, NOW) == Due(wait=REMIND_AT - NOW)


def test_the_reminder_falls_due_shortly_before_the_time_runs_out() -> None:
    game = group_party(ANNA, BORIS)
    assert turns.due(game, REMIND_AT, CONFIG, NOW) == Due(DueKind.REMIND)
    assert turns.due(game, REMIND_AT + 3, CONFIG, NOW) == Due(DueKind.REMIND)


def test_once_reminded_a_person_waits_for_the_end_of_their_time() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), reminded=True)
    assert turns.due(game, REMIND_AT + 3, CONFIG, NOW) == Due(wait=DEADLINE - REMIND_AT - 3)


def test_without_reminders_a_person_waits_for_the_end_of_their_time() -> None:
    game = group_party(ANNA, BORIS)
    assert turns.due(game, NOW, FlowConfig(reminder_before=0), NOW) == Due(wait=DEADLINE - NOW)


@pytest.mark.parametrize("reminded", [False, True])
def test_the_bot_moves_for_a_person_whose_time_ran_out(reminded: bool) -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), reminded=reminded)
    assert turns.due(game, DEADLINE, CONFIG, NOW) == Due(DueKind.TURN)


def test_nothing_falls_due_in_a_game_that_is_over() -> None:
    assert turns.due(finished(group_party(ANNA, BORIS)), NOW, CONFIG, NOW) == Due()
    assert turns.due(closed(in_lobby(ANNA), GameStatus.CANCELLED), NOW + 9999, CONFIG, NOW) == Due()


def test_a_solo_players_own_turn_has_nothing_due() -> None:
    assert turns.due(solo_party(ANNA), NOW + 3600, CONFIG, NOW) == Due()


def test_a_move_makes_the_next_persons_reminder_due_again() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), reminded=True)
    moved = after(game, moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG))
    assert (moved.deadline, moved.reminded) == (NOW + 60, False)
    assert turns.due(moved, NOW + 45, CONFIG, NOW) == Due(DueKind.REMIND)


# --- the bot's move ------------------------------------------------------------------------------------------


def test_a_bot_players_move_is_thought_at_its_own_level_from_its_own_view() -> None:
    party = bot_to_move()
    game = solo_party(ANNA, level=Level.HARD, party=party)
    assert turns.turn(game) == Turn(party.view_of(1), Level.HARD, 0, 0, 1)


def test_the_move_for_a_person_whose_time_ran_out_is_thought_as_a_plain_player_would() -> None:
    game = group_party(ANNA, BORIS)
    assert game.party is not None
    assert turns.turn(game) == Turn(game.party.view_of(0), Level.NORMAL, SEED, 0, 0)


def test_a_replaced_persons_seat_is_played_as_a_plain_player_would() -> None:
    game = with_seat(group_party(ANNA, BORIS), 0, replaced=True)
    assert turns.turn(game).level is Level.NORMAL


# --- reminders -----------------------------------------------------------------------------------------------


def test_the_person_to_move_is_reminded_with_the_seconds_left() -> None:
    game = group_party(ANNA, BORIS)
    assert turns.remind(game, REMIND_AT, CONFIG) == Decided((Reminded(0, 15),))
    assert turns.remind(game, REMIND_AT + 4.5, CONFIG) == Decided((Reminded(0, 10),))


def test_a_reminder_shows_until_the_turn_is_over() -> None:
    game = group_party(ANNA, BORIS)
    reminded = after(game, turns.remind(game, REMIND_AT, CONFIG))
    assert reminded.reminded
    assert reminded.screens.reminders == {ANNA.user_id: 0}
    played = after(reminded, moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), reminded, REMIND_AT + 1, CONFIG))
    assert played.screens.reminders == {}


def test_a_person_is_not_reminded_twice() -> None:
    game = group_party(ANNA, BORIS)
    reminded = after(game, turns.remind(game, REMIND_AT, CONFIG))
    assert nothing(turns.remind(reminded, REMIND_AT + 5, CONFIG))


@pytest.mark.parametrize("at", [REMIND_AT - 1, DEADLINE, DEADLINE + 1])
def test_no_reminder_before_its_time_or_once_the_time_ran_out(at: float) -> None:
    assert nothing(turns.remind(group_party(ANNA, BORIS), at, CONFIG))


def test_no_reminder_for_a_bot_player_or_a_turn_without_a_limit() -> None:
    assert nothing(turns.remind(replaced(group_party(ANNA, BORIS), ANNA), REMIND_AT, CONFIG))
    assert nothing(turns.remind(group_party(ANNA, BORIS, turn_timeout=0), REMIND_AT, CONFIG))
    assert nothing(turns.remind(finished(group_party(ANNA, BORIS)), REMIND_AT, CONFIG))


def test_no_reminder_when_reminders_are_off() -> None:
    assert nothing(turns.remind(group_party(ANNA, BORIS), REMIND_AT, FlowConfig(reminder_before=0)))


def test_a_person_the_bot_cannot_write_to_has_no_reminder_on_show() -> None:
    game = group_party(ANNA, BORIS, unreachable=[ANNA])
    reminded = after(game, turns.remind(game, REMIND_AT, CONFIG))
    assert reminded.reminded
    assert reminded.screens.reminders == {}


# --- what wakes the timer -----------------------------------------------------------------------------------------


def test_a_pick_leaves_what_falls_due_alone_and_a_move_or_a_reminder_changes_it() -> None:
    game = group_party(ANNA, BORIS)
    picked = after(game, moves.pick(Pick(GAME_ID, ANNA, 0, "2s"), game, NOW, CONFIG))
    played = after(game, moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG))
    reminded = after(game, turns.remind(game, REMIND_AT, CONFIG))
    assert picked.timing == game.timing
    assert played.timing != game.timing
    assert reminded.timing != game.timing


def test_a_lobby_without_an_expiry_needs_no_timer() -> None:
    game = dataclasses.replace(in_lobby(ANNA), expires_at=None)
    assert not game.timed
    assert turns.due(game, NOW, CONFIG, NOW) == Due()
