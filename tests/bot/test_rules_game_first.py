"""Issue 52: the game first, then the rule. A question's own words decide its game, the chat's game only a prior
they can overturn; where they leave it open, each game's short answer under «Про какую игру?» — never the other
game's answer alone. The questions written blind for this issue (rules_questions_blind2_tune.txt, the tuning half
of the second set; the third and fourth sets, rules_questions_blind3.txt and rules_questions_blind4.txt, each
scored once held out) are scored in a private chat, a Кончинка chat and a Кинг chat (tests/bot/rules_scoring.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.callbacks import RulesCb
from bot.games import rules_library
from bot.games.king.sections import KingSection as G
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.i18n import Locale, translator
from bot.views.rules_lookup import lookup, render_found
from tests.bot import rules_scoring
from tests.bot.rules_crossval import without
from tests.bot.rules_scoring import (
    FOURTH_FILE,
    SCORED_FILE,
    TUNE_FILE,
    asked,
    context,
    read_questions,
    report,
    score,
    shown,
)

LIB = rules_library()
RU = translator(Locale.RU)
ISSUE_FILE = rules_scoring.HERE / "rules_questions_issue52.txt"


def _kinds(sections: tuple[str, ...]) -> set[str]:
    return {LIB.book_of(s).kind for s in sections}


@pytest.mark.parametrize(
    "query",
    ["десятка бубей скок очков дает", "за крести сколько дают", "набрал 7 треф это победа?", "десятка бубен"],
)
def test_in_a_king_chat_konchinkas_words_get_konchinkas_answer(query: str) -> None:
    """First (where the words leave it open, beside Кинг's)."""
    found = lookup(LIB, query, context("king"))
    assert found.sections and LIB.book_of(found.sections[0]).kind == "konchinka", found


def test_the_chats_game_still_answers_its_common_words() -> None:
    for chat, section in (("king", G.SCORING), ("konchinka", K.CAPTURES)):
        found = lookup(LIB, "сколько стоит валет", context(chat))
        assert shown(LIB, found) == (section,)
    # asked whether the game has trumps, in a Кончинка chat: Кончинка's «козырей нет»
    assert shown(LIB, lookup(LIB, "козыри есть?", context("konchinka"))) == (K.BASICS,)


def test_a_question_fitting_both_games_gets_each_games_answer_and_a_button_for_each() -> None:
    found = lookup(LIB, "кто первый сдаёт")
    assert len(found.games) == 2 and _kinds(found.sections[:2]) == {"konchinka", "king"}
    rendered = render_found(LIB, found, RU, is_group=False, bot_username="kbot")
    assert rendered.text.startswith("❓ <b>Про какую игру?</b>")
    assert "📖 <b>Кончинка: раздача и ход</b>" in rendered.text and "📖 <b>Кинг: " in rendered.text
    assert "💬 <b>Кончинка: первого сдающего выбирает жребий" in rendered.text
    assert rendered.markup is not None
    pressed = [RulesCb.unpack(row[0].callback_data or "").section for row in rendered.markup.inline_keyboard]
    assert pressed == list(found.sections[:2])


def test_a_named_line_has_no_capital_after_its_colon() -> None:
    found = lookup(LIB, "кто ходит первым")
    lines = re.sub(r"<[^>]+>", "", "\n".join(a.key for a in (found.answer, *found.also) if a is not None))
    assert lines
    text = render_found(LIB, found, RU, is_group=True, bot_username="kbot").text
    assert "Кончинка: первым ходит" in text and "Кончинка: Первым" not in text


def _never_the_other_game_alone(path: Path) -> list[str]:
    wrong = []
    for item in asked(read_questions(path), LIB):
        found = lookup(LIB, item.question.query, context(item.chat))
        if found.sections and not _kinds(shown(LIB, found)) & _kinds(item.expected):
            wrong.append(f"[{item.chat}] {item.question.query!r}: {list(shown(LIB, found))}")
    return wrong


@pytest.mark.parametrize(
    ("query", "chat", "other"),
    [
        ("а если валет не берёт всё, а только свою карту?", "konchinka", "king"),
        ("кто назначает козырь", "konchinka", "king"),
    ],
)
def test_in_a_games_chat_the_other_games_marks_without_its_name_get_both_answers_theirs_first(
    query: str, chat: str, other: str
) -> None:
    found = lookup(LIB, query, context(chat))
    assert found.games == (other, chat), (found.games, found.sections)
    assert _kinds(found.sections[:1]) == {other} and _kinds(found.sections[1:2]) == {chat}, found.sections
    alone = lookup(LIB, query, None)  # in private the marks decide the game as a name does
    assert alone.games == () and _kinds(alone.sections[:1]) == {other}, alone


def test_no_question_is_answered_with_the_other_games_section_alone() -> None:
    wrong = [
        miss for path in (ISSUE_FILE, SCORED_FILE, FOURTH_FILE) for miss in _never_the_other_game_alone(path)
    ]
    if TUNE_FILE.exists():
        wrong += _never_the_other_game_alone(TUNE_FILE)
    assert not wrong, "\n".join(wrong)


TUNE_SHARE = {"private": 0.94, "konchinka": 0.93, "king": 0.97}
"""What the tuning set reaches in each chat, a little under (see the report printed): in sample, no cross-validated
figure — the «asked» field holds its questions (bot/games/*/rules_asked.py, ``ASKED_SEEN``); see
:data:`CROSS_VALIDATED_SHARE` for the figure with them left out."""


@pytest.mark.skipif(not TUNE_FILE.exists(), reason="the tuning half is not here")
def test_the_tuning_half_scores_what_it_did(capsys: pytest.CaptureFixture[str]) -> None:
    scores = score(LIB, read_questions(TUNE_FILE))
    with capsys.disabled():
        print("\n" + report(scores))
    assert len(read_questions(TUNE_FILE)) >= 150
    low = {chat: f"{s.share:.1%}" for chat, s in scores.items() if s.share < TUNE_SHARE[chat]}
    assert not low, report(scores)


SCORED_SHARE = {"private": 0.93, "konchinka": 0.91, "king": 0.96}
"""What the third blind set reaches now, a little under (it scored 84.8 / 81.2 / 86.3 % when it was scored once,
held out: its header): in sample, no cross-validated figure — the «asked» field holds its questions and the
direct answers added in round r52n were written from its misses."""


CROSS_VALIDATED_SHARE = {
    TUNE_FILE.name: {"private": 0.94, "konchinka": 0.89, "king": 0.95},
    SCORED_FILE.name: {"private": 0.87, "konchinka": 0.83, "king": 0.86},
}
"""Each seen blind set scored with its own questions left out of the «asked» field (tests/bot/rules_crossval.py),
a little under what it reaches: the search's learning judged on questions it has not learnt. (The third set's
figure is still in sample for the direct answers written from its misses.)"""


@pytest.mark.parametrize("path", [TUNE_FILE, SCORED_FILE], ids=lambda p: p.name)
def test_each_blind_set_scores_with_its_own_questions_left_out(path: Path) -> None:
    questions = read_questions(path)
    scores = score(without(LIB, (q.query for q in questions)), questions)
    floors = CROSS_VALIDATED_SHARE[path.name]
    low = {chat: f"{s.share:.1%}" for chat, s in scores.items() if s.share < floors[chat]}
    assert not low, report(scores)


FOURTH_SHARE = {"private": 0.89, "konchinka": 0.78, "king": 0.89}
"""What the fourth blind set scored when it was scored once, held out (its header) — short of the issue's 95 %."""

FLOORS = {SCORED_FILE.name: SCORED_SHARE, FOURTH_FILE.name: FOURTH_SHARE}


@pytest.mark.parametrize("path", [SCORED_FILE, FOURTH_FILE], ids=lambda p: p.name)
def test_each_blind_set_scored_once_scores_no_less_than_its_floor(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = read_questions(path)
    scores = score(LIB, questions)
    with capsys.disabled():
        print("\n" + report(scores))
    assert len(questions) == 240
    low = {chat: f"{s.share:.1%}" for chat, s in scores.items() if s.share < FLOORS[path.name][chat]}
    assert not low, report(scores)
