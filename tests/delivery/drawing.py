"""A change drawn as the pipeline draws it, without the pipeline: a decision's events folded over a game built in
memory (``tests.flow.builders``), the notices of its told events addressed and stored as ``Pipeline.apply`` stores
them (the event and the seat, not drawn yet), then ``draw(before, after, events, notices, …)`` — and small readers
of the orders it came to: the live messages by slot, their buttons, the notices posted.

Nothing here touches SQLite, aiogram's dispatcher, asyncio or Telegram."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.delivery.draw import Pressed, draw
from bot.delivery.notices import addressed
from bot.delivery.outbox.orders import Adopt, Drop, Hurry, Order, Post, Show
from bot.delivery.outbox.queue import group_slot, hand_slot, reminder_slot, sheet_slot, table_slot
from bot.flow import moves
from bot.flow.commands import Decision, Play
from bot.model.game import Event, Game, Opened, Person, dump_told, evolve
from bot.storage import Notice
from tests.flow.builders import ANNA, BORIS, CONFIG, GAME_ID, NOW, events, group_party, konchinka

BOT = "konchinka_bot"
"""The bot's username (deep links name it)."""

MOVE_PREFIXES = ("p:", "m:", "b:")
"""Callback data of a hand's moves: a card's first tap, a move of a picked card, «← Другая карта»."""

TABLE = group_slot(GAME_ID)


def hand(person: Person) -> str:
    return hand_slot(GAME_ID, person.user_id)


def copy(person: Person) -> str:
    return table_slot(GAME_ID, person.user_id)


def sheet(chat_id: int) -> str:
    return sheet_slot(GAME_ID, chat_id)


def reminder(person: Person, version: int) -> str:
    return reminder_slot(GAME_ID, person.user_id, version)


@dataclass(frozen=True, slots=True)
class Drawn:
    """A change and what it draws."""

    before: Game | None
    after: Game
    events: tuple[Event, ...]
    notices: list[Notice]
    orders: list[Order]


def stored_notices(game: Game, changes: Sequence[Event], first_id: int = 1) -> list[Notice]:
    """The notices of ``changes`` as the pipeline stores them with the change (not drawn yet)."""
    return [
        Notice(first_id + i, a.chat_id, a.thread_id, "", None, game.id, dump_told(a.event, a.seat))
        for i, a in enumerate(addressed(game, changes))
    ]


def change(
    before: Game | None,
    decision: Decision,
    *,
    pressed: Pressed | None = None,
    copies: Collection[int] = (),
) -> Drawn:
    """``decision`` (not refused) applied to ``before`` (None: a decision that opens a game) and drawn."""
    happened = events(decision)
    if before is None:
        opened = happened[0]
        assert isinstance(opened, Opened)
        after = evolve(opened.game, happened)
    else:
        after = evolve(before, happened)
    notices = stored_notices(after, happened)
    orders = draw(before, after, happened, notices, BOT, pressed, copies)
    return Drawn(before, after, happened, notices, orders)


def from_scratch(game: Game, copies: Collection[int] = ()) -> list[Order]:
    """Every message of ``game`` drawn with no change (after a restart)."""
    return draw(None, game, (), (), BOT, copies=copies)


# --- games ----------------------------------------------------------------------------------------------------------


def last_card_of_the_deal() -> Game:
    """Deal 2 of a group party, its last card: Аня's 5♥ may take the 5♣ on the table (Борис laid down К♦ before);
    the deal ends with Аня 7 · Борис 1, and Борис leads the next."""
    party = konchinka("5h", "", table="5c Kd", captured=["2c Td 3c 4c", "Ah"], tally=[[2], [1]], version=1)
    return group_party(ANNA, BORIS, party=party)


def deal_scored() -> Game:
    """The same party once Аня's 5♥ took the 5♣: deal 3, Борис to move, the sheet reads Аня 7 · Борис 1."""
    game = last_card_of_the_deal()
    return evolve(game, events(moves.play(Play(GAME_ID, ANNA, 1, 0), game, NOW, CONFIG)))


# --- reading the orders --------------------------------------------------------------------------------------------


def shows(orders: Sequence[Order], slot: str | None = None) -> list[Show]:
    return [o for o in orders if isinstance(o, Show) and (slot is None or o.slot == slot)]


def shown(orders: Sequence[Order], slot: str) -> Show:
    """The one order about live message ``slot``."""
    found = shows(orders, slot)
    assert len(found) == 1, (slot, [o.slot for o in shows(orders)])
    return found[0]


def slots(orders: Sequence[Order]) -> list[str]:
    return [o.slot for o in shows(orders)]


def buttons(show: Show) -> list[str]:
    """The texts of a message's buttons, row by row."""
    return [b.text for row in show.markup.inline_keyboard for b in row] if show.markup else []


def callbacks(show: Show) -> list[str]:
    return (
        [b.callback_data or b.url or "" for row in show.markup.inline_keyboard for b in row]
        if show.markup
        else []
    )


def moves_offered(show: Show) -> list[str]:
    """The buttons that make or start a move."""
    return [c for c in callbacks(show) if c.startswith(MOVE_PREFIXES)]


def posts(orders: Sequence[Order]) -> list[Post]:
    return [o for o in orders if isinstance(o, Post)]


def posted(orders: Sequence[Order]) -> list[Notice]:
    """The notices that go out (every Post's)."""
    return [n for p in posts(orders) for n in p.notices]


def posted_to(orders: Sequence[Order], chat_id: int) -> Notice:
    found = [n for n in posted(orders) if n.chat_id == chat_id]
    assert len(found) == 1, (chat_id, [n.chat_id for n in posted(orders)])
    return found[0]


def notice_buttons(notice: Notice) -> list[str]:
    if notice.markup is None:
        return []
    return [b["text"] for row in json.loads(notice.markup)["inline_keyboard"] for b in row]


def hurried(orders: Sequence[Order]) -> set[int]:
    return {o.chat_id for o in orders if isinstance(o, Hurry)}


def dropped(orders: Sequence[Order]) -> list[str]:
    return [o.slot for o in orders if isinstance(o, Drop)]


def adopted(orders: Sequence[Order]) -> list[Adopt]:
    return [o for o in orders if isinstance(o, Adopt)]


def texts(orders: Sequence[Order]) -> list[str]:
    """Every text the orders show or post."""
    return [s.text for s in shows(orders)] + [n.text for n in posted(orders)]
