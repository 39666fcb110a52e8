"""Issue 33: the game a rules question is about. The questions written blind (tests/bot/rules_questions_blind.txt,
by someone who had read neither the ranking nor the project's own set) find their section as often as asked; no
question of any set is answered with the other game's section or the other game's one-line answer alone; a
question that fits both games gets both games' lines; the words only one game has decide the game; numbers are
cards or totals by their context; the players' slang finds its section.

Since issue 52 these questions are also what the search learns from (the «asked» field,
``bot/games/<game>/rules_asked.py``): the shares here check that it still fits them, not that it generalises —
tests/bot/rules_scoring.py on the blind2 files measures that."""

from __future__ import annotations

import re

import pytest

from bot.games import rules_library
from bot.games.king.sections import KingSection as G
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.i18n import Locale, translator
from bot.views.rules import GameContext
from bot.views.rules_lookup import Lookup, answer_lines, find_sections, lookup, render_rules_answer
from engine.king.rules import TRICK_PENALTY, Contract
from tests.bot.rules_queries import ALL, GROUP_CASES
from tests.bot.rules_queries_blind import BLIND, BlindQuestion

LIB = rules_library()
RU = translator(Locale.RU)
BLIND_SHARE = 0.92
WHOLE_SHARE = 0.95


def _context(chat: str | None, variant: str = "classic") -> GameContext | None:
    if chat is None:
        return None
    return GameContext(chat, {"variant": variant} if chat == "konchinka" else {})


def _first(question: BlindQuestion) -> str | None:
    found = lookup(LIB, question.query, _context(question.chat)).sections
    return found[0] if found else None


def _game(section: str) -> str:
    return LIB.book_of(section).kind


def test_the_blind_questions_are_what_the_issue_asks_for() -> None:
    assert len(BLIND) >= 80
    assert {q.chat for q in BLIND} == {None, "konchinka", "king"}
    assert {_game(s) for q in BLIND for s in q.expected} == {"konchinka", "king"}
    assert all(s in {section.id for section in LIB.sections} for q in BLIND for s in q.expected)


def test_the_blind_questions_find_their_section() -> None:
    misses = [
        f"{q.query!r} in {q.chat}: {_first(q)}, not {q.expected}"
        for q in BLIND
        if _first(q) not in q.expected
    ]
    assert 1 - len(misses) / len(BLIND) >= BLIND_SHARE, "\n".join(misses)
    old = sum(1 for query, expected in ALL if next(iter(find_sections(LIB, query)), None) == expected)
    whole = (old + len(BLIND) - len(misses)) / (len(ALL) + len(BLIND))
    assert whole >= WHOLE_SHARE, f"{whole:.1%}"


def _cases() -> list[tuple[str, str | None, str, tuple[str, ...]]]:
    blind = [
        (q.query, q.chat, "classic" if q.chat == "konchinka" else "", q.expected)
        for q in BLIND
        if not q.ambiguous
    ]
    return [
        *((query, None, "", (expected,)) for query, expected in ALL),
        *((query, kind, variant, (expected,)) for query, kind, variant, expected in GROUP_CASES),
        *blind,
    ]


def test_no_question_is_answered_with_the_other_games_section_or_line() -> None:
    wrong = []
    for query, chat, variant, expected in _cases():
        found = lookup(LIB, query, _context(chat, variant))
        games = {_game(s) for s in expected}
        offered = found.sections[: max(1, len(found.games))]  # the best section, or each game's
        if found.sections and not {_game(s) for s in offered} & games:
            wrong.append(f"{query!r} in {chat}: section {found.sections[0]}")
        answers = [a for a in (found.answer, *found.also) if a is not None]
        if answers and not any(a.game in games for a in answers):
            wrong.append(f"{query!r} in {chat}: only {[a.key for a in answers]}")
    assert not wrong, "\n".join(wrong)


def _lines(found: Lookup) -> list[str]:
    return re.sub(r"<[^>]+>", "", answer_lines(found, RU)).splitlines()


def test_a_question_fitting_both_games_gets_both_games_lines() -> None:
    deck = lookup(LIB, "сколько карт в колоде")
    assert _lines(deck) == [
        "💬 Кончинка: колода — 52 карты, без джокеров.",
        "💬 Кинг: колода — 32 карты: от семёрки до туза в каждой масти.",
    ]
    assert {_game(s) for s in deck.sections[:2]} == {"konchinka", "king"}
    two = lookup(LIB, "можно играть вдвоём?")
    assert sorted(_lines(two)) == [
        "💬 Кинг: играют ровно 4 игрока; пустые места занимают боты-игроки.",
        "💬 Кончинка: за столом 2, 3 или 4 игрока.",
    ]
    rendered = render_rules_answer(
        LIB, two.sections, RU, is_group=False, bot_username="kbot", answer=two.answer, also=two.also
    ).text
    assert rendered.count("💬") == 2
    # in a game's chat, or asked with the game's name: that game's line alone, without its name
    for found in (
        lookup(LIB, "можно играть вдвоём?", _context("king")),
        lookup(LIB, "в кинге можно вдвоём?"),
    ):
        assert _lines(found) == ["💬 Играют ровно 4 игрока; пустые места занимают боты-игроки."]
    assert _lines(lookup(LIB, "можно играть вдвоём?", _context("konchinka"))) == [
        "💬 За столом 2, 3 или 4 игрока."
    ]


@pytest.mark.parametrize(
    ("query", "chat", "game"),
    [
        ("есть ли козыри", None, "king"),  # only Кинг has trumps
        ("с червей заходить можно?", None, "king"),
        ("сколько треф надо чтобы прикончить", None, "konchinka"),
        ("кому достаётся стопка", None, "konchinka"),
        ("козырь есть?", "konchinka", "konchinka"),  # the chat's game: «козырей нет»
        ("ералаш", "konchinka", "king"),  # a word as sure as the game's name beats the chat's game
        ("прикончить", "king", "konchinka"),
        ("штрафы в кинге", "konchinka", "king"),
    ],
)
def test_words_only_one_game_has_decide_the_game(query: str, chat: str | None, game: str) -> None:
    found = lookup(LIB, query, _context(chat))
    assert found.sections and {_game(s) for s in found.sections} == {game}, found.sections


def test_numbers_are_cards_beside_a_capture_and_totals_elsewhere() -> None:
    assert find_sections(LIB, "десяткой можно взять 3+3+4?")[0] == K.CAPTURES
    assert find_sections(LIB, "восьмеркой взять 1 2 5", "konchinka", variant="classic")[0] == K.CAPTURES
    assert find_sections(LIB, "играем до 15 или до 21?")[0] in (K.TALLY, K.OPTIONS)
    assert find_sections(LIB, "сколько нужно 27 карт чтобы прикончить")[0] == K.EARLY_FINISH
    assert find_sections(LIB, "взял 10 бубей, почему кнопка не появилась", "konchinka")[0] == K.EARLY_FINISH


def test_a_capture_of_several_cards_is_not_answered_with_a_cards_value() -> None:
    several = lookup(LIB, "можно десяткой взять сразу две карты?")
    assert several.sections[0] == K.CAPTURES and several.answer is None
    one = lookup(LIB, "сколько стоит десятка", _context("konchinka"))
    assert one.answer is not None and one.answer.key == "card-value"


def test_slang_finds_its_section() -> None:
    assert find_sections(LIB, "палочки как писать")[0] == K.TALLY
    assert find_sections(LIB, "минусовые раздачи какие", "king")[0] == G.NEGATIVE
    assert find_sections(LIB, "плюсовые как играются", "king")[0] == G.TRUMP
    last = lookup(LIB, "скока стоят взятки на последних")
    assert last.sections[0] == G.SCORING and last.answer is not None and last.answer.args["item"] == "last2"
    assert last.answer.args["points"] == TRICK_PENALTY[Contract.NO_LAST_TWO][-1]
    assert lookup(LIB, "что значит сумма ноль", _context("king")).sections[0] == G.SCORING
    assert lookup(LIB, "как брать по сумме").sections[0] == K.CAPTURES
