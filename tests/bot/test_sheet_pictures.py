"""The score sheet as a picture: both games' sheets drawn from real parties, in both themes, within what a phone
shows and Telegram takes as a photo; names of any script fitted into their column; negatives in red; the same
sheet drawn once."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

from bot.games import plugin_of
from bot.games.king.sheet import deal_trumps
from bot.i18n import Locale, translator
from bot.views.common import SeatInfo, name_of, signed
from bot.views.sheets import GridRow, GridSheet, PictureCache, TallyDeal, TallySheet, Theme, draw
from bot.views.sheets.canvas import LEGEND_SIZE, PALETTES, WIDTH, legend_lines
from bot.views.sheets.tally import LEGEND_H, NOTE_H
from bot.views.sheets.text import ELLIPSIS, MISSING, clean, emoji_covered, fit_text, font, visual, width, wrap
from engine.core import JSONValue, State
from engine.king import ChooseTrump, KingState

RU = translator(Locale.RU)
HOSTILE = (
    SeatInfo("Александра Константиновна Преображенская-Оболенская", 1),
    SeatInfo("אברהם בן דוד", 2),
    SeatInfo("🦊🔥 Лиса 👩‍👩‍👧‍👦", 3),
    SeatInfo("محمد علي", 4),
)


def finished(kind: str, options: dict[str, JSONValue], seed: int) -> State:
    state = plugin_of(kind).make_game(options).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    return state


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def has_color(picture: Image.Image, color: tuple[int, int, int], tolerance: int = 24) -> int:
    """How many pixels are within ``tolerance`` of ``color``."""
    found = 0
    for count, pixel in picture.getcolors(maxcolors=1 << 20) or []:
        assert isinstance(pixel, tuple)
        if all(abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=True)):
            found += count
    return found


@pytest.mark.parametrize("theme", list(Theme))
@pytest.mark.parametrize(
    ("kind", "options"),
    [("konchinka", {"players": 4, "target": 15}), ("king", {})],
    ids=["konchinka", "king"],
)
def test_a_finished_partys_sheet_is_a_photo_a_phone_shows_whole(
    kind: str, options: dict[str, JSONValue], theme: Theme
) -> None:
    state = finished(kind, options, 2)
    sheet = plugin_of(kind).paper.score_sheet(state, HOSTILE[: state.game.num_players], RU)
    assert sheet is not None
    png = draw(sheet, theme)
    picture = image(png)
    width, height = picture.size
    assert width == WIDTH and width + height <= 10_000 and height <= 20 * width  # Telegram's photo limits
    assert height <= 2.5 * width  # one phone screen or a short scroll, not a ribbon
    assert len(png) < 400_000
    assert picture.getpixel((2, 2)) == PALETTES[theme].paper


def test_the_tally_sheet_holds_every_deal_its_totals_and_the_winner() -> None:
    state = finished("konchinka", {"players": 3, "target": 11}, 5)
    sheet = plugin_of("konchinka").paper.score_sheet(state, HOSTILE[:3], RU)
    assert isinstance(sheet, TallySheet)
    view = state.view(0)
    assert [d.totals for d in sheet.deals] == [
        tuple(t[i] for t in view.tally) for i in range(len(view.tally[0]))
    ]
    assert state.outcome is not None and sheet.winners == state.outcome.winners
    assert sheet.target == 11
    assert all("карты " in d.note and "♣ " in d.note for d in sheet.deals)


def test_the_king_sheet_names_the_fifteen_deals_with_their_trumps_and_sums_to_zero() -> None:
    state = finished("king", {}, 9)
    assert isinstance(state, KingState)
    sheet = plugin_of("king").paper.score_sheet(state, HOSTILE, RU)
    assert isinstance(sheet, GridSheet)
    assert len(sheet.rows) == 15 and not sheet.pending
    assert [r.label for r in sheet.rows[:7]] == [
        "взятки",
        "мальчики",
        "девочки",
        "черви",
        "две последние",
        "кинг",
        "ералаш",
    ]
    trumps = deal_trumps(state)
    named = [a.suit for a in state.history if isinstance(a, ChooseTrump)]
    assert len(trumps) == 8 and all(s is None or s == t for s, t in zip(named, trumps, strict=True))
    assert [r.mark for r in sheet.rows[7:]] == [t.symbol for t in trumps]
    assert all(sum(r.points) == r.expected_sum for r in sheet.rows)
    assert sheet.expected_total == 0 and sum(sum(r.points) for r in sheet.rows) == 0


def test_negatives_are_drawn_in_red_and_a_sheet_without_them_has_no_red() -> None:
    def grid(points: tuple[int, ...]) -> GridSheet:
        return GridSheet("Кинг", "", ("Аня", "Борис"), (GridRow("взятки", points),))

    for theme in Theme:
        red = PALETTES[theme].red
        assert has_color(image(draw(grid((-8, -8)), theme)), red) > 50
        assert has_color(image(draw(grid((8, 8)), theme)), red) == 0


@pytest.mark.parametrize("name", [s.name for s in HOSTILE] + ["W" * 200, "\u202eevil", "a\u0301" * 30])
def test_any_name_fits_its_box(name: str) -> None:
    for size in (14, 21):
        f = font(size, bold=True)
        for box in (60, 110, 200):
            shown = fit_text(name, f, box)
            assert f.getlength(shown) <= box
            assert "\u202e" not in shown and "\u200d" not in shown


def test_names_are_cut_with_an_ellipsis_put_in_visual_order_and_missing_glyphs_marked() -> None:
    f = font(20)
    long = fit_text("Александра Константиновна", f, 120)
    assert long.endswith(ELLIPSIS) and long.startswith("Алекс")
    assert visual("אבג") == "גבא"
    assert visual("Аня אבג 12") == "Аня גבא 12"
    assert clean("\U00013000\U00013001 Лиса") == f"{MISSING} Лиса"  # hieroglyphs no font has: one mark
    assert visual("محمد")[0] != "م"  # reversed, and the letters take their joined forms
    assert visual("محمد") != "محمد"[::-1]


NEEDS_EMOJI = pytest.mark.skipif(
    not emoji_covered(), reason="no colour emoji font on this machine (the image has it)"
)


def colourful(picture: Image.Image) -> int:
    """How many pixels are neither grey nor near a colour of the palettes: an emoji's colours."""
    palette = [c for p in PALETTES.values() for c in (p.paper, p.ink, p.muted, p.rule, p.band)]
    found = 0
    for count, pixel in picture.getcolors(maxcolors=1 << 20) or []:
        assert isinstance(pixel, tuple)
        if max(pixel) - min(pixel) > 60 and all(
            sum(abs(a - b) for a, b in zip(pixel, c, strict=True)) > 90 for c in palette
        ):
            found += count
    return found


@NEEDS_EMOJI
@pytest.mark.parametrize("theme", list(Theme))
def test_a_names_emoji_is_drawn_in_colour_not_as_a_box(theme: Theme) -> None:
    """Issue 48, item 4: «Борис 🐻» was drawn «Борис □» in the header and the legend."""

    def sheet(names: tuple[str, ...]) -> TallySheet:
        return TallySheet("Кончинка", "", names, (TallyDeal(1, (0, 0, 0), (0, 0, 0), "карты 1·2·3"),), 0)

    plain_names = ("Борис", "Дина", "Аня")
    emoji_names = ("Борис 🐻", "Дина 🦊", "Аня")
    assert clean("🦊🔥 Лиса") == "🦊🔥 Лиса" and MISSING not in fit_text("Борис 🐻", font(21), 300)
    assert colourful(image(draw(sheet(plain_names), theme))) == 0
    assert colourful(image(draw(sheet(emoji_names), theme))) > 100
    grid = GridSheet("Кинг", "", emoji_names, (GridRow("взятки", (-1, -1, -2)),), total_label="Итого")
    assert colourful(image(draw(grid, theme))) > 100
    # the emoji's room is measured: a name with emoji still fits its box
    for box in (60, 110, 200):
        assert width(fit_text("🦊🔥 Лиса 👩‍👩‍👧‍👦", font(21), box), font(21)) <= box


def test_a_64_character_name_is_written_whole_in_the_small_print_and_the_legend() -> None:
    """Issue 48, item 4: a long name cut a deal's small print before it said who held 10♦; now it wraps."""
    long = "Александра Константиновна Преображенская-Оболенская из Петербург"
    assert len(long) == 64
    note = f"карты 22·7·16 · ♣ 7·1·5 · кончинки: 2♣ Борис, 10♦ {long}"
    f = font(LEGEND_SIZE)
    lines = wrap(note, f, 500)
    assert " ".join(lines) == note and all(width(line, f) <= 500 for line in lines)
    assert ELLIPSIS not in "".join(lines)
    assert all(len(lines) >= 2 for lines in legend_lines(("Борис", long), f)[1:])

    def height(holder: str) -> int:
        names = ("Борис", holder, "Аня")
        deal = TallyDeal(1, (1, 0, 1), (1, 0, 1), f"карты 22·7·16 · ♣ 7·1·5 · кончинки: 10♦ {holder}")
        return image(draw(TallySheet("Кончинка", "", names, (deal,), 15))).height

    # the small print takes the lines it needs, and the cut column name is written whole below
    assert height(long) >= height("Вера") + 2 * LEGEND_H + 3 * NOTE_H


def test_the_same_sheet_is_drawn_once_and_keeps_its_file_id() -> None:
    cache = PictureCache(size=4)

    def sheet() -> TallySheet:  # equal content, a new object each time
        return TallySheet("Кончинка", "", ("Аня", "Борис"), (TallyDeal(1, (3, 0), (3, 0)),), 15)

    first = cache.picture(sheet(), Theme.LIGHT)
    again = cache.picture(sheet(), Theme.LIGHT)
    assert again is first and cache.drawn == 1
    dark = cache.picture(sheet(), Theme.DARK)
    assert dark.digest != first.digest and cache.drawn == 2
    assert draw(sheet(), Theme.LIGHT) == first.png  # the same bytes every time
    assert cache.file_id(first) is None
    cache.remember(first, "AgP0001")
    assert cache.file_id(cache.picture(sheet(), Theme.LIGHT)) == "AgP0001"
    for n in range(5):  # the oldest goes once the cache is full
        cache.picture(TallySheet("x", "", ("a",), (TallyDeal(n, (n,), (n,)),)), Theme.LIGHT)
    cache.picture(sheet(), Theme.LIGHT)
    assert cache.drawn == 8


async def test_pictures_asked_for_at_once_off_the_loop_are_drawn_once() -> None:
    cache = PictureCache()
    sheet = TallySheet("Кончинка", "", ("Аня", "Борис"), (TallyDeal(1, (3, 0), (3, 0)),), 15)
    pictures = await asyncio.gather(*(cache.picture_off_loop(sheet, Theme.DARK) for _ in range(8)))
    assert cache.drawn == 1 and all(p is pictures[0] for p in pictures)


def test_the_caption_gives_the_standings_by_place_in_words() -> None:
    plugin = plugin_of("king")
    state = plugin.make_game({}).new_initial_state(4)
    rng = random.Random(4)
    assert plugin.paper.sheet_caption(state, HOSTILE, RU) == ""
    while state.deals_completed < 3:
        state.apply(rng.choice(list(state.legal_actions())))
    caption = plugin.paper.sheet_caption(state, HOSTILE, RU)
    totals = [sum(row[p] for row in state.view(0).score_sheet) for p in range(4)]
    assert caption.startswith("📋 Запись после раздачи 3: ")
    order = sorted(range(4), key=lambda p: -totals[p])
    positions = [caption.index(name_of(HOSTILE, p, RU)) for p in order]
    assert positions == sorted(positions)  # the highest total first
    for p in range(4):
        assert f"{name_of(HOSTILE, p, RU)} {signed(totals[p])}" in caption
    assert len(caption) <= 1024
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    assert plugin.paper.sheet_caption(state, HOSTILE, RU).startswith("🏆 Итог партии: ")


def test_a_long_partys_tally_stays_within_what_telegram_shows_unscaled() -> None:
    """Telegram shows a photo at most 1280 pixels tall: past that the oldest small print goes, then the oldest
    deals (their totals are struck through below anyway), the newest totals always drawn."""
    deals = tuple(TallyDeal(n, (1, 0), (n, 0), "карты 20·16 · ♣ 5·3") for n in range(1, 61))
    short = TallySheet("Кончинка", "", ("Аня", "Борис"), deals[:5], 99)
    long = TallySheet("Кончинка", "", ("Аня", "Борис"), deals, 99, winners=(0,), winner_label="победа")
    assert image(draw(long)).height <= 1280
    assert (
        image(draw(short)).height
        < image(draw(TallySheet("Кончинка", "", ("Аня", "Борис"), deals[:9], 99))).height
    )
    with_notes = image(draw(short)).height
    without = image(
        draw(
            TallySheet(
                "Кончинка",
                "",
                ("Аня", "Борис"),
                tuple(TallyDeal(d.number, d.points, d.totals) for d in deals[:5]),
                99,
            )
        )
    ).height
    assert with_notes - without == 5 * NOTE_H  # a short party keeps every deal's small print


@pytest.mark.parametrize("blank", ["\u3164", "\u200b\u200b", " \u2800 ", "\u202e\u2066", "\u0301"])
@pytest.mark.parametrize(("kind", "options"), [("konchinka", {"players": 3, "target": 11}), ("king", {})])
def test_a_name_that_shows_nothing_is_a_player_on_the_sheet_as_in_the_chat(
    blank: str, kind: str, options: dict[str, JSONValue]
) -> None:
    state = finished(kind, options, 4)
    seats = HOSTILE[: state.game.num_players]
    named_blank = (SeatInfo(blank, 1), *seats[1:])
    named_player = (SeatInfo("Игрок", 1), *seats[1:])
    paper = plugin_of(kind).paper
    sheet = paper.score_sheet(state, named_blank, RU)
    assert sheet is not None and sheet.players[0] == "Игрок"
    assert draw(sheet) == draw(paper.score_sheet(state, named_player, RU))  # type: ignore[arg-type]
    assert name_of(named_blank, 0, RU) == "Игрок"  # the caption and the result line say the same
