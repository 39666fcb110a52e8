"""The score sheet in words (a picture Telegram refused): the same data as the picture, as a monospaced table under
the photo's caption — every deal a row, the totals the party's, names that cannot reorder a line, within a
message's limit however long the party."""

from __future__ import annotations

import random

from bot.games import plugin_of
from bot.i18n import Locale, translator
from bot.views.common import FSI, MAX_TEXT, PDI, SeatInfo, signed
from bot.views.sheets import TallyDeal, TallySheet
from bot.views.sheets.plain import sheet_text
from tests.bot.conftest import plain

RU = translator(Locale.RU)


def test_a_finished_king_party_in_words_has_every_deal_and_the_final_totals() -> None:
    plugin = plugin_of("king")
    seats = tuple(SeatInfo(name, i + 1) for i, name in enumerate(["Аня", "שרה\u202e", "Гоша", "Вера"]))
    state = plugin.make_game({}).new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    sheet = plugin.paper.score_sheet(state, seats, RU)
    assert sheet is not None and state.outcome is not None
    caption = plugin.paper.sheet_caption(state, seats, RU)
    text = plain(sheet_text(sheet, caption))
    lines = text.splitlines()
    assert lines[0] == plain(caption) and "Кинг · запись" in lines
    assert f"1 Аня · 2 {FSI}שרה{PDI} · 3 Гоша · 4 Вера" in lines  # the override taken out, the name isolated
    table = lines[lines.index("1 Аня · 2 " + FSI + "שרה" + PDI + " · 3 Гоша · 4 Вера") + 1 :]
    assert table[0].split() == ["1", "2", "3", "4"] and len(table) == 1 + 15 + 1
    assert table[-1].split() == ["Итого", *(signed(s) for s in state.outcome.scores)]


def test_a_party_too_long_for_one_message_keeps_its_last_deals_and_totals() -> None:
    deals = tuple(TallyDeal(n, (n, 0, 1), (n * 10, 0, n)) for n in range(1, 800))
    sheet = TallySheet("Кончинка · запись", "классика", ("Аня", "Борис", "Вера"), deals)
    text = sheet_text(sheet, "📋 Запись после раздачи 799")
    assert len(text) <= MAX_TEXT
    lines = plain(text).splitlines()
    assert lines[-1].split() == ["Σ", "7990", "0", "799"] and lines[-2].split()[0] == "799"
    assert "…" in lines
