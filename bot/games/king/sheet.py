"""Кинг's fifteen-row score sheet as a picture's data: the seven «не брать …» and the eight отыгрыши (each with
the trump it was played in), each player's points per deal, every row checked against the points the deal
hands out, and the whole sheet against zero."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.views.common import SeatInfo
from bot.views.sheets import GridRow, GridSheet
from bot.views.sheets.seats import picture_name
from engine.cards import Suit
from engine.king import NEGATIVE_DEALS, NUM_DEALS, ChooseTrump, KingState, KingView
from engine.king.rules import POINTS_PER_TRICK, TRICKS_PER_DEAL

POSITIVE_SUM = POINTS_PER_TRICK * TRICKS_PER_DEAL
"""What a positive deal hands out in all (+24)."""


def deal_trumps(state: KingState) -> tuple[Suit, ...]:
    """The trump of each positive deal named so far, in order: the choices themselves, or — when one was «по
    последней», a suit only that deal's cards knew — the party replayed from its seed (the view keeps only the
    current deal's trump)."""
    named = [a.suit for a in state.history if isinstance(a, ChooseTrump)]
    if all(suit is not None for suit in named):  # no «по последней»: the choices say it all
        return tuple(suit for suit in named if suit is not None)
    replayed = state.game.new_initial_state(state.seed)
    trumps: list[Suit] = []
    for action in state.history:
        replayed.apply(action)
        if isinstance(action, ChooseTrump) and replayed.trump is not None:
            trumps.append(replayed.trump)
    return tuple(trumps)


def grid_sheet(
    view: KingView, seats: Sequence[SeatInfo], tr: Translator, trumps: Sequence[Suit] = ()
) -> GridSheet:
    """The picture's data for the sheet so far: a row per deal played, the deals still to come empty."""
    order = view.options.order
    rows: list[GridRow] = []
    pending: list[GridRow] = []
    for index in range(NUM_DEALS):
        if index < NEGATIVE_DEALS:
            contract = order[index]
            label = tr.t("king-contract-short", contract=contract.value)
            section, expected, mark = 0, -contract.total, ""
        else:
            n = index - NEGATIVE_DEALS
            label = tr.t("sheet-king-positive", n=n + 1)
            section, expected = 1, POSITIVE_SUM
            mark = trumps[n].symbol if n < len(trumps) else ""
        if index < len(view.score_sheet):
            rows.append(GridRow(label, tuple(view.score_sheet[index]), mark, expected, section))
        else:
            pending.append(GridRow(label, (), mark, None, section))
    return GridSheet(
        title=tr.t("sheet-king-title"),
        subtitle=tr.t("sheet-deals", count=len(rows)) + f" / {NUM_DEALS}",
        players=tuple(picture_name(seat, tr) for seat in seats),
        rows=tuple(rows),
        pending=tuple(pending),
        total_label=tr.t("sheet-king-total"),
        expected_total=sum(r.expected_sum or 0 for r in rows),
        check_label=tr.t("sheet-king-check"),
        winners=tuple(view.outcome.winners) if view.outcome is not None else (),
    )
