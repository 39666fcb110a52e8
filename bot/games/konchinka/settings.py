"""Кончинка's lobby settings: variant, target, the three house rules, settlement and stake, the time per turn;
and how a setting button changes the options."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.i18n import Translator
from bot.views.common import Rendered, keyboard, option
from bot.views.lobby import LobbyInfo
from bot.views.settings import choice, done_row, set_option, toggle, turn_time_row
from engine.core import JSONValue
from engine.konchinka import KonchinkaOptions


class KonchinkaSetting(enum.StrEnum):
    """Кончинка's lobby settings: the key a button carries, and (:attr:`option`) the game option it sets."""

    VARIANT = "variant"
    """``classic`` / ``points``."""
    TARGET = "target"
    """An int: the party target."""
    MULTI_CAPTURE = "multi"
    """``1`` / ``0``."""
    FORCED_CAPTURE = "forced"
    """``1`` / ``0``."""
    EARLY_FINISH = "early"
    """``1`` / ``0``."""
    SETTLEMENT = "settle"
    """``points`` / ``stake``."""
    STAKE = "stake"
    """An int."""

    @property
    def option(self) -> str:
        return _OPTIONS[self]


_OPTIONS: Final = {
    KonchinkaSetting.VARIANT: "variant",
    KonchinkaSetting.TARGET: "target",
    KonchinkaSetting.MULTI_CAPTURE: "multi_capture",
    KonchinkaSetting.FORCED_CAPTURE: "forced_capture",
    KonchinkaSetting.EARLY_FINISH: "early_finish",
    KonchinkaSetting.SETTLEMENT: "settlement",
    KonchinkaSetting.STAKE: "stake",
}

TARGET_CHOICES: Final = (11, 15, 21, 31)
STAKE_CHOICES: Final = (1, 2, 5, 10)


def set_konchinka_option(options: Mapping[str, JSONValue], key: str, value: str) -> dict[str, JSONValue]:
    """The options with one setting changed (ValueError if the key or the value is not allowed)."""
    name = KonchinkaSetting(key).option
    parsed: JSONValue
    if name in ("target", "stake"):
        parsed = int(value)
    elif name in ("multi_capture", "forced_capture", "early_finish"):
        if value not in ("0", "1"):
            raise ValueError(f"not a flag: {value!r}")
        parsed = value == "1"
    else:
        parsed = value
    changed = {**options, name: parsed}
    KonchinkaOptions.from_dict({**changed, "players": 2})  # validates
    return changed


def render_konchinka_settings(info: LobbyInfo, tr: Translator) -> Rendered:
    opts = info.options
    variant = str(option(opts, "variant", "classic"))
    target = option(opts, "target", 15)
    multi = bool(option(opts, "multi_capture", False))
    forced = bool(option(opts, "forced_capture", False))
    early = bool(option(opts, "early_finish", True))
    settlement = str(option(opts, "settlement", "points"))
    stake = option(opts, "stake", 1)
    lines = [
        f"⚙️ <b>{tr.t('settings-title')}</b> · {tr.t('game-konchinka')}",
        "",
        tr.t("settings-variant", variant=variant),
        tr.t("settings-target", target=str(target)),
        tr.t("settings-multi", value=tr.t("yes" if multi else "no")),
        tr.t("settings-forced", value=tr.t("yes" if forced else "no")),
        tr.t("settings-early", value=tr.t("yes" if early else "no")),
        tr.t("settings-settlement", settlement=settlement, stake=str(stake)),
        tr.t("settings-turn-time", seconds=info.turn_seconds),
        "",
        tr.t("settings-hint"),
    ]
    rows: list[Sequence[InlineKeyboardButton]] = [
        [
            choice(
                tr.t("opt-variant", variant=v), variant == v, set_option(info, KonchinkaSetting.VARIANT, v)
            )
            for v in ("classic", "points")
        ],
        [
            choice(
                tr.t("opt-target", target=t), target == t, set_option(info, KonchinkaSetting.TARGET, str(t))
            )
            for t in TARGET_CHOICES
        ],
        [toggle(info, tr, KonchinkaSetting.MULTI_CAPTURE, "settings-multi-short", multi)],
        [toggle(info, tr, KonchinkaSetting.FORCED_CAPTURE, "settings-forced-short", forced)],
        [toggle(info, tr, KonchinkaSetting.EARLY_FINISH, "settings-early-short", early)],
        [
            choice(
                tr.t("settlement-name", settlement=s),
                settlement == s,
                set_option(info, KonchinkaSetting.SETTLEMENT, s),
            )
            for s in ("points", "stake")
        ],
    ]
    if settlement == "stake":
        rows.append(
            [
                choice(
                    tr.t("opt-stake", stake=s), stake == s, set_option(info, KonchinkaSetting.STAKE, str(s))
                )
                for s in STAKE_CHOICES
            ]
        )
    rows.append(turn_time_row(info, tr))
    rows.append(done_row(info, tr))
    return Rendered("\n".join(lines), keyboard(rows))
