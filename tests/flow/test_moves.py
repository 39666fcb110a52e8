"""Moves (``bot.flow.moves``) on games in memory: whose turn it is and who is named when it is not, a card that
plays on its tap and one that opens a choice, the engine's refusals, the timer's move (the picked card, a missed
turn, the seat handed over), deals scored and the party's end, the next person's deadline, and a seat taken
back."""

from __future__ import annotations

import dataclasses

import pytest

from bot.flow import moves
from bot.flow.commands import Back, BotMove, Decided, Decision, FlowConfig, Pick, Play, Refusal, TakeSeat
from bot.model.answers import Answer
from bot.model.game import (
    Actor,
    DeadlineSet,
    DealEnded,
    Game,
    GameStatus,
    Move,
    Moved,
    PartyEnded,
    Person,
    Picked,
    Returned,
    Seat,
    SeatBack,
    SeatReplaced,
    Seen,
    TimedOut,
    Unpicked,
)
from bot.model.party import Party
from engine.ai import Level
from engine.cards import Card, Suit
from engine.core import CommonIllegal, IllegalActionError
from engine.king.rules import KingIllegal
from engine.konchinka.rules import KonchinkaIllegal
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    NOW,
    STRANGER,
    TURN_START,
    VERA,
    after,
    closed,
    events,
    finish_position,
    finished,
    group_party,
    hand_of,
    in_lobby,
    king_last_trick,
    king_mockup,
    konchinka,
    nothing,
    refused,
    replaced,
    solo_party,
    table_of,
    version,
    with_seat,
    with_user,
)


def moved(decision: object) -> Moved:
    found = [e for e in events(decision) if isinstance(e, Moved)]
    assert len(found) == 1, events(decision)
    return found[0]


def code_of(party: Party | None, seat: int, index: int) -> str:
    assert party is not None
    view = party.view_of(seat)
    return str(view.legal_actions[index].code)  # type: ignore[attr-defined]


def bot_choice(game: Game, code: str) -> BotMove:
    """The timer's move for the seat to move: the engine's action with this code."""
    assert game.party is not None
    seat = game.party.current_player
    view = game.party.view_of(seat)
    action = next(a for a in view.legal_actions if a.code == code)  # type: ignore[attr-defined]
    return BotMove(GAME_ID, game.party.version, seat, action)


def pick(game: Game, person: Person, card: str) -> Decision:
    return moves.pick(Pick(GAME_ID, person, version(game), card), game, NOW, CONFIG)


def play(game: Game, person: Person, code: str) -> Decision:
    assert game.party is not None
    seat = game.seat_of(person.user_id)
    assert seat is not None
    view = game.party.view_of(seat.seat)
    index = [a.code for a in view.legal_actions].index(code)  # type: ignore[attr-defined]
    return moves.play(Play(GAME_ID, person, version(game), index), game, NOW, CONFIG)


# --- whose turn it is ------------------------------------------------------------------------------------------


def test_a_card_tapped_by_someone_outside_the_game_is_refused() -> None:
    assert pick(group_party(ANNA, BORIS), STRANGER, "Kd") == Refusal(Answer.NOT_A_PLAYER)


def test_a_card_tapped_out_of_turn_names_who_moves() -> None:
    game = group_party(ANNA, BORIS)
    assert pick(game, BORIS, "Kd") == Refusal(CommonIllegal.NOT_YOUR_TURN, {"name": "Аня"})


def test_a_bot_player_to_move_is_named_by_its_level() -> None:
    party = konchinka("5s", "Kd", to_move=1, deck="2c 3c 4c 5c")
    game = group_party(ANNA, bots=[Level.HARD], party=party)
    assert pick(game, ANNA, "5s") == Refusal(CommonIllegal.NOT_YOUR_TURN, {"name": "Мастер"})


def test_bot_players_of_one_level_are_named_with_their_number_at_the_table() -> None:
    game = group_party(ANNA, kind="king", bots=[Level.HARD])  # seats 2 and 3: «Любитель»s; seat 3 moves
    assert game.mover == Seat(3, None, "", "normal")
    assert pick(game, ANNA, "7c") == Refusal(CommonIllegal.NOT_YOUR_TURN, {"name": "Любитель 2"})


def test_a_right_to_left_name_is_isolated_in_the_refusal() -> None:
    game = group_party(ANNA, BORIS)
    game = with_seat(game, 0, name="שרה")
    refusal = refused(pick(game, BORIS, "Kd"))
    assert refusal.params == {"name": "\u2068שרה\u2069"}


def test_a_tap_on_an_older_hand_is_a_stale_press() -> None:
    game = group_party(ANNA, BORIS)
    assert moves.pick(Pick(GAME_ID, ANNA, 3, "Kd"), game, NOW, CONFIG) == Refusal(Answer.STALE)


@pytest.mark.parametrize("status", [GameStatus.CANCELLED, GameStatus.FINISHED])
def test_a_tap_in_a_game_that_is_over_is_a_stale_press(status: GameStatus) -> None:
    game = closed(group_party(ANNA, BORIS), status)
    assert pick(game, ANNA, "Kd") == Refusal(Answer.STALE)


def test_a_tap_in_a_lobby_is_a_stale_press() -> None:
    assert moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), in_lobby(ANNA, BORIS), NOW, CONFIG) == Refusal(
        Answer.STALE
    )


def test_turn_of_gives_the_movers_seat() -> None:
    game = group_party(ANNA, BORIS, VERA)
    assert moves.turn_of(game, ANNA.user_id, 0) == game.seats[0]


# --- a tap on a card --------------------------------------------------------------------------------------------


def test_a_card_with_one_move_plays_on_its_tap() -> None:
    game = group_party(ANNA, BORIS)
    decision = pick(game, ANNA, "Kd")
    party = moved(decision).party
    assert events(decision) == (Moved(0, "l:Kd", Actor.PLAYER, party, NOW), DeadlineSet(NOW + 60))
    assert party.version == 1 and party.current_player == 1
    played = after(game, decision)
    assert played.moves == (Move("l:Kd", 0, Actor.PLAYER, NOW),)
    assert played.mover == played.seats[1]


def test_a_card_with_two_moves_opens_a_choice_and_plays_nothing() -> None:
    game = group_party(ANNA, BORIS)
    decision = pick(game, ANNA, "2s")
    assert decision == Decided((Picked(ANNA.user_id, "2s", 0),))
    shown = after(game, decision)
    assert shown.screens.picked(ANNA.user_id, 0) == "2s"
    assert shown.party is game.party and shown.deadline == game.deadline


def test_finishing_asks_first_though_it_is_one_move() -> None:
    game = group_party(ANNA, BORIS, party=finish_position())
    assert pick(game, ANNA, "f") == Decided((Picked(ANNA.user_id, "f", 0),))


def test_a_card_that_can_also_finish_the_party_opens_a_choice() -> None:
    game = group_party(ANNA, BORIS, party=finish_position())
    assert pick(game, ANNA, "Ts") == Decided((Picked(ANNA.user_id, "Ts", 0),))


def test_a_card_not_in_the_hand_is_refused_in_the_engines_words() -> None:
    game = group_party(ANNA, BORIS)
    refusal = refused(pick(game, ANNA, "Ah"))
    assert (refusal.reason, refusal.params) == (CommonIllegal.NOT_IN_HAND, {"card": Card.parse("Ah")})
    assert isinstance(refusal.cause, IllegalActionError)
    assert refusal.cause.reason is CommonIllegal.NOT_IN_HAND


def test_a_code_that_is_no_card_is_refused_as_not_legal() -> None:
    assert pick(group_party(ANNA, BORIS), ANNA, "zz") == Refusal(CommonIllegal.NOT_LEGAL)


def test_a_king_card_that_does_not_follow_suit_is_refused_naming_the_suit() -> None:
    game = group_party(ANNA, kind="king", party=king_mockup())
    refusal = refused(pick(game, ANNA, "As"))
    assert refusal.reason is KingIllegal.MUST_FOLLOW_SUIT
    assert refusal.params == {"suit": Suit.DIAMONDS, "card": Card.parse("As")}
    assert refusal.cause is not None and refusal.cause.reason is KingIllegal.MUST_FOLLOW_SUIT


def test_a_king_card_that_follows_suit_plays_on_its_tap_and_the_bot_player_after_gets_no_deadline() -> None:
    game = group_party(ANNA, kind="king", party=king_mockup())
    decision = pick(game, ANNA, "7d")
    party = moved(decision).party
    assert events(decision) == (Moved(0, "7d", Actor.PLAYER, party, NOW), DeadlineSet(None))
    assert after(game, decision).deadline is None


def test_a_person_with_a_missed_turn_who_taps_is_back_at_the_table() -> None:
    game = with_seat(group_party(ANNA, BORIS), 0, misses=1)
    decision = pick(game, ANNA, "Kd")
    assert [type(e) for e in events(decision)] == [Returned, Moved, DeadlineSet]
    assert events(decision)[0] == Returned(0)
    assert after(game, decision).seats[0].misses == 0


def test_a_replaced_person_who_taps_a_card_plays_it_and_takes_the_seat_back() -> None:
    game = replaced(group_party(ANNA, BORIS), ANNA)
    assert game.deadline is None  # the bot player moves for Аня
    decision = pick(game, ANNA, "Kd")
    assert events(decision)[:2] == (Returned(0), Moved(0, "l:Kd", Actor.PLAYER, moved(decision).party, NOW))
    back = after(game, decision).seats[0]
    assert (back.replaced, back.misses) == (False, 0)


def test_a_replaced_person_who_opens_a_choice_gets_the_turns_time_again() -> None:
    game = replaced(group_party(ANNA, BORIS), ANNA)
    decision = pick(game, ANNA, "2s")
    assert events(decision)[:2] == (Returned(0), Picked(ANNA.user_id, "2s", 0))
    back = after(game, decision)
    assert back.seats[0].replaced is False
    assert back.deadline == NOW + 60  # else no timer would ever move for Аня
    assert back.timed


def test_a_choice_opened_in_a_game_without_a_time_limit_sets_none() -> None:
    game = replaced(group_party(ANNA, BORIS, turn_timeout=0), ANNA)
    back = after(game, pick(game, ANNA, "2s"))
    assert back.deadline is None


def test_another_card_forgets_the_first_tap() -> None:
    game = after(group_party(ANNA, BORIS), pick(group_party(ANNA, BORIS), ANNA, "2s"))
    decision = moves.back(Back(GAME_ID, ANNA, 0), game, NOW, CONFIG)
    assert decision == Decided((Unpicked(ANNA.user_id),))
    assert after(game, decision).screens.picks == {}


def test_another_card_forgets_the_missed_turns_of_the_person_who_presses_it() -> None:
    game = with_seat(group_party(ANNA, BORIS), 0, misses=1)
    assert moves.back(Back(GAME_ID, ANNA, 0), game, NOW, CONFIG) == Decided(
        (Returned(0), Unpicked(ANNA.user_id))
    )


def test_another_card_pressed_after_leaving_the_seat_takes_it_back_with_the_turns_time() -> None:
    game = group_party(ANNA, BORIS)
    game = replaced(after(game, pick(game, ANNA, "2s")), ANNA)  # a first tap, then /leave
    decision = moves.back(Back(GAME_ID, ANNA, 0), game, NOW, CONFIG)
    assert isinstance(decision, Decided) and decision.events[:2] == (Returned(0), Unpicked(ANNA.user_id))
    back = after(game, decision)
    assert not back.seats[0].replaced
    assert back.deadline == NOW + game.turn_timeout and back.timed  # the party never waits for nobody


def test_another_card_out_of_turn_or_late_is_refused() -> None:
    game = group_party(ANNA, BORIS)
    assert moves.back(Back(GAME_ID, BORIS, 0), game, NOW, CONFIG) == Refusal(
        CommonIllegal.NOT_YOUR_TURN, {"name": "Аня"}
    )
    assert moves.back(Back(GAME_ID, ANNA, 1), game, NOW, CONFIG) == Refusal(Answer.STALE)


# --- the second tap ----------------------------------------------------------------------------------------------


def test_the_move_chosen_is_played() -> None:
    game = after(group_party(ANNA, BORIS), pick(group_party(ANNA, BORIS), ANNA, "5s"))
    decision = play(game, ANNA, "c:5s:3c2h")
    played = after(game, decision)
    assert moved(decision).code == "c:5s:3c2h"
    assert played.screens.picks == {}
    assert table_of(game) == ["Td", "3c", "2h", "7c"]
    assert table_of(played) == ["Td", "7c"]
    assert hand_of(played, 0) == ["Kd", "2s", "Qs"]


def test_a_move_number_beyond_the_legal_ones_is_a_stale_press() -> None:
    game = group_party(ANNA, BORIS)
    assert moves.play(Play(GAME_ID, ANNA, 0, 6), game, NOW, CONFIG) == Refusal(Answer.STALE)
    assert moves.play(Play(GAME_ID, ANNA, 0, -1), game, NOW, CONFIG) == Refusal(Answer.STALE)


def test_a_move_pressed_for_someone_else_is_refused() -> None:
    game = group_party(ANNA, BORIS, VERA)
    assert moves.play(Play(GAME_ID, VERA, 0, 0), game, NOW, CONFIG) == Refusal(
        CommonIllegal.NOT_YOUR_TURN, {"name": "Аня"}
    )


def test_a_move_pressed_twice_is_refused_the_second_time() -> None:
    game = group_party(ANNA, BORIS)
    once = after(game, moves.play(Play(GAME_ID, ANNA, 0, 0), game, NOW, CONFIG))
    assert moves.play(Play(GAME_ID, ANNA, 0, 0), once, NOW, CONFIG) == Refusal(Answer.STALE)


def test_a_move_the_rules_refuse_is_refused_with_the_engines_reason() -> None:
    class Refusing:
        """A party whose rules refuse the move asked for (the engine re-checks every action)."""

        def __init__(self, party: Party) -> None:
            self.party = party

        def __getattr__(self, name: str) -> object:
            return getattr(self.party, name)

        def after(self, index: int) -> tuple[Party, str]:
            raise IllegalActionError(KonchinkaIllegal.MUST_CAPTURE, "a capture is due")

    game = group_party(ANNA, BORIS)
    game = dataclasses.replace(game, party=Refusing(game.party))  # type: ignore[arg-type]
    refusal = refused(moves.play(Play(GAME_ID, ANNA, 0, 0), game, NOW, CONFIG))
    assert refusal.reason is KonchinkaIllegal.MUST_CAPTURE
    assert refusal.cause is not None


# --- what a move causes ----------------------------------------------------------------------------------------


def test_the_move_that_ends_a_deal_has_it_scored_and_the_next_deal_timed() -> None:
    party = konchinka("5s", "", table="Kd", tally=[[3], [4]])
    game = group_party(ANNA, BORIS, party=party)
    decision = pick(game, ANNA, "5s")
    after_move = moved(decision).party
    assert events(decision) == (
        Moved(0, "l:5s", Actor.PLAYER, after_move, NOW),
        DealEnded(2),
        DeadlineSet(NOW + 60),
    )
    assert after_move.deals_completed == 2 and not after_move.is_terminal


def test_the_move_that_ends_the_party_writes_each_seats_result() -> None:
    party = konchinka("9c", "", table="9d", tally=[[14], [4]])
    game = group_party(ANNA, BORIS, party=party)
    decision = play(game, ANNA, "c:9c:9d")
    assert events(decision) == (
        Moved(0, "c:9c:9d", Actor.PLAYER, moved(decision).party, NOW),
        PartyEnded(NOW),
    )
    over = after(game, decision)
    assert (over.status, over.finished_at, over.deadline) == (GameStatus.FINISHED, NOW, None)
    assert [(s.score, s.won, s.settlement) for s in over.seats] == [(17, True, 11), (4, False, -11)]


def test_taking_and_finishing_is_one_move_that_ends_the_party() -> None:
    game = group_party(ANNA, BORIS, party=finish_position())
    decision = play(game, ANNA, "c:Ts:Th:f")
    assert [type(e) for e in events(decision)] == [Moved, PartyEnded]
    over = after(game, decision)
    assert [(s.score, s.won) for s in over.seats] == [(15, True), (5, False)]  # both кончинки secured


def test_finishing_ends_the_party_with_the_secured_points() -> None:
    game = group_party(ANNA, BORIS, party=finish_position())
    over = after(game, play(game, ANNA, "f"))
    assert over.status is GameStatus.FINISHED
    assert [(s.score, s.won, s.settlement) for s in over.seats] == [(15, True, 10), (5, False, -10)]


def test_the_last_trick_of_a_king_deal_has_the_deal_scored() -> None:
    game = group_party(ANNA, kind="king", party=king_last_trick())
    decision = pick(game, ANNA, "As")
    assert events(decision) == (
        Moved(0, "As", Actor.PLAYER, moved(decision).party, NOW),
        DealEnded(1),
        DeadlineSet(None),
    )


def test_the_next_person_gets_the_groups_time_per_turn() -> None:
    game = group_party(ANNA, BORIS, turn_timeout=25)
    assert events(pick(game, ANNA, "Kd"))[-1] == DeadlineSet(NOW + 25)


def test_the_next_person_in_a_game_without_a_limit_gets_none() -> None:
    game = group_party(ANNA, BORIS, turn_timeout=0)
    assert [type(e) for e in events(pick(game, ANNA, "Kd"))] == [Moved]


def test_the_next_person_the_bot_cannot_write_to_gets_a_limit_even_without_one() -> None:
    game = group_party(ANNA, BORIS, turn_timeout=0, unreachable=[BORIS])
    assert events(pick(game, ANNA, "Kd"))[-1] == DeadlineSet(NOW + CONFIG.turn_timeout)


def test_the_next_person_who_blocked_the_bot_gets_the_configured_limit() -> None:
    game = with_user(group_party(ANNA, BORIS, turn_timeout=0), BORIS, blocked=True)
    decision = moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, FlowConfig(turn_timeout=40))
    assert events(decision)[-1] == DeadlineSet(NOW + 40)


def test_the_next_seat_a_bot_player_stands_in_for_gets_no_deadline() -> None:
    game = with_seat(group_party(ANNA, BORIS), 1, replaced=True)
    decision = pick(game, ANNA, "Kd")
    assert events(decision)[-1] == DeadlineSet(None)
    assert after(game, decision).deadline is None


def test_a_solo_party_never_times_its_player() -> None:
    game = solo_party(ANNA)
    decision = pick(game, ANNA, "Kd")
    assert [type(e) for e in events(decision)] == [Moved]
    assert after(game, decision).deadline is None


def test_a_reminded_turns_deadline_is_set_anew_even_when_it_falls_at_the_same_time() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), deadline=NOW + 60, reminded=True)
    assert moves.deadline_of(game, NOW, CONFIG) == (DeadlineSet(NOW + 60),)


def test_an_unchanged_deadline_is_not_set_again() -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), deadline=NOW + 60)
    assert moves.deadline_of(game, NOW, CONFIG) == ()


# --- the timer's move -------------------------------------------------------------------------------------------


def test_a_bot_players_move_is_played_as_the_bots() -> None:
    party = konchinka("5s", "Kd 2h", to_move=1, deck="2c 3c 4c 5c")
    game = group_party(ANNA, bots=[Level.EASY], party=party)
    decision = moves.bot_move(bot_choice(game, "l:Kd"), game, NOW, CONFIG)
    assert events(decision) == (
        Moved(1, "l:Kd", Actor.BOT, moved(decision).party, NOW),
        DeadlineSet(NOW + 60),
    )
    assert after(game, decision).screens.timer_move is None


def test_the_timers_move_for_a_person_is_a_missed_turn() -> None:
    game = group_party(ANNA, BORIS)
    decision = moves.bot_move(bot_choice(game, "l:Kd"), game, NOW, CONFIG)
    party = moved(decision).party
    assert events(decision) == (
        Moved(0, "l:Kd", Actor.AFK, party, NOW),
        TimedOut(0, "l:Kd"),
        DeadlineSet(NOW + 60),
    )
    missed = after(game, decision)
    assert missed.seats[0].misses == 1 and not missed.seats[0].replaced
    assert missed.screens.timer_move == 1


def test_the_second_missed_turn_in_a_row_hands_the_seat_to_a_bot_player() -> None:
    game = with_seat(group_party(ANNA, BORIS), 0, misses=1)
    decision = moves.bot_move(bot_choice(game, "l:Qs"), game, NOW, CONFIG)
    assert events(decision)[1] == SeatReplaced(0, "l:Qs")
    taken = after(game, decision).seats[0]
    assert (taken.misses, taken.replaced) == (2, True)


def test_the_seat_is_handed_over_after_the_configured_number_of_missed_turns() -> None:
    game = with_seat(group_party(ANNA, BORIS), 0, misses=1)
    config = FlowConfig(afk_strikes=3)
    second = moves.bot_move(bot_choice(game, "l:Qs"), game, NOW, config)
    assert events(second)[1] == TimedOut(0, "l:Qs")
    third = moves.bot_move(
        bot_choice(with_seat(game, 0, misses=2), "l:Qs"), with_seat(game, 0, misses=2), NOW, config
    )
    assert events(third)[1] == SeatReplaced(0, "l:Qs")


def test_a_seat_a_bot_player_stands_in_for_counts_no_more_missed_turns() -> None:
    game = replaced(group_party(ANNA, BORIS), ANNA)
    decision = moves.bot_move(bot_choice(game, "l:Kd"), game, NOW, CONFIG)
    assert [type(e) for e in events(decision)] == [Moved, DeadlineSet]
    assert moved(decision).actor is Actor.BOT


def test_the_timer_plays_the_card_a_person_had_picked() -> None:
    game = group_party(ANNA, BORIS)
    picked = after(game, pick(game, ANNA, "5s"))
    decision = moves.bot_move(bot_choice(picked, "l:Kd"), picked, NOW, CONFIG)
    assert moved(decision).code == "c:5s:3c2h"  # 5♠'s best move, not the bot's К♦
    assert events(decision)[1] == TimedOut(0, "c:5s:3c2h")


def test_the_timer_keeps_the_bots_move_when_it_plays_the_picked_card() -> None:
    game = group_party(ANNA, BORIS)
    picked = after(game, pick(game, ANNA, "5s"))
    assert moved(moves.bot_move(bot_choice(picked, "l:5s"), picked, NOW, CONFIG)).code == "l:5s"


def test_a_card_picked_at_an_older_version_is_not_played_by_the_timer() -> None:
    game = group_party(ANNA, BORIS)
    stale = dataclasses.replace(
        game, screens=dataclasses.replace(game.screens, picks={ANNA.user_id: ("5s", 7)})
    )
    assert moved(moves.bot_move(bot_choice(stale, "l:Kd"), stale, NOW, CONFIG)).code == "l:Kd"


def test_a_timers_move_for_a_version_gone_by_does_nothing() -> None:
    game = group_party(ANNA, BORIS)
    command = dataclasses.replace(bot_choice(game, "l:Kd"), version=1)
    assert nothing(moves.bot_move(command, game, NOW, CONFIG))


def test_a_timers_move_for_a_seat_not_to_move_does_nothing() -> None:
    game = group_party(ANNA, BORIS)
    command = dataclasses.replace(bot_choice(game, "l:Kd"), seat=1)
    assert nothing(moves.bot_move(command, game, NOW, CONFIG))


def test_a_timers_move_in_a_game_over_does_nothing() -> None:
    game = group_party(ANNA, BORIS)
    command = bot_choice(game, "l:Kd")
    assert nothing(moves.bot_move(command, closed(game, GameStatus.CANCELLED), NOW, CONFIG))


# --- a seat taken back --------------------------------------------------------------------------------------------


def test_a_replaced_player_takes_the_seat_back_and_hears_the_moves_made_meanwhile() -> None:
    game = replaced(group_party(ANNA, BORIS), BORIS)
    game = dataclasses.replace(
        game,
        moves=(
            Move("l:Ah", 1, Actor.PLAYER, NOW - 50),
            Move("l:Kd", 0, Actor.PLAYER, NOW - 40),
            Move("l:2h", 1, Actor.AFK, NOW - 30),
            Move("l:Qs", 0, Actor.PLAYER, NOW - 20),
            Move("l:3h", 1, Actor.BOT, NOW - 10),
        ),
    )
    decision = moves.take_seat(TakeSeat(GAME_ID, BORIS), game, NOW, CONFIG)
    assert decision == Decided((Seen(BORIS), SeatBack(1, ("l:2h", "l:3h"))))
    assert after(game, decision).seats[1] == Seat(1, BORIS.user_id, "Борис")


def test_a_player_back_while_another_moves_leaves_that_persons_time_alone() -> None:
    game = dataclasses.replace(replaced(group_party(ANNA, BORIS), BORIS), reminded=True)
    back = after(game, moves.take_seat(TakeSeat(GAME_ID, BORIS), game, NOW, CONFIG))
    assert (back.deadline, back.reminded) == (
        TURN_START + 60,
        True,
    )  # Аня was reminded: not again, no more time


def test_a_player_back_on_their_turn_gets_the_turns_time() -> None:
    game = replaced(group_party(ANNA, BORIS), ANNA)
    decision = moves.take_seat(TakeSeat(GAME_ID, ANNA), game, NOW, CONFIG)
    assert events(decision) == (Seen(ANNA), SeatBack(0, ()), DeadlineSet(NOW + 60))


def test_taking_back_a_seat_one_never_left_is_answered_you_are_in() -> None:
    game = group_party(ANNA, BORIS)
    assert moves.take_seat(TakeSeat(GAME_ID, ANNA), game, NOW, CONFIG) == Refusal(Answer.ALREADY_IN_GAME)


def test_taking_a_seat_in_someone_elses_game_is_refused() -> None:
    game = group_party(ANNA, BORIS)
    assert moves.take_seat(TakeSeat(GAME_ID, VERA), game, NOW, CONFIG) == Refusal(Answer.NOT_A_PLAYER)


def test_taking_a_seat_back_once_the_game_is_over_is_refused() -> None:
    game = finished(replaced(group_party(ANNA, BORIS), ANNA))
    assert moves.take_seat(TakeSeat(GAME_ID, ANNA), game, NOW, CONFIG) == Refusal(Answer.NO_GAME)


def test_the_moves_made_for_a_seat_are_those_since_its_persons_own_last() -> None:
    made = (
        Move("a", 0, Actor.AFK, 1.0),
        Move("b", 0, Actor.PLAYER, 2.0),
        Move("c", 1, Actor.PLAYER, 3.0),
        Move("d", 0, Actor.AFK, 4.0),
        Move("e", 1, Actor.BOT, 5.0),
        Move("f", 0, Actor.BOT, 6.0),
    )
    assert moves.played_for(made, 0) == ("d", "f")
    assert moves.played_for(made, 1) == ("e",)
    assert moves.played_for((), 0) == ()


def test_a_seats_plain_name_is_its_persons_or_its_bot_players_level() -> None:
    seats = (Seat(0, ANNA.user_id, "Аня"), Seat(1, None, "", "easy"), Seat(2, None, "", "easy"))
    assert moves.plain_name(seats[0], "ru", seats) == "Аня"
    assert moves.plain_name(seats[2], "ru", seats) == "Новичок 2"
    assert moves.plain_name(seats[1], "en") == "Beginner"


def test_the_turn_just_started_counts_from_the_move_not_from_the_last_deadline() -> None:
    game = group_party(ANNA, BORIS)
    assert game.deadline == TURN_START + 60
    assert after(game, pick(game, ANNA, "Kd")).deadline == NOW + 60


def test_a_press_from_an_ended_deal_is_told_old_and_a_second_tap_on_its_last_move_made_already() -> None:
    game = group_party(ANNA, BORIS)
    party = game.party
    assert party is not None
    while party.deals_completed == 0:
        last = party.version  # the move made from here ends the first deal
        party, _ = party.after(0)
    game = dataclasses.replace(game, party=party)
    assert moves.play(Play(GAME_ID, ANNA, 0, 0), game, NOW, CONFIG) == Refusal(Answer.OLD_DEAL)
    assert moves.play(Play(GAME_ID, ANNA, last - 1, 0), game, NOW, CONFIG) == Refusal(Answer.OLD_DEAL)
    assert moves.play(Play(GAME_ID, ANNA, last, 0), game, NOW, CONFIG) == Refusal(Answer.STALE)
