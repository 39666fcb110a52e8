"""Text on a score sheet: the shipped font, which characters it can draw, and a name made safe to draw in a cell.

A player's name can be anything Telegram allows: Cyrillic, Hebrew or Arabic (right to left), emoji, a hundred
characters. :func:`fit_text` turns it into a string that fits a width in pixels and draws left to right the way
a reader expects: emoji are kept (drawn from the colour emoji font, when the system has it), characters no
font has become one mark (□), invisible joiners and variation selectors go,
right-to-left runs are put in visual order (Arabic letters in their joined forms), and what does not fit ends
with «…». Pillow's basic layout draws the result (the same bytes on every machine, with or without libraqm).
"""

from __future__ import annotations

import io
import struct
import unicodedata
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from bot.views.common import DRAWN_AS_NOTHING

FONT_DIR: Final = files("bot.views.sheets") / "fonts"
REGULAR: Final = "DejaVuSans.ttf"
BOLD: Final = "DejaVuSans-Bold.ttf"
MISSING: Final = "□"
"""Drawn in place of a character no font has a glyph for."""
EMOJI_FONTS: Final = ("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",)
"""Where the colour emoji font is looked for: Debian's fonts-noto-color-emoji (the Dockerfile installs it). A
bitmap font (CBDT): Pillow draws it only at its own size, :data:`EMOJI_SIZE`, and the picture scales each glyph
to the text beside it. Without it an emoji is drawn as :data:`MISSING`."""
EMOJI_SIZE: Final = 109
EMOJI_ASPECT: Final = 136 / 128
"""An emoji glyph's width over its height in the font (136 × 128 pixels at :data:`EMOJI_SIZE`)."""
SKIN_TONES: Final = range(0x1F3FB, 0x1F400)
"""The skin tone modifiers: drawn alone they would be colour swatches beside the emoji they modify."""
ELLIPSIS: Final = "…"
_DROPPED: Final = DRAWN_AS_NOTHING
"""Categories dropped from a name: format characters (joiners, direction marks), combining marks the basic
layout cannot place, controls, surrogates, private use, unassigned. Skin tones and variation selectors fall
here or under the font's missing glyphs."""


Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=32)
def font(size: int, *, bold: bool = False) -> Font:
    """The shipped DejaVu Sans at ``size`` pixels (loaded once per size)."""
    data = _font_file(BOLD if bold else REGULAR)
    return ImageFont.truetype(io.BytesIO(data), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=2)
def _font_file(name: str) -> bytes:
    return (FONT_DIR / name).read_bytes()


@lru_cache(maxsize=1)
def covered() -> frozenset[int]:
    """The code points the regular font has glyphs for (its Unicode ``cmap``; the bold one covers the same
    scripts)."""
    return _cmap(_font_file(REGULAR))


@lru_cache(maxsize=1)
def _emoji_file() -> str | None:
    return next((path for path in EMOJI_FONTS if Path(path).is_file()), None)


@lru_cache(maxsize=1)
def emoji_covered() -> frozenset[int]:
    """The code points the emoji font draws and the text font does not (none without the emoji font)."""
    path = _emoji_file()
    if path is None:
        return frozenset()
    points = _cmap(Path(path).read_bytes()) - covered()
    return frozenset(p for p in points if p not in SKIN_TONES and p > 0x7F)


@lru_cache(maxsize=1)
def _drawable() -> frozenset[int]:
    return covered() | emoji_covered()


def is_emoji(ch: str) -> bool:
    return ord(ch) in emoji_covered()


@lru_cache(maxsize=1)
def _emoji_font() -> Font:
    path = _emoji_file()
    assert path is not None
    return ImageFont.truetype(path, EMOJI_SIZE, layout_engine=ImageFont.Layout.BASIC)


def emoji_width(f: Font) -> int:
    """The room an emoji takes beside text in font ``f``: its glyph scaled to the font's size, and a pixel."""
    return round(f.size * EMOJI_ASPECT) + 1


@lru_cache(maxsize=256)
def emoji_glyph(ch: str, size: int) -> Image.Image:
    """The colour glyph of ``ch`` (RGBA) as tall as text of ``size`` pixels."""
    big = Image.new("RGBA", (round(EMOJI_SIZE * EMOJI_ASPECT * 1.1), round(EMOJI_SIZE * 1.1)), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((0, 0), ch, font=_emoji_font(), embedded_color=True)
    box = (0, 0, round(EMOJI_SIZE * EMOJI_ASPECT * 1.0), round(EMOJI_SIZE * 1.0))
    return big.crop(box).resize((round(size * EMOJI_ASPECT), size), Image.Resampling.LANCZOS)


def runs(text: str) -> list[tuple[bool, str]]:
    """``text`` split into runs of emoji (True) and of text (False), in order."""
    out: list[tuple[bool, str]] = []
    for ch in text:
        emoji = is_emoji(ch)
        if out and out[-1][0] == emoji and not emoji:
            out[-1] = (False, out[-1][1] + ch)
        else:
            out.append((emoji, ch))
    return out


def _cmap(data: bytes) -> frozenset[int]:
    """The code points of a font file's Unicode ``cmap`` (its format 12 subtable)."""
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for i in range(count):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = offset
    cmap = tables[b"cmap"]
    (_version, subtables) = struct.unpack_from(">HH", data, cmap)
    points: set[int] = set()
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        start = cmap + offset
        (fmt,) = struct.unpack_from(">H", data, start)
        if (platform, encoding, fmt) == (3, 10, 12):
            (groups,) = struct.unpack_from(">I", data, start + 12)
            for g in range(groups):
                first, last, _glyph = struct.unpack_from(">III", data, start + 16 + 12 * g)
                points.update(range(first, last + 1))
    return frozenset(points)


def _is_rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _is_ltr(ch: str) -> bool:
    return unicodedata.bidirectional(ch) == "L"


def clean(text: str) -> str:
    """One line of drawable characters: whitespace runs become one space, invisible and undrawable characters
    go, a character the font lacks becomes :data:`MISSING` (once for a run of them, as an emoji sequence is)."""
    have = _drawable()
    out: list[str] = []
    for ch in " ".join(unicodedata.normalize("NFC", text).split()):
        if unicodedata.category(ch) in _DROPPED or ord(ch) in SKIN_TONES:
            continue
        if ord(ch) not in have:
            if not out or out[-1] != MISSING:
                out.append(MISSING)
            continue
        out.append(ch)
    return "".join(out)


# ----------------------------------------------------------------------------------------- Arabic forms


@lru_cache(maxsize=1)
def _arabic_forms() -> dict[str, dict[str, str]]:
    """Arabic letter -> {"isolated"|"final"|"initial"|"medial": presentation form}, from Unicode's own
    compatibility decompositions of the Presentation Forms-B block, kept where the font has the form."""
    have = covered()
    forms: dict[str, dict[str, str]] = {}
    for point in range(0xFE70, 0xFF00):
        if point not in have:
            continue
        tag, _, base = unicodedata.decomposition(chr(point)).partition(" ")
        if tag in ("<isolated>", "<final>", "<initial>", "<medial>") and " " not in base and base:
            forms.setdefault(chr(int(base, 16)), {})[tag.strip("<>")] = chr(point)
    return forms


def _shape_arabic(run: str) -> str:
    """Each Arabic letter of a logical run in its joined form: it joins the previous letter when both can, the
    next when it has an initial or medial form (a dual-joining letter)."""
    forms = _arabic_forms()

    def joins_next(ch: str) -> bool:
        return "initial" in forms.get(ch, {}) or "medial" in forms.get(ch, {})

    def joins_prev(ch: str) -> bool:
        return "final" in forms.get(ch, {})

    out = []
    for i, ch in enumerate(run):
        shapes = forms.get(ch)
        if not shapes:
            out.append(ch)
            continue
        before = i > 0 and joins_next(run[i - 1]) and joins_prev(ch)
        after = i + 1 < len(run) and joins_next(ch) and joins_prev(run[i + 1])
        kind = {(False, False): "isolated", (True, False): "final", (False, True): "initial"}.get(
            (before, after), "medial"
        )
        out.append(shapes.get(kind) or shapes.get("isolated") or ch)
    return "".join(out)


# ----------------------------------------------------------------------------------------- direction


def visual(text: str) -> str:
    """A line in the order it is drawn left to right: runs of right-to-left letters (with the neutral characters
    between them) reversed and Arabic joined; a line whose first strong letter is right-to-left also has its
    runs in reverse order. Enough for a name (one paragraph, no embedded direction codes: :func:`clean` drops
    them); digits stay left to right."""
    if not any(_is_rtl(ch) for ch in text):
        return text
    base_rtl = next((_is_rtl(ch) for ch in text if _is_rtl(ch) or _is_ltr(ch)), False)
    # Runs: each strong letter's direction; a neutral takes its neighbours' direction when they agree, else the
    # line's base direction.
    strong: list[bool | None] = [True if _is_rtl(ch) else False if _is_ltr(ch) else None for ch in text]
    resolved: list[bool] = []
    for i, s in enumerate(strong):
        if s is not None:
            resolved.append(s)
            continue
        before = next((b for b in reversed(strong[:i]) if b is not None), base_rtl)
        after = next((b for b in strong[i + 1 :] if b is not None), base_rtl)
        resolved.append(before if before == after else base_rtl)
    runs: list[tuple[bool, str]] = []
    for ch, rtl in zip(text, resolved, strict=True):
        if runs and runs[-1][0] == rtl:
            runs[-1] = (rtl, runs[-1][1] + ch)
        else:
            runs.append((rtl, ch))
    drawn = [_keep_numbers(_shape_arabic(run)[::-1]) if rtl else run for rtl, run in runs]
    if base_rtl:
        drawn.reverse()
    return "".join(drawn)


def _keep_numbers(reversed_run: str) -> str:
    """A reversed right-to-left run with its numbers turned back: «12» inside Hebrew still reads 12."""
    out: list[str] = []
    digits: list[str] = []
    for ch in reversed_run:
        if unicodedata.bidirectional(ch) in ("EN", "AN"):
            digits.append(ch)
            continue
        out.extend(reversed(digits))
        digits.clear()
        out.append(ch)
    out.extend(reversed(digits))
    return "".join(out)


# ----------------------------------------------------------------------------------------- fitting


def width(text: str, f: Font) -> float:
    """How wide ``text`` is drawn in font ``f``, its emoji included."""
    if emoji_covered().isdisjoint(map(ord, text)):
        return f.getlength(text)
    return sum(emoji_width(f) if emoji else f.getlength(run) for emoji, run in runs(text))


def fit_text(text: str, f: Font, max_width: float, prefix: str = "") -> str:
    """``text`` cleaned, cut with «…» to fit ``max_width`` pixels in font ``f``, in visual order; ``prefix``
    (a number, a mark: left to right) stands before it, kept apart from the text's own direction."""
    line = clean(text)
    room = max_width - width(prefix, f)
    if width(visual(line), f) <= room:
        return prefix + visual(line)
    low, high = 0, len(line)
    while low < high:  # the longest logical prefix that fits with its «…»
        mid = (low + high + 1) // 2
        if width(visual(line[:mid].rstrip() + ELLIPSIS), f) <= room:
            low = mid
        else:
            high = mid - 1
    return prefix + visual(line[:low].rstrip() + ELLIPSIS) if low else ""


def wrap(text: str, f: Font, max_width: float, prefix: str = "") -> list[str]:
    """``text`` cleaned and broken into lines of at most ``max_width`` pixels in font ``f``, at spaces (a word
    longer than a line is broken inside it), each line in visual order; nothing is left out. ``prefix`` stands
    before the first line, and the others are indented as far."""
    indent = width(prefix, f)
    room = max_width - indent
    lines: list[str] = []
    line = ""
    for word in clean(text).split(" "):
        candidate = f"{line} {word}" if line else word
        if width(visual(candidate), f) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while width(visual(line), f) > room and len(line) > 1:
            cut = next(n for n in range(len(line) - 1, 0, -1) if width(visual(line[:n]), f) <= room or n == 1)
            lines.append(line[:cut])
            line = line[cut:]
    if line or not lines:
        lines.append(line)
    return [prefix + visual(lines[0]), *(visual(rest) for rest in lines[1:])]
