"""Which rules section a person means: «/rules ералаш», «@bot кинг червей», «взятки», «15», "trump".

Each section has a name and keywords in Russian and English. A query is split into words; a Russian word is
brought to its dictionary form by pymorphy3 («прикончил» → «прикончить», «мальчики» → «мальчик»), and each word
is compared with every keyword by rapidfuzz, so a typo or two («ерлаш») still finds «ералаш». A section scores the
sum of its best match for each word of the query; a keyword of several words counts only where the query holds
all of them. Pure (no aiogram, no I/O): the dictionaries load once, on the first query.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import pymorphy3
from rapidfuzz import fuzz

from bot.callbacks import GameKind, RulesSection

S = RulesSection

KEYWORDS: Final[Mapping[RulesSection, str]] = {
    S.KONCHINKA: (
        "кончинка; палки; раздача; сдача; сдавать; сдающий; колода; стол; ход; ходить; пас; пропустить; "
        "положить; начало; первый ход; последняя взятка; остаток; konchinka; deal; dealer; deck; table; "
        "turn; pass; lay; start"
    ),
    S.CAPTURES: (
        "взятка; брать; взять; забрать; бить; сумма; набор; валет; дама; король; туз; одна взятка; "
        "весь стол; достоинство; capture; take; sum; jack; sweep; queen; king card; ace; rank"
    ),
    S.POINTS: (
        "очковая; очковый; очковая кончинка; вариант; 13; 14; опечатка; король берёт; points variant; "
        "variant; misprint"
    ),
    S.SCORING: (
        "очко; очки; подсчёт; считать; сколько очков; карты; больше всех; трефы; треф; кончинки; 2♣; "
        "10♦; двойка треф; десятка бубен; ничья; поровну; 5; score; scoring; points; clubs; most cards; "
        "two of clubs; ten of diamonds; tie"
    ),
    S.TALLY: (
        "запись; записывать; расчёт; рассчитываться; цель; победа; победитель; выиграть; ставка; кон; "
        "на кон; по очкам; зачёркивать; 15; партия; перебор; tally; target; win; winner; settlement; "
        "stake; record; 15"
    ),
    S.EARLY_FINISH: (
        "прикончить; приканчивать; досрочно; раньше; конец; закончить; 27; 27 карт; 7 треф; семь треф; finish; "
        "early; early finish; end early"
    ),
    S.OPTIONS: (
        "настройка; настройки; правило; брать обязательно; обязательно; несколько взяток; прикончить; время; "
        "таймер; ход бота; пропуск; options; settings; forced; forced capture; multi capture; "
        "several captures; must capture; must take; timer; time"
    ),
    S.KING: (
        "кинг; колода 32; 32; масть; в масть; старшинство; старшая; заход; заходить; king; trick; suit; "
        "follow suit; lead; 32 cards"
    ),
    S.KING_NEGATIVE: (
        "не брать; ералаш; мальчик; мальчики; девочка; девочки; черви; червы; червь; кинг червей; "
        "король червей; к♥; последние две; две последние; взятки; порядок; порядок раздач; "
        "сбрасывать; сбросить; остановка; eralash; jacks; boys; queens; girls; hearts; king of hearts; "
        "no tricks; last two; negative; order; penalty deals"
    ),
    S.KING_TRUMP: (
        "отыгрыш; козырь; козыри; козырной; назначить; по последней; последняя карта; перебить; "
        "бить козырем; trump; trumps; positive; by the last card; last card"
    ),
    S.KING_SCORING: (
        "очки кинга; штрафы; штраф; ералаш; сколько; итог; 192; 96; 24; 16; king score; king points; penalties; total"
    ),
}
"""What people call each section, «;» between keywords (its titles in every locale come from the callers)."""

KIND_OF: Final[Mapping[RulesSection, GameKind]] = {
    s: (GameKind.KING if s.name.startswith("KING") else GameKind.KONCHINKA) for s in RulesSection
}

GAME_NAMES: Final[Mapping[GameKind, str]] = {
    GameKind.KONCHINKA: "кончинка; konchinka",
    GameKind.KING: "кинг; king",
}
"""Every section of a game also answers to the game's name, weakly: «штрафы кинга» is about Кинг's penalties."""

MIN_WORD_SCORE: Final = 0.75
"""A word that matches no keyword this well (by rapidfuzz's ratio) adds nothing."""
SAME_WORD: Final = 1.1
"""A word typed exactly as the keyword: «взятки» is «не брать взятки» rather than Кончинка's «взятка»."""
SAME_LEMMA: Final = 1.0
FUZZY_WEIGHT: Final = 0.9
"""A typo's match counts its similarity times this, so an exact word wins over a near one."""
GAME_NAME_WEIGHT: Final = 0.5
TITLE_BONUS: Final = 0.05
"""Added for a word of the section's own name, so «кинг» opens «Кинг» first."""
PHRASE_BONUS: Final = 0.1
"""Per extra word of a keyword phrase found whole in the query («кинг червей», «27 карт»)."""
GAME_BONUS: Final = 0.1
"""Added to each section of the game being played in the chat: «очки» there means that game's scoring."""

MAX_WORDS: Final = 12
"""Words of a query looked at: a question is a few words; a pasted page must not cost the bot a second."""

_WORD = re.compile(r"[0-9a-zа-яё♣♦♥♠]+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Hit:
    section: RulesSection
    score: float


@dataclass(frozen=True, slots=True)
class Word:
    """A word as typed (lower case, «ё» read as «е») and its dictionary forms."""

    raw: str
    lemmas: frozenset[str]


@functools.cache
def _morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer(lang="ru")


@functools.lru_cache(maxsize=4096)
def word_of(text: str) -> Word:
    raw = text.lower().replace("ё", "е")
    lemmas = {raw}
    if re.search("[а-я]", raw):
        for parse in _morph().parse(raw)[:3]:
            lemmas.add(parse.normal_form.replace("ё", "е"))
    return Word(raw, frozenset(lemmas))


def words_of(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _word_score(query: Word, keyword: Word) -> float:
    if query.raw == keyword.raw:
        return SAME_WORD
    if query.lemmas & keyword.lemmas:
        return SAME_LEMMA
    best = 0.0
    for q in query.lemmas:
        for k in keyword.lemmas:
            if q.isdigit() or k.isdigit() or min(len(q), len(k)) < 4:
                continue  # numbers and short words must match exactly
            best = max(best, fuzz.ratio(q, k) / 100)
    return best * FUZZY_WEIGHT if best >= MIN_WORD_SCORE else 0.0


@dataclass(frozen=True, slots=True)
class _Keyword:
    words: tuple[Word, ...]
    weight: float
    bonus: float


def _keywords(phrases: str, weight: float = 1.0, bonus: float = 0.0) -> list[_Keyword]:
    out = []
    for phrase in phrases.split(";"):
        words = tuple(word_of(w) for w in words_of(phrase))
        if words:
            out.append(_Keyword(words, weight, bonus))
    return out


@functools.lru_cache(maxsize=8)
def _index(titles: tuple[tuple[RulesSection, str], ...]) -> dict[RulesSection, tuple[_Keyword, ...]]:
    index: dict[RulesSection, list[_Keyword]] = {s: [] for s in RulesSection}
    for section in RulesSection:
        index[section] += _keywords(KEYWORDS[section])
        index[section] += _keywords(GAME_NAMES[KIND_OF[section]], GAME_NAME_WEIGHT)
    for section, title in titles:
        index[section] += _keywords(title.rpartition(":")[2], bonus=TITLE_BONUS)
    return {s: tuple(kws) for s, kws in index.items()}


def search(
    query: str,
    titles: Sequence[tuple[RulesSection, str]] = (),
    *,
    game: GameKind | None = None,
) -> list[Hit]:
    """The sections matching ``query``, best first (ties in the order of :class:`RulesSection`); [] for none.

    ``titles``: the sections' names in every locale («Кинг: очки» counts as «очки»), searched like keywords and
    preferred over them. ``game``: the game being played in the chat, whose sections win a tie.
    """
    query_words = [word_of(w) for w in words_of(query)[:MAX_WORDS]]
    if not query_words:
        return []
    index = _index(tuple(titles))
    hits: list[Hit] = []
    for order, section in enumerate(RulesSection):
        per_word = [0.0] * len(query_words)
        for keyword in index[section]:
            scores = [[_word_score(q, k) for q in query_words] for k in keyword.words]
            if not all(any(row) for row in scores):
                continue  # a phrase counts only where the query holds all its words
            factor = keyword.weight * (1 + PHRASE_BONUS * (len(keyword.words) - 1))
            for row in scores:
                for i, score in enumerate(row):
                    if score:
                        per_word[i] = max(per_word[i], score * factor + keyword.bonus)
        total = sum(per_word)
        if total <= 0:
            continue
        if game is not None and KIND_OF[section] is game:
            total += GAME_BONUS
        hits.append(Hit(section, total - order * 1e-6))
    hits.sort(key=lambda h: -h.score)
    return hits
