"""A game on paper: its score sheet (the picture's data and the photo's caption) and the lines of its history
file. Each plug-in names its own (``GamePlugin.paper_type``); this one draws no sheet and writes a move as the
game names it when played."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from bot.i18n import Translator
from bot.views.common import SeatInfo, by_place, isolated, name_of, signed
from bot.views.sheets import Sheet
from bot.views.sheets.seats import picture_name
from engine.core import State

ActionT = TypeVar("ActionT")
ViewT = TypeVar("ViewT")


class Paper(Generic[ActionT, ViewT]):
    def __init__(self, played: Callable[[ActionT, Translator], str]) -> None:
        self._played = played
        """The plug-in's own words for a move (``GamePlugin.played``)."""

    def score_sheet(self, state: State[Any, Any], seats: Sequence[SeatInfo], tr: Translator) -> Sheet | None:
        """The party's score sheet so far as a picture's data (:mod:`bot.views.sheets`; draw it with a
        ``PictureCache``), from the public part of ``state``. None: the game draws no sheet."""
        return None

    def sheet_caption(self, state: State[Any, Any], seats: Sequence[SeatInfo], tr: Translator) -> str:
        """The sheet photo's caption (Telegram HTML, well under 1024 characters): the standings by place in
        words, for whoever cannot see the picture; empty before the first deal ends."""
        outcome = state.outcome
        result = self.deal_result(state)
        if outcome is not None:
            scores, key = outcome.scores, "sheet-caption-final"
        elif result is not None:
            scores, key = result[1], "sheet-caption"
        else:
            return ""
        standings = " · ".join(f"{name_of(seats, i, tr)} {signed(scores[i])}" for i in by_place(scores))
        return tr.t(key, deal=state.deals_completed, scores=standings)

    def move_words(self, action: ActionT, tr: Translator) -> str:
        """A move as the party's history file writes it after its code (plain text, no HTML)."""
        return self._played(action, tr)

    def deal_heading(self, state: State[Any, Any], seats: Sequence[SeatInfo], tr: Translator) -> str:
        """What the history file writes after «Раздача N» as a deal begins (plain text; empty: nothing)."""
        return ""

    def deal_result(self, state: State[Any, Any]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The last finished deal's points and everyone's totals after it, per seat (the history writes them
        under the deal); None: the game keeps no score per deal."""
        return None


def history_name(seat: SeatInfo, tr: Translator) -> str:
    """A seat's name as the history file writes it: as the picture does (plain, no bidi controls, a name that shows
    nothing as none), set in an isolate when it holds right-to-left text, as the chat's texts are — a text viewer
    lays out the file's lines around it, and the name's direction must not reorder the rest of its line."""
    return isolated(picture_name(seat, tr))
