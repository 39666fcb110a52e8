"""The drawing primitives both sheets share: the palette of each theme, a canvas that writes fitted text in a
box (never past it: every string is measured and cut), a struck-through number, and the PNG encoding."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from PIL import Image, ImageDraw

from bot.views.sheets.model import Theme
from bot.views.sheets.text import Font, emoji_glyph, emoji_width, fit_text, font, runs, width, wrap

WIDTH: Final = 720
"""Pixels across: a phone shows the picture at its full width without zooming out, and text stays large."""
PAD: Final = 24
LEGEND_SIZE: Final = 18
"""The names written whole under a sheet, and a deal's small print: about 9 points at Telegram's preview size."""

Color = tuple[int, int, int]
Align = Literal["left", "center", "right"]


@dataclass(frozen=True, slots=True)
class Palette:
    paper: Color
    ink: Color
    muted: Color
    rule: Color
    red: Color
    green: Color
    accent: Color
    band: Color


PALETTES: Final = {
    Theme.LIGHT: Palette(
        paper=(251, 249, 242),
        ink=(28, 34, 48),
        muted=(104, 112, 128),
        rule=(196, 205, 218),
        red=(196, 40, 40),
        green=(30, 128, 60),
        accent=(214, 140, 0),
        band=(240, 236, 224),
    ),
    Theme.DARK: Palette(
        paper=(24, 33, 43),
        ink=(234, 238, 242),
        muted=(146, 158, 172),
        rule=(58, 74, 92),
        red=(255, 110, 110),
        green=(110, 210, 140),
        accent=(255, 196, 64),
        band=(32, 44, 57),
    ),
}

RED_SUITS: Final = frozenset("♥♦")


class Canvas:
    """A picture of fixed width being drawn; ``text`` fits every string into its box."""

    def __init__(self, height: int, theme: Theme) -> None:
        self.palette = PALETTES[theme]
        self.image = Image.new("RGB", (WIDTH, height), self.palette.paper)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        x: float,
        y: float,
        w: float,
        value: str,
        f: Font,
        color: Color,
        align: Align = "left",
        prefix: str = "",
    ) -> float:
        """``value`` fitted into the box from ``x`` ``w`` pixels wide, its top at ``y`` (``prefix`` before it,
        left to right whatever the value's direction); the drawn width."""
        shown = fit_text(value, f, w, prefix)
        if not shown:
            return 0.0
        drawn = width(shown, f)
        if align == "center":
            x += (w - drawn) / 2
        elif align == "right":
            x += w - drawn
        self.write(x, y, shown, f, color)
        return drawn

    def write(self, x: float, y: float, shown: str, f: Font, color: Color) -> None:
        """A fitted string drawn from ``x``: its text in ``f``, its emoji in colour, as tall as the text."""
        for emoji, run in runs(shown):
            if not emoji:
                self.draw.text((x, y), run, font=f, fill=color)
                x += f.getlength(run)
                continue
            glyph = emoji_glyph(run, round(f.size))
            self.image.paste(glyph, (round(x), round(y + f.size * 0.1)), glyph)
            x += emoji_width(f)

    def legend(self, y: float, lines: Sequence[Sequence[str]], f: Font, step: int) -> float:
        """The names written whole under the sheet (:func:`legend_lines`), ``step`` pixels a line; the ``y``
        below them."""
        indent = width(_legend_prefix(1), f)
        for name in lines:
            for n, line in enumerate(name):
                self.write(PAD + 4 + (indent if n else 0), y, line, f, self.palette.muted)
                y += step
        return y

    def line(self, x0: float, y0: float, x1: float, y1: float, color: Color, width: int = 1) -> None:
        self.draw.line([(x0, y0), (x1, y1)], fill=color, width=width)

    def strike(self, x: float, y: float, w: float, value: str, f: Font, color: Color) -> None:
        """A number written centred in its box and struck through by a pen line, a little slanted."""
        shown = fit_text(value, f, w)
        drawn = f.getlength(shown)
        left = x + (w - drawn) / 2
        self.draw.text((left, y), shown, font=f, fill=color)
        top, bottom = f.getbbox("0")[1], f.getbbox("0")[3]
        middle = y + (top + bottom) / 2
        self.line(left - 5, middle + 3, left + drawn + 5, middle - 3, color, 2)

    def png(self) -> bytes:
        out = io.BytesIO()
        self.image.save(out, format="PNG", compress_level=3)
        return out.getvalue()


def _legend_prefix(seat: int) -> str:
    return f"{seat} — "


def legend_lines(names: Sequence[str], f: Font) -> list[list[str]]:
    """Each name numbered as its column and wrapped to the picture's width: a name too long for its column is
    written whole below the sheet, however long."""
    return [wrap(name, f, WIDTH - 2 * PAD - 8, _legend_prefix(i + 1)) for i, name in enumerate(names)]


def number(n: int, *, plus: bool = False) -> str:
    """A score as the sheet writes it: −4 with a true minus, +3 when ``plus``."""
    if n < 0:
        return f"−{-n}"
    return f"+{n}" if plus and n > 0 else str(n)


def fonts(size: int) -> tuple[Font, Font]:
    """The regular and the bold font at ``size``."""
    return font(size), font(size, bold=True)
