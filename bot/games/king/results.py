"""Кинг results: the end of each deal (its points, its last trick, why it stopped
early) and the end of the party, for the group and for each private chat."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import RematchCb
from bot.games.king.sections import KingSection
from bot.games.king.views import (
    contract_of,
    deal_label,
    join_blocks,
    plays_text,
    signed,
    totals_line,
)
from bot.i18n import Translator
from bot.views.common import (
    Rendered,
    SeatInfo,
    TableInfo,
    button,
    by_place,
    fit,
    keyboard,
    name_of,
    place_line,
    rules_button,
    seat_name,
)
from engine.king import NUM_DEALS, KingView
from engine.king.rules import TRICKS_PER_DEAL


def render_deal_end(
    table: TableInfo[KingView], tr: Translator, deal_number: int | None = None, *, personal: bool = False
) -> Rendered:
    """A finished deal (the last one unless ``deal_number``, 1-based): its last trick and points (the sheet so
    far is the picture beside it). ``personal``: a player's own chat — the deal's last trick (the plays since one's own) and points, the
    totals; the sheet is the group's."""
    view = table.view
    seats = table.seats
    sheet = view.score_sheet
    index = len(sheet) - 1 if deal_number is None else deal_number - 1
    if not 0 <= index < len(sheet):
        return Rendered(tr.t("deal-none"), None)
    if personal:
        return Rendered(
            "\n".join([*_deal_block(view, index, seats, tr), *totals_line(view, seats, tr)]), None
        )

    # The score sheet's picture beside it carries the sheet: the deal is said here once.
    text = "\n".join(_deal_block(view, index, seats, tr))
    return Rendered(text, keyboard([[rules_button(tr, KingSection.SCORING, table.game_id)]]))


def _deal_block(
    view: KingView, index: int, seats: Sequence[SeatInfo], tr: Translator, *, short: bool = False
) -> list[str]:
    """A finished deal: its title, its last trick (and why it stopped early; not when ``short``), its points."""
    row = view.score_sheet[index]
    label = deal_label(index, contract_of(view, index), tr)
    head = [tr.t("king-deal-over", deal=index + 1, total=NUM_DEALS, contract=label)]
    if not short:
        head += _deal_end_lines(view, index, seats, tr)
    head.append(" · ".join(f"{seat_name(seat, tr)} <b>{signed(row[i])}</b>" for i, seat in enumerate(seats)))
    return head


def _deal_end_lines(view: KingView, index: int, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    """The deal's last trick, and why the deal stopped early when it did."""
    end = next((e for e in view.deal_ends if e.deal_index == index), None)
    if end is None:
        return []
    trick = end.last_trick
    lines = [
        tr.t(
            "king-final-trick",
            plays=plays_text(trick.plays, seats, tr),
            name=name_of(seats, trick.winner, tr),
        )
    ]
    if end.stopped_early:
        lines.append(tr.t("king-stopped-early", played=end.tricks_played, total=TRICKS_PER_DEAL))
    return lines


def render_party_end(
    table: TableInfo[KingView], tr: Translator, *, rematch: bool = True, personal: bool = False
) -> Rendered:
    """One message for the party's end, below the final sheet's picture: the winner(s), the last deal's points,
    the final results by place (positive points − penalties). ``personal``: a player's own chat —
    «Вы победили!» or «Вы на 2-м месте» first, the deal in short, no sheet (the group has it). ``rematch``:
    offer «🔁 Реванш» (where this reader may start one)."""
    view = table.view
    seats = table.seats
    outcome = view.outcome
    sheet = view.score_sheet
    order = by_place(outcome.scores) if outcome is not None else list(range(len(seats)))

    def build(_keep: int | None) -> str:
        head = [tr.t("party-title")]
        mine = personal or table.solo  # a solo game's chat is its player's own
        me = view.player if mine and outcome is not None and 0 <= view.player < len(seats) else None
        if me is not None and outcome is not None:
            head.append(place_line(outcome.scores, me, outcome.winners, signed(outcome.scores[me]), tr))
        if outcome is not None:
            for winner in (w for w in outcome.winners if w != me):
                head.append(
                    tr.t(
                        "party-winner",
                        name=name_of(seats, winner, tr),
                        points=signed(outcome.scores[winner]),
                        count=outcome.scores[winner],
                    )
                )
        deal = _deal_block(view, len(sheet) - 1, seats, tr, short=True) if sheet else []
        results = [tr.t("king-results-title")]
        for i in order:
            plus = sum(r[i] for r in sheet if r[i] > 0)
            minus = -sum(r[i] for r in sheet if r[i] < 0)
            total = plus - minus
            results.append(
                tr.t("king-result", name=seat_name(seats[i], tr), plus=plus, minus=minus, total=signed(total))
            )
        return join_blocks([head, deal, results])  # the whole sheet is the final picture above it

    row = [rules_button(tr, KingSection.SCORING, table.game_id)]
    if rematch:
        row.insert(0, button(tr.t("btn-rematch"), RematchCb(game=table.game_id).pack()))
    return Rendered(fit(build), keyboard([row]))
