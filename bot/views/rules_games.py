"""Which game a rules question is about, decided before which rule: the question's own words weighed against
each game's rules, with the chat's game as a prior those words can overturn.

The weighing is a naive Bayes over word lemmas, the classic text classifier: each game is the bag of the lemmas of
its rules — the sections' titles, the words people call them and their texts, in every locale, weighted as the
search weighs its fields (3 : 2 : 1) — and a word of the question is evidence for a game by how much more often
that game's rules use it (relative to the length of its rules; smoothed, so that a word neither game uses says
nothing, and capped, so that one word never outweighs everything). «крести» (read as «трефа»), «бубна»,
«стол», «сумма» say Кончинка; «козырь», «масть», «черва», «заходить», «круг» say Кинг; «карта», «очко», «ход»
are in both and say little. A word stands for what the search reads it as (its dictionary forms, the words the
rules use for it, a misspelling's nearest words).

To that come the game's marks (words only that game has, hand-picked from the seeds' vocabulary: see
:mod:`bot.views.rules_marks`) — a game's name decides the game outright, and so do marks as sure as a name where
the chat plays no other game — and the prior: in a chat playing a game, that game starts :data:`CHAT_PRIOR` ahead.
The game whose evidence leads by :data:`DECIDED` wins; where none does, the question is left open: the reply gives
each game's answer (see :func:`bot.views.rules_lookup.lookup`). In a chat playing a game, a question that does not
name the other game never gets the other game's answer alone: where its words or marks say the other game, both
games' answers, the other's first (a mark can be a common word: «валет не берёт всё» asks of Кончинка's jack,
not of Кинг's deals «не брать»).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from bot.views.rules_search import FIELD_WEIGHTS, Document, Question, words_of

SMOOTHING: Final = 2.0
"""Added to a word's weighted count in each game's rules (additive smoothing): a word one game's rules use once
and the other's never is weak evidence, one used ten times strong."""
WORD_CAP: Final = 2.5
"""The most one word of a question says for a game (log-odds, natural log)."""
MARK_WEIGHT: Final = 0.5
"""A mark's weight (1 for «козырь») in log-odds."""
CHAT_PRIOR: Final = 3.0
"""How far the chat's game starts ahead: a word one game clearly has («крести», «козырь») overturns it, a
common word does not."""
ASKS_WHETHER: Final = frozenset({"есть", "бывает", "бывают", "существует", "имеется", "there"})
"""Words of a question whether a game has something («козыри есть?»): in a game's chat, asked of that game — its
prior counts twice."""
DECIDED: Final = 1.5
"""The lead in log-odds that decides the game; less leaves the question open to both games."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """Which game a question is about: ``kind`` (None: left open), and each game's log-odds, best first."""

    kind: str | None
    odds: tuple[tuple[str, float], ...]

    @property
    def games(self) -> tuple[str, ...]:
        """The games in the running, likeliest first: the one decided, or every game when left open."""
        return (self.kind,) if self.kind is not None else tuple(k for k, _ in self.odds)


class GameEvidence:
    """Each game's rules as a bag of lemmas, ready to weigh a question."""

    def __init__(self, documents: Sequence[Document]) -> None:
        counts: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for doc in documents:
            game = counts[doc.kind]
            for name, text in (("title", doc.title), ("keywords", doc.keywords), ("body", doc.body)):
                for word in words_of(text.replace(";", " ")):
                    if word.is_stop:
                        continue
                    for lemma in word.lemmas:
                        game[lemma] += FIELD_WEIGHTS[name]
        self._counts = {kind: dict(c) for kind, c in counts.items()}
        self._totals = {kind: sum(c.values()) for kind, c in self._counts.items()}
        self._mean_total = sum(self._totals.values()) / max(1, len(self._totals))

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._counts)

    def _rate(self, kind: str, terms: Mapping[str, float]) -> float:
        """How often ``kind``'s rules use a word standing for ``terms`` (per its rules' length, smoothed)."""
        count = max((w * self._counts[kind].get(t, 0.0) for t, w in terms.items()), default=0.0)
        total = self._totals[kind]
        return (count + SMOOTHING * total / self._mean_total) / total

    def words(self, question: Question) -> dict[str, float]:
        """Each game's log-odds from the question's words alone (each word centred over the games, capped)."""
        out = dict.fromkeys(self._counts, 0.0)
        for terms in question.terms:
            logs = {kind: math.log(self._rate(kind, terms)) for kind in self._counts}
            mean = sum(logs.values()) / len(logs)
            for kind, value in logs.items():
                out[kind] += max(-WORD_CAP, min(WORD_CAP, value - mean))
        return out

    def decide(
        self,
        question: Question,
        marks: Mapping[str, float],
        chat: str | None = None,
    ) -> Verdict:
        """The game ``question`` is about; ``marks``: each game's marks in it; ``chat``: the chat's game."""
        if question.named is not None and question.named in self._counts:
            return Verdict(question.named, ((question.named, math.inf),))
        marked = question.marked if question.marked in self._counts else None
        if marked is not None and chat in (None, marked):
            return Verdict(marked, ((marked, math.inf),))
        odds = self.words(question)
        if marked is not None:  # marks of the other game than the chat's: both, theirs first
            odds[marked] = math.inf
        for kind in odds:
            odds[kind] += MARK_WEIGHT * marks.get(kind, 0.0)
            if kind == chat:
                odds[kind] += CHAT_PRIOR * (2 if any(w.raw in ASKS_WHETHER for w in question.words) else 1)
        ranked = tuple(sorted(odds.items(), key=lambda item: (-item[1], item[0] != chat)))
        lead = ranked[0][1] - ranked[1][1] if len(ranked) > 1 else math.inf
        if chat is not None and ranked[0][0] != chat:
            return Verdict(None, ranked)  # words over the chat's game, no name: both answers, theirs first
        return Verdict(ranked[0][0] if lead >= DECIDED else None, ranked)
