"""The crossed-out column sheet as paper has it: a column per player, under the names each deal's new running
total written below the last one, every earlier total struck through; the deal's points in small beside it, its
small print under the row; a bar under each name toward the target; the winner's last total circled."""

from __future__ import annotations

from typing import Final

from bot.views.sheets.canvas import LEGEND_SIZE, PAD, WIDTH, Canvas, legend_lines, number
from bot.views.sheets.model import TallyDeal, TallySheet, Theme
from bot.views.sheets.text import ELLIPSIS, fit_text, font, wrap

GUTTER: Final = 40
"""The deal numbers' margin on the left."""
TITLE_H: Final = 76
HEAD_H: Final = 64
ROW_H: Final = 42
NOTE_H: Final = 24
"""A line of a deal's small print: text of :data:`~bot.views.sheets.canvas.LEGEND_SIZE` pixels, wrapped, never
cut."""
FOOT_H: Final = 56
LEGEND_H: Final = 24
MAX_HEIGHT: Final = 1280
"""Telegram shows a photo at most 1280 pixels on its longer side: a taller sheet would be scaled down past
reading, so the oldest deals' small print, then the oldest deals, make room for the newest."""


def _fit_rows(
    sheet: TallySheet, notes: list[list[str]], room: int
) -> tuple[list[TallyDeal], list[list[str]], int, set[int]]:
    """The deals drawn (the newest) with their small print's lines, how many older ones are left out (a «⋮» row
    stands for them), and the indexes among those drawn whose small print fits whole, the newest first."""
    deals = list(sheet.deals)
    skipped = 0
    if len(deals) * ROW_H > room:
        keep = max(1, room // ROW_H - 1)
        skipped = len(deals) - keep
        deals = deals[skipped:]
        notes = notes[skipped:]
    left = room - ROW_H * (len(deals) + (1 if skipped else 0))
    noted: set[int] = set()
    for index in range(len(deals) - 1, -1, -1):
        need = NOTE_H * len(notes[index])
        if deals[index].note and left >= need:
            noted.add(index)
            left -= need
    return deals, notes, skipped, noted


def draw_tally(sheet: TallySheet, theme: Theme) -> bytes:
    players = max(1, len(sheet.players))
    col = (WIDTH - PAD - (PAD + GUTTER)) / players
    name_font = font(21, bold=True)
    cut = any(fit_text(name, name_font, col - 12).endswith(ELLIPSIS) for name in sheet.players)
    legend_font = note_font = font(LEGEND_SIZE)
    legend = legend_lines(sheet.players, legend_font) if cut else []  # a name cut in its column, whole below
    frame = TITLE_H + HEAD_H + FOOT_H + LEGEND_H * sum(len(lines) for lines in legend) + PAD
    note_w = WIDTH - PAD - (PAD + GUTTER) - 4
    all_notes = [wrap(deal.note, note_font, note_w) if deal.note else [] for deal in sheet.deals]
    deals, notes, skipped, noted = _fit_rows(sheet, all_notes, MAX_HEIGHT - frame)
    height = (
        frame
        + ROW_H * (max(1, len(deals)) + (1 if skipped else 0))
        + NOTE_H * sum(len(notes[d]) for d in noted)
    )
    c = Canvas(height, theme)
    p = c.palette
    title, subtitle = font(26, bold=True), font(17)
    total_font, last_font = font(24), font(26, bold=True)
    small = font(14)

    c.text(PAD, PAD - 6, WIDTH - 2 * PAD, sheet.title, title, p.ink)
    c.text(PAD, PAD + 30, WIDTH - 2 * PAD, sheet.subtitle, subtitle, p.muted)

    left = PAD + GUTTER
    top = TITLE_H
    last = sheet.deals[-1].totals if sheet.deals else (0,) * players
    for i, name in enumerate(sheet.players):
        x = left + col * i
        c.text(x + 6, top + 8, col - 12, name, name_font, p.ink, "center", f"{i + 1} " if cut else "")
        if sheet.target:  # the line each column runs to: the total so far against the target
            bar_y = top + 42
            share = max(0.0, min(1.0, last[i] / sheet.target)) if i < len(last) else 0.0
            c.draw.rounded_rectangle((x + 12, bar_y, x + col - 12, bar_y + 7), 3, fill=p.band, outline=p.rule)
            if share > 0:
                color = p.accent if i in sheet.winners else p.green
                c.draw.rounded_rectangle(
                    (x + 12, bar_y, x + 12 + (col - 24) * share, bar_y + 7), 3, fill=color
                )
    if sheet.target:
        c.text(PAD - 4, top + 36, GUTTER, str(sheet.target), small, p.muted, "center")
    head_bottom = top + HEAD_H - 4
    c.line(PAD, head_bottom - 3, WIDTH - PAD, head_bottom - 3, p.rule, 1)
    c.line(PAD, head_bottom, WIDTH - PAD, head_bottom, p.rule, 1)

    y = head_bottom + 6
    if skipped:  # the oldest deals left out: their totals are struck through on the rows below anyway
        c.text(PAD - 4, y + 12, GUTTER, "⋮", small, p.muted, "center")
        for i in range(players):
            c.text(left + col * i, y + 8, col, "⋮", total_font, p.muted, "center")
            c.line(left + col * i, y - 6, left + col * i, y + ROW_H, p.rule)
        y += ROW_H
    for d, deal in enumerate(deals):
        final = d == len(deals) - 1
        c.text(PAD - 4, y + 12, GUTTER, str(deal.number), small, p.muted, "center")
        for i in range(players):
            x = left + col * i
            total = number(deal.totals[i]) if i < len(deal.totals) else ""
            gained = deal.points[i] if i < len(deal.points) else 0
            box = col * 0.6
            if final:
                c.text(x + (col - box) / 2, y + 4, box, total, last_font, p.ink, "center")
                if i in sheet.winners:
                    w = last_font.getlength(total)
                    cx, cy = x + col / 2, y + 4 + 16
                    r = max(w / 2 + 12, 22)
                    c.draw.ellipse((cx - r, cy - 20, cx + r, cy + 20), outline=p.accent, width=3)
            else:
                c.strike(x + (col - box) / 2, y + 6, box, total, total_font, p.muted)
            if gained:
                color = p.green if gained > 0 else p.red
                c.text(x + col * 0.8 - 4, y + 4, col * 0.2, number(gained, plus=True), small, color, "left")
        for i in range(players):  # the columns' rules beside the row (not through its small print)
            c.line(left + col * i, y - 6, left + col * i, y + ROW_H, p.rule)
        y += ROW_H
        if d in noted:
            for line in notes[d]:
                c.write(left + 4, y - 6, line, note_font, p.ink)
                y += NOTE_H
    for i in range(players):
        c.line(left + col * i, top + 4, left + col * i, head_bottom, p.rule)

    if sheet.winners:
        crown = font(20, bold=True)
        for i in sheet.winners:
            x = left + col * i
            c.text(x + 4, y + 12, col - 8, f"♛ {sheet.winner_label}", crown, p.accent, "center")
    y += FOOT_H
    c.legend(y, legend, legend_font, LEGEND_H)
    return c.png()
