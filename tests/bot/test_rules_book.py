"""A game's rules book is all the rules views know of it: a third game's book, added beside the two real ones,
gets its navigation row, its place in the contents, the search and the chat's context, its direct answers, its
options block, its command in /help and in the menu — with no edit outside the book."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.callbacks import RulesCb
from bot.games import plugins, rules_library
from bot.games.king.sections import KingSection as G
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.i18n import Locale, Translator, translator
from bot.views.rules import GameContext, bot_commands, render_help, render_rules, render_rules_contents
from bot.views.rules_answers import AnswerContext, Args, DirectAnswer
from bot.views.rules_book import Options, RulesBook, RulesLibrary, RulesSection
from bot.views.rules_lookup import find_sections, lookup, render_inline, render_rules_answer
from bot.views.rules_search import Question
from bot.views.rules_words import HOW_MANY

RU = translator(Locale.RU)
REAL = rules_library()


def _toy_deck(question: Question, ctx: AnswerContext) -> Args | None:
    cards = ctx.option("cards", 2)
    return {"cards": cards if isinstance(cards, int) else 2}


def _toy_lines(options: Options, tr: Translator) -> list[str]:
    return [f"cards: {options.get('cards', 2)}"]


TOY = RulesBook(
    kind="toy",
    command="toy",
    sections=(
        RulesSection("t", "toy", "сброс; колода; очки; discard; deck; points"),
        RulesSection("t2", "toy-more", "двойной сброс; double discard", variant="double"),
    ),
    names=frozenset({"тойка", "toy"}),
    synonyms={"шмякнуть": "сброс"},
    answers=(DirectAnswer("toy-deck", ("t",), ("колода; deck", HOW_MANY), _toy_deck),),
    options_title="rules-game-options-toy",
    option_lines=_toy_lines,
    variant_option="mode",
    variant_words={"single": ("одиночный",), "double": ("двойной",)},
    help_line="help-moves-toy",
)
LIB = RulesLibrary([*REAL.books, TOY])


def test_the_bots_library_holds_every_game_in_menu_order() -> None:
    hosted = plugins()
    assert [book.kind for book in REAL.books] == [plugin.kind for plugin in hosted]
    assert [plugin.menu_order for plugin in hosted] == sorted(plugin.menu_order for plugin in hosted)
    kinds = [book.kind for book in REAL.books]
    assert kinds.index("konchinka") < kinds.index("king")
    assert REAL.first == REAL.books[0].sections[0]
    assert [s.id for s in REAL.sections] == [s.id for book in REAL.books for s in book.sections]
    assert section_ids_of("konchinka") == [*K] and section_ids_of("king") == [*G]


def section_ids_of(kind: str) -> list[str]:
    book = REAL.book(kind)
    assert book is not None, kind
    return [s.id for s in book.sections]


def test_a_third_game_gets_its_navigation_row_and_its_contents_line() -> None:
    rendered = render_rules(LIB, "t", RU, game_id="g9")
    assert rendered.markup is not None
    rows = [[RulesCb.unpack(b.callback_data or "") for b in row] for row in rendered.markup.inline_keyboard]
    ids = [[cb.section for cb in row] for row in rows]
    assert [s for row in ids for s in row] == [s.id for s in LIB.sections], "every section, game by game"
    by_game: dict[str, list[list[str]]] = {}
    for row in ids:
        (kind,) = {LIB.book_of(s).kind for s in row}  # a row holds one game's sections
        by_game.setdefault(kind, []).append(row)
    assert by_game["konchinka"] == [
        [K.BASICS, K.CAPTURES, K.POINTS, K.SCORING],
        [K.TALLY, K.EARLY_FINISH, K.OPTIONS],
    ]
    assert by_game["king"] == [[*G]]
    assert by_game["toy"] == [["t", "t2"]] and ids[-1] == ["t", "t2"]
    assert all(cb.game == "g9" and cb.page for row in rows for cb in row)
    contents = render_rules_contents(LIB, RU, bot_username="kbot", is_group=False, found_nothing=False).text
    assert (
        "<b>Кончинка:</b> Раздача и ход, Взятки" in contents
        and "<b>game-toy:</b> rules-nav-toy, " in contents
    )
    inline = render_inline(LIB, "", RU, "kbot")
    assert [r.id for r in inline] == ["ru-contents", *(f"ru-{s.id}" for s in LIB.sections)]


def test_its_command_is_in_help_and_in_the_group_menu() -> None:
    text = render_help(LIB, RU, "kbot").text
    names = [plugin.name(RU) for plugin in plugins()]
    assert {"Кончинка", "Кинг"} <= set(names)
    assert f"<b>{', '.join(names)} и game-toy</b> — карточные игры" in text
    commands = [book.command for book in REAL.books]
    assert ", ".join(f"/{c}" for c in commands) + " или /toy — собрать партию" in text
    assert text.rstrip().endswith("help-moves-toy")
    _, group = bot_commands(LIB, RU)
    assert [c.command for c in group][: len(commands) + 1] == [*commands, "toy"]


def test_its_words_find_its_sections_and_the_chats_game_decides() -> None:
    assert find_sections(LIB, "сброс")[0] == "t"
    assert find_sections(LIB, "шмякнуть")[0] == "t"  # its slang
    # a word two games use: the game in the chat decides, and a game named in the question beats it
    assert find_sections(LIB, "колода", "toy")[0] == "t"
    assert find_sections(LIB, "колода", "konchinka")[0] == K.BASICS
    assert find_sections(LIB, "колода тойки", "konchinka")[0] == "t"
    # its variants: the chat's variant decides, unless the question names the other one («в очковой …»)
    assert find_sections(LIB, "двойной сброс", "toy", variant="double")[0] == "t2"
    assert find_sections(LIB, "сброс", "toy", variant="single")[0] == "t"
    assert find_sections(LIB, "двойной сброс", "toy", variant="single")[0] == "t2"
    # the real games find what they found without it
    for query in ("ералаш", "прикончить", "валет", "козырь"):
        assert find_sections(LIB, query)[:1] == find_sections(REAL, query)[:1], query


def test_its_direct_answers_and_its_options() -> None:
    game = GameContext("toy", {"cards": 3}, "g9", turn_seconds=30)
    found = lookup(LIB, "сколько карт в колоде", game)
    assert found.answer is not None and found.answer.key == "toy-deck" and found.answer.args == {"cards": 3}
    assert found.sections[0] == "t"
    text = render_rules_answer(LIB, found.sections, RU, is_group=True, bot_username="kbot", game=game).text
    assert text.endswith("rules-game-options-toy\n• cards: 3\n• Время на ход: 30 с")
    # another game's table: that game's answer, and no toy options under its section
    king = lookup(LIB, "сколько карт в колоде", GameContext("king", {}))
    assert king.answer is not None and king.answer.key == "king-deck"
    other = render_rules(LIB, G.BASICS, RU, game=game).text
    assert "rules-game-options-toy" not in other


def test_ids_are_short_ascii_and_unique_across_games() -> None:
    clash = dataclasses.replace(TOY, sections=(RulesSection(K.BASICS, "toy", "сброс"),))
    with pytest.raises(ValueError, match="two rules sections"):
        RulesLibrary([*REAL.books, clash])
    for bad in ("", "т", "toolongid", "a:b"):
        with pytest.raises(ValueError, match="short ASCII"):
            RulesLibrary([dataclasses.replace(TOY, sections=(RulesSection(bad, "toy", "сброс"),))])
    with pytest.raises(ValueError, match="need a section"):
        RulesLibrary([dataclasses.replace(TOY, sections=())])


def test_a_group_answer_links_the_section_by_its_id() -> None:
    rendered = render_rules_answer(LIB, ["t2"], RU, is_group=True, bot_username="kbot")
    assert rendered.markup is not None
    assert rendered.markup.inline_keyboard[-1][0].url == "https://t.me/kbot?start=r_t2"
    assert re.sub(r"<[^>]+>", "", rendered.text).startswith("📖 rules-title-toy-more")
