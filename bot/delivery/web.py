"""The Mini App's drawing: what one person sees of a game in the web page — the same texts the chat's messages
show, drawn from the same committed game, so after every change the chat and the page agree.

A seated person sees the table from their seat (as their «📋 Стол» copy shows it) and their hand (as their private
message shows it, the card they picked included); in a solo game the hand is the whole screen, as in the chat.
Anyone else the server lets look (a member of the group) sees the table as the group sees it, and no hand. The
buttons kept are those that make a move (:data:`MOVE_PREFIXES`); the others (the rules, a copy of the table, a
link to the private chat) belong to the chat. Pure: nothing here reads or writes anything but its arguments.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from aiogram.types import InlineKeyboardMarkup

from bot.callbacks import MOVE_BUTTONS
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
    if seat is not None:
        picked = game.screens.picked(seat.user_id or 0, party.version)
        hand = _panel(painted.render_private(frame, seat.seat, tr, picked))
        if game.mode is GameMode.GROUP:  # the table from their seat, as their «📋 Стол» copy shows it
            table = _panel(painted.render_table(table_frame(game), tr, seat.seat))
    else:
        table = _panel(painted.render_table(frame, tr))
    return Screen(game.id, game.kind, party.version, party.is_terminal, table, hand)


def _panel(rendered: Rendered) -> Panel:
    return Panel(rendered.text, tuple(row for row in _rows(rendered.markup) if row))


def _rows(markup: InlineKeyboardMarkup | None) -> Iterable[tuple[Button, ...]]:
    for row in markup.inline_keyboard if markup is not None else ():
        yield tuple(
            Button(b.text, b.callback_data)
            for b in row
            if b.callback_data is not None and b.callback_data.startswith(MOVE_PREFIXES)
        )
