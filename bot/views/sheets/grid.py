"""The row-per-deal sheet: each deal's label (and its trump), each player's points in it with the running sum in
small below, negatives in red, the row's sum checked at the right; the totals, the winners, and the check that
the whole sheet sums to what it must."""

from __future__ import annotations

from typing import Final

from bot.views.sheets.canvas import LEGEND_SIZE, PAD, RED_SUITS, WIDTH, Canvas, legend_lines, number
from bot.views.sheets.model import GridRow, GridSheet, Theme
from bot.views.sheets.text import ELLIPSIS, fit_text, font

LABEL_W: Final = 206
CHECK_W: Final = 64
TITLE_H: Final = 76
HEAD_H: Final = 42
ROW_H: Final = 44
TOTAL_H: Final = 50
FOOT_H: Final = 40
LEGEND_H: Final = 24


def draw_grid(sheet: GridSheet, theme: Theme) -> bytes:
    players = max(1, len(sheet.players))
    rows: list[tuple[GridRow, bool]] = [(r, True) for r in sheet.rows] + [(r, False) for r in sheet.pending]
    left = PAD + LABEL_W
    col = (WIDTH - PAD - CHECK_W - left) / players
    name_font = font(19, bold=True)
    cut = any(fit_text(name, name_font, col - 8).endswith(ELLIPSIS) for name in sheet.players)
    legend_font = font(LEGEND_SIZE)
    legend = legend_lines(sheet.players, legend_font) if cut else []  # a name cut in its column, whole below
    height = (
        TITLE_H + HEAD_H + ROW_H * len(rows) + TOTAL_H + FOOT_H + LEGEND_H * sum(len(n) for n in legend) + PAD
    )
    c = Canvas(height, theme)
    p = c.palette
    title, subtitle = font(26, bold=True), font(17)
    label_font, mark_font = font(17), font(19, bold=True)
    cell_font, sum_font, check_font = font(20, bold=True), font(13), font(14)

    c.text(PAD, PAD - 6, WIDTH - 2 * PAD, sheet.title, title, p.ink)
    c.text(PAD, PAD + 30, WIDTH - 2 * PAD, sheet.subtitle, subtitle, p.muted)

    top = TITLE_H
    for i, name in enumerate(sheet.players):
        c.text(
            left + col * i + 4,
            top + 8,
            col - 8,
            name,
            name_font,
            p.ink,
            "center",
            f"{i + 1} " if cut else "",
        )
    y = top + HEAD_H
    c.line(PAD, y, WIDTH - PAD, y, p.ink, 2)

    running = [0] * players
    group_of_last: int | None = None
    for index, (row, played) in enumerate(rows):
        group = row.section
        if group_of_last is not None and group != group_of_last:
            c.line(PAD, y, WIDTH - PAD, y, p.muted, 2)  # the negative deals end, the positive ones begin
        group_of_last = group
        if index % 2:
            c.draw.rectangle((PAD, y + 1, WIDTH - PAD, y + ROW_H - 1), fill=p.band)
        ink = p.ink if played else p.muted
        drawn = c.text(PAD + 4, y + 12, LABEL_W - 34, row.label, label_font, ink)
        if row.mark:
            suit_color = p.red if row.mark in RED_SUITS else ink
            c.text(PAD + 10 + drawn, y + 10, 26, row.mark, mark_font, suit_color)
        if played:
            for i in range(players):
                value = row.points[i] if i < len(row.points) else 0
                running[i] += value
                x = left + col * i
                color = p.red if value < 0 else p.muted if value == 0 else p.ink
                c.text(x + 4, y + 3, col - 8, number(value, plus=True), cell_font, color, "center")
                c.text(
                    x + 4, y + 26, col - 8, f"Σ {number(running[i], plus=True)}", sum_font, p.muted, "center"
                )
            total = sum(row.points[:players])
            ok = row.expected_sum is None or total == row.expected_sum
            c.text(
                WIDTH - PAD - CHECK_W,
                y + 13,
                CHECK_W - 4,
                f"{number(total, plus=True)}{' ✓' if ok and row.expected_sum is not None else '' if ok else ' ✗'}",
                check_font,
                p.muted if ok else p.red,
                "right",
            )
        y += ROW_H
    for i in range(players + 1):
        x = left + col * i
        c.line(x, top + 4, x, y, p.rule)
    c.line(PAD, y, WIDTH - PAD, y, p.ink, 2)

    totals_font = font(22, bold=True)
    c.text(PAD + 4, y + 12, LABEL_W - 8, sheet.total_label, totals_font, p.ink)
    for i in range(players):
        x = left + col * i
        value = running[i]
        color = p.red if value < 0 else p.ink
        if i in sheet.winners:
            c.draw.rounded_rectangle(
                (x + 6, y + 6, x + col - 6, y + TOTAL_H - 6), 8, outline=p.accent, width=3
            )
            color = p.accent
        c.text(x + 4, y + 12, col - 8, number(value, plus=True), totals_font, color, "center")
    grand = sum(running)
    y += TOTAL_H
    if sheet.expected_total is not None and sheet.rows:
        ok = grand == sheet.expected_total
        mark = "✓" if ok else "✗"
        c.text(
            PAD + 4,
            y + 8,
            WIDTH - 2 * PAD - 8,
            f"{sheet.check_label} {number(grand)} {mark}",
            font(16),
            p.green if ok else p.red,
            "right",
        )
    y += FOOT_H
    c.legend(y, legend, legend_font, LEGEND_H)
    return c.png()
