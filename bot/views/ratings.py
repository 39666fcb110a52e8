"""Skill ratings as people read them: the line under a party's result, the leaderboards of /top, a season's end,
the answer to /privacy. A rating is written on the scale of ``bot.ratings.skill`` — «1534», or «1534 ± 300» while
it has not settled."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.i18n import Translator
from bot.model import skill_scale
from bot.views.common import Rendered, person_name, signed


def rating(mu: float, sigma: float) -> str:
    """«1534», or «1534 ± 300» while the rating has not settled."""
    shown = str(skill_scale.shown(mu))
    return shown if skill_scale.is_settled(sigma) else f"{shown} ± {skill_scale.margin(sigma)}"


@dataclass(frozen=True, slots=True)
class Change:
    """A person's rating after a party, and its change."""

    name: str
    mu: float
    sigma: float
    change: int


def render_changes(changes: Sequence[Change], tr: Translator, *, yours: bool) -> str:
    """The line under a party's result: «📈 Рейтинг: Аня 1534 (+18), …», or the reader's own («Ваш рейтинг»)."""
    if yours:
        (one,) = changes
        return tr.t("rating-yours", rating=rating(one.mu, one.sigma), change=signed(one.change, plus=True))
    listed = ", ".join(
        tr.t(
            "rating-of",
            name=person_name(c.name, tr),
            rating=rating(c.mu, c.sigma),
            change=signed(c.change, plus=True),
        )
        for c in changes
    )
    return tr.t("rating-changes", listed=listed)


class BoardFigures(Protocol):
    """What a board's line shows (the storage's ``BoardLine`` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...
    @property
    def parties(self) -> int: ...
    @property
    def wins(self) -> int: ...


class SeasonFigures(Protocol):
    """What a season's line shows (the storage's ``SeasonLine`` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def gained_mu(self) -> float: ...
    @property
    def parties(self) -> int: ...


def gained(mu: float) -> int:
    """Rating gained over a season on the shown scale."""
    return round(skill_scale.SCALE * mu)


def _board_lines(lines: Sequence[BoardFigures], tr: Translator) -> list[str]:
    return [
        tr.t(
            "top-rating-line",
            place=place,
            name=person_name(line.name, tr),
            rating=rating(line.mu, line.sigma),
            games=line.parties,
            wins=line.wins,
        )
        for place, line in enumerate(lines, start=1)
    ]


def _season_lines(lines: Sequence[SeasonFigures], tr: Translator) -> list[str]:
    return [
        tr.t(
            "top-season-line",
            place=place,
            name=person_name(line.name, tr),
            gained=signed(gained(line.gained_mu), plus=True),
            games=line.parties,
        )
        for place, line in enumerate(lines, start=1)
    ]


def month_name(season: str, tr: Translator) -> str:
    """«декабрь 2026» for ``2026-12``."""
    year, month = season.split("-")
    return tr.t("season-month", month=int(month), year=year)


def render_top(
    boards: Sequence[tuple[str, Sequence[BoardFigures], Sequence[SeasonFigures]]],
    season: str,
    tr: Translator,
    *,
    everywhere: bool,
) -> Rendered:
    """/top: for each game (its name), the board by rating and the season's standings so far; ``everywhere``: the
    global board of the people who opted in (/privacy), else the chat's."""
    blocks = [tr.t("top-global-title" if everywhere else "top-title")]
    for game_name, board, standings in boards:
        if not board:
            continue
        lines = [f"<b>{game_name}</b>", *_board_lines(board, tr)]
        if standings:
            lines.append(tr.t("top-season", month=month_name(season, tr)))
            lines.extend(_season_lines(standings, tr))
        blocks.append("\n".join(lines))
    if len(blocks) == 1:
        return Rendered(tr.t("top-global-empty" if everywhere else "top-empty"), None)
    blocks.append(tr.t("top-global-how" if everywhere else "top-how"))
    return Rendered("\n\n".join(blocks), None)


def render_season_end(
    season: str, podiums: Sequence[tuple[str, Sequence[SeasonFigures]]], tr: Translator
) -> Rendered:
    """A group's message when a season is over: each game's top three by rating gained in the chat."""
    blocks = [tr.t("season-over", month=month_name(season, tr))]
    for game_name, podium in podiums:
        if podium:
            blocks.append("\n".join([f"<b>{game_name}</b>", *_season_lines(podium, tr)]))
    blocks.append(tr.t("season-next"))
    return Rendered("\n\n".join(blocks), None)


def render_privacy(on: bool, tr: Translator) -> Rendered:
    """/privacy's answer: whether the person is on the global board now."""
    return Rendered(tr.t("privacy-on" if on else "privacy-off"), None)
