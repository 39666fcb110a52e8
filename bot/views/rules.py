"""/rules in short sections with navigation and worked examples, the answers to «/rules <words>», /help and
the command menus."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from aiogram.enums import ParseMode
from aiogram.types import (
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
)

from bot.callbacks import DeepLink, RulesCb, RulesSection, start_link
from bot.i18n import Locale, Translator, translator
from bot.views.common import button, keyboard, option, url_button
from bot.views.models import Rendered
from bot.views.rules_answers import Answer, AnswerContext, asks_about, find_answer
from bot.views.rules_examples import examples_text
from bot.views.rules_search import Document, RulesIndex, word_of
from bot.views.rules_words import COMMON_SYNONYMS, GAMES, GameKind
from engine.core import JSONValue
from engine.king.rules import DEFAULT_ORDER

KONCHINKA_SECTIONS: Final = (
    RulesSection.KONCHINKA,
    RulesSection.CAPTURES,
    RulesSection.POINTS,
    RulesSection.SCORING,
    RulesSection.TALLY,
    RulesSection.EARLY_FINISH,
    RulesSection.OPTIONS,
)
KING_SECTIONS: Final = (
    RulesSection.KING,
    RulesSection.KING_NEGATIVE,
    RulesSection.KING_TRUMP,
    RulesSection.KING_SCORING,
)
NAV_ROWS: Final = (KONCHINKA_SECTIONS[:4], KONCHINKA_SECTIONS[4:], KING_SECTIONS)
MORE_HITS: Final = 2
"""Buttons for the next best sections under a /rules answer."""


@dataclass(frozen=True, slots=True)
class GameContext:
    """The game whose rules are asked about: its kind and options (``game_id`` for the navigation buttons),
    and its time per move (None: not known here)."""

    kind: GameKind
    options: Mapping[str, JSONValue]
    game_id: str = ""
    turn_seconds: int | None = None

    @property
    def variant(self) -> str | None:
        """The Кончинка variant («classic», «points»); None for another game."""
        if self.kind is not GameKind.KONCHINKA:
            return None
        return str(option(self.options, "variant", "classic"))


def rules_key(section: RulesSection) -> str:
    return f"rules-{section.name.lower().replace('_', '-')}"


def section_title(section: RulesSection, tr: Translator) -> str:
    return tr.t("rules-title-" + rules_key(section).removeprefix("rules-"))


def section_nav(section: RulesSection, tr: Translator) -> str:
    return tr.t("rules-nav-" + rules_key(section).removeprefix("rules-"))


def sections_of(kind: GameKind) -> tuple[RulesSection, ...]:
    return KING_SECTIONS if kind is GameKind.KING else KONCHINKA_SECTIONS


def game_options_lines(game: GameContext, tr: Translator) -> list[str]:
    """What the game's options are, each with its value («Брать обязательно: да»)."""
    opts = game.options

    def yes_no(name: str, default: bool) -> str:
        return tr.t("yes" if option(opts, name, default) else "no")

    lines = [tr.t("rules-game-options", kind=game.kind.value)]
    turn = [] if game.turn_seconds is None else [tr.t("settings-turn-time", seconds=game.turn_seconds)]
    if game.kind is GameKind.KING:
        raw_order = opts.get("order")
        order = (
            [str(c) for c in raw_order] if isinstance(raw_order, list) else [str(c) for c in DEFAULT_ORDER]
        )
        lines += [
            tr.t(
                "settings-king-order",
                order=" → ".join(tr.t("king-contract-short", contract=c) for c in order),
            ),
            tr.t("settings-king-forced", value=yes_no("king_forced_on_heart_lead", True)),
            tr.t("settings-king-stop", value=yes_no("stop_when_decided", True)),
            *turn,
        ]
    else:
        lines += [
            tr.t("settings-variant", variant=str(option(opts, "variant", "classic"))),
            tr.t("settings-target", target=str(option(opts, "target", 15))),
            tr.t("settings-multi", value=yes_no("multi_capture", False)),
            tr.t("settings-forced", value=yes_no("forced_capture", False)),
            tr.t("settings-early", value=yes_no("early_finish", True)),
            tr.t(
                "settings-settlement",
                settlement=str(option(opts, "settlement", "points")),
                stake=str(option(opts, "stake", 1)),
            ),
            *turn,
        ]
    return [lines[0], *("• " + line for line in lines[1:])]


def section_text(
    section: RulesSection,
    tr: Translator,
    *,
    game: GameContext | None = None,
    examples: bool = True,
    short: bool = False,
) -> str:
    """A section as a message: its title, its text (``short``: a few lines, for a group), its worked examples,
    and the options of ``game`` (when the section is about that game)."""
    text = tr.t(rules_key(section).replace("rules-", "rules-short-", 1) if short else rules_key(section))
    blocks = [f"📖 <b>{section_title(section, tr)}</b>", text]
    if examples and not short:
        worked = examples_text(section, tr)
        if worked:
            blocks.append(worked)
    if game is not None and section in sections_of(game.kind):
        blocks.append("\n".join(game_options_lines(game, tr)))
    return "\n\n".join(blocks)


def _nav_rows(
    section: RulesSection | None, tr: Translator, game_id: str
) -> list[Sequence[InlineKeyboardButton]]:
    return [
        [
            button(
                ("• " if s is section else "") + section_nav(s, tr),
                RulesCb(section=s, game=game_id, page=True).pack(),
            )
            for s in row
        ]
        for row in NAV_ROWS
    ]


def render_rules(
    section: RulesSection,
    tr: Translator,
    *,
    game_id: str = "",
    options: Mapping[str, JSONValue] | None = None,
    game: GameContext | None = None,
) -> Rendered:
    """One section of the rules, with buttons to every section. With ``game`` (or the ``options`` of a Кончинка
    game) the section ends with that game's options; ``game_id`` is carried by the navigation buttons."""
    if game is None and options is not None:
        game = GameContext(GameKind.KONCHINKA, options, game_id)
    game_id = game.game_id if game is not None and game.game_id else game_id
    return Rendered(section_text(section, tr, game=game), keyboard(_nav_rows(section, tr, game_id)))


def _plain_text(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@functools.cache
def rules_index() -> RulesIndex:
    """The search index over every section: its titles, search words and whole text in every locale."""
    documents = []
    for words in GAMES:
        for entry in words.sections:
            section = entry.section
            titles, bodies = [], []
            for locale in Locale:
                tr = translator(locale)
                # «Кончинка: как брать» is found by «как брать»: the game's name says only which game
                titles += [section_title(section, tr).rpartition(":")[2], section_nav(section, tr)]
                bodies += [  # not the worked examples: their cards and counts are no topic of the section
                    section_text(section, tr, examples=False),
                    tr.t(rules_key(section).replace("rules-", "rules-short-", 1)),
                ]
            documents.append(
                Document(
                    section,
                    words.kind,
                    _plain_text("\n".join(titles)),
                    entry.keywords,
                    _plain_text("\n\n".join(bodies)),
                    entry.variant,
                )
            )
    synonyms: dict[str, str] = dict(COMMON_SYNONYMS)
    for words in GAMES:
        for key, value in words.synonyms.items():
            synonyms[key] = f"{synonyms[key]}; {value}" if key in synonyms else value
    names = {word_of(name).lemma: words.kind for words in GAMES for name in words.names}
    return RulesIndex(documents, synonyms, names)


@dataclass(frozen=True, slots=True)
class Lookup:
    """What «/rules <words>» finds: the sections, best first, and the direct answer, if the question has one."""

    sections: tuple[RulesSection, ...]
    answer: Answer | None = None


POINTS_WORDS: Final = ("очковый", "очковая", "points konchinka", "points variant")
"""Words that name the points variant in a question («сколько стоит валет в очковой»)."""
CLASSIC_WORDS: Final = ("обычный", "классика", "классический", "classic")


def lookup(query: str, game: GameContext | None = None) -> Lookup:
    """The sections ``query`` may mean, best first, and its direct answer; ``game``: the game of the chat.

    A direct answer moves the section that explains it to the top, unless the best section is one that does."""
    index = rules_index()
    question = index.read(query)
    kind = game.kind if game is not None else None
    variant = game.variant if game is not None else None
    if question.named is not None and question.named is not kind:
        kind, variant, game = question.named, None, None
    hits = index.search(question, game=kind, variant=variant)
    sections = [hit.section for hit in hits]
    if not sections:
        return Lookup(())
    if kind is not None:
        kinds = [kind]
    else:  # no game known: the answers of the game the best section is about, else of the other one
        best = GameKind.KING if sections[0] in KING_SECTIONS else GameKind.KONCHINKA
        kinds = [best, *(k for k in GameKind if k is not best)]
    if variant is None:
        if any(question.has(w) for w in CLASSIC_WORDS):
            variant = "classic"
        elif any(question.has(w) for w in POINTS_WORDS) or sections[0] is RulesSection.POINTS:
            variant = "points"
    answer = None
    for asked in kinds:
        context = AnswerContext(
            asked,
            variant if asked is GameKind.KONCHINKA else None,
            game.options if game is not None else None,
            game.turn_seconds if game is not None else None,
        )
        answer = find_answer(question, context, sections)
        if answer is not None or asks_about(question, asked):
            break
    if answer is not None and sections[0] not in answer.sections:
        first = answer.sections[0]
        sections = [first, *(s for s in sections if s is not first)]
    return Lookup(tuple(sections), answer)


def find_sections(
    query: str, game: GameKind | None = None, *, variant: str | None = None
) -> list[RulesSection]:
    """The sections ``query`` may mean, best first; ``game`` and ``variant``: the game being played in the chat."""
    context = None if game is None else GameContext(game, {} if variant is None else {"variant": variant})
    return list(lookup(query, context).sections)


def rules_deep_link(bot_username: str, section: RulesSection) -> str:
    return start_link(bot_username, DeepLink.RULES, section.value)


def answer_line(answer: Answer, tr: Translator) -> str:
    """A direct answer as the first line of a rules message."""
    return f"💬 <b>{tr.t('rules-answer-' + answer.key, **answer.args)}</b>"


def render_rules_answer(
    found: Sequence[RulesSection],
    tr: Translator,
    *,
    is_group: bool,
    bot_username: str,
    game: GameContext | None = None,
    answer: Answer | None = None,
) -> Rendered:
    """The answer to «/rules <words>»: the direct ``answer`` (if the question has one), the best section, buttons
    for the next best and for the whole rules.

    In a private chat the section comes whole, with its examples; in a group only a few lines, and the whole
    section opens in the private chat by a deep link."""
    best = found[0]
    game_id = game.game_id if game is not None else ""
    more = [
        button("📖 " + section_nav(s, tr), RulesCb(section=s, game=game_id, page=True).pack())
        for s in found[1 : 1 + MORE_HITS]
    ]
    if is_group:
        text = section_text(best, tr, game=game, short=True)
        whole = url_button(tr.t("btn-rules-private"), rules_deep_link(bot_username, best))
    else:
        text = section_text(best, tr, game=game)
        whole = button(
            tr.t("btn-rules-all"), RulesCb(section=RulesSection.KONCHINKA, game=game_id, page=True).pack()
        )
    if answer is not None:
        text = answer_line(answer, tr) + "\n\n" + text
    return Rendered(text, keyboard([more, [whole]]))


def render_rules_contents(
    tr: Translator, *, bot_username: str, is_group: bool, found_nothing: bool
) -> Rendered:
    """The table of contents: for «/rules» in a group, and when «/rules <words>» finds nothing."""
    topics = tr.t(
        "rules-topics",
        konchinka=", ".join(section_nav(s, tr) for s in KONCHINKA_SECTIONS),
        king=", ".join(section_nav(s, tr) for s in KING_SECTIONS),
        bot=bot_username,
    )
    heading = tr.t("rules-not-found") if found_nothing else f"<b>{tr.t('rules-contents')}</b>"
    text = f"📖 {heading}\n\n{topics}"
    if is_group:
        rows: list[Sequence[InlineKeyboardButton]] = [
            [url_button(tr.t("btn-rules-private"), rules_deep_link(bot_username, RulesSection.KONCHINKA))]
        ]
    else:
        rows = _nav_rows(None, tr, "")
    return Rendered(text, keyboard(rows))


def render_help(tr: Translator, bot_username: str = "") -> Rendered:
    """The /help text."""
    return Rendered(
        tr.t("help-text", bot=bot_username or "bot"),
        keyboard([[button(tr.t("btn-rules"), RulesCb(section=RulesSection.KONCHINKA, page=True).pack())]]),
    )


PRIVATE_COMMANDS: Final = ("play", "rules", "stats", "help")
GROUP_COMMANDS: Final = ("konchinka", "king", "new", "score", "cancel", "top", "rules", "help")


def bot_commands(tr: Translator) -> tuple[list[BotCommand], list[BotCommand]]:
    """The command menus for setMyCommands in this locale: (private chats, group chats)."""

    def make(names: Sequence[str]) -> list[BotCommand]:
        return [BotCommand(command=name, description=tr.t(f"cmd-{name}")) for name in names]

    return make(PRIVATE_COMMANDS), make(GROUP_COMMANDS)


INLINE_RESULTS: Final = 10
"""Sections offered for one inline query (Telegram allows 50; a person reads the first few)."""
INLINE_DESCRIPTION: Final = 90


def _plain(text: str, limit: int) -> str:
    """``text`` without its HTML tags, on one line, cut to ``limit`` characters."""
    flat = " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _article(
    result_id: str, title: str, text: str, tr: Translator, bot_username: str, section: RulesSection
) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=result_id,
        title=title,
        # the direct answer when the text starts with one, else the section's first lines (after its title)
        description=_plain(text.partition("\n\n")[0 if text.startswith("💬") else 2], INLINE_DESCRIPTION),
        input_message_content=InputTextMessageContent(message_text=text, parse_mode=ParseMode.HTML),
        reply_markup=InlineKeyboardMarkup(
            inline_keyboard=[[url_button(tr.t("btn-rules-bot"), rules_deep_link(bot_username, section))]]
        ),
    )


def render_inline(query: str, tr: Translator, bot_username: str) -> list[InlineQueryResultArticle]:
    """The answer to «@bot <words>» in any chat: the matching sections, best first, each a message to post
    (the section without its examples: a chat gets the short text); the first one starts with the direct answer
    when the question has one. An empty query, or one that finds nothing, gets the table of contents and then
    every section."""
    looked = lookup(query) if query.strip() else Lookup(())
    found = list(looked.sections[:INLINE_RESULTS])
    results = []
    if not found:
        contents = render_rules_contents(tr, bot_username=bot_username, is_group=True, found_nothing=False)
        results.append(
            _article(
                f"{tr.locale.value}-contents",
                tr.t("rules-inline-contents-title"),
                contents.text,
                tr,
                bot_username,
                RulesSection.KONCHINKA,
            )
        )
        found = list(RulesSection)
    for i, section in enumerate(found):
        text = section_text(section, tr, examples=False)
        if i == 0 and looked.answer is not None:
            text = answer_line(looked.answer, tr) + "\n\n" + text
        results.append(
            _article(
                f"{tr.locale.value}-{section.value}",
                section_title(section, tr),
                text,
                tr,
                bot_username,
                section,
            )
        )
    return results
