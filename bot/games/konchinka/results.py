"""Кончинка results: the scoring of a finished deal and the end of the party (the winner, the crossed-out
tally, the settlement), for the group and for each private chat."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import RematchCb
from bot.games.konchinka.sections import KonchinkaSection
from bot.games.konchinka.views import KonchinkaTable, join_blocks, rules_section_of, tally_lines
from bot.i18n import Translator
from bot.views.common import button, card, fit, keyboard, name_of, rules_button, seat_name
from bot.views.models import Rendered, SeatInfo
from engine.konchinka import DealScore, KonchinkaView, Settlement


def _deal_score(view: KonchinkaView, deal_number: int | None) -> DealScore | None:
    for score in reversed(view.deal_scores):
        if deal_number is None or score.deal_number == deal_number:
            return score
    return None


def _plus(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def render_deal_end(table: KonchinkaTable, tr: Translator, deal_number: int | None = None) -> Rendered:
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
            lines.append(tr.t("deal-konchinki", held=held, count=len(score.konchinki)))
        else:
            lines.append(tr.t("deal-no-konchinki"))
        points = " · ".join(f"{seat_name(seat, tr)} {_plus(score.points[i])}" for i, seat in enumerate(seats))
        lines.append(tr.t("deal-points", points=points))
        return join_blocks([head, lines, tally_lines(view, seats, tr, keep)])

    return Rendered(fit(build), keyboard([[rules_button(tr, KonchinkaSection.SCORING, table.game_id)]]))


def render_party_end(table: KonchinkaTable, tr: Translator, *, rematch: bool = True) -> Rendered:
    """The winner, the full crossed-out tally and the settlement: the group's message and, the same, each
    private chat's. ``rematch``: offer «🔁 Реванш» (only where this reader may start one)."""
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
        blocks = [head, tally_lines(view, seats, tr, keep)]
        if outcome is not None and any(outcome.settlement):
            blocks.append(_settlement_lines(view, seats, outcome.settlement, tr))
        return join_blocks(blocks)

    row = [rules_button(tr, rules_section_of(view), table.game_id)]
    if rematch:
        row.insert(0, button(tr.t("btn-rematch"), RematchCb(game=table.game_id).pack()))
    return Rendered(fit(build), keyboard([row]))


def _settlement_lines(
    view: KonchinkaView, seats: Sequence[SeatInfo], settlement: Sequence[int], tr: Translator
) -> list[str]:
    if view.options.settlement is Settlement.STAKE:
        lines = [tr.t("settle-title-stake", stake=view.options.stake)]
    else:
        lines = [tr.t("settle-title-points", target=view.options.target)]
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
