"""How often /rules finds the section people mean: the share of tests/bot/rules_queries.py answered first.

    .venv/bin/python scripts/rules_hit_rate.py              # this checkout's ranking
    .venv/bin/python scripts/rules_hit_rate.py /work/main   # another checkout's code, on the same queries

Prints the hit rate of the question set, of the group cases (a game in the chat), and every miss.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
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


def main(argv: list[str]) -> int:
    code = Path(argv[0]).resolve() if argv else HERE
    sys.path.insert(0, str(code))
    from bot.views import rules  # the checkout's code under test

    queries = _load_queries()
    takes_variant = "variant" in inspect.signature(rules.find_sections).parameters

    def first(query: str, kind: Any = None, variant: str = "") -> str:
        if takes_variant:
            found = rules.find_sections(query, kind, variant=variant or None)
        else:
            found = rules.find_sections(query, kind)
        return found[0].name if found else "-"

    print(f"code: {code}")
    misses: list[str] = []
    for query, expected in queries.ALL:
        got = first(query)
        if got != expected.name:
            misses.append(f"  {query!r}: expected {expected.name}, got {got}")
    total = len(queries.ALL)
    print(f"queries: {total - len(misses)}/{total} = {(total - len(misses)) / total:.1%} first")
    print("\n".join(misses))
    group_misses: list[str] = []
    for query, kind, variant, expected in queries.GROUP_CASES:
        got = first(query, kind, variant)
        if got != expected.name:
            group_misses.append(
                f"  {query!r} in {kind.value}/{variant or '-'}: expected {expected.name}, got {got}"
            )
    total = len(queries.GROUP_CASES)
    print(
        f"group cases: {total - len(group_misses)}/{total} = {(total - len(group_misses)) / total:.1%} first"
    )
    print("\n".join(group_misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
