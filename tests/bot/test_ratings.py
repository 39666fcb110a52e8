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


def test_a_season_is_a_calendar_month_even_on_a_clock_run_far_past_the_year_9999() -> None:
    import calendar

    from bot.ratings.seasons import next_season, previous_season, season_of, season_start

    assert season_of(calendar.timegm((2026, 12, 31, 23, 59, 59))) == "2026-12"
    assert next_season("2026-12") == "2027-01" and previous_season("2027-01") == "2026-12"
    for year, month in ((1970, 1), (2024, 2), (2024, 3), (2100, 3), (2400, 2), (9999, 12)):
        assert season_start(f"{year:04d}-{month:02d}") == calendar.timegm((year, month, 1, 0, 0, 0))
    far = 60 * 1.0e10  # the tests' clock at 60 times real time reads dates beyond datetime's reach
    season = season_of(far)
    assert season_start(season) <= far < season_start(next_season(season))
    assert season_of(season_start(next_season(season))) == next_season(season)
