"""Russian numbers agree with their nouns: every message where a number meets a noun chooses the noun's form by
Fluent's plural categories, and renders the right form for 0, 1, 2, 5, 11, 21 and 22.

The messages are found in the .ftl files, not listed here: a new message that puts a number before a noun
without a plural choice fails the first test; one whose forms are wrong fails the second.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest
from fluent.syntax import ast

from bot.i18n import Locale, parsed, translator

RU = translator(Locale.RU)
NUMBERS = (0, 1, 2, 5, 11, 21, 22)
CATEGORY_KEYS = {"zero", "one", "two", "few", "many", "other"}

NOT_COUNTS = {"action", "bot", "by", "card", "contract", "name", "payer", "taken", "deal", "total"}
"""Variables that are not counts although a word follows them: names, cards, a deal's number («Раздача 3 окончена»)."""
NOT_NOUNS: dict[tuple[str, str], str] = {
    ("lobby-turn-time", "seconds"): "«с», an abbreviation, does not decline",
    ("time-limit", "seconds"): "«с», an abbreviation",
    ("rules-answer-konchinka-players", "fewer"): "«2, 3 или 4 игрока»: a list, the noun follows $max",
    ("top-line", "shown"): "«−21 очко»: $shown is $points with its sign; the form follows $points",
    ("hint-gain", "gain"): "a decimal («0,4», «1,5»): after a fraction the noun is always «очка»",
    ("review-better", "gain"): "a decimal: always «очка»",
    ("review-better-bare", "gain"): "a decimal: always «очка»",
    ("rules-answer-king-deal-points", "trick"): "«по 3 за взятку»: a preposition follows, not a noun",
    ("top-season-line", "gained"): "«+45 за 3 партии»: rating points gained, a preposition follows",
    ("page-rating-ranked", "place"): "«место 3 из 57»: a place, and a preposition follows",
}

FORMS: tuple[tuple[str, str, str], ...] = (
    ("очко", "очка", "очков"),
    ("раз", "раза", "раз"),
    ("круг", "круга", "кругов"),
    ("очка", "очков", "очков"),  # genitive: «до 21 очка», «до 15 очков»
    ("штрафное", "штрафных", "штрафных"),
    ("карта", "карты", "карт"),
    ("карту", "карты", "карт"),  # accusative: «4 карты на стол», «21 карту»
    ("карте", "карты", "карт"),  # «по 1 карте», «по 2 карты», «по 5 карт»
    ("игрок", "игрока", "игроков"),
    ("игрока", "игроков", "игроков"),  # genitive: «до 21 игрока»
    ("взятка", "взятки", "взяток"),
    ("взятку", "взятки", "взяток"),  # accusative: «за 1 взятку», «за 21 взятку»
    ("раздача", "раздачи", "раздач"),
    ("трефа", "трефы", "треф"),
    ("трефу", "трефы", "треф"),  # accusative: «берёт 2 трефы», «21 трефу»
    ("соперник", "соперника", "соперников"),
    ("бот", "бота", "ботов"),
    ("победа", "победы", "побед"),
    ("партия", "партии", "партий"),
    ("партию", "партии", "партий"),  # accusative: «за 1 партию», «за 3 партии»
    ("секунда", "секунды", "секунд"),
    ("день", "дня", "дней"),
    ("ход", "хода", "ходов"),
)
"""The forms a noun (or its adjective) takes after 1 and 21, after 2 and 22, after 0, 5 and 11."""


def category(n: int) -> int:
    """Russian plural category: 0 one, 1 few, 2 many."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def _messages() -> dict[str, ast.Message]:
    out: dict[str, ast.Message] = {}
    for resource in parsed(Locale.RU):
        for entry in resource.body:
            if isinstance(entry, ast.Message) and entry.value is not None:
                out[entry.id.name] = entry
    return out


MESSAGES = _messages()


def _selects(pattern: ast.Pattern, seen: set[str] | None = None) -> Iterator[ast.SelectExpression]:
    """Every select expression of a pattern, also inside variants and in the messages it refers to."""
    seen = set() if seen is None else seen
    for element in pattern.elements:
        if not isinstance(element, ast.Placeable):
            continue
        expression = element.expression
        if isinstance(expression, ast.SelectExpression):
            yield expression
            for variant in expression.variants:
                yield from _selects(variant.value, seen)
        elif isinstance(expression, ast.MessageReference) and expression.id.name not in seen:
            seen.add(expression.id.name)
            referred = MESSAGES[expression.id.name].value
            assert referred is not None
            yield from _selects(referred, seen)


def _is_plural(select: ast.SelectExpression) -> bool:
    return any(
        isinstance(v.key, ast.NumberLiteral)
        or (isinstance(v.key, ast.Identifier) and v.key.name in CATEGORY_KEYS)
        for v in select.variants
    ) and all(isinstance(v.key, ast.NumberLiteral) or v.key.name in CATEGORY_KEYS for v in select.variants)


def _numbers_before_words(
    pattern: ast.Pattern, plural: frozenset[str] = frozenset()
) -> Iterator[tuple[str, bool]]:
    """(variable, whether a plural choice on it encloses the spot) for each ``{ $x } слово`` of a pattern."""
    elements = pattern.elements
    for i, element in enumerate(elements):
        if not isinstance(element, ast.Placeable):
            continue
        expression = element.expression
        if isinstance(expression, ast.VariableReference):
            after = elements[i + 1] if i + 1 < len(elements) else None
            if isinstance(after, ast.TextElement) and re.match(r" [а-яё]", after.value, re.IGNORECASE):
                yield expression.id.name, expression.id.name in plural
        elif isinstance(expression, ast.SelectExpression):
            selector = expression.selector
            inner = plural
            if isinstance(selector, ast.VariableReference) and _is_plural(expression):
                inner = plural | {selector.id.name}
            for variant in expression.variants:
                yield from _numbers_before_words(variant.value, inner)


def test_every_number_before_a_noun_chooses_the_nouns_form() -> None:
    unplural = [
        (key, name)
        for key, message in MESSAGES.items()
        for name, covered in _numbers_before_words(message.value)  # type: ignore[arg-type]
        if not covered and name not in NOT_COUNTS and (key, name) not in NOT_NOUNS
    ]
    assert not unplural, unplural


def _renders() -> Iterator[tuple[str, dict[int, list[str]]]]:
    """Per message with a count (and per choice of its other selectors): the words after each number (not after
    a number the message spells out on its own, as «[1] Нужен хотя бы один игрок.»)."""
    for key, message in MESSAGES.items():
        assert message.value is not None
        selects = list(_selects(message.value))
        counts = {
            s.selector.id.name
            for s in selects
            if isinstance(s.selector, ast.VariableReference) and _is_plural(s)
        }
        counts |= {
            name
            for name, _ in _numbers_before_words(message.value)
            if name not in NOT_COUNTS and (key, name) not in NOT_NOUNS
        }
        if not counts:
            continue
        spelt = {
            int(v.key.value)
            for s in selects
            if isinstance(s.selector, ast.VariableReference) and s.selector.id.name in counts
            for v in s.variants
            if isinstance(v.key, ast.NumberLiteral)
        }
        choices: dict[str, list[str]] = {}
        for s in selects:
            if isinstance(s.selector, ast.VariableReference) and s.selector.id.name not in counts:
                keys = [v.key.name if isinstance(v.key, ast.Identifier) else v.key.value for v in s.variants]
                choices.setdefault(s.selector.id.name, [])
                choices[s.selector.id.name] += [k for k in keys if k not in choices[s.selector.id.name]]
        names = sorted(choices)
        for combination in itertools.product(*(choices[n] for n in names)):
            fixed = dict(zip(names, combination, strict=True))
            words: dict[int, list[str]] = {}
            for n in NUMBERS:
                if n in spelt:
                    continue
                text = RU.t(key, **{c: n for c in counts}, **fixed)
                words[n] = re.findall(rf"(?<![\d/+−-]){n} ([а-яё]{{2,}})", text)
            yield f"{key} {fixed}", words


RENDERS = [(label, words) for label, words in _renders() if any(words.values())]
"""The renders that print a count before a noun (other choices of a message have nothing to check)."""


def test_the_messages_with_counts_are_found() -> None:
    found = {label.split(" ")[0] for label, _ in RENDERS}
    for key in ("lobby-need-more", "king-stopped-early", "move-leftovers-nobody", "rules-answer-king-value"):
        assert key in found
    assert len(found) >= 30


@pytest.mark.parametrize(("label", "words"), RENDERS, ids=[label for label, _ in RENDERS])
def test_the_noun_agrees_with_0_1_2_5_11_21_22(label: str, words: dict[int, list[str]]) -> None:
    lengths = {n: len(w) for n, w in words.items()}
    assert len(set(lengths.values())) == 1, lengths
    for position in range(next(iter(lengths.values()))):
        by_category: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
        for n, found in words.items():
            by_category[category(n)].add(found[position])
        assert all(len(forms) <= 1 for forms in by_category.values()), (
            by_category
        )  # 1 = 21, 2 = 22, 0 = 5 = 11
        triple = tuple(next(iter(by_category[c]), "") for c in (0, 1, 2))
        assert any(all(t in ("", f) for t, f in zip(triple, forms, strict=True)) for forms in FORMS), (
            f"{label}: {triple} is not a noun's one/few/many"
        )


def test_the_forms_read_as_russian() -> None:
    assert RU.t("lobby-need-more", need=21) == "Нужен ещё 21 игрок."
    assert RU.t("lobby-need-more", need=22) == "Нужно ещё 22 игрока."
    assert RU.t("king-stopped-early", played=1, total=8).startswith("⏭ Сыграна 1 взятка из 8")
    assert RU.t("king-stopped-early", played=5, total=8).startswith("⏭ Сыграно 5 взяток из 8")
    assert RU.t("move-leftovers-nobody", count=3) == "Остаток стола — 3 карты — не достаётся никому"
    assert RU.t("table-konchinki", count=1, cards="10♦") == "кончинка: 10♦"
    assert RU.t("table-konchinki", count=2, cards="2♣ 10♦") == "кончинки: 2♣ 10♦"
