"""The pieces every game's lobby settings screen is made of: a choice marked ✅, a yes/no toggle, the time per
turn, «Готово». Each game's plug-in lays out its own options with them (``bot.games.*.settings``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.callbacks import LobbyCb, LobbyOp
from bot.i18n import Translator
from bot.model.game import TURN_TIME_KEY
from bot.views.common import button
from bot.views.lobby import LobbyInfo

TURN_TIME_CHOICES: Final = (30, 60, 120, 0)
MARK: Final = "✅ "


def set_option(info: LobbyInfo, key: str, value: str) -> str:
    """The callback data of a button that sets ``key`` to ``value`` in this lobby."""
    return LobbyCb(game=info.game_id, op=LobbyOp.SET, key=key, value=value).pack()


def choice(label: str, selected: bool, callback: str) -> InlineKeyboardButton:
    return button((MARK if selected else "") + label, callback)


def toggle(info: LobbyInfo, tr: Translator, key: str, label_key: str, current: bool) -> InlineKeyboardButton:
    label = tr.t(label_key) + ": " + tr.t("yes" if current else "no")
    return button(label, set_option(info, key, "0" if current else "1"))


def turn_time_row(info: LobbyInfo, tr: Translator) -> Sequence[InlineKeyboardButton]:
    return [
        choice(
            tr.t("turn-time", seconds=s),
            info.turn_seconds == s,
            set_option(info, TURN_TIME_KEY, str(s)),
        )
        for s in TURN_TIME_CHOICES
    ]


def done_row(info: LobbyInfo, tr: Translator) -> Sequence[InlineKeyboardButton]:
    return [button(tr.t("btn-done"), LobbyCb(game=info.game_id, op=LobbyOp.BACK).pack())]
