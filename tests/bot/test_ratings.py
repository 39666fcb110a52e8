"""A party's places and ratings (``bot.ratings.skill``), pure: ties share a place, a person a bot stood in for at
the end is placed last, and a group party of four is rated as openskill itself rates the same places."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.model.game import PartyEnded, Seat, load_told
from bot.ratings import skill
from engine.ai.levels import Level

LIBRARY = PlackettLuce()


def seat(i: int, user: int | None, score: int, *, won: bool = False, replaced: bool = False) -> Seat:
    return Seat(i, user, f"p{i}", None if user else "hard", replaced=replaced, score=score, won=won)


def test_equal_results_share_a_place_and_one_who_left_is_last_whatever_the_bot_scored_for_them() -> None:
    seats = [seat(0, 1, 7), seat(1, None, 11, won=True), seat(2, 2, 7), seat(3, 3, 20, replaced=True)]
    assert skill.places(seats) == [2, 1, 2, 4]


def test_a_party_of_four_with_a_tie_is_rated_as_the_library_rates_it_and_the_anchor_is_not_stored() -> None:
    seats = [seat(0, 1, 7), seat(1, None, 11, won=True), seat(2, 2, 7), seat(3, 3, 3)]
    priors = {1: skill.Skill(27.0, 4.0), 3: skill.Skill(21.0, 6.0)}  # person 2 is new
    rated = skill.rate(seats, priors)
    teams = [
        [LIBRARY.rating(27.0, 4.0)],
        [LIBRARY.rating(30.0, 1.0)],
        [LIBRARY.rating()],
        [LIBRARY.rating(21.0, 6.0)],
    ]
    expected = LIBRARY.rate(teams, ranks=[2, 1, 2, 4])
    assert [(r.seat, r.user_id, r.place) for r in rated] == [(0, 1, 2), (2, 2, 2), (3, 3, 4)]
    assert [(r.after.mu, r.after.sigma) for r in rated] == [
        (expected[i][0].mu, expected[i][0].sigma) for i in (0, 2, 3)
    ]
    assert rated[1].before == skill.START and skill.ANCHORS[Level.HARD] == skill.Skill(30.0, 1.0)


def test_the_ratings_ride_on_the_stored_notice_of_the_party_s_end() -> None:
    from bot.model.game import dump_told

    end = PartyEnded(5.0, rated=((0, 1, 25.0, 8.0, 26.5, 7.5), (2, 2, 20.0, 3.0, 19.0, 2.9)))
    loaded, _ = load_told(dump_told(end, None))
    assert loaded == PartyEnded(0.0, rated=end.rated)
