"""The worked examples under the rules: what each claims is what the engine does, and the page shows it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import Locale, translator
from bot.views.rules import render_rules
from bot.views.rules_examples import (
    EXAMPLES,
    CaptureExample,
    Example,
    FinishExample,
    ScoreExample,
    TrickExample,
    engine_facts,
    example_text,
)
from engine.king import Contract
from engine.konchinka import Variant

RU = translator(Locale.RU)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{type(e).__name__}-{e.section}")
def test_the_engine_agrees_with_every_example(example: Example) -> None:
    assert engine_facts(example) == example.claim


@pytest.mark.parametrize("locale", list(Locale))
def test_every_example_is_shown_under_its_section(locale: Locale) -> None:
    tr = translator(locale)
    for example in EXAMPLES:
        assert example_text(example, tr) in render_rules(example.section, tr).text


def test_the_text_shows_the_engine_answer() -> None:
    eight = EXAMPLES[0]
    assert isinstance(eight, CaptureExample)
    assert example_text(eight, RU) == (
        "На столе 3♠ 5♥ 8♦ Д♣. Карта 8♣ может взять 3♠ + 5♥ или 8♦ — что-то одно."
    )
    score = next(e for e in EXAMPLES if isinstance(e, ScoreExample))
    assert example_text(score, RU).endswith("Первый получает 3 очка, второй — 2 очка.")
    finish = [e for e in EXAMPLES if isinstance(e, FinishExample)]
    assert example_text(finish[0], RU).endswith("итог — 15, так что прикончить можно.")
    assert "прикончить нельзя" in example_text(finish[1], RU)
    eralash = next(e for e in EXAMPLES if isinstance(e, TrickExample) and e.contract is Contract.ERALASH)
    assert example_text(eralash, RU).endswith("Взятку берёт Д♠; в раздаче «ералаш» это 36 штрафных очков.")


def test_a_different_position_gives_a_different_answer() -> None:
    """The facts come from the engine, not from the claim: change the position and the answer follows."""
    eight = EXAMPLES[0]
    assert isinstance(eight, CaptureExample)
    moved = dataclasses.replace(eight, table="3s 4h 8d Qc")
    assert engine_facts(moved) == ("8d",)
    assert "может взять только 8♦" in example_text(moved, RU)
    points_king = next(e for e in EXAMPLES if isinstance(e, CaptureExample) and e.variant is Variant.POINTS)
    assert points_king.card == "Kc"
    assert engine_facts(dataclasses.replace(points_king, variant=Variant.CLASSIC)) == ()  # no sums for a king
