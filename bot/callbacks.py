"""Typed callback data of every inline button the bot draws.

Telegram allows 1–64 *bytes* of callback data, so every field is ASCII and every prefix is one or two letters.
The worst cases (a 12-character game id, a 6-digit version, a 3-digit index) stay under the limit; a test packs
each one and checks. Joining a lobby is not a callback but a deep link (see :func:`start_link`), so that every
player has opened the private chat before the game starts.

A press carries the game id and, for moves, the state version it was drawn for: the service answers a press
for another version as stale and changes nothing.
"""

from __future__ import annotations

import enum
from typing import Final

from aiogram.filters.callback_data import CallbackData

MAX_CALLBACK_BYTES: Final = 64


class LobbyOp(enum.StrEnum):
    """What a lobby button does."""

    LEAVE = "lv"
    BOT_MENU = "bm"
    """Show the level choice for a new bot player."""
    ADD_BOT = "ab"
    """Add a bot player; ``value`` is its level (an ``engine.ai.Level`` value)."""
    REMOVE_BOT = "rb"
    """Remove the bot player in seat ``value`` (creator only)."""
    SETTINGS = "st"
    """Open the settings screen (creator only)."""
    SET = "set"
    """Set option ``key`` to ``value`` (idempotent: the button carries the new value, not a toggle)."""
    BACK = "bk"
    """Back from the settings or bot-level screen to the lobby."""
    START = "go"
    CANCEL = "x"


class SettingKey(enum.StrEnum):
    """Lobby settings a button can set. Values travel as short ASCII strings (see :func:`setting_value`)."""

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
    TURN_TIME = "time"
    """An int: seconds per turn; ``0`` means no limit."""
    KING_FORCED = "kforced"
    """Кинг ``king_forced_on_heart_lead``: ``1`` / ``0``."""
    KING_STOP = "kstop"
    """Кинг ``stop_when_decided``: ``1`` / ``0``."""
    KING_ORDER = "korder"
    """Кинг ``order``: the code of one of the preset orders of the negative deals (``bot.views.king``)."""


SETTING_OPTION_NAMES: Final[dict[SettingKey, str]] = {
    SettingKey.VARIANT: "variant",
    SettingKey.TARGET: "target",
    SettingKey.MULTI_CAPTURE: "multi_capture",
    SettingKey.FORCED_CAPTURE: "forced_capture",
    SettingKey.EARLY_FINISH: "early_finish",
    SettingKey.SETTLEMENT: "settlement",
    SettingKey.STAKE: "stake",
    SettingKey.KING_FORCED: "king_forced_on_heart_lead",
    SettingKey.KING_STOP: "stop_when_decided",
    SettingKey.KING_ORDER: "order",
}
"""The game option each setting key maps to (TURN_TIME is the bot's own setting, not a game option)."""


class LobbyCb(CallbackData, prefix="l"):
    """A lobby button: ``l:<game>:<op>:<key>:<value>``."""

    game: str
    op: LobbyOp
    key: str = ""
    value: str = ""


class MoveCb(CallbackData, prefix="m"):
    """Play ``view.legal_actions[index]`` of the state at ``version`` (also the early finish)."""

    game: str
    version: int
    index: int


class PickCb(CallbackData, prefix="p"):
    """First tap of the two-tap flow: show what ``card`` (a card code, e.g. ``Td``) can do."""

    game: str
    version: int
    card: str


class BackCb(CallbackData, prefix="b"):
    """«← Другая карта»: back to the whole hand."""

    game: str
    version: int


class TableCb(CallbackData, prefix="tb"):
    """«📋 Стол» in a private hand: send the whole table (deck, every pile, the moves, the tally) privately."""

    game: str


class HintCb(CallbackData, prefix="h"):
    """«💡 Подсказка» in a solo hand: what the strongest bot player would play at ``version``, and why."""

    game: str
    version: int


class RulesSection(enum.StrEnum):
    """Sections of /rules, in the order the navigation shows them."""

    KONCHINKA = "k"
    CAPTURES = "kc"
    POINTS = "kp"
    SCORING = "ks"
    TALLY = "kt"
    EARLY_FINISH = "kf"
    OPTIONS = "ko"
    KING = "g"
    KING_NEGATIVE = "gn"
    KING_TRUMP = "gt"
    KING_SCORING = "gs"


class RulesCb(CallbackData, prefix="r"):
    """Show one rules section; ``game`` (optional) is the game whose options to show. ``page`` marks a button of
    a rules message, which turns that message's page in place; elsewhere (a game message) the section goes to the
    presser's private chat."""

    section: RulesSection
    game: str = ""
    page: bool = False


class ReviewCb(CallbackData, prefix="rv"):
    """«🔍 Разбор партии» on a finished party's end message: the presser's own moves, reviewed privately."""

    game: str


class RematchCb(CallbackData, prefix="rm"):
    """A new lobby with the same players and options as the finished ``game``."""

    game: str


class GameKind(enum.StrEnum):
    KONCHINKA = "konchinka"
    KING = "king"


class NewVariant(enum.StrEnum):
    """The Кончинка variants /new offers."""

    CLASSIC = "classic"
    POINTS = "points"


class NewCb(CallbackData, prefix="n"):
    """/new: the game (and Кончинка's variant) of the lobby to open."""

    kind: GameKind
    variant: NewVariant = NewVariant.CLASSIC


class SoloStep(enum.StrEnum):
    """The steps of the private /play setup."""

    GAME = "g"
    """The game is chosen; next ask the number of opponents (Кинг: always 3, skip to the level)."""
    OPPONENTS = "o"
    """The number of opponents is chosen; next ask the level."""
    LEVEL = "l"
    """The level is chosen: start the game."""


class SoloCb(CallbackData, prefix="s"):
    """A solo setup button; fields not chosen yet are empty / 0."""

    step: SoloStep
    game: GameKind
    opponents: int = 0
    level: str = ""


class SeatCb(CallbackData, prefix="t"):
    """Take back the seat a bot player took over after missed turns."""

    game: str


class DeepLink(enum.StrEnum):
    """Prefixes of ``/start`` payloads (``t.me/<bot>?start=<prefix><game id>``)."""

    JOIN = "j_"
    """Join the lobby of a group game."""
    GAME = "g_"
    """Open (resume) the private messages of a running game: used by the «start the bot» notice."""
    RULES = "r_"
    """Open a rules section in the private chat (a group gets the short answer, the whole text goes here)."""


def start_link(bot_username: str, kind: DeepLink, game_id: str) -> str:
    """The deep link that opens the private chat with the bot and sends ``/start <kind><game_id>``."""
    return f"https://t.me/{bot_username}?start={kind.value}{game_id}"


def parse_start_payload(payload: str) -> tuple[DeepLink, str] | None:
    """``("j_abc")`` -> ``(DeepLink.JOIN, "abc")``; None for anything else."""
    for kind in DeepLink:
        if payload.startswith(kind.value) and len(payload) > len(kind.value):
            return kind, payload[len(kind.value) :]
    return None
