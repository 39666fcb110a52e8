"""The private /play screens: which game, how many bot opponents (when the game lets one choose), which level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton

from bot.callbacks import SoloCb, SoloStep
from bot.i18n import Translator
from bot.views.common import Rendered, button, keyboard, level_name
from engine.ai import Level


@dataclass(frozen=True, slots=True)
class SoloGame:
    """A game as the /play screens offer it: its plug-in's ``kind`` and how many bot opponents it may have."""

    kind: str
    opponents: tuple[int, ...]


def render_solo_setup(
    tr: Translator, games: Sequence[SoloGame], game: SoloGame | None = None, opponents: int = 0
) -> Rendered:
    """The /play screens: choose the game, then (where there is a choice) the number of bot opponents, then
    their level."""
    if game is None:
        rows = [
            [
                button(tr.t(f"game-{g.kind}-button"), SoloCb(step=SoloStep.GAME, game=g.kind).pack())
                for g in games
            ]
        ]
        return Rendered(tr.t("solo-choose-game"), keyboard(rows))
    if len(game.opponents) == 1:
        opponents = game.opponents[0]
    if not opponents:
        rows = [[_opponents_button(tr, game, n) for n in game.opponents]]
        return Rendered(tr.t("solo-choose-opponents", game=tr.t(f"game-{game.kind}")), keyboard(rows))
    rows = [
        [
            button(
                "🤖 " + level_name(level, tr),
                SoloCb(step=SoloStep.LEVEL, game=game.kind, opponents=opponents, level=level.value).pack(),
            )
            for level in Level
        ]
    ]
    return Rendered(
        tr.t("solo-choose-level", game=tr.t(f"game-{game.kind}"), count=opponents), keyboard(rows)
    )


def render_play_menu(tr: Translator, games: Sequence[SoloGame]) -> Rendered:
    """/play: for a game with a choice of opponents, its numbers (one tap to the level); for one without, the
    game itself (its number of bot players is said on the button)."""
    rows: list[Sequence[InlineKeyboardButton]] = []
    for game in games:
        if len(game.opponents) == 1:
            rows.append(
                [button(tr.t(f"btn-solo-{game.kind}"), SoloCb(step=SoloStep.GAME, game=game.kind).pack())]
            )
        else:
            # one button a row, each naming the game: «<game> — с двумя ботами»
            rows += [[_menu_opponents_button(tr, game, n)] for n in game.opponents]
    return Rendered(tr.t("solo-menu"), keyboard(rows))


def _menu_opponents_button(tr: Translator, game: SoloGame, count: int) -> InlineKeyboardButton:
    return button(
        tr.t("solo-menu-opponents-btn", game=tr.t(f"game-{game.kind}-button"), count=count),
        SoloCb(step=SoloStep.OPPONENTS, game=game.kind, opponents=count).pack(),
    )


def _opponents_button(tr: Translator, game: SoloGame, count: int) -> InlineKeyboardButton:
    return button(
        tr.t("solo-opponents-btn", count=count),
        SoloCb(step=SoloStep.OPPONENTS, game=game.kind, opponents=count).pack(),
    )
