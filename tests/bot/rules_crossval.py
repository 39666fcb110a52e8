"""Cross-validating the rules lookup on the blind sets it has learnt from (issue 52): the «asked» field holds the
questions of every seen set (bot/games/*/rules_asked.py), so a set scored on the shipped index is scored on
questions it was trained on. Here each set is scored on an index whose «asked» field lacks that set's questions:
the figure that says how the lookup does on questions it has not seen.

    .venv/bin/python -m tests.bot.rules_crossval [--half even|odd] [file …]   # as rules_scoring, held out
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterable, Sequence

from bot.games import rules_library
from bot.views.rules_book import RulesLibrary
from tests.bot.rules_scoring import SCORED_FILE, TUNE_FILE, run


def _same(text: str) -> str:
    return " ".join(text.lower().replace("ё", "е").split())


def without(library: RulesLibrary, questions: Iterable[str]) -> RulesLibrary:
    """``library`` with ``questions`` (as typed, in any case) left out of every section's «asked» field."""
    left_out = {_same(q) for q in questions}
    books = []
    for book in library.books:
        sections = tuple(
            dataclasses.replace(s, asked=tuple(q for q in s.asked if _same(q) not in left_out))
            for s in book.sections
        )
        books.append(dataclasses.replace(book, sections=sections))
    return RulesLibrary(books)


def main(args: Sequence[str]) -> None:
    run(
        args,
        (TUNE_FILE, SCORED_FILE),
        lambda questions: without(rules_library(), (q.query for q in questions)),
        ", its questions left out of the «asked» field",
    )


if __name__ == "__main__":
    main(sys.argv[1:])
