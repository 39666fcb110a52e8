"""/stats and /top: a person's own figures and a chat's leaderboard, each game apart (and solo apart from group).

Views know no game: the handlers pass each hosted game's ``kind`` and its name on a button («<icon> <name>»). What a
game's points are called comes from its texts: ``stats-points-<kind>`` (else ``stats-points``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.i18n import Translator
from bot.views.common import Rendered, person_name, signed


class GameFigures(Protocol):
    """What /stats shows of one game in one mode (the storage's row has these; a view needs no more of it)."""

    @property
    def kind(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def settlement(self) -> int: ...


class RankFigures(Protocol):
    """One line of /top."""

    @property
    def name(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def points(self) -> int: ...


def _points_key(tr: Translator, kind: str) -> str:
    key = f"stats-points-{kind}"
    return key if tr.has(key) else "stats-points"


def render_stats(
    figures: Sequence[GameFigures],
    games: Sequence[tuple[str, str]],
    tr: Translator,
    name: str | None = None,
) -> Rendered:
    """/stats: for each game (``games``: kind and name, in the bot's order) its parties in groups and with bots.

    ``name`` (the person's raw name) titles the figures «Статистика: Аня» — for an answer in a group, where
    «Ваша» would not say whose; without it the title is «Ваша статистика».
    """
    whose = tr.t("stats-of", name=person_name(name, tr)) if name else tr.t("stats-yours")
    blocks = [f"📊 <b>{whose}</b>"]
    for kind, game_name in games:
        lines = [
            _stats_line(row, tr)
            for mode in ("group", "solo")
            for row in figures
            if row.kind == kind and str(row.mode) == mode and row.games
        ]
        if lines:
            blocks.append("\n".join([f"<b>{game_name}</b>", *lines]))
    if len(blocks) == 1:
        blocks.append(tr.t("stats-nothing"))
    return Rendered("\n\n".join(blocks), None)


def _stats_line(row: GameFigures, tr: Translator) -> str:
    points = tr.t(_points_key(tr, row.kind), points=signed(row.points))
    settlement = (
        tr.t(
            "stats-settlement",
            amount=signed(row.settlement, plus=True),
            owes="yes" if row.settlement < 0 else "no",
        )
        if row.settlement
        else ""
    )
    return tr.t(
        "stats-line",
        mode=str(row.mode),
        games=row.games,
        wins=row.wins,
        points=points,
        settlement=settlement,
    )


def render_top(tops: Sequence[tuple[str, Sequence[RankFigures]]], tr: Translator) -> Rendered:
    """/top: for each game (its name on a button, and its ranks) the chat's people by wins, then points."""
    blocks = [tr.t("top-title")]
    for game_name, ranks in tops:
        if not ranks:
            continue
        lines = [f"<b>{game_name}</b>"]
        for place, rank in enumerate(ranks, start=1):
            lines.append(
                tr.t(
                    "top-line",
                    place=place,
                    name=person_name(rank.name, tr),
                    wins=rank.wins,
                    games=rank.games,
                    points=abs(rank.points),
                    shown=signed(rank.points),
                )
            )
        blocks.append("\n".join(lines))
    if len(blocks) == 1:
        return Rendered(tr.t("top-empty"), None)
    return Rendered("\n\n".join(blocks), None)
