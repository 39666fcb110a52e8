"""A game's rules as its plug-in hands them to the bot: a :class:`RulesBook` of sections, and every hosted
game's books together in a :class:`RulesLibrary`.

A game fills its book (``GamePlugin.rules()``): its sections in the order the navigation shows them — each with
its id, its texts, its search words, the variant of the game it describes and its worked examples — its names,
the words people use for its terms, its direct answers, the lines that describe a party's options and its
line of /help. The views here read books and never name a game; the handlers, which know the plug-ins, pass
the library in. The texts themselves stay in ``locales/``.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Protocol

from bot.i18n import Locale, Translator, translator
from bot.views.rules_answers import DirectAnswer
from bot.views.rules_games import GameEvidence, Verdict
from bot.views.rules_marks import GameMarks
from bot.views.rules_search import Document, Question, RulesIndex, word_of
from bot.views.rules_words import COMMON_SYNONYMS
from engine.core import JSONValue

Options = Mapping[str, JSONValue]

SECTION_ID: Final = re.compile(r"[a-z0-9]{1,8}")
"""A section id: short ASCII, so that a rules button (``RulesCb``) and the ``r_<id>`` deep link stay short."""


class WorkedExample(Protocol):
    """An example under a section: a position and what the text claims of it; the text is rendered from what
    the engine says (``facts()``), and a test checks that against ``claim``."""

    @property
    def claim(self) -> object: ...

    def facts(self) -> object:
        """What the engine says about the position."""
        ...

    def text(self, tr: Translator) -> str:
        """The example as the rules show it (one line, from :meth:`facts`)."""
        ...


@dataclass(frozen=True, slots=True)
class RulesSection:
    """One section of a game's rules."""

    id: str
    """Unique across the games (see :data:`SECTION_ID`); carried by rules buttons and deep links."""
    texts: str
    """The stem of its texts: ``rules-<texts>`` (the whole text), ``rules-short-<texts>`` (a few lines, for a
    group), ``rules-title-<texts>`` and ``rules-nav-<texts>`` (its navigation button)."""
    keywords: str
    """What people call the section, «;» between phrases (both languages), beyond its own text."""
    variant: str = ""
    """The variant of the game the section describes ("": every variant)."""
    examples: tuple[WorkedExample, ...] = ()
    asked: tuple[str, ...] = ()
    """Questions people asked that this section answers, as they typed them: what the search learns from."""

    def title(self, tr: Translator) -> str:
        return tr.t(f"rules-title-{self.texts}")

    def nav(self, tr: Translator) -> str:
        return tr.t(f"rules-nav-{self.texts}")

    def text(self, tr: Translator, *, short: bool = False) -> str:
        return tr.t(f"rules-short-{self.texts}" if short else f"rules-{self.texts}")

    @property
    def text_keys(self) -> tuple[str, ...]:
        """Every text the section needs in each locale."""
        return tuple(f"rules-{part}{self.texts}" for part in ("", "short-", "title-", "nav-"))


@dataclass(frozen=True, slots=True)
class RulesBook:
    """A game's rules: what /rules, its search, its direct answers and /help know of the game."""

    kind: str
    """The game's plug-in ``kind`` (its name is the text ``game-<kind>``)."""
    command: str
    """The group command that opens its lobby."""
    sections: tuple[RulesSection, ...]
    names: frozenset[str]
    """The game's names (dictionary forms, both languages): a question naming the game is about it."""
    marks: Mapping[str, float] = field(default_factory=dict)
    """Words (or two-word phrases) only this game has, each with how surely it tells the game: 2 says it as its
    name does («ералаш»), 1 leans to it («козырь»), less only adds up («сумма»). A question with no game in the
    chat is answered for the game its marks lean to (see :mod:`bot.views.rules_search`)."""
    synonyms: Mapping[str, str] = field(default_factory=dict)
    """A word people say (its dictionary form, or as typed) → the words the rules use for it, «;» between them."""
    answers: tuple[DirectAnswer, ...] = ()
    """Its questions with a one-line answer."""
    options_title: str = ""
    """The text heading the options of a party of this game («В этой партии …»)."""
    option_lines: Callable[[Options, Translator], list[str]] = field(default=lambda options, tr: [])
    """A party's options, a line each («Брать обязательно: да»), for the sections of a game being played."""
    variant_option: str = ""
    """The option naming the variant a party plays ("": the game has no variants)."""
    variant_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each variant (the usual one first) → the words that name it in a question («очковая»)."""
    help_line: str = ""
    """The text of its line in /help ("": none)."""

    @property
    def usual_variant(self) -> str:
        return next(iter(self.variant_words), "")

    def variant_of(self, options: Options) -> str | None:
        """The variant a party with these options plays; None for a game without variants."""
        if not self.variant_option:
            return None
        value = options.get(self.variant_option)
        return self.usual_variant if value is None else str(value)


def plain_text(text: str) -> str:
    """``text`` without its HTML tags."""
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


class RulesLibrary:
    """Every hosted game's rules book, in menu order, and the search index over all their sections."""

    def __init__(self, books: Iterable[RulesBook]) -> None:
        self.books = tuple(books)
        if not self.books or not all(book.sections for book in self.books):
            raise ValueError("every game's rules need a section")
        self._sections: dict[str, tuple[RulesBook, RulesSection]] = {}
        for book in self.books:
            for section in book.sections:
                if not SECTION_ID.fullmatch(section.id):
                    raise ValueError(f"a rules section id must be short ASCII: {section.id!r}")
                if section.id in self._sections:
                    raise ValueError(f"two rules sections are called {section.id!r}")
                self._sections[section.id] = (book, section)
        self._kinds = {book.kind: book for book in self.books}

    @property
    def sections(self) -> tuple[RulesSection, ...]:
        """Every section, game by game."""
        return tuple(section for _, section in self._sections.values())

    @property
    def first(self) -> RulesSection:
        """The first page of the rules."""
        return self.books[0].sections[0]

    def has(self, section_id: str) -> bool:
        return section_id in self._sections

    def section(self, section_id: str) -> RulesSection:
        """The section with this id (KeyError for none)."""
        return self._sections[section_id][1]

    def book_of(self, section_id: str) -> RulesBook:
        """The book holding the section with this id (KeyError for none)."""
        return self._sections[section_id][0]

    def book(self, kind: str) -> RulesBook | None:
        """The book of the game ``kind``; None for a game with no book here."""
        return self._kinds.get(kind)

    @functools.cached_property
    def documents(self) -> tuple[Document, ...]:
        """Every section as the search reads it: its titles, search words and whole text in every locale."""
        documents = []
        for book in self.books:
            for section in book.sections:
                titles, bodies = [], []
                for locale in Locale:
                    tr = translator(locale)
                    # «<Игра>: как брать» is found by «как брать»: the game's name says only which game
                    titles += [section.title(tr).rpartition(":")[2], section.nav(tr)]
                    # not the worked examples: their cards and counts are no topic of the section
                    bodies += [section.title(tr), section.text(tr), section.text(tr, short=True)]
                documents.append(
                    Document(
                        section.id,
                        book.kind,
                        plain_text("\n".join(titles)),
                        section.keywords,
                        plain_text("\n\n".join(bodies)),
                        section.variant,
                        book.usual_variant,
                        section.asked,
                    )
                )
        return tuple(documents)

    @functools.cached_property
    def index(self) -> RulesIndex:
        """The search index over every section (:attr:`documents`)."""
        synonyms: dict[str, str] = dict(COMMON_SYNONYMS)
        for book in self.books:
            for key, value in book.synonyms.items():
                synonyms[key] = f"{synonyms[key]}; {value}" if key in synonyms else value
        names = {word_of(name).lemma: book.kind for book in self.books for name in book.names}
        return RulesIndex(self.documents, synonyms, names)

    @functools.cached_property
    def marks(self) -> GameMarks:
        """Every game's marks: which game a question is about (:mod:`bot.views.rules_marks`)."""
        return GameMarks({book.kind: book.marks for book in self.books})

    def read(self, query: str) -> Question:
        """A question as the index reads it, with the game it names or leans to."""
        index = self.index
        return self.marks.resolve(index, index.read(query))

    @functools.cached_property
    def evidence(self) -> GameEvidence:
        """Each game's rules as evidence of which game a question is about (:mod:`bot.views.rules_games`)."""
        return GameEvidence(self.documents)

    def verdict(self, question: Question, chat: str | None = None) -> Verdict:
        """Which game ``question`` (read by :meth:`read`) is about; ``chat``: the game played in the chat."""
        return self.evidence.decide(question, self.marks.scores(self.index, question), chat)
