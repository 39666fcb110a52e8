"""The worked examples under the rules: what each claims is what the engine does, and the page shows it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.games import rules_library
from bot.games.king import rules_examples as king
from bot.games.konchinka import rules_examples as konchinka
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.i18n import Locale, translator
from bot.views.rules import render_rules
from bot.views.rules_book import WorkedExample
from engine.king import Contract
from engine.konchinka import Variant

RU = translator(Locale.RU)
LIB = rules_library()
EXAMPLES = [(section.id, example) for section in LIB.sections for example in section.examples]


def test_every_game_shows_its_examples() -> None:
    assert len(EXAMPLES) == 18
    assert {LIB.book_of(section).kind for section, _ in EXAMPLES} == {"konchinka", "king"}


@pytest.mark.parametrize(("section", "example"), EXAMPLES, ids=lambda e: e if isinstance(e, str) else "")
def test_the_engine_agrees_with_every_example(section: str, example: WorkedExample) -> None:
    assert example.facts() == example.claim


@pytest.mark.parametrize("locale", list(Locale))
def test_every_example_is_shown_under_its_section(locale: Locale) -> None:
    tr = translator(locale)
    for section, example in EXAMPLES:
        assert example.text(tr) in render_rules(LIB, section, tr).text


def test_the_text_shows_the_engine_answer() -> None:
    eight = konchinka.EXAMPLES[K.CAPTURES][0]
    assert isinstance(eight, konchinka.CaptureExample)
    assert eight.text(RU) == "На столе 3♠ 5♥ 8♦ Д♣. Карта 8♣ может взять 3♠ + 5♥ или 8♦ — что-то одно."
    score = konchinka.EXAMPLES[K.SCORING][0]
    assert score.text(RU).endswith("Первый получает 3 очка, второй — 2 очка.")
    finish = [e for e in konchinka.EXAMPLES[K.EARLY_FINISH] if isinstance(e, konchinka.FinishExample)]
    assert finish[0].text(RU).endswith("итог — 15, так что прикончить можно.")
    assert "прикончить нельзя" in finish[1].text(RU)
    eralash = next(
        e
        for examples in king.EXAMPLES.values()
        for e in examples
        if isinstance(e, king.TrickExample) and e.contract is Contract.ERALASH
    )
    assert eralash.text(RU).endswith("Взятку берёт Д♠; в раздаче «ералаш» это 36 штрафных очков.")


def test_a_different_position_gives_a_different_answer() -> None:
    """The facts come from the engine, not from the claim: change the position and the answer follows."""
    eight = konchinka.EXAMPLES[K.CAPTURES][0]
    assert isinstance(eight, konchinka.CaptureExample)
    moved = dataclasses.replace(eight, table="3s 4h 8d Qc")
    assert moved.facts() == ("8d",)
    assert "может взять только 8♦" in moved.text(RU)
    points_king = konchinka.EXAMPLES[K.POINTS][0]
    assert isinstance(points_king, konchinka.CaptureExample) and points_king.variant is Variant.POINTS
    assert points_king.card == "Kc"
    assert dataclasses.replace(points_king, variant=Variant.CLASSIC).facts() == ()  # no sums for a king
