"""The lobby's decisions (``bot.flow.lobby``) on games in memory: opening a lobby or a solo game, the rematch's
plan, joining and leaving, bot players, screens and options, the start, cancelling, a lobby expiring, a lobby
the bot can no longer show, and a party nobody plays any more."""

from __future__ import annotations

import dataclasses

import pytest

from bot.flow import lobby
from bot.flow.commands import (
    AddBot,
    Cancel,
    Decided,
    FlowConfig,
    Join,
    LeaveLobby,
    OpenLobby,
    Refusal,
    Rematch,
    RemoveBot,
    SetOption,
    ShowScreen,
    Start,
    StartSolo,
)
from bot.flow.lobby import Opening, Rights
from bot.model.answers import Answer
from bot.model.game import (
    TURN_TIME_KEY,
    Abandoned,
    Cancelled,
    DeadlineSet,
    Dealt,
    Expired,
    Game,
    GameMode,
    GameStatus,
    LobbyScreen,
    LobbyShows,
    Opened,
    OptionsSet,
    Person,
    RematchCalled,
    Seat,
    Seated,
    Seen,
    Unseated,
)
from engine.ai import Level
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    GLEB,
    GROUP,
    NOW,
    OTHER_GROUP,
    SEED,
    STRANGER,
    VERA,
    after,
    closed,
    events,
    finished,
    group_party,
    in_lobby,
    nothing,
    solo_party,
    user,
)

NEW_ID = 77


def opened(decision: object) -> Game:
    """The new game a decision opened."""
    first = events(decision)[0]
    assert isinstance(first, Opened), first
    return first.game


def open_command(creator: Person = ANNA, kind: str = "konchinka") -> OpenLobby:
    return OpenLobby(GROUP, 5, creator, kind)


# --- opening a lobby -------------------------------------------------------------------------------------------


def test_a_lobby_opens_with_its_creator_seated_when_the_bot_may_write_to_them() -> None:
    decision = lobby.open_lobby(
        open_command(), Opening(NEW_ID, NOW, users={ANNA.user_id: user(ANNA)}), CONFIG
    )
    game = opened(decision)
    assert events(decision)[1:] == (Seen(ANNA),)
    assert (game.id, game.kind, game.mode, game.status) == (
        NEW_ID,
        "konchinka",
        GameMode.GROUP,
        GameStatus.LOBBY,
    )
    assert (game.chat_id, game.thread_id, game.creator_id) == (GROUP, 5, ANNA.user_id)
    assert game.seats == (Seat(0, ANNA.user_id, "Аня"),)
    assert game.expires_at == NOW + CONFIG.lobby_ttl
    assert game.turn_timeout == CONFIG.turn_timeout
    assert game.options["target"] == 15 and game.options["variant"] == "classic"


def test_a_creator_who_never_opened_the_bot_opens_a_lobby_with_no_one_seated() -> None:
    decision = lobby.open_lobby(open_command(), Opening(NEW_ID, NOW), CONFIG)
    game = opened(decision)
    assert game.seats == ()
    assert game.creator_id == ANNA.user_id
    assert game.users[ANNA.user_id].reachable is False


def test_a_creator_who_blocked_the_bot_is_not_seated() -> None:
    opening = Opening(NEW_ID, NOW, users={ANNA.user_id: user(ANNA, blocked=True)})
    assert opened(lobby.open_lobby(open_command(), opening, CONFIG)).seats == ()


def test_no_lobby_opens_where_the_bot_may_not_post() -> None:
    assert lobby.open_lobby(open_command(), Opening(NEW_ID, NOW, refused=True), CONFIG) == Refusal(
        Answer.UNKNOWN
    )


@pytest.mark.parametrize(
    ("running", "reason"), [(GameStatus.LOBBY, Answer.LOBBY_OPEN), (GameStatus.PLAYING, Answer.GAME_RUNNING)]
)
def test_no_second_game_opens_in_a_chat_with_an_active_one(running: GameStatus, reason: Answer) -> None:
    assert lobby.open_lobby(open_command(), Opening(NEW_ID, NOW, running=running), CONFIG) == Refusal(reason)


def test_one_person_keeps_at_most_three_lobbies_open() -> None:
    users = {ANNA.user_id: user(ANNA)}
    third = lobby.open_lobby(open_command(), Opening(NEW_ID, NOW, open_lobbies=2, users=users), CONFIG)
    fourth = lobby.open_lobby(open_command(), Opening(NEW_ID, NOW, open_lobbies=3, users=users), CONFIG)
    assert opened(third).status is GameStatus.LOBBY
    assert fourth == Refusal(Answer.TOO_MANY_LOBBIES)


def test_a_lobby_speaks_the_chats_chosen_language_else_its_creators() -> None:
    english = dataclasses.replace(ANNA, lang="en")
    chosen = lobby.open_lobby(open_command(english), Opening(NEW_ID, NOW, lang="ru"), CONFIG)
    own = lobby.open_lobby(open_command(english), Opening(NEW_ID, NOW), CONFIG)
    assert opened(chosen).lang == "ru"
    assert opened(own).lang == "en"


def test_a_lobby_takes_the_configured_target_and_time() -> None:
    config = FlowConfig(default_target=21, turn_timeout=90)
    game = opened(lobby.open_lobby(open_command(), Opening(NEW_ID, NOW), config))
    assert game.options["target"] == 21
    assert game.turn_timeout == 90


def test_a_creator_seen_again_is_seated_under_their_name_now() -> None:
    renamed = dataclasses.replace(ANNA, name="Анна")
    game = opened(
        lobby.open_lobby(open_command(renamed), Opening(NEW_ID, NOW, users={101: user(ANNA)}), CONFIG)
    )
    assert game.seats == (Seat(0, ANNA.user_id, "Анна"),)
    assert game.users[ANNA.user_id].name == "Анна"


def test_a_rematch_lobby_seats_the_last_partys_players_and_calls_them() -> None:
    last = (Seat(0, BORIS.user_id, "Борис"), Seat(1, ANNA.user_id, "Аня"), Seat(2, None, "", "hard"))
    command = OpenLobby(
        GROUP, 0, ANNA, "konchinka", {"target": 21}, seats=last, host=BORIS.user_id, turn_timeout=30
    )
    opening = Opening(NEW_ID, NOW, users={ANNA.user_id: user(ANNA), BORIS.user_id: user(BORIS)})
    decision = lobby.open_lobby(command, opening, CONFIG)
    game = opened(decision)
    assert events(decision)[1:] == (Seen(ANNA), RematchCalled(1))
    assert game.seats == (
        Seat(0, BORIS.user_id, "Борис"),
        Seat(1, ANNA.user_id, "Аня"),
        Seat(2, None, "", "hard"),
    )
    assert game.creator_id == BORIS.user_id
    assert game.turn_timeout == 30
    assert game.options == {"target": 21}
    assert set(game.users) == {ANNA.user_id, BORIS.user_id}


def test_a_rematch_lobby_with_bot_players_only_besides_its_caller_calls_nobody() -> None:
    last = (Seat(0, ANNA.user_id, "Аня"), Seat(1, None, "", "normal"))
    command = OpenLobby(GROUP, 0, ANNA, "konchinka", seats=last, host=ANNA.user_id)
    decision = lobby.open_lobby(command, Opening(NEW_ID, NOW), CONFIG)
    assert [type(e) for e in events(decision)] == [Opened, Seen]
    assert opened(decision).seats == last


def test_a_rematch_lobby_forgets_the_last_partys_results() -> None:
    last = (Seat(0, ANNA.user_id, "Аня", score=15, won=True, settlement=10, misses=1, replaced=True),)
    command = OpenLobby(GROUP, 0, ANNA, "konchinka", seats=last, host=ANNA.user_id)
    assert opened(lobby.open_lobby(command, Opening(NEW_ID, NOW), CONFIG)).seats == (
        Seat(0, ANNA.user_id, "Аня"),
    )


# --- a solo game ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("opponents", [1, 2, 3])
def test_a_solo_konchinka_is_dealt_at_once_against_one_to_three_bot_players(opponents: int) -> None:
    command = StartSolo(ANNA, "konchinka", opponents, Level.HARD)
    decision = lobby.start_solo(command, Opening(NEW_ID, NOW), SEED, CONFIG)
    game = after(solo_party(), decision)  # Opened replaces whatever game it is folded over
    assert events(decision)[1:] == (Seen(ANNA, started=True),)
    assert (game.id, game.mode, game.status, game.chat_id) == (NEW_ID, GameMode.SOLO, GameStatus.PLAYING, 101)
    assert game.seats == (
        Seat(0, ANNA.user_id, "Аня"),
        *(Seat(i, None, "", "hard") for i in range(1, opponents + 1)),
    )
    assert game.party is not None and game.party.version == 0
    assert len(game.party.view_of(0).hand_sizes) == opponents + 1  # type: ignore[attr-defined]
    assert game.turn_timeout == 0 and game.deadline is None
    assert game.users[ANNA.user_id].reachable


@pytest.mark.parametrize("opponents", [0, 4])
def test_a_solo_konchinka_against_no_or_four_bot_players_is_refused(opponents: int) -> None:
    command = StartSolo(ANNA, "konchinka", opponents, Level.NORMAL)
    assert lobby.start_solo(command, Opening(NEW_ID, NOW), SEED, CONFIG) == Refusal(Answer.UNKNOWN)


def test_a_solo_king_is_played_against_three_bot_players_only() -> None:
    three = lobby.start_solo(StartSolo(ANNA, "king", 3, Level.EASY), Opening(NEW_ID, NOW), SEED, CONFIG)
    two = lobby.start_solo(StartSolo(ANNA, "king", 2, Level.EASY), Opening(NEW_ID, NOW), SEED, CONFIG)
    assert [s.level for s in opened(three).seats] == [None, "easy", "easy", "easy"]
    assert two == Refusal(Answer.UNKNOWN)


def test_a_second_solo_game_is_refused_while_one_is_played() -> None:
    command = StartSolo(ANNA, "konchinka", 1, Level.NORMAL)
    opening = Opening(NEW_ID, NOW, running=GameStatus.PLAYING)
    assert lobby.start_solo(command, opening, SEED, CONFIG) == Refusal(Answer.GAME_RUNNING)


def test_a_solo_game_is_dealt_from_the_seed_given() -> None:
    command = StartSolo(ANNA, "konchinka", 1, Level.NORMAL)
    one = opened(lobby.start_solo(command, Opening(NEW_ID, NOW), SEED, CONFIG)).party
    same = opened(lobby.start_solo(command, Opening(NEW_ID, NOW), SEED, CONFIG)).party
    other = opened(lobby.start_solo(command, Opening(NEW_ID, NOW), SEED + 1, CONFIG)).party
    assert one is not None and same is not None and other is not None
    assert one.view_of(0) == same.view_of(0)
    assert one.view_of(0) != other.view_of(0)


# --- the rematch's plan ------------------------------------------------------------------------------------------


def test_a_group_rematch_plans_a_lobby_with_the_same_seats_host_options_and_time() -> None:
    game = finished(group_party(ANNA, BORIS, VERA, turn_timeout=45))
    plan = lobby.rematch(Rematch(GAME_ID, ANNA), game)
    assert plan == OpenLobby(
        GROUP, 0, ANNA, "konchinka", dict(game.options), seats=game.seats, host=ANNA.user_id, turn_timeout=45
    )


def test_a_rematch_tapped_by_another_player_is_still_run_by_the_host() -> None:
    plan = lobby.rematch(Rematch(GAME_ID, BORIS), finished(group_party(ANNA, BORIS)))
    assert isinstance(plan, OpenLobby)
    assert (plan.creator, plan.host) == (BORIS, ANNA.user_id)


def test_a_rematch_is_run_by_whoever_taps_first_when_the_host_did_not_play() -> None:
    game = dataclasses.replace(finished(group_party(BORIS, VERA)), creator_id=ANNA.user_id)
    plan = lobby.rematch(Rematch(GAME_ID, VERA), game)
    assert isinstance(plan, OpenLobby)
    assert plan.host == VERA.user_id


def test_a_solo_rematch_plans_a_game_against_the_same_bot_players_at_their_level() -> None:
    game = finished(solo_party(opponents=2, level=Level.HARD))
    plan = lobby.rematch(Rematch(GAME_ID, ANNA), game)
    assert plan == StartSolo(ANNA, "konchinka", 2, Level.HARD, dict(game.options))


def test_a_rematch_leaves_out_the_stored_number_of_players() -> None:
    game = finished(dataclasses.replace(group_party(ANNA, BORIS), options={"players": 2, "target": 11}))
    plan = lobby.rematch(Rematch(GAME_ID, ANNA), game)
    assert isinstance(plan, OpenLobby)
    assert plan.options == {"target": 11}


def test_a_rematch_of_a_game_not_found_is_refused() -> None:
    assert lobby.rematch(Rematch(GAME_ID, ANNA), None) == Refusal(Answer.NO_GAME)


def test_a_rematch_is_refused_to_someone_who_did_not_play() -> None:
    game = finished(group_party(ANNA, BORIS))
    assert lobby.rematch(Rematch(GAME_ID, STRANGER), game) == Refusal(Answer.NOT_A_PLAYER)


@pytest.mark.parametrize("status", [GameStatus.CANCELLED, GameStatus.EXPIRED])
def test_a_rematch_of_a_game_that_never_ended_is_refused(status: GameStatus) -> None:
    game = closed(group_party(ANNA, BORIS), status)
    assert lobby.rematch(Rematch(GAME_ID, ANNA), game) == Refusal(Answer.NO_GAME)


def test_a_rematch_of_a_game_still_on_is_refused() -> None:
    assert lobby.rematch(Rematch(GAME_ID, ANNA), group_party(ANNA, BORIS)) == Refusal(Answer.GAME_RUNNING)
    assert lobby.rematch(Rematch(GAME_ID, ANNA), in_lobby(ANNA, BORIS)) == Refusal(Answer.LOBBY_OPEN)


# --- joining and leaving ---------------------------------------------------------------------------------------


def test_a_member_of_the_group_takes_the_next_seat() -> None:
    game = in_lobby(ANNA)
    decision = lobby.join(Join(GAME_ID, BORIS), game, member=True)
    assert decision == Decided((Seen(BORIS, started=True), Seated(BORIS.user_id, "Борис")), Answer.JOINED)
    joined = after(game, decision)
    assert joined.seats[1] == Seat(1, BORIS.user_id, "Борис")
    assert joined.users[BORIS.user_id].reachable


def test_joining_makes_a_person_who_had_blocked_the_bot_reachable_again() -> None:
    game = dataclasses.replace(in_lobby(ANNA), users={**in_lobby(ANNA).users, 102: user(BORIS, blocked=True)})
    joined = after(game, lobby.join(Join(GAME_ID, BORIS), game, member=True))
    assert joined.users[BORIS.user_id].blocked is False


def test_someone_not_in_the_group_may_not_join() -> None:
    assert lobby.join(Join(GAME_ID, STRANGER), in_lobby(ANNA), member=False) == Refusal(Answer.NOT_IN_GROUP)


def test_a_join_is_refused_while_telegram_cannot_say_who_is_in_the_group() -> None:
    assert lobby.join(Join(GAME_ID, BORIS), in_lobby(ANNA), member=None) == Refusal(Answer.CANNOT_CHECK)


def test_a_second_join_is_answered_you_are_in_not_refused() -> None:
    assert lobby.join(Join(GAME_ID, BORIS), in_lobby(ANNA, BORIS), member=True) == Decided(
        answer=Answer.ALREADY_JOINED
    )


def test_a_join_link_of_a_running_game_says_you_are_in_to_its_players() -> None:
    game = group_party(ANNA, BORIS)
    assert lobby.join(Join(GAME_ID, BORIS), game, member=True) == Decided(answer=Answer.ALREADY_JOINED)


def test_a_join_link_of_a_running_game_is_refused_to_others() -> None:
    game = group_party(ANNA, BORIS)
    assert lobby.join(Join(GAME_ID, VERA), game, member=True) == Refusal(Answer.GAME_RUNNING)


def test_a_solo_games_link_is_refused_to_a_stranger() -> None:
    assert lobby.join(Join(GAME_ID, BORIS), solo_party(ANNA), member=True) == Refusal(Answer.GAME_RUNNING)


@pytest.mark.parametrize("status", [GameStatus.EXPIRED, GameStatus.CANCELLED, GameStatus.FINISHED])
def test_a_join_link_of_a_closed_lobby_is_refused(status: GameStatus) -> None:
    game = closed(in_lobby(ANNA), status)
    assert lobby.join(Join(GAME_ID, BORIS), game, member=True) == Refusal(Answer.LOBBY_CLOSED)


def test_a_full_lobby_takes_nobody_more() -> None:
    game = in_lobby(ANNA, BORIS, VERA, GLEB)
    assert lobby.join(Join(GAME_ID, STRANGER), game, member=True) == Refusal(Answer.LOBBY_FULL)


def test_a_full_king_lobby_counts_its_bot_players() -> None:
    game = in_lobby(ANNA, kind="king", bots=[Level.EASY, Level.EASY, Level.HARD])
    assert lobby.join(Join(GAME_ID, BORIS), game, member=True) == Refusal(Answer.LOBBY_FULL)


def test_leaving_a_lobby_frees_the_seat_and_moves_the_later_ones_up() -> None:
    game = in_lobby(ANNA, BORIS, VERA)
    decision = lobby.leave_lobby(LeaveLobby(GAME_ID, BORIS), game)
    assert decision == Decided((Unseated(1),), Answer.LEFT)
    assert after(game, decision).seats == (Seat(0, ANNA.user_id, "Аня"), Seat(1, VERA.user_id, "Вера"))


def test_leaving_a_lobby_one_is_not_in_is_refused() -> None:
    assert lobby.leave_lobby(LeaveLobby(GAME_ID, VERA), in_lobby(ANNA)) == Refusal(Answer.NOT_A_PLAYER)


def test_leaving_a_lobby_that_started_meanwhile_is_a_stale_press() -> None:
    assert lobby.leave_lobby(LeaveLobby(GAME_ID, BORIS), group_party(ANNA, BORIS)) == Refusal(Answer.STALE)


# --- bot players ------------------------------------------------------------------------------------------------


def test_the_creator_adds_a_bot_player_and_the_lobby_shows_its_main_screen() -> None:
    game = in_lobby(ANNA)
    decision = lobby.add_bot(AddBot(GAME_ID, ANNA, "hard"), game)
    assert decision == Decided((Seated(None, "", "hard"), LobbyShows(LobbyScreen.MAIN)), Answer.BOT_ADDED)
    assert after(game, decision).seats[1] == Seat(1, None, "", "hard")


def test_a_bot_player_of_an_unknown_level_is_refused() -> None:
    assert lobby.add_bot(AddBot(GAME_ID, ANNA, "genius"), in_lobby(ANNA)) == Refusal(Answer.UNKNOWN)


def test_only_the_creator_adds_bot_players() -> None:
    assert lobby.add_bot(AddBot(GAME_ID, BORIS, "easy"), in_lobby(ANNA, BORIS)) == Refusal(Answer.NOT_CREATOR)


def test_no_bot_player_is_added_to_a_full_lobby() -> None:
    game = in_lobby(ANNA, BORIS, bots=[Level.EASY, Level.EASY])
    assert lobby.add_bot(AddBot(GAME_ID, ANNA, "easy"), game) == Refusal(Answer.LOBBY_FULL)


def test_no_bot_player_is_added_once_the_party_started() -> None:
    assert lobby.add_bot(AddBot(GAME_ID, ANNA, "easy"), group_party(ANNA, BORIS)) == Refusal(Answer.STALE)


def test_the_creator_removes_a_bot_player_and_the_bot_screen_stays_while_one_is_left() -> None:
    game = in_lobby(ANNA, bots=[Level.EASY, Level.HARD])
    decision = lobby.remove_bot(RemoveBot(GAME_ID, ANNA, "1"), game)
    assert decision == Decided((Unseated(1),), Answer.BOT_REMOVED)
    assert after(game, decision).seats == (Seat(0, ANNA.user_id, "Аня"), Seat(1, None, "", "hard"))


def test_removing_the_last_bot_player_turns_the_lobby_to_its_main_screen() -> None:
    game = in_lobby(ANNA, BORIS, bots=[Level.EASY])
    decision = lobby.remove_bot(RemoveBot(GAME_ID, ANNA, "2"), game)
    assert decision == Decided((Unseated(2), LobbyShows(LobbyScreen.MAIN)), Answer.BOT_REMOVED)


@pytest.mark.parametrize("seat", ["0", "2", "-1"])
def test_a_seat_that_holds_no_bot_player_is_a_stale_press(seat: str) -> None:
    game = in_lobby(ANNA, bots=[Level.EASY])
    assert lobby.remove_bot(RemoveBot(GAME_ID, ANNA, seat), game) == Refusal(Answer.STALE)


def test_a_seat_that_is_no_number_is_refused() -> None:
    game = in_lobby(ANNA, bots=[Level.EASY])
    assert lobby.remove_bot(RemoveBot(GAME_ID, ANNA, "x"), game) == Refusal(Answer.UNKNOWN)


def test_only_the_creator_removes_bot_players() -> None:
    game = in_lobby(ANNA, BORIS, bots=[Level.EASY])
    assert lobby.remove_bot(RemoveBot(GAME_ID, BORIS, "2"), game) == Refusal(Answer.NOT_CREATOR)


# --- screens and options ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("screen", [LobbyScreen.SETTINGS, LobbyScreen.BOT_LEVEL])
def test_the_creator_opens_the_settings_and_the_bot_levels(screen: LobbyScreen) -> None:
    game = in_lobby(ANNA)
    decision = lobby.show_screen(ShowScreen(GAME_ID, ANNA, screen), game)
    assert decision == Decided((LobbyShows(screen),))
    assert after(game, decision).screens.lobby is screen


@pytest.mark.parametrize("screen", [LobbyScreen.SETTINGS, LobbyScreen.BOT_LEVEL])
def test_no_one_but_the_creator_opens_the_settings_or_the_bot_levels(screen: LobbyScreen) -> None:
    assert lobby.show_screen(ShowScreen(GAME_ID, BORIS, screen), in_lobby(ANNA, BORIS)) == Refusal(
        Answer.NOT_CREATOR
    )


def test_anyone_turns_the_lobby_back_to_its_main_screen() -> None:
    game = in_lobby(ANNA, BORIS)
    assert lobby.show_screen(ShowScreen(GAME_ID, BORIS, LobbyScreen.MAIN), game) == Decided(
        (LobbyShows(LobbyScreen.MAIN),)
    )


def test_a_screen_of_a_lobby_that_started_meanwhile_is_a_stale_press() -> None:
    command = ShowScreen(GAME_ID, ANNA, LobbyScreen.SETTINGS)
    assert lobby.show_screen(command, group_party(ANNA, BORIS)) == Refusal(Answer.STALE)


@pytest.mark.parametrize("seconds", [0, 30, 3600])
def test_the_creator_sets_the_time_per_turn(seconds: int) -> None:
    game = in_lobby(ANNA)
    decision = lobby.set_option(SetOption(GAME_ID, ANNA, TURN_TIME_KEY, str(seconds)), game)
    assert decision == Decided((OptionsSet(game.options, seconds),), Answer.SETTING_SAVED)
    assert after(game, decision).turn_timeout == seconds


@pytest.mark.parametrize("value", ["-1", "3601", "soon", ""])
def test_a_time_per_turn_out_of_range_or_no_number_is_refused(value: str) -> None:
    game = in_lobby(ANNA)
    assert lobby.set_option(SetOption(GAME_ID, ANNA, TURN_TIME_KEY, value), game) == Refusal(Answer.UNKNOWN)


def test_the_creator_sets_a_games_own_option_and_keeps_the_time() -> None:
    game = in_lobby(ANNA, turn_timeout=45)
    decision = lobby.set_option(SetOption(GAME_ID, ANNA, "target", "21"), game)
    saved = after(game, decision)
    assert saved.options == {**game.options, "target": 21}
    assert saved.turn_timeout == 45


def test_a_king_lobby_takes_the_order_of_its_negative_deals() -> None:
    game = in_lobby(ANNA, kind="king")
    saved = after(game, lobby.set_option(SetOption(GAME_ID, ANNA, "kstop", "0"), game))
    assert saved.options["stop_when_decided"] is False


@pytest.mark.parametrize(
    ("key", "value"), [("target", "0"), ("target", "many"), ("variant", "poker"), ("nope", "1")]
)
def test_an_option_the_game_does_not_allow_is_refused(key: str, value: str) -> None:
    assert lobby.set_option(SetOption(GAME_ID, ANNA, key, value), in_lobby(ANNA)) == Refusal(Answer.UNKNOWN)


def test_only_the_creator_changes_the_options() -> None:
    command = SetOption(GAME_ID, BORIS, "target", "21")
    assert lobby.set_option(command, in_lobby(ANNA, BORIS)) == Refusal(Answer.NOT_CREATOR)


def test_options_of_a_started_party_stay_as_they_were() -> None:
    command = SetOption(GAME_ID, ANNA, "target", "21")
    assert lobby.set_option(command, group_party(ANNA, BORIS)) == Refusal(Answer.STALE)


# --- the start --------------------------------------------------------------------------------------------------


def test_the_creator_starts_the_party_and_the_first_person_to_move_gets_the_turns_time() -> None:
    game = in_lobby(ANNA, BORIS)
    decision = lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG)
    dealt, deadline = events(decision)
    assert isinstance(dealt, Dealt) and (dealt.bots, dealt.party.version) == (0, 0)
    assert dealt.party.current_player == 0  # the seed's first mover: Аня
    assert deadline == DeadlineSet(NOW + 60)
    started = after(game, decision)
    assert (started.status, started.expires_at, started.deadline) == (GameStatus.PLAYING, None, NOW + 60)


def test_a_party_is_dealt_from_the_seed_given() -> None:
    game = in_lobby(ANNA, BORIS)
    one = after(game, lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG)).party
    two = after(game, lobby.start(Start(GAME_ID, ANNA), game, SEED + 2, NOW, CONFIG)).party
    assert one is not None and two is not None
    assert one.view_of(0) != two.view_of(0)
    assert one.seed == SEED and two.seed == SEED + 2


def test_a_konchinka_lobby_of_one_is_not_enough() -> None:
    decision = lobby.start(Start(GAME_ID, ANNA), in_lobby(ANNA), SEED, NOW, CONFIG)
    assert decision == Refusal(Answer.NOT_ENOUGH_PLAYERS, {"count": 2})


def test_a_king_lobby_with_nobody_seated_is_not_enough() -> None:
    decision = lobby.start(Start(GAME_ID, ANNA), in_lobby(kind="king"), SEED, NOW, CONFIG)
    assert decision == Refusal(Answer.NOT_ENOUGH_PLAYERS, {"count": 1})


def test_a_konchinka_lobby_of_one_person_and_a_bot_player_starts() -> None:
    game = in_lobby(ANNA, bots=[Level.EASY])
    started = after(game, lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG))
    assert started.status is GameStatus.PLAYING and len(started.seats) == 2


def test_a_king_lobby_fills_its_empty_seats_with_bot_players() -> None:
    game = in_lobby(ANNA, BORIS, kind="king")
    decision = lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG)
    dealt = events(decision)[0]
    assert isinstance(dealt, Dealt) and (dealt.bots, dealt.level) == (2, "normal")
    started = after(game, decision)
    assert [(s.seat, s.user_id, s.level) for s in started.seats] == [
        (0, ANNA.user_id, None),
        (1, BORIS.user_id, None),
        (2, None, "normal"),
        (3, None, "normal"),
    ]


def test_a_party_whose_first_move_is_a_bot_players_gets_no_deadline() -> None:
    game = in_lobby(ANNA, kind="king")  # the seed's first mover is seat 3: a bot player
    decision = lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG)
    assert [type(e) for e in events(decision)] == [Dealt]
    assert after(game, decision).deadline is None


def test_a_party_without_a_time_limit_sets_no_deadline() -> None:
    game = in_lobby(ANNA, BORIS, turn_timeout=0)
    decision = lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG)
    assert [type(e) for e in events(decision)] == [Dealt]


def test_a_first_mover_the_bot_cannot_write_to_gets_a_limit_in_a_game_without_one() -> None:
    game = in_lobby(ANNA, BORIS, turn_timeout=0, unreachable=[ANNA])
    decision = lobby.start(Start(GAME_ID, ANNA), game, SEED, NOW, CONFIG)
    assert events(decision)[1:] == (DeadlineSet(NOW + CONFIG.turn_timeout),)


def test_only_the_creator_starts() -> None:
    decision = lobby.start(Start(GAME_ID, BORIS), in_lobby(ANNA, BORIS), SEED, NOW, CONFIG)
    assert decision == Refusal(Answer.NOT_CREATOR)


def test_a_second_start_is_a_stale_press() -> None:
    decision = lobby.start(Start(GAME_ID, ANNA), group_party(ANNA, BORIS), SEED, NOW, CONFIG)
    assert decision == Refusal(Answer.STALE)


# --- cancelling -------------------------------------------------------------------------------------------------


def test_the_creator_cancels_the_lobby_with_its_button() -> None:
    game = in_lobby(ANNA, BORIS)
    decision = lobby.cancel(Cancel(ANNA, GAME_ID), game, None, NOW)
    assert decision == Decided((Cancelled(ANNA.user_id, NOW, in_chat=False),), Answer.GAME_CANCELLED)
    assert after(game, decision).status is GameStatus.CANCELLED


def test_cancel_in_the_chat_is_marked_as_said_there() -> None:
    decision = lobby.cancel(Cancel(ANNA, None, GROUP), group_party(ANNA, BORIS), None, NOW)
    assert decision == Decided((Cancelled(ANNA.user_id, NOW, in_chat=True),), Answer.GAME_CANCELLED)


def test_a_cancelled_party_runs_no_deadline_and_shows_no_pick_or_reminder() -> None:
    game = group_party(ANNA, BORIS)
    game = dataclasses.replace(
        game, screens=dataclasses.replace(game.screens, picks={101: ("2s", 0)}, reminders={101: 0})
    )
    cancelled = after(game, lobby.cancel(Cancel(ANNA, None, GROUP), game, None, NOW))
    assert (cancelled.status, cancelled.deadline, cancelled.finished_at) == (GameStatus.CANCELLED, None, NOW)
    assert (cancelled.screens.picks, cancelled.screens.reminders) == ({}, {})


def test_an_admin_of_the_group_cancels_someone_elses_game() -> None:
    decision = lobby.cancel(Cancel(VERA, None, GROUP), group_party(ANNA, BORIS), Rights(GROUP, True), NOW)
    assert decision == Decided((Cancelled(VERA.user_id, NOW, in_chat=True),), Answer.GAME_CANCELLED)


def test_someone_neither_creator_nor_admin_may_not_cancel() -> None:
    decision = lobby.cancel(Cancel(BORIS, GAME_ID), in_lobby(ANNA, BORIS), Rights(GROUP, False), NOW)
    assert decision == Refusal(Answer.NOT_CREATOR_OR_ADMIN)


def test_an_admins_cancel_waits_while_telegram_cannot_tell_the_rights() -> None:
    decision = lobby.cancel(Cancel(VERA, GAME_ID), in_lobby(ANNA), Rights(GROUP, None), NOW)
    assert decision == Refusal(Answer.CANNOT_CHECK_RIGHTS)


def test_rights_asked_in_a_chat_the_group_moved_from_do_not_count() -> None:
    game = group_party(ANNA, BORIS)  # the group became the supergroup GROUP meanwhile
    decision = lobby.cancel(Cancel(VERA, None, GROUP), game, Rights(OTHER_GROUP, True), NOW)
    assert decision == Refusal(Answer.NOT_CREATOR_OR_ADMIN)


def test_someone_whose_rights_were_not_asked_may_not_cancel() -> None:
    assert lobby.cancel(Cancel(BORIS, GAME_ID), in_lobby(ANNA), None, NOW) == Refusal(
        Answer.NOT_CREATOR_OR_ADMIN
    )


def test_a_solo_game_is_cancelled_by_its_player_alone() -> None:
    game = solo_party(ANNA)
    assert lobby.cancel(Cancel(BORIS, GAME_ID), game, Rights(ANNA.user_id, True), NOW) == Refusal(
        Answer.NOT_CREATOR_OR_ADMIN
    )
    assert events(lobby.cancel(Cancel(ANNA, None, ANNA.user_id), game, None, NOW)) == (
        Cancelled(ANNA.user_id, NOW, in_chat=True),
    )


@pytest.mark.parametrize("status", [GameStatus.FINISHED, GameStatus.CANCELLED, GameStatus.EXPIRED])
def test_a_game_that_is_over_cannot_be_cancelled(status: GameStatus) -> None:
    game = closed(group_party(ANNA, BORIS), status)
    assert lobby.cancel(Cancel(ANNA, GAME_ID), game, None, NOW) == Refusal(Answer.NO_GAME)


# --- a lobby's end, a hidden lobby, an abandoned party ------------------------------------------------------------


def test_a_lobby_nobody_started_expires_at_its_time() -> None:
    game = in_lobby(ANNA, BORIS)
    assert game.expires_at is not None
    decision = lobby.expire(game, game.expires_at)
    assert decision == Decided((Expired(game.expires_at),))
    expired = after(game, decision)
    assert (expired.status, expired.finished_at) == (GameStatus.EXPIRED, game.expires_at)


def test_a_lobby_does_not_expire_before_its_time() -> None:
    game = in_lobby(ANNA)
    assert game.expires_at is not None
    assert nothing(lobby.expire(game, game.expires_at - 1))


def test_a_lobby_started_meanwhile_does_not_expire() -> None:
    assert nothing(lobby.expire(group_party(ANNA, BORIS), NOW + 10 * CONFIG.lobby_ttl))


def test_a_lobby_the_bot_can_no_longer_show_is_cancelled_by_nobody() -> None:
    game = in_lobby(ANNA, BORIS)
    decision = lobby.close_hidden_lobby(game, NOW)
    assert decision == Decided((Cancelled(0, NOW),))
    assert after(game, decision).status is GameStatus.CANCELLED


def test_a_party_goes_on_when_the_bot_leaves_its_group() -> None:
    assert nothing(lobby.close_hidden_lobby(group_party(ANNA, BORIS), NOW))


@pytest.mark.parametrize(("idle", "days"), [(3 * 86400, 3), (3.4 * 86400, 3), (3600, 1), (10 * 86400, 10)])
def test_a_party_nobody_moved_in_is_closed_saying_for_how_many_days(idle: float, days: int) -> None:
    game = solo_party(ANNA)
    decision = lobby.abandon(game, idle, NOW)
    assert decision == Decided((Abandoned(days, NOW),))
    closed_game = after(game, decision)
    assert (closed_game.status, closed_game.finished_at) == (GameStatus.CANCELLED, NOW)


def test_only_a_party_being_played_is_closed_as_abandoned() -> None:
    assert nothing(lobby.abandon(in_lobby(ANNA), 86400 * 7, NOW))
    assert nothing(lobby.abandon(finished(group_party(ANNA, BORIS)), 86400 * 7, NOW))
