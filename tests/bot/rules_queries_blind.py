"""The questions written blind: by a helper who had read neither the ranking code nor the project's own question
set (tests/bot/rules_queries.py), for issue 33. They are kept verbatim in rules_questions_blind.txt (its header
gives the format); this module only reads that file. Nothing in the ranking refers to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

BLIND_FILE: Final = Path(__file__).with_name("rules_questions_blind.txt")


@dataclass(frozen=True, slots=True)
class BlindQuestion:
    query: str
    chat: str | None
    """The game played in the chat ("konchinka", "king"), or None: no game in the chat."""
    expected: tuple[str, ...]
    """The sections that answer it: one, or one of each game for a question that fits both."""
    ambiguous: bool


def read_blind(path: Path = BLIND_FILE) -> tuple[BlindQuestion, ...]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        sections, chat, query = fields[0], fields[1], fields[2]
        ambiguous = len(fields) > 3 and fields[3].strip() == "AMBIGUOUS"
        expected = tuple(s.strip() for s in sections.split("|"))
        out.append(BlindQuestion(query, None if chat == "any" else chat, expected, ambiguous))
    return tuple(out)


BLIND: Final = read_blind()
