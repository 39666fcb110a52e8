"""Which rules section a question is about: «/rules сколько стоит двойка треф», «@bot ерлаш», "can I lead hearts".

The ranking is BM25F over word lemmas, the classic ranking function of text search, with the sections as the
documents. Each section is four fields — its titles, the words people call it (its game's rules book,
:mod:`bot.views.rules_book`), its whole text, in every locale, and the questions people asked that it answers —
weighted 3 : 2 : 1 : 0.5. The last is learnt from: a question in words no rules text uses («палки», «скока очков
за крести») finds the section its like was asked of; it weighs least, so that the rules' own words still lead,
and it sets no vocabulary for typos. The asked questions count a second way too, one by one: the question most like
the query (the words they share, each weighing its IDF over all asked questions, against both questions' weights) adds its likeness to its
section's score — a nearest-neighbour vote, which a close paraphrase of one question wins where the field, all of
a section's questions in one bag, drowns it among the others. BM25 is chosen over plain TF-IDF because
its term frequency saturates (a word the section repeats five times does not outweigh two words of the question)
and it normalises by length (a long section does not win every question it mentions in passing);
its IDF makes a word found in every section («карта», «очко», «ход») count for almost nothing, which is what
stops question words and common words from deciding the answer. With a dozen short documents the whole index is a
few thousand numbers: a small implementation here (the formula is a dozen lines) is clearer than a library, and
none of the maintained ones takes the fuzzy, synonym-expanded, weighted query terms this needs.

A query is at most :data:`MAX_WORDS` words. Each word is brought to its dictionary forms (pymorphy3 for Russian,
the Snowball stemmer for English); stop-words and question words drop out; a colloquial word also searches for
the words the rules use («скинуть» → «отдать», «стоит» → «очко»); a word the texts do not know is matched to
the nearest words they do by rapidfuzz, so a typo («ерлаш», «прикончть») still finds its section. Adjacent words
also count as a phrase («двойка треф», «по последней», «не брать»), so a name beats its words apart.

Which game is asked about comes first. A query that names a game (its name, or a word only that game has and
that says it as surely — «ералаш», «прикончить») is about that game; inside a game's chat, that game, unless the
query names the other; with no game in the chat, the words one game has and the other has not («козырь», «черви»
against «стопка», «со стола») decide it when they clearly lean one way. Once the game is known, the other
game's sections are not offered at all; a section about another variant of the game counts at a fraction of its
score. A query that leans to no game is searched in every game.

Numbers are read by their context: beside a capture («десяткой взять 3+3+4») a number from 1 to 10 is a card
(«тройка»), elsewhere a number is a number (a total, a target, a count). Pure (no aiogram, no I/O); the
dictionaries load once.
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

import pymorphy3
import snowballstemmer
from rapidfuzz import fuzz, process

from bot.views.rules_words import CAPTURE_VERBS, CAPTURE_WORDS, CARD_NUMBERS, TOTAL_WORDS

MAX_WORDS: Final = 12
"""Words that carry meaning looked at in a query: a question is a few words; a pasted page must not cost the bot
a second. Stop-words do not count («привет всем, подскажите, после того как…» still reaches its question)."""
MAX_TYPED: Final = 3 * MAX_WORDS
"""Words of any kind read at most."""

ASKED_WEIGHT: Final = 0.5
"""The weight of the questions people asked of a section (the «asked» field): chosen among 0.3, 0.5, 1 and 2 on
both halves of tests/bot/rules_questions_blind2_tune.txt (0.3 to 1 differed by a question or two; 2 was worse)."""

NEAREST_WEIGHT: Final = 20.0
"""What the asked question most like the query adds to a section's score, times that likeness (0 to 1).
Chosen among 0, 5, 10, 20, 30, 40 and 80 by cross-validation (tests/bot/rules_crossval.py: each blind set scored
with its own questions out of the field): 20 was best on blind2_tune (206 right of 217 asked, 203 at 0), on
blind3 a question behind 10 (251 and 252 of 302; 250 at 0)."""
FIELD_WEIGHTS: Final = {"title": 3.0, "keywords": 2.0, "body": 1.0, "asked": ASKED_WEIGHT}
FIELD_B: Final = {"title": 0.0, "keywords": 0.3, "body": 0.75, "asked": 0.75}
"""BM25's length normalisation per field: none for titles, a little for the keyword lists, the usual for texts."""
K1: Final = 1.2
PHRASE_WEIGHT: Final = 1.0
"""Two adjacent words found as a phrase of a title or of the search words add the phrase's score to their own
(phrases of the running text are not indexed: «больше никто не наберёт» is no name of anything)."""
GAP_PHRASE_WEIGHT: Final = 0.5
"""A phrase with one word of the query between its words («времени даётся на ход» holds «время на ход»)."""
GAME_NAME_WEIGHT: Final = 0.15
"""A game's name in the query mostly says which game is meant (the context); as a word it counts this much."""
SYNONYM_WEIGHT: Final = 0.9
ALSO_SYNONYM_WEIGHT: Final = 0.6
"""A synonym of a word the texts know counts less: the word's own evidence comes first."""
PHRASE_PART: Final = 0.5
"""A word of a search phrase («не брать», «двойка треф») alone counts this much: the phrase is the name."""
FUZZY_WEIGHT: Final = 0.8
"""A typo's match counts its similarity times this, so a word found exactly wins over a near one."""
FUZZY_CUTOFF: Final = 78
"""The least rapidfuzz ratio (0–100) for a word the texts do not know to stand for one they do."""
FUZZY_MIN_LENGTH: Final = 4
RELATED_CUTOFF: Final = 88
RELATED_WEIGHT: Final = 0.7
"""A known Russian word also stands for dictionary forms this close to its own (rapidfuzz ratio), at this
weight: the other aspect of a verb («забрать» — «забирать», «выбрать» — «выбирать»), a participle's verb."""
RELATED_MIN_LENGTH: Final = 5
RELATED_PREFIX: Final = 3
"""…and that begin alike: a prefix makes another word («давать» — «сдавать», «ходить» — «сходить»)."""
OTHER_GAME: Final = 0.0
"""The share of its score a section keeps when another game is asked about: none — one game's question is never
answered with the other game's section."""
OTHER_VARIANT: Final = 0.3
"""The share a section about another variant of its game keeps in a game of this variant."""
UNKNOWN_VARIANT: Final = 0.8
"""Where no game tells the variant, the usual one is likelier: a section about another keeps this share."""
FORM_CUTOFF: Final = 90
"""How close (rapidfuzz ratio) a typed word must be to a word form a direct answer asks for."""
TYPO_CUTOFF: Final = 80
"""How close a misspelt word (one the dictionary does not know, of :data:`TYPO_MIN_LENGTH` letters or more, its
first letter right) must be to a dictionary word a direct answer asks for: one letter wrong in five
(«кагда», «можна», «сколька»)."""
TYPO_MIN_LENGTH: Final = 5
MIN_SHARE: Final = 0.15
"""Sections scoring less than this share of the best are not offered at all."""

NEGATIONS: Final = frozenset({"не", "no", "not"})
"""Stop-words that still join a phrase: «не брать», "no tricks"."""

_STOP_TEXT: Final = """
    а ага без бы бывать быть в вам вас весь во вообще вот всё все всего вы где да даже делать для до его её ее
    если есть ещё еще же за здесь и из или им их к как какой какая какое какие каков кем ко когда кто кто-то
    ли либо меня мне мной может можно мой мы на над надо нам нас не него нее неё нельзя ни нибудь но ну
    нужно о об ой он она они оно от очень по под пожалуйста почему при про просто разве с сам свой себя сейчас
    сколько со так такой там тогда тоже только то тот ты тут у уже хотя чем через что чтобы чей это этот эта эти
    я зачем какой-то что-то кто-нибудь значит вдруг бывает случай будет означать работать происходить случиться
    правило объяснить расскажите подскажите
    a about all am an and any are as at be been but by can could did do does doing don't for from had has have
    how i i'm if in into is it it's its me my no not of on or our so some than that the their them then there
    these they this those to too was we were what when where which who whom why will with would you your
    many work works mean means happen happens rule rules explain tell please get gets got someone somebody
"""
STOP_WORDS: Final = frozenset(_STOP_TEXT.split())
"""Words that say nothing of which section is meant: pronouns, prepositions, particles and the question words."""

COMMON_WORDS: Final = frozenset({"играть", "игра", "play", "game"})
"""Words every page of card rules is about: in a query they count at :data:`COMMON_WEIGHT` («сколько человек
может играть» asks about players, not about playing)."""
COMMON_WEIGHT: Final = 0.3

COUNT_WORDS: Final = {
    "один": 1, "одна": 1, "два": 2, "две": 2, "оба": 2, "обе": 2, "три": 3, "четыре": 4, "пять": 5,
    "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11, "двенадцать": 12,
    "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15, "шестнадцать": 16, "двадцать": 20, "все": -1, "всех": -1, "всеми": -1, "all": -1, "both": 2,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
}  # fmt: skip
"""Numbers said as words (their dictionary forms: «тремя» → «три»); -1 is «все» (as typed: «всего» is «in
all», not a count)."""
ALL: Final = -1

Counts: TypeAlias = dict[str, float]
"""A field's terms and how often each occurs (a word of a search phrase counts a part)."""

_WORD = re.compile(r"[0-9a-zа-яё♣♦♥♠]+", re.IGNORECASE)
_CYRILLIC = re.compile("[а-я]")
_LATIN = re.compile("[a-z]")


@dataclass(frozen=True, slots=True)
class Hit:
    section: str
    """The section's id."""
    score: float


@dataclass(frozen=True, slots=True)
class Question:
    """A query as the index reads it."""

    words: tuple[Word, ...]
    """Every word looked at, stop-words too («сколько» says what kind of answer is wanted)."""
    terms: tuple[dict[str, float], ...]
    """Per word that carries meaning: the index terms it stands for, with their weights."""
    phrases: tuple[str, ...]
    gap_phrases: tuple[str, ...]
    named: str | None
    """The one game the query names (its kind) by its name."""
    content: tuple[frozenset[str], ...] = ()
    """Per word that carries meaning, in order: everything it may stand for (as typed, dictionary forms, the
    index terms)."""
    marked: str | None = None
    """The one game the query's marks say as surely as a name (words only that game has, see
    :mod:`bot.views.rules_marks`): its game where the chat plays no other; in a chat playing the other game, the
    first of both (a mark can be a common word there: «валет не берёт всё» is no deal «не брать»)."""
    lean: str | None = None
    """The game the query's words lean to when it names none (see :mod:`bot.views.rules_marks`)."""
    counts: tuple[int, ...] = ()
    """The numbers the query says, in order, as digits or words («3 взятки», «с тремя дамами»), and
    :data:`ALL` for «все» («взял все червы»): what a direct answer may count with."""
    forms: frozenset[str] = field(init=False)
    """Every form any of its words may stand for (as typed, dictionary forms, the index terms): a one-word entry
    is looked up in it at once (a lookup asks :meth:`has` a few hundred times)."""

    misspelt: tuple[str, ...] = field(init=False)
    """Its words as typed that the dictionary does not know (Russian, :data:`TYPO_MIN_LENGTH` letters or more)."""

    def __post_init__(self) -> None:
        typed = (form for w in self.words for form in (w.raw, *w.lemmas))
        object.__setattr__(self, "forms", frozenset(typed).union(*self.content))
        misspelt = (
            w.raw
            for w in self.words
            if len(w.raw) >= TYPO_MIN_LENGTH and _CYRILLIC.search(w.raw) and not is_dictionary_word(w.raw)
        )
        object.__setattr__(self, "misspelt", tuple(misspelt))

    def has(self, entry: str) -> bool:
        """Whether the question holds ``entry``: a word (in any of its forms, a synonym or a near spelling; a
        dictionary word also when misspelt by a letter: «кагда» is «когда»), a phrase of two words («двойка
        треф»), or «=form», a word form as typed («=раздач»: not «раздачу»)."""
        if entry.startswith("="):  # as typed, or a misspelling of it (not another form of the word)
            form = entry[1:]
            return any(
                w.raw == form or (fuzz.ratio(form, w.raw) >= FORM_CUTOFF and not is_dictionary_word(w.raw))
                for w in self.words
            )
        lemmas = _entry_lemmas(entry)
        if len(lemmas) > 1:
            first, second = lemmas[0], lemmas[1]
            return any(first & a and second & b for a, b in zip(self.content, self.content[1:], strict=False))
        if not lemmas:
            return False
        if not lemmas[0].isdisjoint(self.forms):
            return True
        return bool(self.misspelt) and _is_misspelt_in(entry, self.misspelt)


def _is_misspelt_in(entry: str, misspelt: Sequence[str]) -> bool:
    """Whether one of the ``misspelt`` words is ``entry`` (a dictionary word) with a letter wrong."""
    if " " in entry or not is_dictionary_word(entry):
        return False
    return any(m[0] == entry[0] and fuzz.ratio(entry, m) >= TYPO_CUTOFF for m in misspelt)


@functools.lru_cache(maxsize=4096)
def _entry_lemmas(entry: str) -> tuple[frozenset[str], ...]:
    """The dictionary forms of an entry's first one or two words that are no stop-words (its first word if all
    are): the entries are the answers' and marks' own few hundred words, read once."""
    written = words_of(entry)
    words = [w for w in written if not w.is_stop] or written[:1]
    return tuple(frozenset(w.lemmas) for w in words[:2])


@dataclass(frozen=True, slots=True)
class Document:
    """One section as the search sees it: its id, its game's kind, its three fields, the variant of the game it
    describes ("" for every variant) and the game's usual variant."""

    section: str
    kind: str
    title: str
    keywords: str
    body: str
    variant: str = ""
    usual_variant: str = ""
    asked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Word:
    """A word as typed (lower case, «ё» read as «е») and its dictionary forms, the likeliest first."""

    raw: str
    lemmas: tuple[str, ...]

    @property
    def lemma(self) -> str:
        return self.lemmas[0]

    @property
    def is_stop(self) -> bool:
        return self.raw in STOP_WORDS or self.lemma in STOP_WORDS


@functools.cache
def _morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer(lang="ru")


@functools.cache
def _english() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=8192)
def word_of(text: str) -> Word:
    raw = text.lower().replace("ё", "е")
    if _CYRILLIC.search(raw):
        lemmas = [p.normal_form.replace("ё", "е") for p in _morph().parse(raw)[:3]]
    elif _LATIN.search(raw) and raw.isalpha():
        lemmas = [
            str(_english().stemWord(raw)),
            raw,
        ]  # the stem, and the word as written: "jacks" is a contract
    else:
        lemmas = [raw]
    return Word(raw, tuple(dict.fromkeys(lemmas)))


@functools.lru_cache(maxsize=4096)
def is_dictionary_word(text: str) -> bool:
    """Whether ``text`` is a word the dictionary knows (a misspelling is not)."""
    return bool(_morph().word_is_known(text)) if _CYRILLIC.search(text) else False


def words_of(text: str) -> list[Word]:
    return [word_of(w) for w in _WORD.findall(text)]


def _first_meaningful(words: Sequence[Word], most: int) -> list[Word]:
    """``words`` up to the ``most``-th one that is no stop-word."""
    out: list[Word] = []
    meaningful = 0
    for word in words:
        meaningful += not word.is_stop
        if meaningful > most:
            break
        out.append(word)
    return out


def numbers_as_cards(words: Sequence[Word]) -> list[Word]:
    """``words`` with each number from 1 to 10 read as a card where the question is about taking cards and not
    about points («десяткой взять 3+3+4» — threes and a four; «играть до 15», «7 треф» — numbers)."""
    lemmas = {lemma for w in words for lemma in (w.raw, *w.lemmas)}
    if not lemmas & CAPTURE_WORDS or lemmas & TOTAL_WORDS:
        return list(words)
    out = []
    for i, w in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else None
        # «10 бубей» names a card as it is; «2 дамы», «3 карты» count what follows; «3 и 4», «3+4» are cards
        counts_a_word = (
            after is not None
            and not after.is_stop
            and after.raw not in CARD_NUMBERS
            and after.lemma not in CAPTURE_VERBS
        )
        is_card = w.raw in CARD_NUMBERS and not counts_a_word
        out.append(word_of(CARD_NUMBERS[w.raw]) if is_card else w)
    return out


def phrases_of(words: Sequence[Word], gap: int = 0) -> list[str]:
    """Pairs of the words that carry meaning (negations kept), as «lemma lemma» terms: adjacent ones, or with
    ``gap`` words between them."""
    kept = [w.lemma for w in words if not w.is_stop or w.raw in NEGATIONS]
    return [f"{a} {b}" for a, b in zip(kept, kept[1 + gap :], strict=False)]


def _terms(words: Sequence[Word], *, phrases: bool, part: float = 1.0) -> tuple[Counts, int]:
    """A field's term counts (every dictionary form of every word, each ``part``; and the phrases) and its length
    in words."""
    counts: Counts = defaultdict(float)
    meaningful = 0
    for word in words:
        if word.is_stop:
            continue
        meaningful += 1
        for lemma in word.lemmas:
            counts[lemma] += part
    if phrases:
        for phrase in phrases_of(words):
            counts[phrase] += 1
    return counts, meaningful


def _asked_terms(questions: Sequence[str]) -> tuple[Counts, int]:
    counts: Counts = defaultdict(float)
    length = 0
    for question in questions:
        terms, n = _terms(words_of(question), phrases=True)
        for term, count in terms.items():
            counts[term] += count
        length += n
    return counts, length


def _phrases(text: str) -> Iterable[str]:
    return (p.strip() for p in text.split(";") if p.strip())


class RulesIndex:
    """BM25F over the sections (:class:`Document`) with synonyms, typo tolerance and the chat's context."""

    def __init__(
        self,
        documents: Sequence[Document],
        synonyms: Mapping[str, str],
        game_names: Mapping[str, str],
    ):
        self._documents = tuple(documents)
        self._fields: list[dict[str, tuple[Counts, int]]] = []
        forms: dict[str, str] = {}
        for doc in self._documents:
            keywords: Counts = defaultdict(float)
            length = 0
            for phrase in _phrases(doc.keywords):  # each phrase on its own: no phrase across two of them
                words = words_of(phrase)
                forms.update((w.raw, w.lemma) for w in words if not w.is_stop)
                meaningful = sum(1 for w in words if not w.is_stop)
                counts, n = _terms(words, phrases=True, part=PHRASE_PART if meaningful > 1 else 1.0)
                for term, count in counts.items():
                    keywords[term] += count
                length += n
            body = words_of(doc.body)
            title = words_of(doc.title)
            forms.update((w.raw, w.lemma) for w in (*body, *title) if not w.is_stop)
            self._fields.append(
                {
                    "title": _terms(title, phrases=True),
                    "keywords": (keywords, length),
                    "body": _terms(body, phrases=False),
                    "asked": _asked_terms(doc.asked),
                }
            )
        self._average = {
            name: max(1.0, sum(f[name][1] for f in self._fields) / len(self._fields))
            for name in FIELD_WEIGHTS
        }
        vocabulary: set[str] = set()
        for fields in self._fields:
            for name, (counts, _) in fields.items():
                if name != "asked":
                    vocabulary.update(counts)
        self._text_terms = frozenset(vocabulary)
        """The rules' own words: a typo is matched to these only (a question people asked may hold the same
        typo), and a query word none of them has still looks for its nearest one."""
        for fields in self._fields:
            vocabulary.update(fields["asked"][0])
        n = len(self._documents)
        self._idf = {
            term: math.log(1 + (n - df + 0.5) / (df + 0.5))
            for term in vocabulary
            for df in [sum(1 for fields in self._fields if any(term in c for c, _ in fields.values()))]
        }
        forms.update((t, t) for t in self._text_terms if " " not in t)
        self._forms = {
            form: lemma for form, lemma in forms.items() if len(form) >= FUZZY_MIN_LENGTH and form.isalpha()
        }
        """Every word of the texts as written and as a dictionary form → its dictionary form: what a typo is
        compared with."""
        self._form_list = sorted(self._forms)
        self._lemma_list = sorted(t for t in self._text_terms if " " not in t and t.isalpha())
        asked = [(i, self._asked_words(q)) for i, doc in enumerate(self._documents) for q in doc.asked]
        self._asked_section = tuple(i for i, _ in asked)
        """Per asked question (numbered over every section): its section's number."""
        question_df: Counts = defaultdict(float)
        self._asked_postings: dict[str, list[int]] = defaultdict(list)
        """Each word's dictionary form → the asked questions holding it."""
        for number, (_, terms) in enumerate(asked):
            for term in terms:
                question_df[term] += 1
                self._asked_postings[term].append(number)
        self._question_idf = {t: math.log((len(asked) + 1) / (df + 0.5)) for t, df in question_df.items()}
        self._asked_norms = tuple(sum(self._question_idf[t] for t in terms) for _, terms in asked)
        self._synonyms: dict[str, tuple[str, ...]] = {}
        for key, value in synonyms.items():
            targets = tuple(word_of(w).lemma for w in _phrases(value))
            for form in {word_of(key).raw, word_of(key).lemma}:
                self._synonyms[form] = tuple(dict.fromkeys(self._synonyms.get(form, ()) + targets))
        self._game_names = dict(game_names)

    def _asked_words(self, question: str) -> frozenset[str]:
        """An asked question's words as the nearest-question vote reads them: their dictionary forms, a typo of
        a rules word left out (one person's «иралаш» is no word of the section's: the query's «иралаш» finds
        «ералаш» by its spelling); a colloquial word the dictionary lacks («скока», «чё») stays."""
        return frozenset(
            lemma
            for word in words_of(question)
            if not word.is_stop and not self._is_typo(word)
            for lemma in word.lemmas
        )

    def _is_typo(self, word: Word) -> bool:
        """Whether ``word`` is a misspelling of a word of the rules' texts: no dictionary word, and near one."""
        if not _CYRILLIC.search(word.raw) or is_dictionary_word(word.raw) or word.raw in self._forms:
            return False
        return (
            process.extractOne(word.raw, self._form_list, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
            is not None
        )

    def nearest_asked(self, terms: Sequence[Mapping[str, float]]) -> list[float]:
        """Per section, how like the query is the most like of the questions asked of it (0 to 1): the words
        they share, each weighing its IDF over all the asked questions, over the geometric mean of the two
        questions' weights (the cosine of two sets of words, Ochiai's coefficient, with IDF weights). A query of
        one word does not vote: a word alone is a name, which the rules' own titles and search words answer
        better (and it is the whole of every asked question made of it); a word repeated counts once. Read
        through the words' postings, so a query costs the questions that share a word with it."""
        idf = self._question_idf
        nearest = [0.0] * len(self._documents)
        words = list({frozenset(word.items()): word for word in terms}.values())
        norm = sum(max((w * idf.get(t, 0.0) for t, w in word.items()), default=0.0) for word in words)
        if not norm or len(words) < 2:
            return nearest
        matched: dict[int, float] = defaultdict(float)
        for word in words:
            best: dict[int, float] = {}
            for term, weight in word.items():
                value = weight * idf.get(term, 0.0)
                for number in self._asked_postings.get(term, ()):
                    if value > best.get(number, 0.0):
                        best[number] = value
            for number, value in best.items():
                matched[number] += value
        for number, value in matched.items():
            section = self._asked_section[number]
            likeness = value / math.sqrt(norm * self._asked_norms[number])
            nearest[section] = max(nearest[section], likeness)
        return nearest

    def _bm25(self, term: str, doc: int) -> float:
        idf = self._idf.get(term)
        if idf is None:
            return 0.0
        score = 0.0
        for name, (counts, length) in self._fields[doc].items():
            count = counts.get(term, 0)
            if count:
                b = FIELD_B[name]
                tf = count / (1 - b + b * length / self._average[name])
                score += FIELD_WEIGHTS[name] * tf * (K1 + 1) / (K1 + tf)
        return idf * score

    def expansions(self, word: Word) -> dict[str, float]:
        """The index terms a query word stands for, each with its weight: its own dictionary forms, the words
        the rules use for it, or — for a word the texts do not know — the nearest words they do."""
        out: dict[str, float] = {}
        for lemma in word.lemmas:
            if lemma in self._idf:
                out[lemma] = 1.0
        if out and len(word.lemma) >= RELATED_MIN_LENGTH and _CYRILLIC.search(word.lemma):
            for match, similarity, _ in process.extract(
                word.lemma, self._lemma_list, scorer=fuzz.ratio, score_cutoff=RELATED_CUTOFF, limit=3
            ):
                if match[:RELATED_PREFIX] == word.lemma[:RELATED_PREFIX]:  # «сдавать» is not «давать»
                    out.setdefault(match, RELATED_WEIGHT * similarity / 100)
        weight = ALSO_SYNONYM_WEIGHT if out else SYNONYM_WEIGHT
        for key in (word.raw, *word.lemmas):
            for target in self._synonyms.get(key, ()):
                if target in self._idf:
                    out.setdefault(target, weight)
        known = not self._text_terms.isdisjoint(out)
        if known or len(word.raw) < FUZZY_MIN_LENGTH or not word.raw.isalpha():
            return out
        for probe in dict.fromkeys((word.raw, word.lemma)):
            for match, similarity, _ in process.extract(
                probe, self._form_list, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=3
            ):
                lemma = self._forms[match]
                out[lemma] = max(out.get(lemma, 0.0), FUZZY_WEIGHT * similarity / 100)
        return out

    def named_game(self, words: Sequence[Word]) -> str | None:
        """The one game the query names (a name of a game's book: «штрафы в <игре>»), else None."""
        named = {self._game_names[lemma] for w in words for lemma in w.lemmas if lemma in self._game_names}
        return named.pop() if len(named) == 1 else None

    def read(self, query: str) -> Question:
        """The query's words (at most :data:`MAX_WORDS`) and what each stands for in the index."""
        typed = _first_meaningful(words_of(query)[:MAX_TYPED], MAX_WORDS)
        counts = tuple(
            int(w.raw) if w.raw.isdigit() else COUNT_WORDS.get(w.raw, COUNT_WORDS.get(w.lemma, 0))
            for w, after in zip(typed, [*typed[1:], None], strict=False)
            if (w.raw.isdigit() and len(w.raw) <= 3)
            or (w.raw in COUNT_WORDS and after is not None and not after.is_stop)
            or (w.lemma in COUNT_WORDS and COUNT_WORDS[w.lemma] != ALL)
        )  # «все червы», not «штраф за всё или…»
        words = numbers_as_cards(typed)
        resolved: list[Word] = []
        term_weights: list[dict[str, float]] = []
        content: list[frozenset[str]] = []
        names: list[int] = []
        for word in words:
            if word.is_stop:
                if word.raw in NEGATIONS:
                    resolved.append(word)
                continue
            expanded = self.expansions(word)
            if not expanded:
                continue
            if word.lemma in self._game_names:
                names.append(len(term_weights))
            elif word.lemma in COMMON_WORDS:
                expanded = {t: w * COMMON_WEIGHT for t, w in expanded.items()}
            term_weights.append(expanded)
            content.append(frozenset({word.raw, *word.lemmas, *expanded}))
            best = max(expanded, key=lambda t: (expanded[t], t == word.lemma))
            resolved.append(Word(word.raw, (best,)))
        if len(names) < len(term_weights):  # a game's name beside other words: mostly context
            for i in names:
                term_weights[i] = {t: w * GAME_NAME_WEIGHT for t, w in term_weights[i].items()}
        return Question(
            tuple(words),
            tuple(term_weights),
            tuple(phrases_of(resolved)),
            tuple(phrases_of(resolved, gap=1)),
            self.named_game(words),
            tuple(content),
            counts=counts,
        )

    def search(
        self, query: str | Question, *, game: str | None = None, variant: str | None = None
    ) -> list[Hit]:
        """The sections matching ``query``, best first; [] for none.

        ``game``/``variant``: the kind of the game being played in the chat and its variant. A game named in the
        query overrides the chat's (asking about another game at a table is asking about that game); one its marks
        say is its game only where no game is given.
        """
        question = self.read(query) if isinstance(query, str) else query
        sure = question.named or (question.marked if game is None else None)
        if sure is not None and sure != game:
            game, variant = sure, None
        term_weights = question.terms
        phrases = [(p, PHRASE_WEIGHT) for p in question.phrases if p in self._idf]
        phrases += [(p, GAP_PHRASE_WEIGHT) for p in question.gap_phrases if p in self._idf]
        if not term_weights:
            return []
        hits = []
        nearest = self.nearest_asked(term_weights)
        for i, doc in enumerate(self._documents):
            score = sum(max(w * self._bm25(t, i) for t, w in terms.items()) for terms in term_weights)
            score += sum(weight * self._bm25(p, i) for p, weight in phrases)
            score += NEAREST_WEIGHT * nearest[i]
            if game is not None and doc.kind != game:
                score *= OTHER_GAME
            elif doc.variant and doc.variant != (variant or doc.usual_variant):
                score *= OTHER_VARIANT if variant else UNKNOWN_VARIANT
            if score > 0:
                hits.append(Hit(doc.section, score))
        hits.sort(key=lambda h: -h.score)  # stable: ties keep the sections' order
        if not hits:
            return []
        floor = hits[0].score * MIN_SHARE
        return [h for h in hits if h.score >= floor]
