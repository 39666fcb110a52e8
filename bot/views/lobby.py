"""The group lobby: who plays, with which options, and the buttons to join, add bots, set up and start."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton

from bot.callbacks import DeepLink, LobbyCb, LobbyOp, start_link
from bot.i18n import Translator
from bot.model.game import LobbyScreen
from bot.views.common import (
    Rendered,
    SeatInfo,
    button,
    fit,
    keyboard,
    level_name,
    person_name,
    rules_button,
    seat_name,
    url_button,
)
from engine.ai import Level
from engine.core import JSONValue


class LobbyStatus(enum.StrEnum):
    OPEN = "open"
    STARTED = "started"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    """A group lobby: ``options`` are the game's options as stored (without the number of players, which is the
    number of seats at the start); ``summary`` names the game and its options, ``rules_section`` the rules that
    fit them, ``fills_with_bots`` whether empty seats go to bot players at the start (all three from the game's
    plug-in); ``turn_seconds`` is the bot's turn time limit (0: none). ``creator_id``: the creator's user id; when
    they sit at the table their seat is marked instead of a separate «Собирает:» line."""

    game_id: str
    kind: str
    options: Mapping[str, JSONValue]
    seats: tuple[SeatInfo, ...]
    bot_username: str
    creator_name: str = ""
    turn_seconds: int = 60
    creator_id: int | None = None
    min_players: int = 2
    max_players: int = 4
    screen: LobbyScreen = LobbyScreen.MAIN
    status: LobbyStatus = LobbyStatus.OPEN
    summary: str = ""
    rules_section: str = ""
    fills_with_bots: bool = False


def render_new_menu(games: Sequence[Sequence[tuple[str, str]]], tr: Translator) -> Rendered:
    """/new in a group: which game to open; ``games``: each game's buttons (label, callback data), a row each."""
    rows = [[button(label, data) for label, data in choices] for choices in games]
    return Rendered(tr.t("solo-choose-game"), keyboard(rows))


def render_lobby(info: LobbyInfo, tr: Translator) -> Rendered:
    """The lobby message in the group: the main screen or the bot-level choice (the settings screen is the
    game plug-in's own)."""
    if info.status is not LobbyStatus.OPEN:
        return Rendered(_closed_text(info, tr), None)
    if info.screen is LobbyScreen.BOT_LEVEL:
        return _bot_level(info, tr)
    return _main(info, tr)


def _title(info: LobbyInfo, tr: Translator) -> str:
    return info.summary


def _is_creator(info: LobbyInfo, seat: SeatInfo) -> bool:
    return info.creator_id is not None and not seat.is_bot and seat.user_id == info.creator_id


def _player_lines(info: LobbyInfo, tr: Translator) -> list[str]:
    lines = []
    for number, seat in enumerate(info.seats, start=1):
        line = f" {number}. {seat_name(seat, tr)}"
        if seat.is_bot and seat.level is not None:
            line += f" <i>({level_name(seat.level, tr)})</i>"
        elif _is_creator(info, seat):
            line += " " + tr.t("lobby-creator-mark")
        lines.append(line)
    return lines


def _main(info: LobbyInfo, tr: Translator) -> Rendered:
    def build(_keep: int | None) -> str:
        lines = [_title(info, tr)]
        if info.turn_seconds:
            lines.append(tr.t("lobby-turn-time", seconds=info.turn_seconds))
        lines.append(tr.t("lobby-players", count=len(info.seats), max=info.max_players))
        lines.extend(_player_lines(info, tr) or [tr.t("lobby-empty")])
        if info.creator_name and not any(_is_creator(info, seat) for seat in info.seats):
            lines.append(tr.t("lobby-creator", name=person_name(info.creator_name, tr)))
        if info.fills_with_bots and len(info.seats) < info.max_players:
            lines.append(tr.t("lobby-bots-fill"))
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
    elif any(seat.is_bot for seat in info.seats):
        second.append(button(tr.t("btn-bots"), LobbyCb(game=game, op=LobbyOp.BOT_MENU).pack()))
    rows.append(second)
    rows.append(
        [
            button(tr.t("btn-settings"), LobbyCb(game=game, op=LobbyOp.SETTINGS).pack()),
            rules_button(tr, info.rules_section, ""),
        ]
    )
    rows.append(
        [
            button(tr.t("btn-start"), LobbyCb(game=game, op=LobbyOp.START).pack()),
            button(tr.t("btn-cancel"), LobbyCb(game=game, op=LobbyOp.CANCEL).pack()),
        ]
    )
    return Rendered(fit(build), keyboard(rows))


def _bot_level(info: LobbyInfo, tr: Translator) -> Rendered:
    """The creator's screen for bot players: a level to add one (while seats are free), a button to remove each."""
    game = info.game_id
    lines = [_title(info, tr), ""]
    rows: list[Sequence[InlineKeyboardButton]] = []
    if len(info.seats) < info.max_players:
        lines.append(tr.t("lobby-bot-level"))
        rows.append(
            [
                button(
                    "🤖 " + level_name(level, tr),
                    LobbyCb(game=game, op=LobbyOp.ADD_BOT, value=level.value).pack(),
                )
                for level in Level
            ]
        )
    for index, seat in enumerate(info.seats):
        if seat.is_bot:
            remove = LobbyCb(game=game, op=LobbyOp.REMOVE_BOT, value=str(index)).pack()
            rows.append([button(tr.t("btn-remove-bot", name=seat_name(seat, tr)), remove)])
    rows.append([button(tr.t("btn-back"), LobbyCb(game=game, op=LobbyOp.BACK).pack())])
    return Rendered("\n".join(lines).rstrip(), keyboard(rows))


def _closed_text(info: LobbyInfo, tr: Translator) -> str:
    lines = [_title(info, tr)]
    lines.append(tr.t("lobby-status", status=info.status.value))
    if info.status is LobbyStatus.STARTED:
        lines.extend(_player_lines(info, tr))
    return "\n".join(lines)
