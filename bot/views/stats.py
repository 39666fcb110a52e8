"""/stats and /top: a person's own figures and a chat's leaderboard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.i18n import Translator
from bot.views.common import named
from bot.views.models import Rendered


class _Figures(Protocol):
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def points(self) -> int: ...


class PersonFigures(_Figures, Protocol):
    """What /stats shows of one person (the storage's row has these; a view needs no more of it)."""

    @property
    def settlement(self) -> int: ...


class RankFigures(_Figures, Protocol):
    """One line of /top."""

    @property
    def name(self) -> str: ...


def render_stats(stats: PersonFigures, tr: Translator, name: str | None = None) -> Rendered:
    """/stats: parties, wins, points and the settlement balance of finished parties.

    ``name`` (the person's raw name) titles the figures «Статистика: Аня» — for an answer in a group, where
    «Ваша» would not say whose; without it the title is «Ваша статистика».
    """
    balance = stats.settlement
    whose = tr.t("stats-of", name=named(name)) if name else tr.t("stats-yours")
    text = tr.t(
        "stats-text",
        whose=whose,
        games=stats.games,
        wins=stats.wins,
        points=stats.points,
        sign="plus" if balance > 0 else "minus" if balance < 0 else "zero",
        amount=abs(balance),
    )
    return Rendered(text, None)


def render_top(ranks: Sequence[RankFigures], tr: Translator) -> Rendered:
    """/top: the chat's people by wins, then points."""
    if not ranks:
        return Rendered(tr.t("top-empty"), None)
    lines = [tr.t("top-title")]
    for place, rank in enumerate(ranks, start=1):
        lines.append(
            tr.t(
                "top-line",
                place=place,
                name=named(rank.name),
                wins=rank.wins,
                games=rank.games,
                points=rank.points,
            )
        )
    return Rendered("\n".join(lines), None)
