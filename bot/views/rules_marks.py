"""Which game a rules question is about, from its words: a game's **marks** — the words (or two-word phrases)
only that game has, each with how surely it tells the game (``RulesBook.marks``).

Marks adding up to :data:`NAMING_MARK` for one game («ералаш», «прикончить») name it as its name does: the
question is about that game even in the other game's chat. With no game in the chat, marks adding up to
:data:`LEANING_MARK` for one game, and that much more than for the other («козырь», «черви» against «стопка»,
«со стола»), make it the game asked about. A word counts by its own forms, not by the words the rules use for it
(«ходить» is no «заходить»); a misspelt word by the words it is near.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final, TypeAlias

from bot.views.rules_search import Question, RulesIndex, is_dictionary_word, phrases_of, words_of

NAMING_MARK: Final = 2.0
"""A game's marks adding up to this name the game as its name does (a query with the other game's marks too
names neither)."""
LEANING_MARK: Final = 1.0
"""With no game in the chat, a game whose marks add up to this, and to this much more than the other's, is the
game asked about."""


Forms: TypeAlias = frozenset[str]


def _mark(entry: str, weight: float) -> tuple[Forms, str, tuple[Forms, ...], float]:
    """A game's mark as the query is matched against it: one word's forms; a phrase of lemmas («не брать»); or,
    for a phrase a stop-word is part of («по последней»), its words' forms in a row, as typed."""
    words = words_of(entry)
    if len(words) == 1:
        return frozenset({words[0].raw, *words[0].lemmas}), "", (), weight
    phrases = phrases_of(words)
    if len(words) == 2 and phrases:
        return frozenset(), phrases[0], (), weight
    return frozenset(), "", tuple(frozenset({w.raw, *w.lemmas}) for w in words), weight


def _holds(question: Question, sequence: tuple[Forms, ...]) -> bool:
    """Whether the question's words hold ``sequence`` in a row (each word in one of its forms)."""
    words = [frozenset({w.raw, *w.lemmas}) for w in question.words]
    n = len(sequence)
    return any(
        all(want & have for want, have in zip(sequence, words[i : i + n], strict=True))
        for i in range(len(words) - n + 1)
    )


class GameMarks:
    """Every game's marks, ready to weigh a question."""

    def __init__(self, marks: Mapping[str, Mapping[str, float]]) -> None:
        self._marks: dict[str, tuple[tuple[Forms, str, tuple[Forms, ...], float], ...]] = {
            kind: tuple(_mark(entry, weight) for entry, weight in game_marks.items())
            for kind, game_marks in marks.items()
        }
        """Per game: its marks as (the forms of a one-word mark, or none; the phrase, or ""; the words in a row
        for a phrase with a stop-word, or none; the weight)."""

    def scores(self, index: RulesIndex, question: Question) -> dict[str, float]:
        """How strongly the query's words say each game: the sum of the weights of the game's marks it holds
        (a word counts for one mark of a game at most: its best)."""
        phrases = {*question.phrases, *question.gap_phrases}
        # a word's own forms — not the words the rules use for it («ходить» is no «заходить»); a misspelt word
        # stands for the words it is near
        forms = [
            frozenset({w.raw, *w.lemmas, *(() if is_dictionary_word(w.raw) else index.expansions(w))})
            for w in question.words
            if not w.is_stop
        ]
        scores: dict[str, float] = {}
        for kind, marks in self._marks.items():
            best: dict[int | str, float] = {}  # per word of the query (or per phrase): its best mark
            for j, (lemmas, phrase, sequence, weight) in enumerate(marks):
                if sequence:
                    if _holds(question, sequence):
                        best[f"#{j}"] = weight
                    continue
                if phrase:
                    if phrase in phrases:
                        best[phrase] = max(best.get(phrase, 0.0), weight)
                    continue
                for i, own in enumerate(forms):
                    if lemmas & own:
                        best[i] = max(best.get(i, 0.0), weight)
            scores[kind] = sum(best.values())
        return scores

    def resolve(self, index: RulesIndex, question: Question) -> Question:
        """``question`` with the game its marks say as surely as a name and the game it leans to."""
        named, marked = question.named, None
        scores = self.scores(index, question)
        if named is None:
            naming = [k for k, s in scores.items() if s >= NAMING_MARK]
            others = [s for k, s in scores.items() if k not in naming]
            if len(naming) == 1 and all(s < LEANING_MARK for s in others):
                marked = naming[0]
        lean = None
        if named is None and marked is None and scores:
            ranked = sorted(scores.items(), key=lambda item: -item[1])
            top, score = ranked[0]
            second = ranked[1][1] if len(ranked) > 1 else 0.0
            if score >= LEANING_MARK and score - second >= LEANING_MARK:
                lean = top
        return dataclasses.replace(question, marked=marked, lean=lean)
