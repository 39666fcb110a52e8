"""A player's page as a picture: their name; for each game they played a band with its title, the rating line, the
parties and wins, the form over the last parties (a bar per party, as high as the place was good, a win green and
taller), the best results and the rivals met most; then the achievements, each with its icon, earned in ink and
the others muted. Every string is fitted to its box (long and emoji names included); the picture is as tall as
what it holds (a name is wrapped, never cut)."""

from __future__ import annotations

from typing import Final

from bot.views.sheets.canvas import PAD, WIDTH, Canvas, fonts
from bot.views.sheets.model import PageGame, PlayerPage, Theme
from bot.views.sheets.text import Font, wrap

TALL: Final = 4000
"""The canvas drawn on, cut to what the page holds."""
BAR: Final = 22
"""The form's tallest bar (a win), in pixels."""
BAR_STEP: Final = 30
SCORE: Final = 110
"""The width of a rival's score, at the right."""


def draw_page(page: PlayerPage, theme: Theme) -> bytes:
    canvas = Canvas(TALL, theme)
    ink, muted = canvas.palette.ink, canvas.palette.muted
    _, bold = fonts(30)
    text, head = fonts(21)
    small, _ = fonts(18)
    inner = WIDTH - 2 * PAD
    y = float(PAD)
    for line in wrap(page.title, bold, inner):  # a name is written whole, however long
        canvas.write(PAD, y, line, bold, ink)
        y += 40
    canvas.text(PAD, y, inner, page.subtitle, small, muted)
    y += 34
    for game in page.games:
        y = _game(canvas, game, page.labels, y, (text, head, small))
    canvas.line(PAD, y, WIDTH - PAD, y, canvas.palette.rule)
    y += 14
    canvas.text(PAD, y, inner, page.labels[3], head, ink)
    y += 32
    if not any(feat.earned for feat in page.feats):
        canvas.text(PAD, y, inner, page.labels[4], small, muted)
        y += 26
    for feat in page.feats:
        canvas.text(
            PAD + 8, y, inner - 8, feat.name, head if feat.earned else text, ink if feat.earned else muted
        )
        y += 28
        y = _lines(canvas, wrap(feat.about, small, inner - 40), PAD + 40, y, small, muted)
        y += 6
    canvas.image = canvas.image.crop((0, 0, WIDTH, min(TALL, round(y + PAD))))
    return canvas.png()


def _lines(
    canvas: Canvas, lines: list[str], x: float, y: float, f: Font, color: tuple[int, int, int]
) -> float:
    for line in lines:
        canvas.write(x, y, line, f, color)
        y += 24
    return y


def _game(
    canvas: Canvas, game: PageGame, labels: tuple[str, ...], y: float, faces: tuple[Font, Font, Font]
) -> float:
    text, head, small = faces
    palette = canvas.palette
    inner = WIDTH - 2 * PAD
    canvas.draw.rectangle((0, y, WIDTH, y + 40), fill=palette.band)
    canvas.text(PAD, y + 8, inner, game.title, head, palette.ink)
    y += 50
    canvas.text(PAD, y, inner, game.rating.text, text, palette.accent)
    y += 30
    canvas.text(PAD, y, inner, game.record, small, palette.muted)
    y += 30
    if game.form:
        label = labels[0]
        drawn = canvas.text(PAD, y + BAR - 18, inner / 3, label, small, palette.muted)
        x = PAD + drawn + 14
        room = max(1, int((WIDTH - PAD - x) // (BAR + 4)))
        for place, players in game.form[-room:]:
            share = (players - place + 1) / players if players > 1 else 1.0
            height = max(4.0, BAR * share)
            color = palette.green if place == 1 else palette.muted
            canvas.draw.rectangle((x, y + BAR - height, x + BAR - 6, y + BAR), fill=color)
            x += BAR + 4
        y += BAR_STEP + 4
    if game.best:
        canvas.text(PAD, y, inner, labels[1], small, palette.muted)
        y += 24
        y = _lines(canvas, list(game.best), PAD + 16, y, text, palette.ink)
        y += 6
    if game.rivals:
        canvas.text(PAD, y, inner, labels[2], small, palette.muted)
        y += 24
        for rival in game.rivals:
            score = f"{rival.wins} : {rival.losses}"
            canvas.text(WIDTH - PAD - SCORE, y, SCORE, score, head, palette.ink, align="right")
            for line in wrap(rival.name, text, inner - 16 - SCORE - 10):
                canvas.write(PAD + 16, y, line, text, palette.ink)
                y += 28
        y += 6
    return y + 8
