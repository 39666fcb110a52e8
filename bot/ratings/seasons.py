"""Seasons: a calendar month in UTC is a season, named ``YYYY-MM``; pure arithmetic on the bot's clock's seconds.

No ``datetime`` here: a clock run faster than real time (the tests', ``CLOCK_SPEED``) reads dates far beyond the
year 9999 that ``datetime`` stops at, and a season must still be named and its start found.
"""

from __future__ import annotations

import time

DAY = 86_400


def season_of(at: float) -> str:
    """The season of a moment: its calendar month in UTC, as ``YYYY-MM``."""
    moment = time.gmtime(at)
    return f"{moment.tm_year:04d}-{moment.tm_mon:02d}"


def _parts(season: str) -> tuple[int, int]:
    year, month = season.rsplit("-", 1)
    return int(year), int(month)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's algorithm)."""
    year -= month <= 2
    era = year // 400
    of_era = year - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    of_cycle = of_era * 365 + of_era // 4 - of_era // 100 + of_year
    return era * 146_097 + of_cycle - 719_468


def season_start(season: str) -> float:
    """The first second of a season (UTC)."""
    year, month = _parts(season)
    return float(_days_from_civil(year, month, 1) * DAY)


def next_season(season: str) -> str:
    year, month = _parts(season)
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


def previous_season(season: str) -> str:
    year, month = _parts(season)
    return f"{year - (month == 1):04d}-{(month - 2) % 12 + 1:02d}"
