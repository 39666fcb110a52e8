"""Direct answers: where a question has a one-line answer — what a card is worth, how many cards are dealt, what
a loser pays — that line comes first, then the section.

Each game's rules book holds its :class:`DirectAnswer` table: the words a question must hold (a word of each
group), the sections that explain the answer, and the facts the line states, taken from the engine (card values,
penalties) and from the game being played (its target, its settlement, its time per move). This module picks
the answer; it knows no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from bot.views.rules_search import Question
from engine.core import JSONValue

Args: TypeAlias = dict[str, str | int]


@dataclass(frozen=True, slots=True)
class AnswerContext:
    """What is known of the game asked about: its kind, its variant (None: not known, or a game without
    variants), its options (None: not known) and its time per move (None: not known)."""

    kind: str
    variant: str | None = None
    options: Mapping[str, JSONValue] | None = None
    turn_seconds: int | None = None

    def option(self, name: str, default: JSONValue) -> JSONValue:
        value = (self.options or {}).get(name, default)
        return default if value is None else value

    @property
    def known(self) -> str:
        """«yes» when the answer may speak of this very party (a game is being played), else «no»."""
        return "yes" if self.options is not None else "no"


Facts: TypeAlias = Callable[[Question, AnswerContext], Args | None]


@dataclass(frozen=True, slots=True)
class DirectAnswer:
    key: str
    """The line's message: ``rules-answer-<key>``."""
    sections: tuple[str, ...]
    """Where the answer is explained (section ids), the one to show first."""
    needs: tuple[str, ...]
    """Word groups, «;» between the words: the question holds a word of each (see :meth:`Question.has`)."""
    facts: Facts
    """The line's facts; None when the question turns out not to be this one after all."""
    variant_sections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Where the answer is explained in a game of another variant, if elsewhere (also when the facts name that
    variant as ``variant``)."""
    avoid: str = ""
    """Words that make it another question («сколько дают <b>за</b> большинство карт» is not about dealing)."""
    leads: bool = True
    """Whether the answer brings its section to the top; an answer to a bare word («валет») is shown only when
    the search put its section first anyway."""

    def matches(self, question: Question) -> bool:
        if any(question.has(word.strip()) for word in self.avoid.split(";") if word.strip()):
            return False
        return all(any(question.has(word.strip()) for word in group.split(";")) for group in self.needs)

    def sections_for(self, variant: str | None) -> tuple[str, ...]:
        return self.variant_sections.get(variant, self.sections) if variant else self.sections


@dataclass(frozen=True, slots=True)
class Answer:
    """A direct answer found for a question: its message and the facts it states."""

    key: str
    args: Args
    sections: tuple[str, ...]
    game: str = ""
    """The kind of the game it answers for (set by the lookup)."""


def first_named(question: Question, groups: Sequence[tuple[str, str]]) -> str | None:
    """The name of the first group a word of which the question holds (groups: name, words «;» between)."""
    for name, words in groups:
        if any(question.has(w.strip()) for w in words.split(";")):
            return name
    return None


def turn_time(question: Question, ctx: AnswerContext) -> Args | None:
    """The facts of «сколько времени на ход» in any game: the party's time per move (-1: not known)."""
    if ctx.turn_seconds is None:
        return {"seconds": -1}
    return {"seconds": ctx.turn_seconds}


def no_facts(question: Question, ctx: AnswerContext) -> Args | None:
    """An answer whose line needs no facts."""
    return {}


def asks_about(question: Question, answers: Sequence[DirectAnswer]) -> bool:
    """Whether ``question`` holds the words of one of a game's ``answers`` (even one it then has no facts for,
    like a capture of three cards)."""
    return any(a.matches(question) for a in answers)


def find_answer(
    question: Question, ctx: AnswerContext, answers: Sequence[DirectAnswer], ranked: Sequence[str]
) -> Answer | None:
    """The direct answer to ``question`` among the ``answers`` of the game of ``ctx``, if it has one: of those
    whose words it holds, the one with most word groups, then the one whose section ``ranked`` puts first."""

    def rank(answer: DirectAnswer) -> int:
        sections = answer.sections_for(ctx.variant)
        return min((ranked.index(s) for s in sections if s in ranked), default=len(ranked))

    candidates = sorted((a for a in answers if a.matches(question)), key=lambda a: (-len(a.needs), rank(a)))
    for candidate in candidates:
        args = candidate.facts(question, ctx)
        if args is None:
            continue
        sections = candidate.sections_for(str(args.get("variant", "")))
        if candidate.leads or (ranked and ranked[0] in sections):
            return Answer(candidate.key, args, sections)
    return None
