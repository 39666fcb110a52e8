"""/rules in short sections with navigation and worked examples, /help and the command menus, over every hosted
game's rules book (a :class:`RulesLibrary`, which the handlers pass in: views know no game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from aiogram.types import BotCommand, InlineKeyboardButton

from bot.callbacks import DeepLink, RulesCb, start_link
from bot.i18n import Translator
from bot.views.common import Rendered, button, keyboard, url_button
from bot.views.rules_book import RulesLibrary, RulesSection
from engine.core import JSONValue

SHOWN_MARK: Final = "• "
"""Marks the navigation button of the section a rules message shows."""
NAV_ROW: Final = 4
"""Section buttons in a row of the navigation (each game's sections start a row)."""


@dataclass(frozen=True, slots=True)
class GameContext:
    """The game whose rules are asked about: its kind and options (``game_id`` for the navigation buttons),
    and its time per move (None: not known here)."""

    kind: str
    options: Mapping[str, JSONValue]
    game_id: str = ""
    turn_seconds: int | None = None


def game_options_lines(library: RulesLibrary, game: GameContext, tr: Translator) -> list[str]:
    """What the game's options are, each with its value («Брать обязательно: да»), under a heading."""
    book = library.book(game.kind)
    if book is None:
        return []
    lines = list(book.option_lines(game.options, tr))
    if game.turn_seconds is not None:
        lines.append(tr.t("settings-turn-time", seconds=game.turn_seconds))
    return [tr.t(book.options_title), *("• " + line for line in lines)]


def examples_text(section: RulesSection, tr: Translator) -> str:
    """The section's worked examples under their heading ("" for a section without one)."""
    if not section.examples:
        return ""
    lines = [tr.t("rules-examples-title", count=len(section.examples))]
    lines += ["• " + example.text(tr) for example in section.examples]
    return "\n".join(lines)


def section_text(
    library: RulesLibrary,
    section_id: str,
    tr: Translator,
    *,
    game: GameContext | None = None,
    examples: bool = True,
    short: bool = False,
) -> str:
    """A section as a message: its title, its text (``short``: a few lines, for a group), its worked examples,
    and the options of ``game`` (when the section is about that game)."""
    section = library.section(section_id)
    blocks = [f"📖 <b>{section.title(tr)}</b>", section.text(tr, short=short)]
    if examples and not short:
        worked = examples_text(section, tr)
        if worked:
            blocks.append(worked)
    if game is not None and library.book_of(section_id).kind == game.kind:
        options = game_options_lines(library, game, tr)
        if options:
            blocks.append("\n".join(options))
    return "\n\n".join(blocks)


def nav_rows(
    library: RulesLibrary, section_id: str | None, tr: Translator, game_id: str
) -> list[Sequence[InlineKeyboardButton]]:
    """A button for every section, game by game (``section_id``'s marked): each turns the rules message's page."""
    rows: list[Sequence[InlineKeyboardButton]] = []
    for book in library.books:
        buttons = [
            button(
                (SHOWN_MARK if s.id == section_id else "") + s.nav(tr),
                RulesCb(section=s.id, game=game_id, page=True).pack(),
            )
            for s in book.sections
        ]
        rows += [buttons[i : i + NAV_ROW] for i in range(0, len(buttons), NAV_ROW)]
    return rows


def render_rules(
    library: RulesLibrary,
    section_id: str,
    tr: Translator,
    *,
    game_id: str = "",
    options: Mapping[str, JSONValue] | None = None,
    game: GameContext | None = None,
) -> Rendered:
    """One section of the rules, with buttons to every section. With ``game`` (or the ``options`` of a party of
    the section's game) the section ends with that game's options; ``game_id`` is carried by the navigation
    buttons."""
    if game is None and options is not None:
        game = GameContext(library.book_of(section_id).kind, options, game_id)
    game_id = game.game_id if game is not None and game.game_id else game_id
    return Rendered(
        section_text(library, section_id, tr, game=game), keyboard(nav_rows(library, section_id, tr, game_id))
    )


def rules_deep_link(bot_username: str, section_id: str) -> str:
    return start_link(bot_username, DeepLink.RULES, section_id)


def _joined(items: Sequence[str], tr: Translator, last: str) -> str:
    """«A», «A <last> B», «A, B <last> C» (``last``: the text of the last joint, « и » or « или »)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + tr.t(last) + items[-1]


def render_rules_contents(
    library: RulesLibrary,
    tr: Translator,
    *,
    bot_username: str,
    is_group: bool,
    found_nothing: bool,
    first: str | None = None,
) -> Rendered:
    """The table of contents: for «/rules» in a group, and when «/rules <words>» finds nothing. ``first``: the
    kind of the game open in the chat — «/rules» there lists that game's topics (its first section behind the
    link) and only names the others."""
    books = sorted(library.books, key=lambda book: book.kind != first)
    others = [tr.t(f"game-{book.kind}") for book in books[1:]] if first and not found_nothing else []
    if others:
        books = books[:1]

    def topic(nav: str, game: str) -> str:
        # a game's first button bears the game's name; in the line after that name it reads «Раздача и ход»
        return tr.t("rules-topics-basics") if nav == game else nav

    games = "\n".join(
        tr.t(
            "rules-topics-game",
            game=tr.t(f"game-{book.kind}"),
            sections=", ".join(topic(s.nav(tr), tr.t(f"game-{book.kind}")) for s in book.sections),
        )
        for book in books
    )
    if others:
        games += "\n" + tr.t("rules-topics-others", games=", ".join(others))
    contents = (
        tr.t("rules-contents-game", game=tr.t(f"game-{books[0].kind}")) if others else tr.t("rules-contents")
    )
    heading = tr.t("rules-not-found") if found_nothing else f"<b>{contents}</b>"
    text = f"📖 {heading}\n\n{tr.t('rules-topics', games=games, bot=bot_username)}"
    if is_group:
        rows: list[Sequence[InlineKeyboardButton]] = [
            [url_button(tr.t("btn-rules-private"), rules_deep_link(bot_username, books[0].sections[0].id))]
        ]
    else:
        rows = nav_rows(library, None, tr, "")
    return Rendered(text, keyboard(rows))


def render_help(library: RulesLibrary, tr: Translator, bot_username: str = "") -> Rendered:
    """The /help text: the games, their commands, the bot's own commands and how a move is made in each game."""
    books = library.books
    text = tr.t(
        "help-text",
        bot=bot_username or "bot",
        games=_joined([tr.t(f"game-{book.kind}") for book in books], tr, "rules-list-and"),
        commands=_joined([f"/{book.command}" for book in books], tr, "rules-list-or"),
        moves="\n".join(
            (
                tr.t("help-nextgame"),
                tr.t("help-settings"),
                tr.t("help-ratings"),
                tr.t("help-no-undo"),
                *(tr.t(b.help_line) for b in books if b.help_line),
            )
        ),
    )
    first = RulesCb(section=library.first.id, page=True).pack()
    return Rendered(text, keyboard([[button(tr.t("btn-rules"), first)]]))


PRIVATE_COMMANDS: Final = ("play", "rules", "stats", "me", "privacy", "leave", "lang", "help")
GROUP_COMMANDS: Final = (
    "new",
    "nextgame",
    "settings",
    "score",
    "leave",
    "cancel",
    "top",
    "rules",
    "lang",
    "help",
)
"""The group menu's own commands, after each game's command."""


def bot_commands(library: RulesLibrary, tr: Translator) -> tuple[list[BotCommand], list[BotCommand]]:
    """The command menus for setMyCommands in this locale: (private chats, group chats)."""

    def make(names: Sequence[str]) -> list[BotCommand]:
        return [BotCommand(command=name, description=tr.t(f"cmd-{name}")) for name in names]

    games = [book.command for book in library.books]
    return make(PRIVATE_COMMANDS), make([*games, *GROUP_COMMANDS])
