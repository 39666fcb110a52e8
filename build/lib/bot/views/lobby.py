"""The group lobby: who plays, with which options, and the buttons to join, add bots, set up and start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.callbacks import (
    DeepLink,
    GameKind,
    LobbyCb,
    LobbyOp,
    RulesSection,
    SettingKey,
    start_link,
)
from bot.i18n import Translator
from bot.views.common import (
    button,
    esc,
    fit,
    keyboard,
    konchinka_options_summary,
    level_name,
    option,
    rules_button,
    seat_name,
    url_button,
)
from bot.views.king import ORDER_PRESETS, order_preset
from bot.views.models import LobbyInfo, LobbyScreen, LobbyStatus, Rendered
from engine.ai import Level

TARGET_CHOICES: Final = (11, 15, 21, 31)
STAKE_CHOICES: Final = (1, 2, 5, 10)
TURN_TIME_CHOICES: Final = (30, 60, 120, 0)
MARK: Final = "✅ "


def render_lobby(info: LobbyInfo, tr: Translator) -> Rendered:
    """The lobby message in the group: the main screen, the settings or the bot-level choice."""
    if info.status is not LobbyStatus.OPEN:
        return Rendered(_closed_text(info, tr), None)
    if info.screen is LobbyScreen.SETTINGS:
        return _settings(info, tr)
    if info.screen is LobbyScreen.BOT_LEVEL:
        return _bot_level(info, tr)
    return _main(info, tr)


def _title(info: LobbyInfo, tr: Translator) -> str:
    if info.kind is GameKind.KING:
        return f"🃏 <b>{tr.t('game-king')}</b> · {tr.t('lobby-king-summary')}"
    return f"🃏 <b>{tr.t('game-konchinka')}</b> · {konchinka_options_summary(info.options, tr)}"


def _player_lines(info: LobbyInfo, tr: Translator) -> list[str]:
    lines = []
    for number, seat in enumerate(info.seats, start=1):
        line = f" {number}. {seat_name(seat, tr)}"
        if seat.is_bot and seat.level is not None:
            line += f" <i>({level_name(seat.level, tr)})</i>"
        lines.append(line)
    return lines


def _main(info: LobbyInfo, tr: Translator) -> Rendered:
    def build(_keep: int | None) -> str:
        lines = [_title(info, tr)]
        if info.turn_seconds:
            lines.append(tr.t("lobby-turn-time", seconds=info.turn_seconds))
        lines.append(tr.t("lobby-players", count=len(info.seats), max=info.max_players))
        lines.extend(_player_lines(info, tr) or [tr.t("lobby-empty")])
        if info.creator_name:
            lines.append(tr.t("lobby-creator", name=esc(info.creator_name)))
        if info.kind is GameKind.KING and len(info.seats) < info.max_players:
            lines.append(tr.t("lobby-king-fill"))
        lines.append(tr.t("lobby-first-dealer"))
        if len(info.seats) < info.min_players:
            lines.append(tr.t("lobby-need-more", need=info.min_players - len(info.seats)))
        return "\n".join(lines)

    game = info.game_id
    full = len(info.seats) >= info.max_players
    rows: list[Sequence[InlineKeyboardButton]] = []
    if not full:
        rows.append(
            [url_button(tr.t("btn-join"), start_link(info.bot_username, DeepLink.JOIN, game))],
        )
    second = [button(tr.t("btn-leave"), LobbyCb(game=game, op=LobbyOp.LEAVE).pack())]
    if not full:
        second.append(button(tr.t("btn-add-bot"), LobbyCb(game=game, op=LobbyOp.BOT_MENU).pack()))
    rows.append(second)
    rows.append(
        [
            button(tr.t("btn-settings"), LobbyCb(game=game, op=LobbyOp.SETTINGS).pack()),
            rules_button(tr, _rules_section(info), ""),
        ]
    )
    rows.append(
        [
            button(tr.t("btn-start"), LobbyCb(game=game, op=LobbyOp.START).pack()),
            button(tr.t("btn-cancel"), LobbyCb(game=game, op=LobbyOp.CANCEL).pack()),
        ]
    )
    return Rendered(fit(build), keyboard(rows))


def _rules_section(info: LobbyInfo) -> RulesSection:
    if info.kind is GameKind.KING:
        return RulesSection.KING
    if str(option(info.options, "variant", "classic")) == "points":
        return RulesSection.POINTS
    return RulesSection.KONCHINKA


def _bot_level(info: LobbyInfo, tr: Translator) -> Rendered:
    text = "\n".join([_title(info, tr), "", tr.t("lobby-bot-level")])
    game = info.game_id
    rows = [
        [
            button(
                "🤖 " + level_name(level, tr),
                LobbyCb(game=game, op=LobbyOp.ADD_BOT, value=level.value).pack(),
            )
            for level in Level
        ],
        [button(tr.t("btn-back"), LobbyCb(game=game, op=LobbyOp.BACK).pack())],
    ]
    return Rendered(text, keyboard(rows))


def _set(info: LobbyInfo, key: SettingKey, value: str) -> str:
    return LobbyCb(game=info.game_id, op=LobbyOp.SET, key=key.value, value=value).pack()


def _choice(label: str, selected: bool, callback: str) -> InlineKeyboardButton:
    return button((MARK if selected else "") + label, callback)


def _toggle(
    info: LobbyInfo, tr: Translator, key: SettingKey, label_key: str, current: bool
) -> InlineKeyboardButton:
    label = tr.t(label_key) + ": " + tr.t("yes" if current else "no")
    return button(label, _set(info, key, "0" if current else "1"))


def _settings(info: LobbyInfo, tr: Translator) -> Rendered:
    if info.kind is GameKind.KING:
        return _king_settings(info, tr)
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
            _choice(tr.t("opt-variant", variant=v), variant == v, _set(info, SettingKey.VARIANT, v))
            for v in ("classic", "points")
        ],
        [
            _choice(tr.t("opt-target", target=t), target == t, _set(info, SettingKey.TARGET, str(t)))
            for t in TARGET_CHOICES
        ],
        [_toggle(info, tr, SettingKey.MULTI_CAPTURE, "settings-multi-short", multi)],
        [_toggle(info, tr, SettingKey.FORCED_CAPTURE, "settings-forced-short", forced)],
        [_toggle(info, tr, SettingKey.EARLY_FINISH, "settings-early-short", early)],
        [
            _choice(
                tr.t("settlement-name", settlement=s), settlement == s, _set(info, SettingKey.SETTLEMENT, s)
            )
            for s in ("points", "stake")
        ],
    ]
    if settlement == "stake":
        rows.append(
            [
                _choice(tr.t("opt-stake", stake=s), stake == s, _set(info, SettingKey.STAKE, str(s)))
                for s in STAKE_CHOICES
            ]
        )
    rows.append(
        [
            _choice(
                tr.t("turn-time", seconds=s), info.turn_seconds == s, _set(info, SettingKey.TURN_TIME, str(s))
            )
            for s in TURN_TIME_CHOICES
        ]
    )
    rows.append([button(tr.t("btn-done"), LobbyCb(game=info.game_id, op=LobbyOp.BACK).pack())])
    return Rendered("\n".join(lines), keyboard(rows))


def _king_settings(info: LobbyInfo, tr: Translator) -> Rendered:
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
            _choice(
                tr.t("king-order-preset", preset=code),
                preset == code,
                _set(info, SettingKey.KING_ORDER, code),
            )
            for code in ORDER_PRESETS
        ],
        [_toggle(info, tr, SettingKey.KING_FORCED, "settings-king-forced-short", forced)],
        [_toggle(info, tr, SettingKey.KING_STOP, "settings-king-stop-short", stop)],
        [
            _choice(
                tr.t("turn-time", seconds=s), info.turn_seconds == s, _set(info, SettingKey.TURN_TIME, str(s))
            )
            for s in TURN_TIME_CHOICES
        ],
        [button(tr.t("btn-done"), LobbyCb(game=info.game_id, op=LobbyOp.BACK).pack())],
    ]
    return Rendered("\n".join(lines), keyboard(rows))


def _closed_text(info: LobbyInfo, tr: Translator) -> str:
    lines = [_title(info, tr)]
    lines.append(tr.t("lobby-status", status=info.status.value))
    if info.status is LobbyStatus.STARTED:
        lines.extend(_player_lines(info, tr))
    return "\n".join(lines)
