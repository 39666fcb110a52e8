"""«/rules <words>» and «@bot <words>»: a table of what people type and the section they mean."""

from __future__ import annotations

import time

import pytest

from bot.games import rules_library
from bot.games.king.sections import KingSection as G
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.views.rules_lookup import find_sections

LIB = rules_library()

QUERIES: list[tuple[str, str]] = [
    # the list
    ("ералаш", G.NEGATIVE),
    ("ерлаш", G.NEGATIVE),
    ("кончинки", K.SCORING),
    ("прикончить", K.EARLY_FINISH),
    ("прикончил", K.EARLY_FINISH),
    ("по последней", G.TRUMP),
    ("кинг червей", G.NEGATIVE),
    ("очковая", K.POINTS),
    ("валет", K.CAPTURES),
    ("взятки", K.CAPTURES),
    ("мальчики", G.NEGATIVE),
    ("девочки", G.NEGATIVE),
    ("сколько очков", K.SCORING),
    ("запись", K.TALLY),
    ("15", K.TALLY),
    # word forms and typos
    ("ералаше", G.NEGATIVE),
    ("Ералаш?", G.NEGATIVE),
    ("приканчивать", K.EARLY_FINISH),
    ("прикнчить", K.EARLY_FINISH),
    ("можно ли прикончить партию", K.EARLY_FINISH),
    ("кончинка", K.BASICS),
    ("очковой кончинке", K.POINTS),
    ("очковя", K.POINTS),
    ("валетом", K.CAPTURES),
    ("что берёт валет", K.CAPTURES),
    ("мальчиков", G.NEGATIVE),
    ("девочек", G.NEGATIVE),
    ("дефочки", G.NEGATIVE),
    ("козырь", G.TRUMP),
    ("козыря", G.TRUMP),
    ("казырь", G.TRUMP),
    ("кто назначает козыря", G.TRUMP),
    ("отыгрыш", G.TRUMP),
    ("король червей", G.NEGATIVE),
    ("штрафы кинга", G.SCORING),
    ("очки кинга", G.SCORING),
    ("192", G.SCORING),
    ("трефы", K.SCORING),
    ("больше всех треф", K.SCORING),
    ("27 карт", K.EARLY_FINISH),
    ("расчёт", K.TALLY),
    ("на кон", K.TALLY),
    ("ставка", K.TALLY),
    ("брать обязательно", K.OPTIONS),
    ("несколько взяток за ход", K.OPTIONS),
    ("настройки", K.OPTIONS),
    ("раздача", K.BASICS),
    ("сдающий", K.BASICS),
    ("король берёт 14", K.POINTS),
    ("сумма", K.CAPTURES),
    ("в масть", G.BASICS),
    ("две последние", G.NEGATIVE),
    ("порядок раздач", G.NEGATIVE),
    # English
    ("eralash", G.NEGATIVE),
    ("eralsh", G.NEGATIVE),
    ("trump", G.TRUMP),
    ("trumps", G.TRUMP),
    ("finish early", K.EARLY_FINISH),
    ("scoring", K.SCORING),
    ("jacks", G.NEGATIVE),
    ("king of hearts", G.NEGATIVE),
    ("capture", K.CAPTURES),
    ("settlement", K.TALLY),
    ("points variant", K.POINTS),
    ("must capture", K.OPTIONS),
    ("king penalties", G.SCORING),
    ("follow suit", G.BASICS),
]

REQUIRED_SHARE = 0.95


def test_the_table_is_long_enough() -> None:
    assert len(QUERIES) >= 40
    # every section of the two games is in the table (another game's words are tried by its own tests)
    assert {section for _, section in QUERIES} == {*K, *G} and {*K, *G} <= {s.id for s in LIB.sections}


def test_queries_find_the_section_people_mean() -> None:
    misses = [(query, expected, find_sections(LIB, query)[:2]) for query, expected in QUERIES]
    misses = [(q, e, got) for q, e, got in misses if not got or got[0] != e]
    share = 1 - len(misses) / len(QUERIES)
    assert share >= REQUIRED_SHARE, f"{share:.0%} found first; misses: {misses}"


@pytest.mark.parametrize("query", ["", "   ", "?!", "абракадабра", "xyzzy", "погода в москве"])
def test_nonsense_finds_nothing(query: str) -> None:
    assert find_sections(LIB, query) == []


@pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py
def test_a_pasted_page_is_answered_quickly() -> None:
    page = "ералаш " + "слово другое третье " * 300
    find_sections(
        LIB, "валет"
    )  # the word forms' dictionary loads once per process (half a second): not timed
    started = time.perf_counter()
    assert find_sections(LIB, page)[0] == G.NEGATIVE
    assert time.perf_counter() - started < 0.5


def test_the_game_in_the_chat_decides_a_word_both_games_use() -> None:
    assert find_sections(LIB, "очки", "king")[0] == G.SCORING
    assert find_sections(LIB, "очки", "konchinka")[0] == K.SCORING
    assert find_sections(LIB, "взятки", "king")[0] == G.NEGATIVE
