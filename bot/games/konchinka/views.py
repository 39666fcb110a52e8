"""Кончинка screens: the group table, a player's private hand, the solo game; the moves told on them (and in a
deal's result) in words, «Борис берёт 3♠ + 5♦ восьмёркой пик · 🎯 кончинка 10♦», one line each.

Group screens read only the public part of the engine view (table, pile sizes and clubs, кончинки, the tally,
this deal's events), so the view of any seat will do for them; a hand is shown only by the private screens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.callbacks import BackCb, DeepLink, MoveCb, PickCb, start_link
from bot.games.konchinka.sections import KonchinkaSection
from bot.games.konchinka.words import action_label, card_capture_label, finish_reason, total
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
    time_note,
    turn_line,
    unplayable,
    url_button,
    waiting_line,
)
from engine.cards import Card
from engine.core import JSONValue
from engine.konchinka import KONCHINKI, Capture, Event, EventKind, Finish, KonchinkaView, Lay, Variant
from engine.konchinka.actions import FINISH

GROUP_EVENTS: Final = 4
SOLO_EVENTS: Final = 3
HAND_LINES: Final = 6
"""A group game's hand on one's turn has at most this many lines above its buttons (a phone screen)."""


KonchinkaTable = TableInfo[KonchinkaView]
"""A Кончинка table as one player sees it."""


# --------------------------------------------------------------------------------------------- pieces


def _card_instr(c: Card, tr: Translator) -> str:
    return tr.t("card-instr", rank=int(c.rank), suit=c.suit.code, card=card(c, tr))


def _konchinka_note(cs: Sequence[Card], tr: Translator) -> str:
    got = [c for c in KONCHINKI if c in cs]
    return (" · " + tr.t("move-konchinka", cards=cards(got, tr), count=len(got))) if got else ""


def event_text(event: Event, seats: Sequence[SeatInfo], tr: Translator) -> str | None:
    """One move in words (present tense, so the player's gender never matters); None for events not told."""
    name = name_of(seats, event.player, tr)
    kind = event.kind
    if kind is EventKind.LAY and event.card is not None:
        return tr.t("move-lay", name=name, card=card(event.card, tr))
    if kind is EventKind.CAPTURE and event.card is not None:
        taken = " + ".join(card(c, tr) for c in event.taken)
        text = tr.t("move-capture", name=name, taken=taken, by=_card_instr(event.card, tr))
        return text + _konchinka_note((*event.taken, event.card), tr)
    if kind is EventKind.SWEEP and event.card is not None:
        text = tr.t("move-sweep", name=name, count=len(event.taken), by=_card_instr(event.card, tr))
        return text + _konchinka_note((*event.taken, event.card), tr)
    if kind is EventKind.FINISH:
        return tr.t("move-finish", name=name)
    if kind is EventKind.LEFTOVERS:
        if event.player is None or event.player < 0 or not event.taken:
            return tr.t("move-leftovers-nobody", count=len(event.taken))
        return tr.t("move-leftovers", name=name, count=len(event.taken)) + _konchinka_note(event.taken, tr)
    return None


def _in_words(
    events: Sequence[Event], seats: Sequence[SeatInfo], tr: Translator, auto: bool, last: int | None = None
) -> list[str]:
    """The moves among ``events`` in words, one each (``last``: only the last so many — the earlier ones are not
    written out at all: a deal's moves are many, and a message shows its last few); ``auto``: the last one
    marked as the timer's."""
    texts: list[str] = []
    for event in reversed(events):
        if last is not None and len(texts) >= last:
            break
        text = event_text(event, seats, tr)
        if text:
            texts.append(text)
    texts.reverse()
    if texts and auto:
        texts[-1] = tr.t("move-auto", move=texts[-1])
    return texts


def last_own_move(events: Sequence[Event], player: int, tr: Translator) -> str:
    """``player``'s own last move among ``events`` (one deal's), in words without a name, as their own hand says
    it to them («4♣ на стол», «7♠ берёт 3♥ + 4♣»); "" before their first."""
    own = [e for e in events if e.player == player and e.kind is not EventKind.LEFTOVERS]
    for event in reversed(own):
        if event.kind is EventKind.FINISH:
            return tr.t("hint-move-finish")
        if event.card is None:
            continue
        if event.kind is EventKind.LAY:
            return tr.t("btn-card-lay", card=card(event.card, tr))
        if event.kind is EventKind.CAPTURE:
            return tr.t(
                "btn-card-capture",
                card=card(event.card, tr),
                cards=" + ".join(card(c, tr) for c in event.taken),
            )
        if event.kind is EventKind.SWEEP:
            return tr.t("btn-card-sweep", card=card(event.card, tr), count=len(event.taken))
    return ""


def moves_since(
    events: Sequence[Event], player: int, seats: Sequence[SeatInfo], tr: Translator, *, auto: bool = False
) -> list[str]:
    """The moves among ``events`` (one deal's) made since ``player``'s own last one, one line each; ``auto``: the
    last one marked as the timer's."""
    told = [e for e in events if e.kind is not EventKind.DEAL_START]
    # The leftovers go to the last capturer at the deal's end: no move of theirs, so their own summary tells it.
    mine = [i for i, e in enumerate(told) if e.player == player and e.kind is not EventKind.LEFTOVERS]
    return [f"· {t}" for t in _in_words(told[mine[-1] + 1 :] if mine else told, seats, tr, auto)]


def _header(view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    return [
        f"🃏 <b>{tr.t('game-konchinka')}</b> · {options_summary(view.options, tr)}",
        tr.t("table-deal", deal=view.deal_number, dealer=name_of(seats, view.dealer, tr)),
    ]


def _table_line(view: KonchinkaView, tr: Translator) -> str:
    if not view.table:
        return tr.t("table-empty")
    return tr.t("table-cards", cards=cards(view.table, tr, "  "))


def _turn_line(table: KonchinkaTable, tr: Translator) -> str | None:
    view = table.view
    if view.is_terminal or view.current_player < 0:
        return None
    return turn_line(table.seats, view.current_player, tr, time_note(table.turn_seconds, tr))


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
            line += " · " + tr.t("table-score", score=total(view, seat_index))
        if seat.is_replaced:
            line += " · " + tr.t("table-replaced")
        elif not seat.is_reachable and not seat.is_bot:
            line += " · " + tr.t("table-unreachable")
        lines.append(line)
    return lines


def _event_lines(table: KonchinkaTable, tr: Translator, limit: int, *, title: bool = True) -> list[str]:
    """This deal's last ``limit`` moves in words, the last one marked when the timer made it."""
    if limit <= 0:
        return []
    texts = _in_words(table.view.recent_events, table.seats, tr, table.auto_move, last=limit)
    if not texts:
        return []
    lines = [f"· {t}" for t in texts]
    return [tr.t("table-moves"), *lines] if title else lines


def score_line(view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator) -> str | None:
    if not any(view.tally):
        return None
    parts = [f"{seat_name(seat, tr)} {total(view, i)}" for i, seat in enumerate(seats)]
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
                _player_lines(table, tr, scores=True),  # the crossed-out tally is the sheet's picture
                _event_lines(table, tr, GROUP_EVENTS),
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
HALF_ROW: Final = 16
"""The longest label two buttons sharing a row may have: about what half of a phone's keyboard (held upright,
a bubble about 300 dp wide, 14 sp text) shows without cutting it; a longer label takes a row of its own."""
SPELLED_MOVES: Final = 3
"""A card with at most this many moves shows each as a button of its own on the hand; one with more is
marked «…» and opens the choice."""
SPELLED_ROWS: Final = 4
"""At most this many rows of moves below the hand's row (a phone shows the message and its buttons without
scrolling); the cards with fewest moves get them first, the others are marked «…»."""


def spelled_moves(view: KonchinkaView, c: Card) -> list[tuple[int, Capture | Lay]] | None:
    """The moves of a card whose every move is a button of its own on the hand (one tap each, no choice to
    open): two or three moves — a capture or two, and the table —, none of them finishing the party (that one
    asks first); None for any other card."""
    options = actions_of_card(view, c)
    if not 2 <= len(options) <= SPELLED_MOVES or any(isinstance(a, Capture) and a.finish for _, a in options):
        return None
    return sorted(options, key=lambda option: isinstance(option[1], Lay))


def _move_label(action: Capture | Lay, view: KonchinkaView, tr: Translator) -> str:
    if isinstance(action, Lay):
        return tr.t("btn-card-lay", card=card(action.card, tr))
    return card_capture_label(action, view, tr)


def _spelled_rows(
    table: KonchinkaTable, tr: Translator, moves: list[tuple[int, Capture | Lay]]
) -> list[Sequence[InlineKeyboardButton]]:
    """A card's moves, «10♦ берёт 7♦+3♠», «10♦ на стол», two to a row where both labels fit half a row."""
    view = table.view
    rows: list[list[InlineKeyboardButton]] = []
    for index, action in moves:
        label = _move_label(action, view, tr)
        pressed = button(label, MoveCb(game=table.game_id, version=view.version, index=index).pack())
        last = rows[-1] if rows else None
        if last is not None and len(last) == 1 and max(len(label), len(last[0].text)) <= HALF_ROW:
            last.append(pressed)
        else:
            rows.append([pressed])
    return list(rows)


def _spelled(table: KonchinkaTable, tr: Translator) -> dict[Card, list[Sequence[InlineKeyboardButton]]]:
    """The rows of the cards whose moves the hand spells out: those with fewest moves first, while the rows fit
    :data:`SPELLED_ROWS`."""
    view = table.view
    found = [(c, moves) for c in view.hand if (moves := spelled_moves(view, c)) is not None]
    out: dict[Card, list[Sequence[InlineKeyboardButton]]] = {}
    used = 0
    for c, moves in sorted(found, key=lambda item: len(item[1])):
        rows = _spelled_rows(table, tr, moves)
        if used + len(rows) <= SPELLED_ROWS:
            out[c] = rows
            used += len(rows)
    return out


def _hand_rows(
    table: KonchinkaTable, tr: Translator, selected: Picked | None
) -> list[Sequence[InlineKeyboardButton]]:
    """A card that can do one thing plays on its tap; a card with two or three moves (a capture or two, and the
    table) shows each as a button below the hand's row (one tap each); a card with more moves (marked «…»
    beforehand) and «🏁 Прикончить!» open a choice of what it does, with «← Другая карта» (or «← Не приканчивать»)
    to undo the tap."""
    view = table.view
    version = view.version
    game = table.game_id
    rows: list[Sequence[InlineKeyboardButton]] = []
    if selected is not None and (selected in view.hand or _picked_actions(view, selected)):
        for index, action in _picked_actions(view, selected):
            label = tr.t("btn-finish-yes") if isinstance(action, Finish) else action_label(action, view, tr)
            rows.append([button(label, MoveCb(game=game, version=version, index=index).pack())])
        back = "btn-not-finish" if isinstance(selected, Finish) else "btn-other-card"
        rows.append([button(tr.t(back), BackCb(game=game, version=version).pack())])
        return rows
    spelled = _spelled(table, tr)
    card_row = []
    for c in view.hand:
        if c in spelled:
            continue
        options = actions_of_card(view, c)
        label = card(c, tr) if options else unplayable(card(c, tr))
        if len(options) > 1:
            label += ASKS
        card_row.append(button(label, PickCb(game=game, version=version, card=c.code).pack()))
    rows.append(card_row)
    rows += [row for c in view.hand for row in spelled.get(c, ())]
    if finish_index(view) is not None:
        rows.append([button(tr.t("btn-finish"), PickCb(game=game, version=version, card=FINISH.code).pack())])
    return rows


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
        note = time_note(table.turn_seconds, tr)
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
    last = last_own_move(view.recent_events, view.player, tr)
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
    # «С вашего хода»: this deal's moves since the player's own last one (the last deal's end is in its result).
    moves = (
        []
        if view.is_terminal
        else moves_since(view.recent_events, view.player, table.seats, tr, auto=table.auto_move)
    )
    # One's first turn of the party (its first message in this chat) says which game it is, and the deal.
    first = my_turn and view.deal_number == 1 and not last_own_move(view.recent_events, view.player, tr)
    lines = [
        line
        for line in (
            _deal_line(table, tr) if first else None,
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
    if len(lines) > HAND_LINES and first:  # four players' first moves: the group's table names the game
        lines = lines[1:]
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
