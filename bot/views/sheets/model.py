"""What a score-sheet picture is drawn from: plain, frozen, hashable data that a game's plug-in fills from its
party, every word already in the reader's language. Two shapes cover the paper sheets of our games:

- :class:`TallySheet`: a column per player, each deal's running total written under the last and the earlier
  ones struck through (Кончинка's sheet);
- :class:`GridSheet`: a row per deal, each player's points in it, the running sum and the row's check (Кинг's
  fifteen-row sheet).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Theme(enum.StrEnum):
    """Light paper or Telegram's dark background."""

    LIGHT = "light"
    DARK = "dark"


@dataclass(frozen=True, slots=True)
class TallyDeal:
    """One deal on a tally sheet: each player's points in it and their running totals after it. ``note``:
    small print under the deal's row (cards, clubs, кончинки, who finished), empty for none."""

    number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class TallySheet:
    """A crossed-out column sheet. ``target``: the total that ends the party (drawn as each column's line to
    reach, labelled ``target_label``); ``winners``: the columns marked as won (none while the party goes on)."""

    title: str
    subtitle: str
    players: tuple[str, ...]
    deals: tuple[TallyDeal, ...]
    target: int | None = None
    target_label: str = ""
    winners: tuple[int, ...] = ()
    winner_label: str = ""


@dataclass(frozen=True, slots=True)
class GridRow:
    """One deal on a grid sheet: its label (``mark``: a suit symbol drawn after it, red for ♥ and ♦, e.g. the
    trump of a positive deal), each player's points, the sum the row must have (None: not checked), and its
    section (a heavier rule is drawn where the section changes: Кинг's negative deals, then the positive ones)."""

    label: str
    points: tuple[int, ...]
    mark: str = ""
    expected_sum: int | None = None
    section: int = 0


@dataclass(frozen=True, slots=True)
class GridSheet:
    """A row-per-deal sheet: ``rows`` are the deals played (``pending``: the labels of those still to come,
    drawn empty), the totals row labelled ``total_label``, and the check of the whole sheet: the totals must
    sum to ``expected_total`` (None: no check), shown as ``check_label``."""

    title: str
    subtitle: str
    players: tuple[str, ...]
    rows: tuple[GridRow, ...]
    pending: tuple[GridRow, ...] = ()
    total_label: str = "Σ"
    expected_total: int | None = None
    check_label: str = ""
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameRating:
    """The rating-and-rank line of one game on a player's page, as shown («Рейтинг 1534 ± 80 · 3-й в чате»)."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Rival:
    """One of the people a player meets most: their name, and the parties each finished above the other."""

    name: str
    wins: int
    losses: int


@dataclass(frozen=True, slots=True)
class PageGame:
    """One game on a player's page: its title, its rating line, the parties and wins, the form over the last
    parties (each a place out of so many players, the oldest first), the best results in words, the rivals."""

    title: str
    rating: GameRating
    record: str
    form: tuple[tuple[int, int], ...] = ()
    best: tuple[str, ...] = ()
    rivals: tuple[Rival, ...] = ()


@dataclass(frozen=True, slots=True)
class PageFeat:
    """An achievement on a player's page: its icon and name, what earns it, and whether they have it."""

    name: str
    about: str
    earned: bool


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """A player's page (``/me``): their name, each game they played, the achievements; every word already in the
    reader's language (``labels``: the headings — form, best, rivals, achievements, none yet)."""

    title: str
    subtitle: str
    games: tuple[PageGame, ...]
    feats: tuple[PageFeat, ...]
    labels: tuple[str, str, str, str, str]


Sheet = TallySheet | GridSheet

Drawn = Sheet | PlayerPage
"""Whatever is drawn as a picture: a score sheet, or a player's page."""
