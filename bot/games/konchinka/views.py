"""Кончинка screens: the group table, a player's private hand, the solo game, and the ends of deals and parties.

Group screens read only the public part of the engine view (table, pile sizes and clubs, кончинки, the tally,
this deal's events), so the view of any seat will do for them; a hand is shown only by the private screens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.callbacks import BackCb, DeepLink, MoveCb, PickCb, RematchCb, RulesSection, start_link
from bot.i18n import Translator
from bot.views.common import (
    button,
    card,
    cards,
    clock,
    fit,
    keyboard,
    konchinka_options_summary,
    name_of,
    rules_button,
    seat_name,
    tally_line,
    turn_line,
    unplayable,
    url_button,
)
from bot.views.models import Rendered, SeatInfo, TableInfo
from engine.cards import Card, Rank
from engine.konchinka import (
    KONCHINKI,
    Capture,
    DealScore,
    Event,
    EventKind,
    Finish,
    KonchinkaView,
    Lay,
    Settlement,
    Variant,
)

GROUP_EVENTS: Final = 4
PRIVATE_EVENTS: Final = 2
SOLO_EVENTS: Final = 6


# --------------------------------------------------------------------------------------------- pieces


def _header(view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    return [
        f"🃏 <b>{tr.t('game-konchinka')}</b> · {konchinka_options_summary(view.options, tr)}",
        tr.t("table-deal", deal=view.deal_number, dealer=name_of(seats, view.dealer, tr)),
    ]


def _table_line(view: KonchinkaView, tr: Translator) -> str:
    if not view.table:
        return tr.t("table-empty")
    return tr.t("table-cards", cards=cards(view.table, tr, "  "))


def _turn_line(table: TableInfo, tr: Translator) -> str | None:
    view = table.view
    if view.is_terminal or view.current_player < 0:
        return None
    return turn_line(table.seats, view.current_player, table.seconds_left, tr)


def _player_lines(table: TableInfo, tr: Translator) -> list[str]:
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
            line += " · " + tr.t("table-konchinki", cards=cards(got, tr))
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
    return (" · " + tr.t("move-konchinka", cards=cards(got, tr))) if got else ""


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


def _event_lines(table: TableInfo, tr: Translator, limit: int) -> list[str]:
    texts = [t for t in (event_text(e, table.seats, tr) for e in table.view.recent_events) if t]
    if not texts or limit <= 0:
        return []
    return [tr.t("table-moves"), *(f"· {t}" for t in texts[-limit:])]


def _tally_lines(
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
    parts = [
        f"{seat_name(seat, tr)} {view.tally[i][-1] if view.tally[i] else 0}" for i, seat in enumerate(seats)
    ]
    return tr.t("score-line", scores=" · ".join(parts))


def _rules_section(view: KonchinkaView) -> RulesSection:
    return RulesSection.POINTS if view.options.variant is Variant.POINTS else RulesSection.KONCHINKA


def _join(blocks: Sequence[Sequence[str]]) -> str:
    return "\n\n".join("\n".join(block) for block in blocks if block)


# --------------------------------------------------------------------------------------------- group


def render_table(table: TableInfo, tr: Translator) -> Rendered:
    """The group's table message (edited in place): public information only."""
    view = table.view

    def build(keep: int | None) -> str:
        top = [*_header(view, table.seats, tr), _table_line(view, tr)]
        turn = _turn_line(table, tr)
        if turn:
            top.append(turn)
        top.append(tr.t("table-deck", count=view.deck_size))
        return _join(
            [
                top,
                _player_lines(table, tr),
                _event_lines(table, tr, GROUP_EVENTS),
                _tally_lines(view, table.seats, tr, keep),
            ]
        )

    row = [rules_button(tr, _rules_section(view), table.game_id)]
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
    table: TableInfo, tr: Translator, selected: Card | None
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


def _private(table: TableInfo, tr: Translator, selected: Card | None, events: int) -> Rendered:
    view = table.view
    me = table.seats[view.player] if 0 <= view.player < len(table.seats) else SeatInfo(name="")
    my_turn = _is_my_turn(view)

    def build(keep: int | None) -> str:
        top: list[str] = []
        if my_turn:
            timer = f" ({clock(table.seconds_left)})" if table.seconds_left is not None else ""
            top.append(tr.t("hand-your-turn", name=seat_name(me, tr)) + timer)
        top += _header(view, table.seats, tr)
        top.append(_table_line(view, tr))
        if not my_turn:
            turn = _turn_line(table, tr)
            if turn:
                top.append(turn)
        top.append(tr.t("table-deck", count=view.deck_size))
        blocks = [top, _player_lines(table, tr), _event_lines(table, tr, events)]
        if table.solo:
            blocks.append(_tally_lines(view, table.seats, tr, keep))
        else:
            score = _score_line(view, table.seats, tr)
            blocks.append([score] if score else [])
        bottom: list[str] = []
        if view.is_terminal:
            bottom.append(tr.t("hand-game-over"))
        elif my_turn and selected is not None and selected in view.hand:
            if actions_of_card(view, selected):
                bottom.append(tr.t("hand-what-now", card=card(selected, tr)))
            else:
                bottom.append(tr.t("hand-card-cannot", card=card(selected, tr)))
        elif my_turn:
            bottom.append(tr.t("hand-pick-card"))
        elif view.hand:
            bottom.append(tr.t("hand-cards", cards=cards(view.hand, tr, "  ")))
        blocks.append(bottom)
        return _join(blocks)

    rows: list[Sequence[InlineKeyboardButton]] = _hand_rows(table, tr, selected) if my_turn else []
    last_row = [rules_button(tr, _rules_section(view), table.game_id)]
    if view.is_terminal and table.solo:
        last_row.insert(0, button(tr.t("btn-rematch"), RematchCb(game=table.game_id).pack()))
    rows.append(last_row)
    return Rendered(fit(build), keyboard(rows))


def render_hand(table: TableInfo, tr: Translator, selected: Card | None = None) -> Rendered:
    """A player's live private message: the table, their cards, and on their turn the moves.

    ``selected`` is the card picked by the first tap of the two-tap flow (its actions become buttons).
    """
    return _private(table, tr, selected, PRIVATE_EVENTS)


def render_solo(table: TableInfo, tr: Translator, selected: Card | None = None) -> Rendered:
    """The one live message of a solo game against bot players (their moves written out)."""
    return _private(table, tr, selected, SOLO_EVENTS)


# --------------------------------------------------------------------------------------------- results


def _deal_score(view: KonchinkaView, deal_number: int | None) -> DealScore | None:
    for score in reversed(view.deal_scores):
        if deal_number is None or score.deal_number == deal_number:
            return score
    return None


def _plus(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def render_deal_end(table: TableInfo, tr: Translator, deal_number: int | None = None) -> Rendered:
    """The scoring of a finished deal (the last one unless ``deal_number``) and the tally so far."""
    view = table.view
    seats = table.seats
    score = _deal_score(view, deal_number)
    if score is None:
        return Rendered(tr.t("deal-none"), None)

    def counts(values: Sequence[int]) -> str:
        return " · ".join(f"{seat_name(seat, tr)} {values[i]}" for i, seat in enumerate(seats))

    def award(winner: int | None, points: int) -> str:
        if winner is None:
            return tr.t("deal-tie" if score.finished_early_by is None else "deal-not-secured")
        return tr.t("deal-award", name=name_of(seats, winner, tr), points=points)

    def build(keep: int | None) -> str:
        head = [tr.t("deal-title", deal=score.deal_number)]
        if score.finished_early_by is not None:
            head.append(tr.t("deal-finished-early", name=name_of(seats, score.finished_early_by, tr)))
        lines = [
            tr.t("deal-cards", counts=counts(score.cards), award=award(score.cards_winner, 2)),
            tr.t("deal-clubs", counts=counts(score.clubs), award=award(score.clubs_winner, 1)),
        ]
        if score.konchinki:
            held = ", ".join(
                f"{card(c, tr)} — {name_of(seats, holder, tr)}"
                for c, holder in sorted(score.konchinki.items(), key=lambda item: item[0].index)
            )
            lines.append(tr.t("deal-konchinki", held=held))
        else:
            lines.append(tr.t("deal-no-konchinki"))
        points = " · ".join(f"{seat_name(seat, tr)} {_plus(score.points[i])}" for i, seat in enumerate(seats))
        lines.append(tr.t("deal-points", points=points))
        return _join([head, lines, _tally_lines(view, seats, tr, keep)])

    return Rendered(fit(build), keyboard([[rules_button(tr, RulesSection.SCORING, table.game_id)]]))


def render_party_end(table: TableInfo, tr: Translator) -> Rendered:
    """The winner, the full tally and the settlement, with a rematch button."""
    view = table.view
    seats = table.seats
    outcome = view.outcome

    def build(keep: int | None) -> str:
        head = [tr.t("party-title")]
        last = view.deal_scores[-1] if view.deal_scores else None
        if last is not None and last.finished_early_by is not None:
            head.append(tr.t("move-finish", name=name_of(seats, last.finished_early_by, tr)))
        if outcome is not None:
            for winner in outcome.winners:
                head.append(
                    tr.t("party-winner", name=name_of(seats, winner, tr), points=outcome.scores[winner])
                )
        blocks = [head, _tally_lines(view, seats, tr, keep)]
        if outcome is not None and any(outcome.settlement):
            blocks.append(_settlement_lines(view, seats, outcome.settlement, tr))
        return _join(blocks)

    rows = [
        [
            button(tr.t("btn-rematch"), RematchCb(game=table.game_id).pack()),
            rules_button(tr, _rules_section(view), table.game_id),
        ]
    ]
    return Rendered(fit(build), keyboard(rows))


def _settlement_lines(
    view: KonchinkaView, seats: Sequence[SeatInfo], settlement: Sequence[int], tr: Translator
) -> list[str]:
    if view.options.settlement is Settlement.STAKE:
        lines = [tr.t("settle-title-stake", stake=view.options.stake)]
    else:
        lines = [tr.t("settle-title-points")]
    receivers = [i for i, amount in enumerate(settlement) if amount > 0]
    for payer, amount in enumerate(settlement):
        if amount >= 0:
            continue
        if len(receivers) == 1:
            lines.append(
                tr.t(
                    "settle-pays",
                    payer=name_of(seats, payer, tr),
                    payee=name_of(seats, receivers[0], tr),
                    amount=-amount,
                )
            )
        else:
            lines.append(tr.t("settle-owes", payer=name_of(seats, payer, tr), amount=-amount))
    return lines
