"""Кончинка screens: the group table, a player's private hand, the solo game, and the ends of deals and parties.

Group screens read only the public part of the engine view (table, pile sizes and clubs, кончинки, the tally,
this deal's events), so the view of any seat will do for them; a hand is shown only by the private screens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.callbacks import BackCb, DeepLink, MoveCb, PickCb, start_link
from bot.games.konchinka.sections import KonchinkaSection
from bot.games.konchinka.words import event_text, last_own_move, moves_since
from bot.i18n import Translator
from bot.views.common import (
    Rendered,
    SeatInfo,
    TableInfo,
    button,
    card,
    cards,
    fit,
    hand_last_row,
    keyboard,
    name_of,
    option,
    rules_button,
    seat_name,
    take_seat_row,
    tally_line,
    time_note,
    turn_line,
    unplayable,
    url_button,
    waiting_line,
)
from engine.cards import Card, Rank
from engine.core import JSONValue
from engine.konchinka import Capture, Finish, KonchinkaView, Lay, Variant
from engine.konchinka.actions import FINISH
from engine.konchinka.rules import CARDS_POINTS, CLUBS_POINTS, SECURE_CARDS, SECURE_CLUBS
from engine.konchinka.scoring import secured_points

GROUP_EVENTS: Final = 4
SOLO_EVENTS: Final = 3
HAND_LINES: Final = 6
"""A group game's hand on one's turn has at most this many lines above its buttons (a phone screen)."""


KonchinkaTable = TableInfo[KonchinkaView]
"""A Кончинка table as one player sees it."""


# --------------------------------------------------------------------------------------------- pieces


def _header(view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    return [
        f"🃏 <b>{tr.t('game-konchinka')}</b> · {options_summary(view.options, tr)}",
        tr.t("table-deal", deal=view.deal_number, dealer=name_of(seats, view.dealer, tr)),
    ]


def _table_line(view: KonchinkaView, tr: Translator) -> str:
    if not view.table:
        return tr.t("table-empty")
    return tr.t("table-cards", cards=cards(view.table, tr, "  "))


def _time_note(table: KonchinkaTable, tr: Translator) -> str:
    return time_note(table.turn_seconds, tr)


def _turn_line(table: KonchinkaTable, tr: Translator) -> str | None:
    view = table.view
    if view.is_terminal or view.current_player < 0:
        return None
    return turn_line(table.seats, view.current_player, tr, _time_note(table, tr))


def _player_lines(table: KonchinkaTable, tr: Translator, *, scores: bool = False) -> list[str]:
    view = table.view
    lines = []
    for seat_index, seat in enumerate(table.seats):
        marker = "👉 " if seat_index == view.current_player and not view.is_terminal else ""
        line = marker + tr.t(
            "table-player",
            name=seat_name(seat, tr),
            pile=view.pile_sizes[seat_index],
            clubs=view.pile_clubs[seat_index],
        )
        got = view.konchinki[seat_index]
        if got:
            line += " · " + tr.t("table-konchinki", cards=cards(got, tr), count=len(got))
        if scores and any(view.tally):
            line += " · " + tr.t("table-score", score=_total(view, seat_index))
        if seat.is_replaced:
            line += " · " + tr.t("table-replaced")
        elif not seat.is_reachable and not seat.is_bot:
            line += " · " + tr.t("table-unreachable")
        lines.append(line)
    return lines


def _told_events(table: KonchinkaTable, tr: Translator) -> list[str]:
    """This deal's moves in words, the last one marked when the timer made it."""
    texts = [t for t in (event_text(e, table.seats, tr) for e in table.view.recent_events) if t]
    if texts and table.auto_move:
        texts[-1] = tr.t("move-auto", move=texts[-1])
    return texts


def _event_lines(table: KonchinkaTable, tr: Translator, limit: int, *, title: bool = True) -> list[str]:
    texts = _told_events(table, tr)
    if not texts or limit <= 0:
        return []
    lines = [f"· {t}" for t in texts[-limit:]]
    return [tr.t("table-moves"), *lines] if title else lines


def _since_my_move(table: KonchinkaTable, tr: Translator) -> list[str]:
    """«С вашего хода»: this deal's moves since the player's own last one (the last deal's end is in its result)."""
    view = table.view
    return moves_since(view.recent_events, view.player, table.seats, tr, auto=table.auto_move)


def _total(view: KonchinkaView, seat_index: int) -> int:
    totals = view.tally[seat_index]
    return totals[-1] if totals else 0


def tally_lines(
    view: KonchinkaView,
    seats: Sequence[SeatInfo],
    tr: Translator,
    keep: int | None,
    order: Sequence[int] | None = None,
) -> list[str]:
    """«Запись:» and each seat's crossed-out totals, in seat order or in ``order`` (by place, at the end)."""
    if not any(view.tally):
        return []
    lines = [tr.t("tally-title")]
    for seat_index in order if order is not None else range(len(seats)):
        lines.append(f"{seat_name(seats[seat_index], tr)}: {tally_line(view.tally[seat_index], keep)}")
    return lines


def score_line(view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator) -> str | None:
    if not any(view.tally):
        return None
    parts = [f"{seat_name(seat, tr)} {_total(view, i)}" for i, seat in enumerate(seats)]
    return tr.t("score-line", scores=" · ".join(parts))


def rules_section_of(view: KonchinkaView) -> KonchinkaSection:
    return KonchinkaSection.POINTS if view.options.variant is Variant.POINTS else KonchinkaSection.BASICS


def join_blocks(blocks: Sequence[Sequence[str]]) -> str:
    return "\n\n".join("\n".join(block) for block in blocks if block)


# --------------------------------------------------------------------------------------------- group


def render_table(table: KonchinkaTable, tr: Translator) -> Rendered:
    """The group's table message (edited in place): public information only."""
    view = table.view

    def build(keep: int | None) -> str:
        top = [*_header(view, table.seats, tr), _table_line(view, tr)]
        turn = _turn_line(table, tr)
        if turn:
            top.append(turn)
        top.append(tr.t("table-deck", count=view.deck_size))
        return join_blocks(
            [
                top,
                _player_lines(table, tr),
                _event_lines(table, tr, GROUP_EVENTS),
                tally_lines(view, table.seats, tr, keep),
            ]
        )

    row = [rules_button(tr, rules_section_of(view), table.game_id)]
    if table.bot_username and not view.is_terminal:
        row.append(
            url_button(tr.t("btn-my-cards"), start_link(table.bot_username, DeepLink.GAME, table.game_id))
        )
    return Rendered(fit(build), keyboard([row]))


# --------------------------------------------------------------------------------------------- private


def _is_my_turn(view: KonchinkaView) -> bool:
    return not view.is_terminal and view.current_player == view.player and bool(view.legal_actions)


def actions_of_card(view: KonchinkaView, c: Card) -> list[tuple[int, Lay | Capture]]:
    """The legal actions that play card ``c``, with their index in ``view.legal_actions``."""
    out: list[tuple[int, Lay | Capture]] = []
    for index, action in enumerate(view.legal_actions):
        if isinstance(action, Lay | Capture) and action.card is c:
            out.append((index, action))
    return out


def action_label(action: Lay | Capture | Finish, view: KonchinkaView, tr: Translator) -> str:
    """A button's words for an action: «Взять 7♦ + 3♠», «Положить на стол», «🏁 Прикончить!», «🏁 Взять 10♦ и
    прикончить»."""
    if isinstance(action, Finish):
        return tr.t("btn-finish")
    if isinstance(action, Lay):
        return tr.t("btn-lay")
    if action.finish:
        return tr.t("btn-and-finish", action=action_label(action.capture, view, tr))
    taken = action.taken
    if (
        len(action.groups) == 1
        and len(taken) == len(view.table)
        and view.options.variant is Variant.CLASSIC
        and action.card.rank is Rank.JACK
    ):
        return tr.t("btn-sweep", count=len(taken))
    groups = " | ".join(" + ".join(card(c, tr) for c in group) for group in action.groups)
    return tr.t("btn-capture", cards=groups)


Picked = Card | Finish
"""What a first tap chose: a card of the hand, or «🏁 Прикончить!»."""


def finish_index(view: KonchinkaView) -> int | None:
    """The index of «🏁 Прикончить!» among the legal actions; None when it is not offered."""
    return next((i for i, a in enumerate(view.legal_actions) if isinstance(a, Finish)), None)


def _picked_actions(view: KonchinkaView, selected: Picked) -> list[tuple[int, Lay | Capture | Finish]]:
    if isinstance(selected, Finish):
        index = finish_index(view)
        return [] if index is None else [(index, selected)]
    if selected not in view.hand:
        return []
    return list(actions_of_card(view, selected))


ASKS = "…"  # the mark of a card whose tap opens a choice of its moves


def _hand_rows(
    table: KonchinkaTable, tr: Translator, selected: Picked | None
) -> list[Sequence[InlineKeyboardButton]]:
    """A card that can do one thing plays on its tap; a card with two or more moves (marked «…» beforehand) and
    «🏁 Прикончить!» open a choice of what it does, with «← Другая карта» to undo the tap."""
    view = table.view
    version = view.version
    game = table.game_id
    rows: list[Sequence[InlineKeyboardButton]] = []
    if (isinstance(selected, Card) and selected in view.hand) or (
        selected is not None and _picked_actions(view, selected)
    ):
        for index, action in _picked_actions(view, selected):
            label = tr.t("btn-finish-yes") if isinstance(action, Finish) else action_label(action, view, tr)
            rows.append([button(label, MoveCb(game=game, version=version, index=index).pack())])
        rows.append([button(tr.t("btn-other-card"), BackCb(game=game, version=version).pack())])
        return rows
    card_row = []
    for c in view.hand:
        options = actions_of_card(view, c)
        label = card(c, tr) if options else unplayable(card(c, tr))
        if len(options) > 1:
            label += ASKS
        card_row.append(button(label, PickCb(game=game, version=version, card=c.code).pack()))
    rows.append(card_row)
    if finish_index(view) is not None:
        rows.append([button(tr.t("btn-finish"), PickCb(game=game, version=version, card=FINISH.code).pack())])
    return rows


def finish_reason(view: KonchinkaView, tr: Translator) -> str:
    """Why «🏁 Прикончить!» is offered: the points already secured this deal and the total they make
    («10♦ даёт +1 → 15»)."""
    me = view.player
    parts = []
    held = view.konchinki[me]
    if held:
        parts.append(tr.t("finish-konchinki", cards=cards(held, tr), count=len(held), points=len(held)))
    if view.pile_clubs[me] >= SECURE_CLUBS:
        parts.append(tr.t("finish-clubs", clubs=view.pile_clubs[me], points=CLUBS_POINTS))
    if view.pile_sizes[me] >= SECURE_CARDS:
        parts.append(tr.t("finish-cards", count=view.pile_sizes[me], points=CARDS_POINTS))
    secured = secured_points(view.pile_sizes[me], view.pile_clubs[me], len(held))
    return tr.t("finish-reason", parts=", ".join(parts), total=_total(view, me) + secured)


def _bottom_line(view: KonchinkaView, tr: Translator, my_turn: bool, selected: Picked | None) -> str | None:
    if view.is_terminal:
        return tr.t("hand-game-over")
    if my_turn and isinstance(selected, Finish) and finish_index(view) is not None:
        return tr.t("finish-ask", reason=finish_reason(view, tr))
    if my_turn and isinstance(selected, Card) and selected in view.hand:
        if actions_of_card(view, selected):
            return tr.t("hand-what-now", card=card(selected, tr))
        return tr.t("hand-card-cannot", card=card(selected, tr))
    if my_turn:
        return tr.t("hand-pick-card")
    if view.hand:
        return tr.t("hand-cards", cards=cards(view.hand, tr, "  "))
    return None


def _first_line(table: KonchinkaTable, me: SeatInfo, my_turn: bool, tr: Translator) -> str | None:
    """«👉 Ваш ход, Аня! · ⏱ 60 с на ход» on the player's turn, else «Ходит: Борис»."""
    if my_turn:
        line = tr.t("hand-your-turn", name=seat_name(me, tr))
        note = _time_note(table, tr)
        return f"{line} · {note}" if note else line
    view = table.view
    if view.is_terminal or view.current_player < 0:
        return None
    return turn_line(table.seats, view.current_player, tr)


def _deal_line(table: KonchinkaTable, tr: Translator) -> str:
    view = table.view
    return f"🃏 <b>{tr.t('game-konchinka')}</b> · " + tr.t(
        "table-deal", deal=view.deal_number, dealer=name_of(table.seats, view.dealer, tr)
    )


def _waiting_text(table: KonchinkaTable, tr: Translator) -> str:
    """A group game's hand while others move: nothing another's move changes, so no edit until one's own does."""
    view, seats = table.view, table.seats
    last = last_own_move(view.recent_events, view.player, seats, tr)
    lines = [
        _deal_line(table, tr),
        score_line(view, seats, tr),
        waiting_line(seats, seats[view.player], view.player, tr, last)
        if 0 <= view.player < len(seats)
        else None,
        tr.t("hand-cards", cards=cards(view.hand, tr, "  ")) if view.hand else None,
    ]
    return "\n".join(line for line in lines if line)


def _compact_text(
    table: KonchinkaTable, tr: Translator, me: SeatInfo, my_turn: bool, selected: Picked | None
) -> str:
    """A group game's private hand: on one's turn at most six lines — the turn, the table, every move since
    one's own last («С вашего хода», one line each), the score when there is room, and what to do; while others
    move, :func:`_waiting_text`. The whole table is the group's message (and «📋 Стол»)."""
    view = table.view
    if not my_turn and not view.is_terminal:
        return _waiting_text(table, tr)
    moves = [] if view.is_terminal else _since_my_move(table, tr)
    lines = [
        line
        for line in (
            _first_line(table, me, my_turn, tr),
            None if view.is_terminal else _table_line(view, tr),
            *moves,
            score_line(view, table.seats, tr),
            _bottom_line(view, tr, my_turn, selected),
        )
        if line
    ]
    if len(lines) > HAND_LINES:
        # A full table's three moves leave no room for the score: it stays in the waiting hand and the group.
        lines = [line for line in lines if line != score_line(view, table.seats, tr)]
    return "\n".join(lines)


def _solo_text(
    table: KonchinkaTable, tr: Translator, me: SeatInfo, my_turn: bool, selected: Picked | None
) -> str:
    """A solo game's one message (no group to look at): ≤ 15 lines — the deal, the turn, the table and the
    deck, every player's pile and score, the last three moves, what to do."""
    view = table.view
    top = [
        line
        for line in (
            _deal_line(table, tr),
            _first_line(table, me, my_turn, tr),
            None if view.is_terminal else _table_line(view, tr),
            None if view.is_terminal else tr.t("table-deck", count=view.deck_size),
        )
        if line
    ]
    events = [] if view.is_terminal else _event_lines(table, tr, SOLO_EVENTS, title=False)
    bottom = _bottom_line(view, tr, my_turn, selected)
    return join_blocks([top, _player_lines(table, tr, scores=True), events, [bottom] if bottom else []])


def render_private(table: KonchinkaTable, tr: Translator, selected: Picked | None = None) -> Rendered:
    """A player's private message: in a group game what they need to move and their cards as buttons; a solo
    game's one live message writes every pile and the last moves out. ``selected``: a card whose moves the first
    tap opened (they become buttons), or «🏁 Прикончить!» (asked once, with why)."""
    view = table.view
    me = table.seats[view.player] if 0 <= view.player < len(table.seats) else SeatInfo(name="")
    my_turn = _is_my_turn(view) and not me.is_replaced  # a bot player plays this seat: never «your move»
    text = (_solo_text if table.solo else _compact_text)(table, tr, me, my_turn, selected)
    rows: list[Sequence[InlineKeyboardButton]] = _hand_rows(table, tr, selected) if my_turn else []
    if me.is_replaced and not view.is_terminal:
        rows.append(take_seat_row(tr, table.game_id))
    last_row = hand_last_row(
        tr,
        table.game_id,
        rules_section_of(view),
        version=view.version,
        my_turn=my_turn,
        solo=table.solo,
        finished=view.is_terminal,
    )
    rows.append(last_row)
    return Rendered(fit(lambda _keep: text), keyboard(rows))


def options_summary(options: Mapping[str, JSONValue] | object, tr: Translator) -> str:
    """«классика · до 15» plus every house rule that differs from the default."""
    variant = str(option(options, "variant", "classic"))
    parts = [
        tr.t("opt-variant", variant=variant),
        tr.t("opt-target", target=_as_int(option(options, "target", 15))),
    ]
    if option(options, "multi_capture", False):
        parts.append(tr.t("opt-multi-on"))
    if option(options, "forced_capture", False):
        parts.append(tr.t("opt-forced-on"))
    if not option(options, "early_finish", True):
        parts.append(tr.t("opt-early-off"))
    if str(option(options, "settlement", "points")) == "stake":
        parts.append(tr.t("opt-stake", stake=_as_int(option(options, "stake", 1))))
    return " · ".join(parts)


def _as_int(value: JSONValue) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str | float):
        try:
            return int(value)
        except ValueError:
            return 0
    return 0
