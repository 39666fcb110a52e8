"""A seat's name as a picture writes it: plain text (no HTML, no isolate marks: the picture lays names out
itself), a bot player marked with ⚙ (the font has no 🤖)."""

from __future__ import annotations

from bot.i18n import Translator
from bot.views.common import SeatInfo, bot_name


def picture_name(seat: SeatInfo, tr: Translator) -> str:
    if seat.is_bot:
        name = (
            seat.name + (f" {seat.number}" if seat.number else "")
            if seat.name
            else bot_name(seat.level, seat.number, tr)
        )
        return f"⚙ {name}"
    return seat.name or tr.t("player-nameless")
