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
MAX_GAME_ID: Final = 2**63 - 1
"""SQLite's largest integer: a forged id beyond it is no game (and must not reach a query)."""


def game_id_of(text: str) -> int | None:
    """The game id a button or link carries: plain ASCII digits, 1..2^63-1; None for anything else."""
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        return None
    value = int(text)
    return value if 0 < value <= MAX_GAME_ID else None


def game_of(text: str) -> int:
    """The game id a button carries (0, which no game has, when it carries none: the game is not found)."""
    return game_id_of(text) or 0


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


"""The lobby setting every game has: seconds per turn (``0``: no limit), the bot's own, not a game option.
Each game's plug-in names its other setting keys (short ASCII, carried by ``LobbyCb.key``)."""


class LobbyCb(CallbackData, prefix="l"):
    """A lobby button: ``l:<game>:<op>:<key>:<value>`` (``key``: :data:`TURN_TIME_KEY` or a setting key of the
    game's plug-in)."""

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
    """A tap on ``card`` (a card code, e.g. ``Td``): its one move played, or what it can do shown."""

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


class RulesCb(CallbackData, prefix="r"):
    """Show one rules section: ``section`` is its id (short ASCII, each game's rules book names its sections;
    the rules handler answers only ids a hosted game has). ``game`` (optional) is the game whose options to show.
    ``page`` marks a button of a rules message, which turns that message's page in place; elsewhere (a game
    message) the section goes to the presser's private chat."""

    section: str
    game: str = ""
    page: bool = False


class ReviewCb(CallbackData, prefix="rv"):
    """«🔍 Разбор партии» on a finished party's end message: the presser's own moves, reviewed privately."""

    game: str


class SheetCb(CallbackData, prefix="sh"):
    """«📋 Запись» in a private hand: the party's score sheet as a picture, sent anew below."""

    game: str


class HistoryCb(CallbackData, prefix="hs"):
    """«📜 История» on a finished party's end message: the party as a text file, in the chat pressed in."""

    game: str


class MeCb(CallbackData, prefix="me"):
    """«📊 Моя страница» under a party's result in a player's own chat: their page (``/me``) anew below."""


class RematchCb(CallbackData, prefix="rm"):
    """A new lobby with the same players and options as the finished ``game``."""

    game: str


class NewCb(CallbackData, prefix="n"):
    """/new: the game (its plug-in's ``kind``) of the lobby to open, and one of the plug-in's choices for it."""

    kind: str
    choice: str = ""


class SoloStep(enum.StrEnum):
    """The steps of the private /play setup."""

    GAME = "g"
    """The game is chosen; next ask the number of opponents (none when the game has one number)."""
    OPPONENTS = "o"
    """The number of opponents is chosen; next ask the level."""
    LEVEL = "l"
    """The level is chosen: start the game."""


class SoloCb(CallbackData, prefix="s"):
    """A solo setup button; fields not chosen yet are empty / 0."""

    step: SoloStep
    game: str
    """The game's plug-in ``kind``."""
    opponents: int = 0
    level: str = ""


class SeatCb(CallbackData, prefix="t"):
    """Take back the seat a bot player took over after missed turns."""

    game: str


MOVE_BUTTONS: Final = (MoveCb, PickCb, BackCb, SeatCb)
"""The buttons that make a move — a card's tap, a move of a picked card, «← Другая карта», taking one's seat back —
pressed in the chat or in the Mini App alike."""


class MenuOp(enum.StrEnum):
    """A button of the private menu (/start, plain text, a command meant for a group)."""

    PLAY = "p"
    """Play with bots: the /play menu (or the running game's hand, brought back below)."""


class MenuCb(CallbackData, prefix="mn"):
    """A private menu button."""

    op: MenuOp


class LangCb(CallbackData, prefix="lg"):
    """/lang's choice for the chat it was asked in: ``lang`` is a ``bot.i18n.Locale`` value, or :data:`AUTO_LANG`."""

    lang: str


AUTO_LANG: Final = "auto"
"""/lang's «as in Telegram»: no choice kept, each person's Telegram language followed."""


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
