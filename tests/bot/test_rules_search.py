"""«/rules <words>» and «@bot <words>»: a table of what people type and the section they mean."""

from __future__ import annotations

import time

import pytest

from bot.callbacks import RulesSection as S
from bot.views.rules import find_sections
from bot.views.rules_words import GameKind

QUERIES: list[tuple[str, S]] = [
    # the list
    ("ералаш", S.KING_NEGATIVE),
    ("ерлаш", S.KING_NEGATIVE),
    ("кончинки", S.SCORING),
    ("прикончить", S.EARLY_FINISH),
    ("прикончил", S.EARLY_FINISH),
    ("по последней", S.KING_TRUMP),
    ("кинг червей", S.KING_NEGATIVE),
    ("очковая", S.POINTS),
    ("валет", S.CAPTURES),
    ("взятки", S.CAPTURES),
    ("мальчики", S.KING_NEGATIVE),
    ("девочки", S.KING_NEGATIVE),
    ("сколько очков", S.SCORING),
    ("запись", S.TALLY),
    ("15", S.TALLY),
    # word forms and typos
    ("ералаше", S.KING_NEGATIVE),
    ("Ералаш?", S.KING_NEGATIVE),
    ("приканчивать", S.EARLY_FINISH),
    ("прикнчить", S.EARLY_FINISH),
    ("можно ли прикончить партию", S.EARLY_FINISH),
    ("кончинка", S.KONCHINKA),
    ("очковой кончинке", S.POINTS),
    ("очковя", S.POINTS),
    ("валетом", S.CAPTURES),
    ("что берёт валет", S.CAPTURES),
    ("мальчиков", S.KING_NEGATIVE),
    ("девочек", S.KING_NEGATIVE),
    ("дефочки", S.KING_NEGATIVE),
    ("козырь", S.KING_TRUMP),
    ("козыря", S.KING_TRUMP),
    ("казырь", S.KING_TRUMP),
    ("кто назначает козыря", S.KING_TRUMP),
    ("отыгрыш", S.KING_TRUMP),
    ("король червей", S.KING_NEGATIVE),
    ("штрафы кинга", S.KING_SCORING),
    ("очки кинга", S.KING_SCORING),
    ("192", S.KING_SCORING),
    ("трефы", S.SCORING),
    ("больше всех треф", S.SCORING),
    ("27 карт", S.EARLY_FINISH),
    ("расчёт", S.TALLY),
    ("на кон", S.TALLY),
    ("ставка", S.TALLY),
    ("брать обязательно", S.OPTIONS),
    ("несколько взяток за ход", S.OPTIONS),
    ("настройки", S.OPTIONS),
    ("раздача", S.KONCHINKA),
    ("сдающий", S.KONCHINKA),
    ("король берёт 14", S.POINTS),
    ("сумма", S.CAPTURES),
    ("в масть", S.KING),
    ("две последние", S.KING_NEGATIVE),
    ("порядок раздач", S.KING_NEGATIVE),
    # English
    ("eralash", S.KING_NEGATIVE),
    ("eralsh", S.KING_NEGATIVE),
    ("trump", S.KING_TRUMP),
    ("trumps", S.KING_TRUMP),
    ("finish early", S.EARLY_FINISH),
    ("scoring", S.SCORING),
    ("jacks", S.KING_NEGATIVE),
    ("king of hearts", S.KING_NEGATIVE),
    ("capture", S.CAPTURES),
    ("settlement", S.TALLY),
    ("points variant", S.POINTS),
    ("must capture", S.OPTIONS),
    ("king penalties", S.KING_SCORING),
    ("follow suit", S.KING),
]

REQUIRED_SHARE = 0.95


def test_the_table_is_long_enough() -> None:
    assert len(QUERIES) >= 40
    assert {section for _, section in QUERIES} == set(S)


def test_queries_find_the_section_people_mean() -> None:
    misses = [(query, expected, find_sections(query)[:2]) for query, expected in QUERIES]
    misses = [(q, e, got) for q, e, got in misses if not got or got[0] is not e]
    share = 1 - len(misses) / len(QUERIES)
    assert share >= REQUIRED_SHARE, f"{share:.0%} found first; misses: {misses}"


@pytest.mark.parametrize("query", ["", "   ", "?!", "абракадабра", "xyzzy", "погода в москве"])
def test_nonsense_finds_nothing(query: str) -> None:
    assert find_sections(query) == []


def test_a_pasted_page_is_answered_quickly() -> None:
    page = "ералаш " + "слово другое третье " * 300
    started = time.perf_counter()
    assert find_sections(page)[0] is S.KING_NEGATIVE
    assert time.perf_counter() - started < 0.5


def test_the_game_in_the_chat_decides_a_word_both_games_use() -> None:
    assert find_sections("очки", GameKind.KING)[0] is S.KING_SCORING
    assert find_sections("очки", GameKind.KONCHINKA)[0] is S.SCORING
    assert find_sections("взятки", GameKind.KING)[0] is S.KING_NEGATIVE
