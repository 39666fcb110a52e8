"""Who may ask «мастер» (``bot.flow.hints``): «💡 Подсказка» in a solo game on one's turn, from one's own view;
«🔍 Разбор партии» of a finished party one played."""

from __future__ import annotations

import dataclasses

from bot.flow import hints
from bot.flow.commands import Refusal
from bot.flow.hints import HintAsked
from bot.model.answers import Answer
from bot.model.game import GameStatus
from bot.model.party import Party
from engine.ai import Level
from engine.core import CommonIllegal
from tests.flow.builders import (
    ANNA,
    BORIS,
    STRANGER,
    closed,
    finished,
    group_party,
    konchinka,
    solo_party,
)


def test_a_hint_is_asked_from_the_solo_players_own_view_on_their_turn() -> None:
    game = solo_party(ANNA, seed=5)
    assert game.party is not None and game.party.current_player == 0
    assert hints.hint(game, ANNA.user_id, 0) == HintAsked(0, game.party.view_of(0), 5, 0)


def test_a_hint_is_refused_while_a_bot_player_moves() -> None:
    game = solo_party(ANNA, level=Level.EASY, party=konchinka("5s", "Kd", to_move=1, deck="2c 3c"))
    assert hints.hint(game, ANNA.user_id, 0) == Refusal(CommonIllegal.NOT_YOUR_TURN, {"name": "Новичок"})


def test_a_hint_for_an_older_position_is_a_stale_press() -> None:
    assert hints.hint(solo_party(ANNA), ANNA.user_id, 4) == Refusal(Answer.STALE)


def test_a_hint_in_a_group_game_is_a_forged_press() -> None:
    assert hints.hint(group_party(ANNA, BORIS), ANNA.user_id, 0) == Refusal(Answer.UNKNOWN)


def test_a_hint_is_refused_to_someone_who_does_not_play() -> None:
    assert hints.hint(solo_party(ANNA), BORIS.user_id, 0) == Refusal(Answer.NOT_A_PLAYER)
    assert hints.hint(group_party(ANNA, BORIS), STRANGER.user_id, 0) == Refusal(Answer.NOT_A_PLAYER)


def test_no_hint_once_the_party_is_over() -> None:
    assert hints.hint(finished(solo_party(ANNA)), ANNA.user_id, 1) == Refusal(Answer.STALE)


def test_the_review_is_of_the_seat_of_the_person_who_asks() -> None:
    assert hints.review(finished(solo_party(ANNA)), ANNA.user_id) == 0
    assert hints.review(finished(group_party(ANNA, BORIS)), BORIS.user_id) == 1


def test_no_review_while_the_party_is_on_or_of_one_cancelled() -> None:
    assert hints.review(solo_party(ANNA), ANNA.user_id) == Refusal(Answer.STALE)
    cancelled = closed(solo_party(ANNA), GameStatus.CANCELLED)
    assert hints.review(cancelled, ANNA.user_id) == Refusal(Answer.STALE)


def test_no_review_for_someone_who_did_not_play() -> None:
    assert hints.review(finished(group_party(ANNA, BORIS)), STRANGER.user_id) == Refusal(Answer.NOT_A_PLAYER)


def test_no_review_of_a_game_without_bot_players_to_review_with() -> None:
    class Unreviewable:
        """A finished party of a game whose engine registered no bot players."""

        def __init__(self, party: Party) -> None:
            self.party = party

        def __getattr__(self, name: str) -> object:
            return getattr(self.party, name)

        reviewable = False

    game = finished(solo_party(ANNA))
    game = dataclasses.replace(game, party=Unreviewable(game.party))  # type: ignore[arg-type]
    assert hints.review(game, ANNA.user_id) == Refusal(Answer.UNKNOWN)
