"""The Mini App's drawing: what one person sees of a game in the web page — the same texts the chat's messages
show, drawn from the same committed game, so after every change the chat and the page agree.

A seated person sees the table from their seat (as their «📋 Стол» copy shows it) and their hand (as their private
message shows it, the card they picked included); in a solo game the hand is the whole screen, as in the chat.
Anyone else the server lets look (a member of the group) sees the table as the group sees it, and no hand. The
buttons kept are those that make a move (:data:`MOVE_PREFIXES`); the others (the rules, a copy of the table, a
link to the private chat) belong to the chat — but for the looks the chat offers the same person (:class:`Look`):
«💡 Подсказка» where their hand has it, the score sheet once a deal has ended, «🔍 Разбор партии» of a finished
party they played; the page asks the server for them. While the turn is limited (the chat's «⏱ 60 с на ход»)
the screen carries the turn's deadline, which the page counts down. Pure: nothing here reads or writes anything
but its arguments.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from aiogram.types import InlineKeyboardMarkup

from bot.callbacks import MOVE_BUTTONS, HintCb
from bot.flow import hints
from bot.games.base import drawn
from bot.i18n import translator_for
from bot.model.game import Game, GameMode, GameStatus
from bot.views.common import Rendered, live_frame, table_frame

MOVE_PREFIXES: Final = tuple(f"{button.__prefix__}:" for button in MOVE_BUTTONS)
"""Callback data the page presses as the chat does: that of :data:`bot.callbacks.MOVE_BUTTONS`."""


@dataclass(frozen=True, slots=True)
class Page:
    """Where the Mini App is: its page's URL (a hand's button opens ``<url>?game=<id>``) and, when it is registered
    with @BotFather, its direct link ``https://t.me/<bot>/<name>`` (a group's table links ``<link>?startapp=g<id>``:
    Telegram lets a group's button open a Mini App only that way)."""

    url: str
    link: str = ""

    def for_hand(self, game_id: int) -> str:
        """What a hand's button opens: the page of game ``game_id``."""
        return f"{self.url}?game={game_id}"

    def for_group(self, game_id: int) -> str:
        """What a group's table links (``link`` set): the direct link, its start parameter naming the game."""
        return f"{self.link}?startapp={START_GAME}{game_id}"


START_GAME: Final = "g"
"""The direct link's start parameter: this, then the game's id (Telegram hands it to the page in the launch data)."""


@dataclass(frozen=True, slots=True)
class Button:
    text: str
    data: str
    """The callback data the chat's button carries: pressed through the page, it is the same command."""


@dataclass(frozen=True, slots=True)
class Panel:
    """One message's look: Telegram HTML (the page shows it as the chat does) and the move buttons by row."""

    html: str
    rows: tuple[tuple[Button, ...], ...]


class Look(enum.StrEnum):
    """What the page may ask of a game beside its moves, as the chat offers it."""

    HINT = "hint"
    """«💡 Подсказка» (its version: the party's, the hint is for)."""
    SHEET = "sheet"
    """The score sheet's picture (its version: the deals ended, which the picture shows)."""
    REVIEW = "review"
    """«🔍 Разбор партии» of the person's own moves."""


@dataclass(frozen=True, slots=True)
class Extra:
    """One look offered: the chat's button's words, and what it is of."""

    look: Look
    text: str
    version: int = 0


@dataclass(frozen=True, slots=True)
class Screen:
    """One person's page of one game."""

    game_id: int
    kind: str
    version: int
    """The party's version (0 before the party): the page ignores an older screen arriving after a newer one."""
    over: bool
    table: Panel | None
    hand: Panel | None
    extras: tuple[Extra, ...] = ()
    deadline: float | None = None
    """When the turn's time runs out (the bot's clock), while the chat shows the limit per turn."""

    def to_json(self) -> dict[str, Any]:
        def panel(p: Panel | None) -> dict[str, Any] | None:
            if p is None:
                return None
            rows = [[{"text": b.text, "data": b.data} for b in row] for row in p.rows]
            return {"html": p.html, "rows": rows}

        return {
            "game": self.game_id,
            "kind": self.kind,
            "version": self.version,
            "over": self.over,
            "table": panel(self.table),
            "hand": panel(self.hand),
            "extras": [{"look": e.look.value, "text": e.text, "version": e.version} for e in self.extras],
        }


def screen(game: Game, user_id: int | None) -> Screen | None:
    """What ``user_id`` sees of ``game`` in the page (None: someone without a seat, shown the group's table), or
    None where there is nothing to show them: a game not at the table yet, or a solo game not theirs."""
    party = game.party
    if party is None or game.status not in (GameStatus.PLAYING, GameStatus.FINISHED):
        return None
    seat = game.seat_of(user_id) if user_id is not None else None
    if game.mode is GameMode.SOLO and seat is None:
        return None
    painted = drawn(party)
    frame = live_frame(
        game
    )  # as the chat's live messages show the game (its links aside: the page drops them)
    user = game.users.get(user_id) if user_id is not None else None
    tr = translator_for(user.lang if user is not None else game.lang)
    hand = table = None
    extras: list[Extra] = []
    if seat is not None:
        picked = game.screens.picked(seat.user_id or 0, party.version)
        private = painted.render_private(frame, seat.seat, tr, picked)
        hand = _panel(private)
        extras += _hints(private.markup)
        if game.mode is GameMode.GROUP:  # the table from their seat, as their «📋 Стол» copy shows it
            table = _panel(painted.render_table(table_frame(game), tr, seat.seat))
    else:
        table = _panel(painted.render_table(frame, tr))
    if painted.has_sheet and party.deals_completed:
        extras.append(Extra(Look.SHEET, tr.t("btn-sheet"), party.deals_completed))
    if user_id is not None and isinstance(hints.review(game, user_id), int):
        extras.append(Extra(Look.REVIEW, tr.t("btn-review")))
    deadline = game.deadline if frame.turn_seconds else None
    return Screen(game.id, game.kind, party.version, party.is_terminal, table, hand, tuple(extras), deadline)


def _hints(markup: InlineKeyboardMarkup | None) -> Iterable[Extra]:
    """«💡 Подсказка» where the hand offers it, with the version it is for."""
    for row in markup.inline_keyboard if markup is not None else ():
        for b in row:
            if b.callback_data is not None and b.callback_data.startswith(f"{HintCb.__prefix__}:"):
                yield Extra(Look.HINT, b.text, HintCb.unpack(b.callback_data).version)


def _panel(rendered: Rendered) -> Panel:
    return Panel(rendered.text, tuple(row for row in _rows(rendered.markup) if row))


def _rows(markup: InlineKeyboardMarkup | None) -> Iterable[tuple[Button, ...]]:
    for row in markup.inline_keyboard if markup is not None else ():
        yield tuple(
            Button(b.text, b.callback_data)
            for b in row
            if b.callback_data is not None and b.callback_data.startswith(MOVE_PREFIXES)
        )
