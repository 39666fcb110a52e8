"""A score sheet in words, for a chat that cannot have its picture (Telegram refused the photo): the same data the
picture is drawn from (:mod:`bot.views.sheets.model`) as Telegram HTML — the sheet's title, its players numbered,
then a monospaced table (``<pre>``) of each deal's points by player number and the totals, under the photo's
caption (the standings in words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.views.common import MAX_TEXT, esc, named, signed
from bot.views.sheets.model import Drawn, GridSheet, PlayerPage, Sheet, TallySheet

LABEL_WIDTH: Final = 12
"""Characters of a grid row's label kept in the table (Кинг's «не брать …» cut short: the table stays narrow)."""


def sheet_text(sheet: Drawn, caption: str) -> str:
    """``sheet`` as a text message under ``caption`` (Telegram HTML, within a message's limit: the earliest deals
    left out first if it would not fit)."""
    if isinstance(sheet, PlayerPage):
        return page_text(sheet, caption)
    players = " · ".join(f"{i + 1} {named(name)}" for i, name in enumerate(sheet.players))
    head = [caption, "", f"<b>{esc(sheet.title)}</b>", esc(sheet.subtitle), players]
    rows = _rows(sheet)
    columns = len(sheet.players)
    header = ("", *(str(i + 1) for i in range(columns)))
    total_label = sheet.total_label[:LABEL_WIDTH] if isinstance(sheet, GridSheet) else "Σ"
    totals = (total_label, *(signed(t) for t in _totals(sheet)))
    skipped = 0
    while True:
        kept = rows[skipped:]
        body = [header, *(("…", *[""] * columns),) * (skipped > 0), *kept, totals]
        text = "\n".join([*head, f"<pre>{esc(_table(body))}</pre>"])
        if len(text) <= MAX_TEXT or not kept:
            return text
        skipped += 1


def _rows(sheet: Sheet) -> list[tuple[str, ...]]:
    if isinstance(sheet, TallySheet):
        return [(str(deal.number), *(signed(p, plus=True) for p in deal.points)) for deal in sheet.deals]
    return [
        (row.label[:LABEL_WIDTH] + row.mark, *(signed(p, plus=True) for p in row.points))
        for row in sheet.rows
    ]


def _totals(sheet: Sheet) -> tuple[int, ...]:
    if isinstance(sheet, TallySheet):
        return sheet.deals[-1].totals if sheet.deals else (0,) * len(sheet.players)
    return tuple(
        sum(row.points[i] for row in sheet.rows if i < len(row.points)) for i in range(len(sheet.players))
    )


def _table(rows: Sequence[tuple[str, ...]]) -> str:
    """Rows of cells lined up: the first column to the left, the numbers to the right."""
    widths = [max(len(row[i]) if i < len(row) else 0 for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            (row[i] if i < len(row) else "").rjust(max(widths[i], 3)) for i in range(1, len(widths))
        ]
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)


def page_text(page: PlayerPage, caption: str) -> str:
    """A player's page in words (its picture refused): each game's lines, then the achievements earned."""
    lines = [caption, "", f"<b>{named(page.title)}</b>"]
    for game in page.games:
        lines += ["", f"<b>{esc(game.title)}</b>", esc(game.rating.text), esc(game.record)]
        if game.form:
            lines.append(f"{esc(page.labels[0])} " + " ".join(str(place) for place, _ in game.form))
        lines += [esc(line) for line in game.best]
        lines += [f"{named(r.name)} — {r.wins} : {r.losses}" for r in game.rivals]
    earned = [f"{esc(f.name)} — {esc(f.about)}" for f in page.feats if f.earned]
    lines += ["", f"<b>{esc(page.labels[3])}</b>", *(earned or [esc(page.labels[4])])]
    text = "\n".join(lines)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1].rsplit("\n", 1)[0]
