"""A seat's name as a picture writes it: plain text (no HTML, no isolate marks: the picture lays names out
itself; no bidi controls), a bot player marked with ⚙ (the font has no 🤖); a name that shows nothing is
shown as none, as the chat's texts show it (:func:`~bot.views.common.visible`)."""

from __future__ import annotations

from bot.i18n import Translator
from bot.views.common import SeatInfo, bot_name, visible


def picture_name(seat: SeatInfo, tr: Translator) -> str:
    shown = visible(seat.name)
    if seat.is_bot:
        name = (
            shown + (f" {seat.number}" if seat.number else "")
            if shown
            else bot_name(seat.level, seat.number, tr)
        )
        return f"⚙ {name}"
    return shown or tr.t("player-nameless")
