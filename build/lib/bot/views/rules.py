"""/rules in short sections with navigation, /help, the command menus, and the solo setup screens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from aiogram.types import BotCommand, InlineKeyboardButton

from bot.callbacks import GameKind, RulesCb, RulesSection, SoloCb, SoloStep
from bot.i18n import Translator
from bot.views.common import button, keyboard, konchinka_options_summary, level_name
from bot.views.models import Rendered
from engine.ai import Level
from engine.core import JSONValue

KONCHINKA_SECTIONS: Final = (
    RulesSection.KONCHINKA,
    RulesSection.POINTS,
    RulesSection.SCORING,
    RulesSection.TALLY,
    RulesSection.EARLY_FINISH,
    RulesSection.OPTIONS,
)
KING_SECTIONS: Final = (RulesSection.KING, RulesSection.KING_SCORING)
SOLO_OPPONENTS: Final = (1, 2, 3)
KING_OPPONENTS: Final = 3


def rules_key(section: RulesSection) -> str:
    return f"rules-{section.name.lower().replace('_', '-')}"


def render_rules(
    section: RulesSection,
    tr: Translator,
    *,
    game_id: str = "",
    options: Mapping[str, JSONValue] | None = None,
) -> Rendered:
    """One section of the rules, with buttons to every section. With ``options`` (the game's options dict)
    the section ends with the options of that game; ``game_id`` is carried by the navigation buttons."""
    lines = [
        f"📖 <b>{tr.t('rules-title-' + rules_key(section).removeprefix('rules-'))}</b>",
        "",
        tr.t(rules_key(section)),
    ]
    if options is not None and section not in KING_SECTIONS:
        lines += ["", tr.t("rules-this-game", options=konchinka_options_summary(options, tr))]
    rows: list[Sequence[InlineKeyboardButton]] = []
    for group in (KONCHINKA_SECTIONS[:3], KONCHINKA_SECTIONS[3:], KING_SECTIONS):
        rows.append(
            [
                button(
                    ("• " if s is section else "") + tr.t("rules-nav-" + rules_key(s).removeprefix("rules-")),
                    RulesCb(section=s, game=game_id).pack(),
                )
                for s in group
            ]
        )
    return Rendered("\n".join(lines), keyboard(rows))


def render_help(tr: Translator) -> Rendered:
    """The /help text."""
    return Rendered(
        tr.t("help-text"),
        keyboard([[button(tr.t("btn-rules"), RulesCb(section=RulesSection.KONCHINKA).pack())]]),
    )


PRIVATE_COMMANDS: Final = ("play", "rules", "stats", "help")
GROUP_COMMANDS: Final = ("konchinka", "king", "new", "score", "cancel", "top", "rules", "help")


def bot_commands(tr: Translator) -> tuple[list[BotCommand], list[BotCommand]]:
    """The command menus for setMyCommands in this locale: (private chats, group chats)."""

    def make(names: Sequence[str]) -> list[BotCommand]:
        return [BotCommand(command=name, description=tr.t(f"cmd-{name}")) for name in names]

    return make(PRIVATE_COMMANDS), make(GROUP_COMMANDS)


def render_solo_setup(tr: Translator, kind: GameKind | None = None, opponents: int = 0) -> Rendered:
    """The /play screens: choose the game, then (Кончинка) the number of bot opponents, then their level."""
    if kind is None:
        rows = [
            [
                button(tr.t("btn-game", kind=k.value), SoloCb(step=SoloStep.GAME, game=k).pack())
                for k in GameKind
            ]
        ]
        return Rendered(tr.t("solo-choose-game"), keyboard(rows))
    if kind is GameKind.KING:
        opponents = KING_OPPONENTS
    if not opponents:
        rows = [
            [
                button(
                    tr.t("solo-opponents-btn", count=n),
                    SoloCb(step=SoloStep.OPPONENTS, game=kind, opponents=n).pack(),
                )
                for n in SOLO_OPPONENTS
            ]
        ]
        return Rendered(tr.t("solo-choose-opponents", kind=kind.value), keyboard(rows))
    rows = [
        [
            button(
                "🤖 " + level_name(level, tr),
                SoloCb(step=SoloStep.LEVEL, game=kind, opponents=opponents, level=level.value).pack(),
            )
            for level in Level
        ]
    ]
    return Rendered(tr.t("solo-choose-level", kind=kind.value, count=opponents), keyboard(rows))


def render_play_menu(tr: Translator) -> Rendered:
    """/play: Кончинка's numbers of bot opponents (one tap to the level), and Кинг (always three bots)."""
    konchinka = render_solo_setup(tr, GameKind.KONCHINKA)
    rows: list[Sequence[InlineKeyboardButton]] = list(
        konchinka.markup.inline_keyboard if konchinka.markup else []
    )
    rows.append([button(tr.t("btn-solo-king"), SoloCb(step=SoloStep.GAME, game=GameKind.KING).pack())])
    return Rendered(tr.t("solo-menu"), keyboard(rows))
