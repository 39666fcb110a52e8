"""Кинг's lobby settings: the order of the seven negative deals (three presets), the two house rules, the time
per turn; and how a setting button changes the options."""

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
from engine.king import DEFAULT_ORDER, Contract, KingOptions


class KingSetting(enum.StrEnum):
    """Кинг's lobby settings: the key a button carries, and (:attr:`option`) the game option it sets."""

    FORCED = "kforced"
    """``king_forced_on_heart_lead``: ``1`` / ``0``."""
    STOP = "kstop"
    """``stop_when_decided``: ``1`` / ``0``."""
    ORDER = "korder"
    """``order``: the code of one of :data:`ORDER_PRESETS`."""

    @property
    def option(self) -> str:
        return _OPTIONS[self]


_OPTIONS: Final = {
    KingSetting.FORCED: "king_forced_on_heart_lead",
    KingSetting.STOP: "stop_when_decided",
    KingSetting.ORDER: "order",
}

ORDER_PRESETS: Final[dict[str, tuple[Contract, ...]]] = {
    "std": DEFAULT_ORDER,
    "jacks": (
        Contract.NO_JACKS,
        Contract.NO_TRICKS,
        Contract.NO_QUEENS,
        Contract.NO_HEARTS,
        Contract.NO_LAST_TWO,
        Contract.NO_KING,
        Contract.ERALASH,
    ),
    "cards": (
        Contract.NO_JACKS,
        Contract.NO_QUEENS,
        Contract.NO_HEARTS,
        Contract.NO_KING,
        Contract.NO_TRICKS,
        Contract.NO_LAST_TWO,
        Contract.ERALASH,
    ),
}
"""The orders of the negative deals a lobby offers (the value of ``KingSetting.ORDER``): the usual one,
«мальчики» first (the source's own example), and the card contracts before the trick contracts."""


def order_preset(order: Sequence[str | Contract]) -> str | None:
    """The preset code of an order (as stored in the options), or None for an order no preset has."""
    wanted = tuple(str(c) for c in order)
    for code, preset in ORDER_PRESETS.items():
        if tuple(str(c) for c in preset) == wanted:
            return code
    return None


def set_king_option(options: Mapping[str, JSONValue], key: str, value: str) -> dict[str, JSONValue]:
    """The options with one setting changed (ValueError if the key or the value is not allowed)."""
    setting = KingSetting(key)
    parsed: JSONValue
    if setting is KingSetting.ORDER:
        preset = ORDER_PRESETS.get(value)
        if preset is None:
            raise ValueError(f"not an order preset: {value!r}")
        parsed = [str(c) for c in preset]
    else:
        if value not in ("0", "1"):
            raise ValueError(f"not a flag: {value!r}")
        parsed = value == "1"
    changed = {**options, setting.option: parsed}
    KingOptions.from_dict(changed)  # validates
    return changed


def render_king_settings(info: LobbyInfo, tr: Translator) -> Rendered:
    opts = info.options
    forced = bool(option(opts, "king_forced_on_heart_lead", True))
    stop = bool(option(opts, "stop_when_decided", True))
    raw_order = opts.get("order")
    order = (
        [str(c) for c in raw_order] if isinstance(raw_order, list) else [str(c) for c in ORDER_PRESETS["std"]]
    )
    preset = order_preset(order)
    lines = [
        f"⚙️ <b>{tr.t('settings-title')}</b> · {tr.t('game-king')}",
        "",
        tr.t("settings-king-order", order=" → ".join(tr.t("king-contract-short", contract=c) for c in order)),
        tr.t("settings-king-forced", value=tr.t("yes" if forced else "no")),
        tr.t("settings-king-stop", value=tr.t("yes" if stop else "no")),
        tr.t("settings-turn-time", seconds=info.turn_seconds),
    ]
    rows: list[Sequence[InlineKeyboardButton]] = [
        [
            choice(
                tr.t("king-order-preset", preset=code),
                preset == code,
                set_option(info, KingSetting.ORDER, code),
            )
            for code in ORDER_PRESETS
        ],
        [toggle(info, tr, KingSetting.FORCED, "settings-king-forced-short", forced)],
        [toggle(info, tr, KingSetting.STOP, "settings-king-stop-short", stop)],
        turn_time_row(info, tr),
        done_row(info, tr),
    ]
    return Rendered("\n".join(lines), keyboard(rows))
