"""Texts: both locales parse, hold the same keys, cover every key the code asks for, and format cleanly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fluent.syntax import ast
from fluent.syntax.visitor import Visitor

from bot.games import plugins, rules_library
from bot.i18n import LOCALES_DIR, Locale, ftl_files, locale_for, parsed, translator
from bot.model.answers import Answer
from bot.views.rules import GROUP_COMMANDS, PRIVATE_COMMANDS
from engine.core import CommonIllegal
from engine.king import KingIllegal
from engine.konchinka import KonchinkaIllegal

GRAMMAR_KEYS = {"card-instr"}
"""Keys whose wording needs different facts per language (Russian declines rank and suit, English names the card)."""
BOT_DIR = Path(__file__).resolve().parents[2] / "bot"
BOT_GAMES = {p.kind for p in plugins() if type(p).__module__.startswith("bot.games.")}
"""The games whose texts are in locales/ (a test's own game registers from elsewhere)."""


def _messages(locale: Locale) -> dict[str, ast.Message]:
    out: dict[str, ast.Message] = {}
    for path, resource in zip(ftl_files(locale), parsed(locale), strict=True):
        junk = [entry for entry in resource.body if isinstance(entry, ast.Junk)]
        assert not junk, f"{path}: {(junk[0].content or '')[:200]!r}"
        for entry in resource.body:
            if isinstance(entry, ast.Message):
                assert entry.id.name not in out, f"duplicate key {entry.id.name} in {locale}"
                out[entry.id.name] = entry
    return out


def _variables(message: ast.Message) -> set[str]:
    found: set[str] = set()

    class Collect(Visitor):
        def visit_VariableReference(self, node: ast.VariableReference) -> None:
            found.add(node.id.name)

    Collect().visit(message)
    return found


def _keys_used_in_code() -> set[str]:
    literal = re.compile(r"""\bt\(\s*["']([a-z0-9-]+)["']""")
    keys: set[str] = set()
    for path in BOT_DIR.rglob("*.py"):
        keys.update(k for k in literal.findall(path.read_text(encoding="utf-8")) if not k.endswith("-"))
    for book in rules_library().books:  # the texts each game's rules book names (the games in bot/games)
        if book.kind not in BOT_GAMES:
            continue
        keys.update(key for section in book.sections for key in section.text_keys)
        keys.update(f"rules-answer-{answer.key}" for answer in book.answers)
        keys.update(key for key in (book.options_title, book.help_line, f"cmd-{book.command}") if key)
    for reason in (*Answer, *CommonIllegal, *KonchinkaIllegal, *KingIllegal):
        keys.add("answer-" + reason.value.replace("_", "-"))
    keys.update(f"cmd-{name}" for name in (*PRIVATE_COMMANDS, *GROUP_COMMANDS))
    return keys


def test_locales_exist_and_parse_without_errors() -> None:
    for locale in Locale:
        assert ftl_files(locale), f"no .ftl files for {locale} under {LOCALES_DIR}"
        assert _messages(locale)


def test_both_locales_have_the_same_keys_and_variables() -> None:
    ru, en = _messages(Locale.RU), _messages(Locale.EN)
    assert set(ru) == set(en), f"only ru: {set(ru) - set(en)}; only en: {set(en) - set(ru)}"
    for key in ru:
        if key in GRAMMAR_KEYS:
            continue
        assert _variables(ru[key]) == _variables(en[key]), key


def test_every_key_the_code_uses_exists_in_both_locales() -> None:
    used = _keys_used_in_code()
    assert len(used) > 100
    for locale in Locale:
        missing = used - set(_messages(locale))
        assert not missing, f"{locale}: {sorted(missing)}"


def test_no_unicode_isolation_marks_and_args_are_filled() -> None:
    text = translator(Locale.RU).t("answer-not-your-turn", name="Аня")
    assert text == "Сейчас ходит Аня."
    assert "\u2068" not in text and "\u2069" not in text


def test_russian_plurals_and_english_fallback() -> None:
    ru = translator(Locale.RU)
    assert ru.t("lobby-need-more", need=1) == "Нужен ещё 1 игрок."
    assert ru.t("lobby-need-more", need=21) == "Нужен ещё 21 игрок."
    assert ru.t("lobby-need-more", need=3) == "Нужно ещё 3 игрока."
    assert ru.t("lobby-need-more", need=5) == "Нужно ещё 5 игроков."
    assert translator(Locale.EN).t("answer-stale") == "This move has already been made."
    assert ru.t("no-such-key") == "no-such-key"


@pytest.mark.parametrize(
    ("code", "locale"),
    [
        (None, Locale.RU),
        ("ru", Locale.RU),
        ("uk", Locale.RU),
        ("en", Locale.EN),
        ("en-GB", Locale.EN),
        ("EN", Locale.EN),
    ],
)
def test_locale_from_telegram_language_code(code: str | None, locale: Locale) -> None:
    assert locale_for(code) is locale
