"""«/rules <words>» and «@bot <words>»: the sections a question means, best first, its direct answer, and the
messages that show them — in a private chat, in a group, and as inline results to post in any chat."""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from aiogram.enums import ParseMode
from aiogram.types import InlineKeyboardMarkup, InlineQueryResultArticle, InputTextMessageContent

from bot.callbacks import RulesCb
from bot.i18n import Translator
from bot.views.common import Rendered, button, keyboard, url_button
from bot.views.rules import (
    GameContext,
    render_rules_contents,
    rules_deep_link,
    section_text,
)
from bot.views.rules_answers import Answer, AnswerContext, find_answer
from bot.views.rules_book import RulesBook, RulesLibrary
from bot.views.rules_search import Question

MORE_HITS: Final = 2
"""Buttons for the next best sections under a /rules answer."""


@dataclass(frozen=True, slots=True)
class Lookup:
    """What «/rules <words>» finds: the section ids, best first, and the direct answer, if the question has one.

    ``also``: a question that fits every game alike («сколько карт в колоде?» with no game in the chat) gets each
    game's one-line answer — ``answer`` the first game's, ``also`` the others' — each line naming its game."""

    sections: tuple[str, ...]
    answer: Answer | None = None
    also: tuple[Answer, ...] = ()


def _named_variant(book: RulesBook, question: Question) -> str | None:
    """The variant of ``book``'s game the question names («в очковой»), if one."""
    named = [v for v, words in book.variant_words.items() if any(question.has(w) for w in words)]
    return named[0] if len(named) == 1 else None


def _asked_variant(
    library: RulesLibrary, book: RulesBook, question: Question, sections: Sequence[str]
) -> str | None:
    """The variant of ``book``'s game a question with no game context asks about: the one it names, else the
    unusual one whose section the search put first; None when neither tells."""
    if not book.variant_option:
        return None
    for variant, words in book.variant_words.items():
        if any(question.has(w) for w in words):
            return variant
    if not sections:
        return None
    top = library.section(sections[0])
    if library.book_of(top.id) is book and top.variant and top.variant != book.usual_variant:
        return top.variant
    return None


def lookup(library: RulesLibrary, query: str, game: GameContext | None = None) -> Lookup:
    """The sections ``query`` may mean, best first, and its direct answer; ``game``: the game of the chat.

    A direct answer moves the section that explains it to the top, unless the best section is one that does."""
    index = library.index
    question = library.read(query)
    kind = game.kind if game is not None else None
    chat_book = library.book(kind) if kind is not None else None
    variant = chat_book.variant_of(game.options) if chat_book is not None and game is not None else None
    if question.named is not None and question.named != kind:
        kind, variant, game, chat_book = question.named, None, None, library.book(question.named)
    elif kind is None and question.lean is not None:  # only one game has the question's words
        kind, chat_book = question.lean, library.book(question.lean)
    if chat_book is not None and variant is not None:  # a variant named in the question beats the party's
        variant = _named_variant(chat_book, question) or variant
    hits = index.search(question, game=kind, variant=variant)
    sections = [hit.section for hit in hits]
    if chat_book is not None:
        books = [chat_book]
    elif sections:
        books = _books_by_hits(library, sections)
    else:
        books = list(library.books)
    answers: list[Answer] = []
    for book in books:
        context = AnswerContext(
            book.kind,
            variant if variant is not None else _asked_variant(library, book, question, sections),
            game.options if game is not None else None,
            game.turn_seconds if game is not None else None,
        )
        answer = find_answer(question, context, book.answers, sections)
        if answer is not None:
            answers.append(dataclasses.replace(answer, game=book.kind))
    if not sections:
        if answers:  # words no section has, but a question with a one-line answer («нас трое?»)
            sections = [answers[0].sections[0]]
        elif chat_book is not None and question.named == kind:
            sections = [
                chat_book.sections[0].id
            ]  # «кончинка» and words no section has: the game's first page
        else:
            return Lookup(())
    if not answers:
        return Lookup(tuple(sections))
    # the sections explaining the answers first (the best one where it explains the first answer), in order
    first = sections[0] if sections[0] in answers[0].sections else answers[0].sections[0]
    explained = [first, *(a.sections[0] for a in answers[1:])]
    sections = [*dict.fromkeys([*explained, *sections])]
    return Lookup(tuple(sections), answers[0], tuple(answers[1:]))


def _books_by_hits(library: RulesLibrary, sections: Sequence[str]) -> list[RulesBook]:
    """With no game known, every game's book: the one of the best section first."""
    best = library.book_of(sections[0])
    return [best, *(b for b in library.books if b is not best)]


def find_sections(
    library: RulesLibrary, query: str, game: str | None = None, *, variant: str | None = None
) -> list[str]:
    """The section ids ``query`` may mean, best first; ``game`` (a kind) and ``variant``: the game being played
    in the chat."""
    book = library.book(game) if game is not None else None
    options = {book.variant_option: variant} if book is not None and book.variant_option and variant else {}
    context = None if game is None else GameContext(game, options)
    return list(lookup(library, query, context).sections)


def answer_line(answer: Answer, tr: Translator, *, named: bool = False) -> str:
    """A direct answer as the first line of a rules message; ``named``: the line starts with its game's name
    (when every game's answer is shown)."""
    line = tr.t("rules-answer-" + answer.key, **answer.args)
    if named and answer.game:
        line = f"{tr.t('game-' + answer.game)}: {line}"
    return f"💬 <b>{line}</b>"


def answer_lines(found: Lookup, tr: Translator) -> str:
    """The direct answer lines of a lookup: one, or one per game, each naming its game; "" for none."""
    if found.answer is None:
        return ""
    every = (found.answer, *found.also)
    return "\n".join(answer_line(a, tr, named=len(every) > 1) for a in every)


def render_rules_answer(
    library: RulesLibrary,
    found: Sequence[str],
    tr: Translator,
    *,
    is_group: bool,
    bot_username: str,
    game: GameContext | None = None,
    answer: Answer | None = None,
    also: Sequence[Answer] = (),
) -> Rendered:
    """The answer to «/rules <words>»: the direct ``answer`` (if the question has one), the best section, buttons
    for the next best and for the whole rules.

    In a private chat the section comes whole, with its examples; in a group only a few lines, and the whole
    section opens in the private chat by a deep link."""
    best = found[0]
    game_id = game.game_id if game is not None else ""
    more = [
        button("📖 " + library.section(s).nav(tr), RulesCb(section=s, game=game_id, page=True).pack())
        for s in found[1 : 1 + MORE_HITS]
    ]
    if is_group:
        text = section_text(library, best, tr, game=game, short=True)
        whole = url_button(tr.t("btn-rules-private"), rules_deep_link(bot_username, best))
    else:
        text = section_text(library, best, tr, game=game)
        whole = button(
            tr.t("btn-rules-all"), RulesCb(section=library.first.id, game=game_id, page=True).pack()
        )
    if answer is not None:
        text = answer_lines(Lookup(tuple(found), answer, tuple(also)), tr) + "\n\n" + text
    return Rendered(text, keyboard([more, [whole]]))


INLINE_RESULTS: Final = 10
"""Sections offered for one inline query (Telegram allows 50; a person reads the first few)."""
INLINE_DESCRIPTION: Final = 90


def _plain(text: str, limit: int) -> str:
    """``text`` without its HTML tags, on one line, cut to ``limit`` characters."""
    flat = " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _article(
    result_id: str, title: str, text: str, tr: Translator, bot_username: str, section_id: str
) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=result_id,
        title=title,
        # the direct answer when the text starts with one, else the section's first lines (after its title)
        description=_plain(text.partition("\n\n")[0 if text.startswith("💬") else 2], INLINE_DESCRIPTION),
        input_message_content=InputTextMessageContent(message_text=text, parse_mode=ParseMode.HTML),
        reply_markup=InlineKeyboardMarkup(
            inline_keyboard=[[url_button(tr.t("btn-rules-bot"), rules_deep_link(bot_username, section_id))]]
        ),
    )


def render_inline(
    library: RulesLibrary, query: str, tr: Translator, bot_username: str
) -> list[InlineQueryResultArticle]:
    """The answer to «@bot <words>» in any chat: the matching sections, best first, each a message to post
    (the section without its examples: a chat gets the short text); the first one starts with the direct answer
    when the question has one. An empty query, or one that finds nothing, gets the table of contents and then
    every section."""
    looked = lookup(library, query) if query.strip() else Lookup(())
    found = list(looked.sections[:INLINE_RESULTS])
    results = []
    if not found:
        contents = render_rules_contents(
            library, tr, bot_username=bot_username, is_group=True, found_nothing=False
        )
        results.append(
            _article(
                f"{tr.locale.value}-contents",
                tr.t("rules-inline-contents-title"),
                contents.text,
                tr,
                bot_username,
                library.first.id,
            )
        )
        found = [s.id for s in library.sections]
    for i, section_id in enumerate(found):
        text = section_text(library, section_id, tr, examples=False)
        if i == 0 and looked.answer is not None:
            text = answer_lines(looked, tr) + "\n\n" + text
        results.append(
            _article(
                f"{tr.locale.value}-{section_id}",
                library.section(section_id).title(tr),
                text,
                tr,
                bot_username,
                section_id,
            )
        )
    return results
