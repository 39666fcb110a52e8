"""How often /rules finds the section people mean: the share of tests/bot/rules_queries.py answered first.

    .venv/bin/python scripts/rules_hit_rate.py              # this checkout's ranking
    .venv/bin/python scripts/rules_hit_rate.py /work/main   # another checkout's code, on the same queries

Prints the hit rate of the question set, of the group cases (a game in the chat), of the questions written blind
(tests/bot/rules_questions_blind.txt, each in its chat's game), and every miss.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def _load_queries() -> Any:
    spec = importlib.util.spec_from_file_location(
        "rules_queries", HERE / "tests" / "bot" / "rules_queries.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_blind() -> Any:
    spec = importlib.util.spec_from_file_location(
        "rules_queries_blind", HERE / "tests" / "bot" / "rules_queries_blind.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rules_queries_blind"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def _ranking() -> Callable[[str, str | None, str], str]:
    """The checkout's ranking as ``first(query, kind, variant) -> section id`` ("-" for nothing found)."""
    try:
        from bot.games import rules_library
        from bot.views.rules_lookup import find_sections
    except (
        ImportError
    ):  # a checkout from before the games' rules books (sections were one enum, kinds another)
        from bot.views import rules
        from bot.views.rules_words import GameKind

        def first_of_old(query: str, kind: str | None = None, variant: str = "") -> str:
            game = None if kind is None else GameKind(kind)
            found = rules.find_sections(query, game, variant=variant or None)
            return str(found[0].value) if found else "-"

        return first_of_old

    library = rules_library()

    def first(query: str, kind: str | None = None, variant: str = "") -> str:
        found = find_sections(library, query, kind, variant=variant or None)
        return found[0] if found else "-"

    return first


def main(argv: list[str]) -> int:
    code = Path(argv[0]).resolve() if argv else HERE
    sys.path.insert(0, str(code))
    first = _ranking()  # the checkout's code under test
    queries = _load_queries()

    print(f"code: {code}")
    misses: list[str] = []
    for query, expected in queries.ALL:
        got = first(query, None, "")
        if got != expected:
            misses.append(f"  {query!r}: expected {expected}, got {got}")
    total = len(queries.ALL)
    print(f"queries: {total - len(misses)}/{total} = {(total - len(misses)) / total:.1%} first")
    print("\n".join(misses))
    group_misses: list[str] = []
    for query, kind, variant, expected in queries.GROUP_CASES:
        got = first(query, kind, variant)
        if got != expected:
            group_misses.append(f"  {query!r} in {kind}/{variant or '-'}: expected {expected}, got {got}")
    total = len(queries.GROUP_CASES)
    print(
        f"group cases: {total - len(group_misses)}/{total} = {(total - len(group_misses)) / total:.1%} first"
    )
    print("\n".join(group_misses))
    blind = _load_blind().BLIND
    blind_misses: list[str] = []
    for question in blind:
        variant = "classic" if question.chat == "konchinka" else ""
        got = first(question.query, question.chat, variant)
        if got not in question.expected:
            where = question.chat or "any"
            blind_misses.append(
                f"  {question.query!r} in {where}: expected {'|'.join(question.expected)}, got {got}"
            )
    total = len(blind)
    print(
        f"written blind: {total - len(blind_misses)}/{total} = {(total - len(blind_misses)) / total:.1%} first"
    )
    print("\n".join(blind_misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
