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
from bot.i18n import Translator
from bot.views.common import (
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
    tally_line,
    time_note,
    turn_line,
    unplayable,
    url_button,
)
from bot.views.models import Rendered, SeatInfo, TableInfo
from engine.cards import Card, Rank
from engine.core import JSONValue
from engine.konchinka import KONCHINKI, Capture, Event, EventKind, Finish, KonchinkaView, Lay, Variant

GROUP_EVENTS: Final = 4
SOLO_EVENTS: Final = 3


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


def _last_move_line(table: KonchinkaTable, tr: Translator) -> str | None:
    texts = _told_events(table, tr)
    return tr.t("hand-last-move", move=texts[-1]) if texts else None


def _total(view: KonchinkaView, seat_index: int) -> int:
    totals = view.tally[seat_index]
    return totals[-1] if totals else 0


def tally_lines(
    view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator, keep: int | None
) -> list[str]:
    if not any(view.tally):
        return []
    lines = [tr.t("tally-title")]
    for seat_index, seat in enumerate(seats):
        lines.append(f"{seat_name(seat, tr)}: {tally_line(view.tally[seat_index], keep)}")
    return lines


def _score_line(view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator) -> str | None:
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
    """A button's words for an action: «Взять 7♦ + 3♠», «Положить на стол», «🏁 Прикончить!»."""
    if isinstance(action, Finish):
        return tr.t("btn-finish")
    if isinstance(action, Lay):
        return tr.t("btn-lay")
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


def _hand_rows(
    table: KonchinkaTable, tr: Translator, selected: Card | None
) -> list[Sequence[InlineKeyboardButton]]:
    view = table.view
    version = view.version
    game = table.game_id
    rows: list[Sequence[InlineKeyboardButton]] = []
    if selected is not None and selected in view.hand:
        for index, action in actions_of_card(view, selected):
            rows.append(
                [
                    button(
                        action_label(action, view, tr), MoveCb(game=game, version=version, index=index).pack()
                    )
                ]
            )
        rows.append([button(tr.t("btn-other-card"), BackCb(game=game, version=version).pack())])
        return rows
    card_row = []
    for c in view.hand:
        options = actions_of_card(view, c)
        label = card(c, tr) if options else unplayable(card(c, tr))
        if len(options) == 1:
            data = MoveCb(game=game, version=version, index=options[0][0]).pack()
        else:
            data = PickCb(game=game, version=version, card=c.code).pack()
        card_row.append(button(label, data))
    rows.append(card_row)
    for index, any_action in enumerate(view.legal_actions):
        if isinstance(any_action, Finish):
            rows.append(
                [
                    button(
                        action_label(any_action, view, tr),
                        MoveCb(game=game, version=version, index=index).pack(),
                    )
                ]
            )
    return rows


def _bottom_line(view: KonchinkaView, tr: Translator, my_turn: bool, selected: Card | None) -> str | None:
    if view.is_terminal:
        return tr.t("hand-game-over")
    if my_turn and selected is not None and selected in view.hand:
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
    """A group game's hand while others move: nothing that another player's move changes (the deal, the score,
    that the table is in the group, one's cards), so it is edited only when one's own cards change."""
    view = table.view
    lines = [
        _deal_line(table, tr),
        _score_line(view, table.seats, tr),
        tr.t("hand-waiting"),
        tr.t("hand-cards", cards=cards(view.hand, tr, "  ")) if view.hand else None,
    ]
    return "\n".join(line for line in lines if line)


def _compact_text(
    table: KonchinkaTable, tr: Translator, me: SeatInfo, my_turn: bool, selected: Card | None
) -> str:
    """A group game's private hand: on one's turn at most five lines — the turn, the table, the last move, the
    score and what to do; while others move, :func:`_waiting_text`. The whole table is the group's message
    (and «📋 Стол»)."""
    view = table.view
    if not my_turn and not view.is_terminal:
        return _waiting_text(table, tr)
    lines = [
        _first_line(table, me, my_turn, tr),
        None if view.is_terminal else _table_line(view, tr),
        None if view.is_terminal else _last_move_line(table, tr),
        _score_line(view, table.seats, tr),
        _bottom_line(view, tr, my_turn, selected),
    ]
    return "\n".join(line for line in lines if line)


def _solo_text(
    table: KonchinkaTable, tr: Translator, me: SeatInfo, my_turn: bool, selected: Card | None
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


def render_private(table: KonchinkaTable, tr: Translator, selected: Card | None = None) -> Rendered:
    """A player's private message: in a group game what they need to move and their cards as buttons; a solo
    game's one live message writes every pile and the last moves out. ``selected`` is the card picked by the
    first tap of the two-tap flow (its actions become buttons)."""
    view = table.view
    me = table.seats[view.player] if 0 <= view.player < len(table.seats) else SeatInfo(name="")
    my_turn = _is_my_turn(view)
    text = (_solo_text if table.solo else _compact_text)(table, tr, me, my_turn, selected)
    rows: list[Sequence[InlineKeyboardButton]] = _hand_rows(table, tr, selected) if my_turn else []
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
