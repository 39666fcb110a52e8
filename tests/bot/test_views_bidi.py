"""Names that try to reorder other people's text, laid out by a real bidi algorithm (python-bidi: Unicode's
UAX #9, as Telegram's clients apply it): whatever a name holds — a PDI closing the isolate it is set in, an
override (RLO), an embedding, a stray isolate —, every other word and number on its line reads as written.

The hostile names below hold no left-to-right letter and no digit, so every left-to-right letter and every digit
of a line is someone else's (the bot's words, other players' names, scores): their visual order must be their
logical order, line by line, on every screen, button and press answer."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator

import pytest
from bidi import get_display

from bot.flow.moves import plain_name
from bot.i18n import Translator
from bot.model.game import Seat
from bot.views import Rendered, SeatInfo, answer_text
from bot.views.chats import render_left
from bot.views.common import isolated, named
from bot.views.notices import (
    render_joined,
    render_seat_back,
    render_seat_replaced,
    render_start_bot,
    render_timed_out,
    render_turn_reminder,
)
from engine.ai import Level
from engine.core import CommonIllegal
from tests.bot import test_views as konchinka_views
from tests.bot import test_views_king as king_views

HOSTILE_NAMES = (
    "\u2069\u202eדוד",  # closes the isolate it is set in, then overrides right-to-left to the end of the line
    "\u202eעל",  # an override, right away
    "\u2066\u2069\u202bعلي",  # an isolate of its own, closed, then an embedding
    "שם\u202e",  # an override at the end, left open
    "\u2067\u202d",  # nothing but controls: an isolate left open and an override
)
SEATS = (
    SeatInfo(HOSTILE_NAMES[0], 1),
    SeatInfo("Маша", 2),
    SeatInfo(HOSTILE_NAMES[1], 3),
    SeatInfo(HOSTILE_NAMES[2], None, True, Level.HARD),
)
OTHER_SEATS = (SeatInfo(HOSTILE_NAMES[3], 1), SeatInfo("Маша", 2), SeatInfo(HOSTILE_NAMES[4], 3), SEATS[3])


def _someone_elses(text: str) -> list[str]:
    """The characters of ``text`` no hostile name holds: left-to-right letters and digits, in order."""
    return [ch for ch in text if unicodedata.bidirectional(ch) in {"L", "EN"}]


def _lines(rendered: Rendered) -> Iterator[str]:
    """Every line a person reads: the text as Telegram shows it (tags gone, entities unescaped), the buttons."""
    shown = html.unescape(re.sub(r"<[^>]+>", "", rendered.text))
    yield from shown.split("\n")
    if rendered.markup is not None:
        for row in rendered.markup.inline_keyboard:
            for button in row:
                yield button.text


def _renders() -> Iterator[tuple[str, Rendered]]:
    for seats in (SEATS, OTHER_SEATS):
        yield from konchinka_views.all_renders(seats)
        for rendered in king_views._all_screens(seats):
            yield "king", rendered
        for tr in (konchinka_views.RU, konchinka_views.EN):
            yield from _notices(seats, tr)


def _notices(seats: tuple[SeatInfo, ...], tr: Translator) -> Iterator[tuple[str, Rendered]]:
    for seat in seats:
        yield "start-bot", render_start_bot(seat, "g1", "kbot", tr)
        yield "reminder", render_turn_reminder(seat, 15, tr)
        yield "replaced", render_seat_replaced(seat, "g1", tr)
        yield "back", render_seat_back(seat, tr)
        yield "timed-out", render_timed_out(seat, tr)
        yield "left", render_left(seat, "g1", tr)
        yield "joined", render_joined(seat.name, "Кончинка", tr)
        row = Seat(0, seat.user_id, seat.name)
        answer = answer_text(CommonIllegal.NOT_YOUR_TURN, tr, name=plain_name(row, tr.locale.value))
        yield "answer-not-your-turn", Rendered(answer + " Маша +14", None)


def test_no_name_reorders_anyone_elses_text_on_any_screen_button_or_answer() -> None:
    count = 0
    for kind, rendered in _renders():
        for line in _lines(rendered):
            shown = get_display(line, base_dir="L")
            assert _someone_elses(shown) == _someone_elses(line), f"{kind}: {line!r} is shown as {shown!r}"
            count += 1
    assert count > 2000


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_names_bidi_controls_are_taken_out_and_its_own_letters_kept(name: str) -> None:
    clean = isolated(name)
    assert not any(unicodedata.bidirectional(ch) in {"LRE", "RLE", "LRO", "RLO", "PDF"} for ch in clean)
    inner = clean.removeprefix("\u2068").removesuffix("\u2069")
    assert "\u2066" not in inner and "\u2067" not in inner and "\u2068" not in inner and "\u2069" not in inner
    letters = [ch for ch in name if unicodedata.category(ch).startswith("L")]
    assert [ch for ch in inner if unicodedata.category(ch).startswith("L")] == letters
    assert named(name) == html.escape(clean, quote=False)
