"""Score sheets as pictures (PNG, drawn with Pillow in the shipped DejaVu Sans): pure functions from plain data
(:mod:`bot.views.sheets.model`, filled by each game's plug-in) to bytes, and a cache by content so the same sheet
is drawn once and its Telegram ``file_id`` is reused.

``draw(sheet, theme)`` is CPU work (milliseconds to tens of them): call it off the event loop
(``await asyncio.to_thread(cache.picture, sheet, theme)``), one :class:`PictureCache` per bot, passed in.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

from bot.views.sheets.model import (
    Drawn,
    GridRow,
    GridSheet,
    PlayerPage,
    Sheet,
    TallyDeal,
    TallySheet,
    Theme,
)

__all__ = [
    "Drawn",
    "GridRow",
    "GridSheet",
    "Picture",
    "PictureCache",
    "PlayerPage",
    "Sheet",
    "TallyDeal",
    "TallySheet",
    "Theme",
    "draw",
]


def draw(sheet: Drawn, theme: Theme = Theme.LIGHT) -> bytes:
    """The sheet as a PNG (always drawn: :func:`picture` looks in the cache first). Pillow and the font are
    loaded with the first picture: a bot that draws none does not carry them."""
    from bot.views.sheets.grid import draw_grid
    from bot.views.sheets.page import draw_page
    from bot.views.sheets.tally import draw_tally

    if isinstance(sheet, PlayerPage):
        return draw_page(sheet, theme)
    if isinstance(sheet, TallySheet):
        return draw_tally(sheet, theme)
    return draw_grid(sheet, theme)


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn sheet: its PNG and the digest of its bytes (the key a sent photo's ``file_id`` is kept under)."""

    png: bytes
    digest: str

    @property
    def filename(self) -> str:
        return f"sheet-{self.digest[:12]}.png"


class PictureCache:
    """Drawn sheets by their content (the sheet and the theme), the last ``size`` of them, and the Telegram
    ``file_id`` each picture got when it was first sent, by digest: the same sheet is neither drawn nor uploaded
    twice. Safe to use from worker threads."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._pictures: OrderedDict[tuple[Drawn, Theme], Picture] = OrderedDict()
        self._file_ids: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._drawing: dict[tuple[Drawn, Theme], threading.Lock] = {}
        self.drawn = 0
        """How many pictures were drawn (a miss each)."""

    def picture(self, sheet: Drawn, theme: Theme = Theme.LIGHT) -> Picture:
        """The sheet's picture, drawn on the first call; calls for the same sheet at the same time (worker
        threads) wait for the one drawing it."""
        key = (sheet, theme)
        with self._lock:
            found = self._pictures.get(key)
            if found is not None:
                self._pictures.move_to_end(key)
                return found
            drawing = self._drawing.setdefault(key, threading.Lock())
        with drawing:
            with self._lock:
                found = self._pictures.get(key)
                if found is not None:  # drawn while this call waited
                    return found
            png = draw(sheet, theme)
            made = Picture(png, hashlib.sha256(png).hexdigest())
            with self._lock:
                self.drawn += 1
                self._pictures[key] = made
                self._drawing.pop(key, None)
                while len(self._pictures) > self._size:
                    self._pictures.popitem(last=False)
        return made

    async def picture_off_loop(self, sheet: Drawn, theme: Theme = Theme.LIGHT) -> Picture:
        """:meth:`picture` in a worker thread: the drawing (milliseconds of CPU) never holds the event loop."""
        return await asyncio.to_thread(self.picture, sheet, theme)

    def file_id(self, picture: Picture) -> str | None:
        """The ``file_id`` Telegram gave this picture's bytes, if it was sent before."""
        with self._lock:
            return self._file_ids.get(picture.digest)

    def remember(self, picture: Picture, file_id: str) -> None:
        """Keep the ``file_id`` a sent photo's answer carried (its largest size), for the next send of it."""
        with self._lock:
            self._file_ids[picture.digest] = file_id
            self._file_ids.move_to_end(picture.digest)
            while len(self._file_ids) > self._size * 4:
                self._file_ids.popitem(last=False)
