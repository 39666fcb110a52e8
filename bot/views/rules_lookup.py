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
CHAT_PRIOR: Final = 2.0
"""Where a question's words leave the game open, each game's answer is shown, the game of the best section first;
the chat's game counts its best section's score this many times: in a Кончинка chat «сколько раз сдают за игру»
is answered for Кончинка first, while a question in Кончинка's own words («десятка бубей скок очков») still puts
Кончинка first in a Кинг chat. Which game comes first changes no score (both answers are shown)."""


@dataclass(frozen=True, slots=True)
class Lookup:
    """What «/rules <words>» finds: the section ids, best first, and the direct answer, if the question has one.

    ``games``: where the question's words leave the game open (see :mod:`bot.views.rules_games`), every game in
    the running, likeliest first — ``sections`` then start with each one's best section, in that order, and
    ``answer``, ``also`` are their one-line answers, each line naming its game; the reply shows each game's."""

    sections: tuple[str, ...]
    answer: Answer | None = None
    also: tuple[Answer, ...] = ()
    games: tuple[str, ...] = ()


def _named_variant(book: RulesBook, question: Question) -> str | None:
    """The variant of ``book``'s game the question names («в очковой»), if one."""
    named = [v for v, words in book.variant_words.items() if any(question.has(w) for w in words)]
    return named[0] if len(named) == 1 else None


def _asked_variant(book: RulesBook, question: Question) -> str | None:
    """The variant of ``book``'s game a question with no game context asks about: the one it names; None when it
    names none (a direct answer then speaks of every variant: «в обычной — …, в очковой — …»)."""
    if not book.variant_option:
        return None
    return _named_variant(book, question)


def lookup(library: RulesLibrary, query: str, game: GameContext | None = None) -> Lookup:
    """The sections ``query`` may mean, best first, and its direct answer; ``game``: the game of the chat.

    The game first: the one the question's words say, the chat's game counting as a prior they can overturn
    (:meth:`RulesLibrary.verdict`); then the rule inside that game. Where the words leave the game open, each
    game's best section and answer — never the other game's alone."""
    question = library.read(query)
    verdict = library.verdict(question, game.kind if game is not None else None)
    hits = library.index.search(question) if verdict.kind is None else []
    best = {library.book_of(h.section).kind: h.score for h in reversed(hits)}
    chat = game.kind if game is not None else None
    # left open: the game of the best section first, the chat's game counting CHAT_PRIOR times its score — unless
    # the question's words or marks said the other game over the chat's (see rules_games): that one first
    kinds = list(verdict.games)
    if chat is None or kinds[:1] == [chat]:
        kinds.sort(key=lambda k: -best.get(k, 0.0) * (CHAT_PRIOR if k == chat else 1.0))
    found = [
        _lookup_in(library, question, kind, game if game is not None and game.kind == kind else None)
        for kind in kinds
    ]
    found = [f for f in found if f.sections]
    if len(found) < 2:
        return found[0] if found else Lookup(())
    answers = [f.answer for f in found if f.answer is not None]
    sections = [
        *dict.fromkeys([*(f.sections[0] for f in found), *(s for f in found for s in f.sections[1:])])
    ]
    return Lookup(
        tuple(sections),
        answers[0] if answers else None,
        tuple(answers[1:]),
        tuple(library.book_of(f.sections[0]).kind for f in found),
    )


def _lookup_in(library: RulesLibrary, question: Question, kind: str, game: GameContext | None) -> Lookup:
    """The sections of the game ``kind`` that ``question`` may mean, best first, and its direct answer there;
    ``game``: the party in the chat, when it is of this game.

    A direct answer moves the section that explains it to the top, unless the best section is one that does."""
    book = library.book(kind)
    if book is None:
        return Lookup(())
    variant = book.variant_of(game.options) if game is not None else None
    if variant is not None:  # a variant named in the question beats the party's
        variant = _named_variant(book, question) or variant
    sections = [hit.section for hit in library.index.search(question, game=kind, variant=variant)]
    sections = [s for s in sections if library.book_of(s) is book]
    context = AnswerContext(
        book.kind,
        variant if variant is not None else _asked_variant(book, question),
        game.options if game is not None else None,
        game.turn_seconds if game is not None else None,
    )
    answer = find_answer(question, context, book.answers, sections)
    if answer is not None:
        answer = dataclasses.replace(answer, game=book.kind)
    if not sections:
        if answer is not None:  # words no section has, but a question with a one-line answer («нас трое?»)
            sections = [answer.sections[0]]
        elif kind in (question.named, question.marked):  # «кончинка» and words no section has: its first page
            sections = [book.sections[0].id]
        else:
            return Lookup(())
    if answer is None:
        return Lookup(tuple(sections))
    # the section explaining the answer first (the best one where it explains it)
    first = sections[0] if sections[0] in answer.sections else answer.sections[0]
    return Lookup(tuple(dict.fromkeys([first, *sections])), answer)


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
        if line[1:2].islower():  # no capital after the colon («Кончинка: колода — 52 карты»)
            line = line[:1].lower() + line[1:]
        line = f"{tr.t('game-' + answer.game)}: {line}"
    return f"💬 <b>{line}</b>"


def answer_lines(found: Lookup, tr: Translator) -> str:
    """The direct answer lines of a lookup: one, or one per game, each naming its game; "" for none."""
    if found.answer is None:
        return ""
    every = (found.answer, *found.also)
    return "\n".join(answer_line(a, tr, named=len(every) > 1) for a in every)


def render_found(
    library: RulesLibrary,
    found: Lookup,
    tr: Translator,
    *,
    is_group: bool,
    bot_username: str,
    game: GameContext | None = None,
) -> Rendered:
    """The answer to «/rules <words>» from what :func:`lookup` found (its sections, answers and games left open):
    :func:`render_rules_answer` of them."""
    return render_rules_answer(
        library,
        found.sections,
        tr,
        is_group=is_group,
        bot_username=bot_username,
        game=game,
        answer=found.answer,
        also=found.also,
        games=found.games,
    )


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
    games: Sequence[str] = (),
) -> Rendered:
    """The answer to «/rules <words>»: the direct ``answer`` (if the question has one), the best section, buttons
    for the next best and for the whole rules.

    In a private chat the section comes whole, with its examples; in a group only a few lines, and the whole
    section opens in the private chat by a deep link. ``games``: the question's words left the game open — each
    game's short answer (its line, its section's few lines) under «Про какую игру?», a button for each."""
    best = found[0]
    game_id = game.game_id if game is not None else ""
    if len(games) > 1:
        return _render_each_game(library, found[: len(games)], tr, game=game, answers=(answer, *also))
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


def _render_each_game(
    library: RulesLibrary,
    sections: Sequence[str],
    tr: Translator,
    *,
    game: GameContext | None,
    answers: Sequence[Answer | None],
) -> Rendered:
    """Each game's short answer to a question that fits them all: its one-line answer, if any, and its best
    section's few lines; a button under each opens that section whole."""
    game_id = game.game_id if game is not None else ""
    blocks = [tr.t("rules-which-game")]
    for section in sections:
        kind = library.book_of(section).kind
        lines = [answer_line(a, tr, named=True) for a in answers if a is not None and a.game == kind]
        blocks.append("\n\n".join([*lines, section_text(library, section, tr, game=game, short=True)]))
    buttons = [
        [button("📖 " + library.section(s).title(tr), RulesCb(section=s, game=game_id, page=True).pack())]
        for s in sections
    ]
    return Rendered("\n\n".join(blocks), keyboard(buttons))


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
