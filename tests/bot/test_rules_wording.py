"""Wording: numbers agree with their nouns (Fluent plural forms), /stats says the sign and the unit, English says
"game"."""

from __future__ import annotations

import re

import pytest

from bot.games import rules_library
from bot.i18n import Locale, ftl_files, translator
from bot.model.game import GameMode
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


GAMES = [("konchinka", "🃏 Кончинка"), ("king", "👑 Кинг")]


def test_stats_show_each_game_apart_with_true_minus_signs() -> None:
    figures = [
        UserStats("king", GameMode.GROUP, 1, 0, -33, 0),
        UserStats("konchinka", GameMode.SOLO, 3, 1, 20, 0),
        UserStats("konchinka", GameMode.GROUP, 5, 2, 41, -5),
    ]
    assert render_stats(figures, GAMES, RU).text.splitlines() == [
        "📊 <b>Ваша статистика</b>",
        "",
        "<b>🃏 Кончинка</b>",
        "В группах: 5 партий, 2 победы, очков набрано: 41, расчёт на бумаге: −5 (столько отдать)",
        "С ботами: 3 партии, 1 победа, очков набрано: 20",
        "",
        "<b>👑 Кинг</b>",
        "В группах: 1 партия, 0 побед, итог по очкам: −33",
    ]
    english = render_stats([UserStats("king", GameMode.SOLO, 1, 1, 12, 2)], GAMES, EN).text
    assert english.splitlines()[2:] == [
        "<b>👑 Кинг</b>",
        "With bots: 1 game, 1 win, total score: 12, settlement on paper: +2 (to receive)",
    ]
    assert "-" not in render_stats(figures, GAMES, RU).text, "no ASCII hyphen for a minus"
    assert render_stats([], GAMES, RU).text.splitlines()[-1] == (
        "Вы ещё не доиграли ни одной партии. Сыграть с ботами — /play."
    )


def test_top_lines_agree_with_the_numbers_each_game_apart() -> None:
    ranks = [ChatRank(1, "Аня", 5, 2, 41), ChatRank(2, "Боря", 5, 1, 22), ChatRank(3, "Вера", 5, 5, 21)]
    king = [ChatRank(2, "Боря", 1, 1, 12), ChatRank(1, "Аня", 1, 0, -21)]
    lines = render_top([("🃏 Кончинка", ranks), ("👑 Кинг", king)], RU).text.splitlines()
    assert lines[1:] == [
        "",
        "<b>🃏 Кончинка</b>",
        "1. Аня — 2 победы из 5, 41 очко",
        "2. Боря — 1 победа из 5, 22 очка",
        "3. Вера — 5 побед из 5, 21 очко",
        "",
        "<b>👑 Кинг</b>",
        "1. Боря — 1 победа из 1, 12 очков",
        "2. Аня — 0 побед из 1, −21 очко",
    ]
    assert render_top([("🃏 Кончинка", []), ("👑 Кинг", [])], RU).text == RU.t("top-empty")


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
    for path in ftl_files(Locale.EN):
        text = path.read_text(encoding="utf-8")
        # Message ids such as party-title are names in code, not words a person reads.
        assert not re.search(r"(?<![-\w])part(y|ies)(?![-\w])", text, re.IGNORECASE), path.name


def test_russian_rules_read_as_the_issue_asks() -> None:
    # the shared rules and each game's own (Кончинка's are in locales/ru/konchinka/)
    rules = "\n".join(
        path.read_text(encoding="utf-8") for path in ftl_files(Locale.RU) if path.stem == "rules"
    )
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
    every = "\n".join(path.read_text(encoding="utf-8") for path in ftl_files(Locale.RU))
    assert "Кинга сбрасывать и на червовый ход с тузом" not in every
    assert "[cards] С карт" not in every


@pytest.mark.parametrize("locale", list(Locale))
def test_a_group_gets_a_few_lines_of_any_section(locale: Locale) -> None:
    tr = translator(locale)
    for section in LIB.sections:
        rendered = render_rules_answer(LIB, [section.id], tr, is_group=True, bot_username="kbot")
        plain = re.sub(r"<[^>]+>", "", rendered.text)
        assert len(plain) < 450, (section, len(plain))
        assert rendered.markup is not None
        assert rendered.markup.inline_keyboard[-1][0].url == f"https://t.me/kbot?start=r_{section.id}"
