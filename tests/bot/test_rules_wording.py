"""Wording: numbers agree with their nouns (Fluent plural forms), /stats says the sign and the unit, English says
"game"."""

from __future__ import annotations

import re

import pytest

from bot.games import rules_library
from bot.i18n import LOCALES_DIR, Locale, translator
from bot.storage.models import ChatRank, UserStats
from bot.views.rules_lookup import render_rules_answer
from bot.views.stats import render_stats, render_top

RU = translator(Locale.RU)
EN = translator(Locale.EN)
LIB = rules_library()


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (1, "Нужен хотя бы один игрок."),
        (2, "Нужно хотя бы 2 игрока."),
        (5, "Нужно хотя бы 5 игроков."),
        (21, "Нужен хотя бы 21 игрок."),
    ],
)
def test_players_needed_agree_with_the_number(count: int, text: str) -> None:
    assert RU.t("answer-not-enough-players", count=count) == text


def test_stats_say_the_sign_and_the_unit() -> None:
    def balance(settlement: int) -> str:
        text = render_stats(UserStats(games=3, wins=1, points=20, settlement=settlement), RU).text
        return text.splitlines()[-1]

    assert balance(2) == "Итог расчётов: в плюсе на 2 очка"
    assert balance(-5) == "Итог расчётов: в минусе на 5 очков"
    assert balance(1) == "Итог расчётов: в плюсе на 1 очко"
    assert balance(0) == "Итог расчётов: ни в плюсе, ни в минусе"
    english = render_stats(UserStats(games=1, wins=0, points=3, settlement=-1), EN).text
    assert "Games played: 1" in english and english.endswith("Settlement balance: −1 point against you")


def test_top_lines_agree_with_the_numbers() -> None:
    ranks = [ChatRank(1, "Аня", 5, 2, 41), ChatRank(2, "Боря", 5, 1, 22), ChatRank(3, "Вера", 5, 5, 21)]
    lines = render_top(ranks, RU).text.splitlines()
    assert lines[1:] == [
        "1. Аня — 2 победы из 5, 41 очко",
        "2. Боря — 1 победа из 5, 22 очка",
        "3. Вера — 5 побед из 5, 21 очко",
    ]


def test_cannot_finish_agrees_with_the_number() -> None:
    assert (
        RU.t("answer-cannot-finish", secured=1, need=2)
        == "Прикончить пока нельзя: обеспечено 1 очко, а нужно 2."
    )
    assert (
        RU.t("answer-cannot-finish", secured=0, need=2)
        == "Прикончить пока нельзя: обеспечено 0 очков, а нужно 2."
    )


def test_english_says_game_not_party() -> None:
    for path in sorted((LOCALES_DIR / "en").glob("*.ftl")):
        text = path.read_text(encoding="utf-8")
        # Message ids such as party-title are names in code, not words a person reads.
        assert not re.search(r"(?<![-\w])part(y|ies)(?![-\w])", text, re.IGNORECASE), path.name


def test_russian_rules_read_as_the_issue_asks() -> None:
    rules = (LOCALES_DIR / "ru" / "rules.ftl").read_text(encoding="utf-8")
    for wrong in (
        "договаривают до начала",
        "первые 3 свои карты",
        "Когда колода и руки кончились",
        "наберёт цель",
        "не хватает 2 очков или меньше",
        "в два касания",
        "и ералаш — всё сразу",
        "Любая карта берёт и карту",
    ):
        assert wrong not in rules, wrong
    common = (LOCALES_DIR / "ru" / "common.ftl").read_text(encoding="utf-8")
    assert "Кинга сбрасывать и на червовый ход с тузом" not in common
    assert "[cards] С карт" not in (LOCALES_DIR / "ru" / "king.ftl").read_text(encoding="utf-8")


@pytest.mark.parametrize("locale", list(Locale))
def test_a_group_gets_a_few_lines_of_any_section(locale: Locale) -> None:
    tr = translator(locale)
    for section in LIB.sections:
        rendered = render_rules_answer(LIB, [section.id], tr, is_group=True, bot_username="kbot")
        plain = re.sub(r"<[^>]+>", "", rendered.text)
        assert len(plain) < 450, (section, len(plain))
        assert rendered.markup is not None
        assert rendered.markup.inline_keyboard[-1][0].url == f"https://t.me/kbot?start=r_{section.id}"
