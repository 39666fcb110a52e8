"""Кончинка results: the scoring of a finished deal and the end of the party (the winner, the totals by
place, the settlement), for the group and for each private chat: the score sheet's picture carries the
crossed-out tally and the grid."""

from __future__ import annotations

from collections.abc import Sequence

from bot.callbacks import RematchCb
from bot.games.konchinka.sections import KonchinkaSection
from bot.games.konchinka.views import (
    KonchinkaTable,
    join_blocks,
    moves_since,
    rules_section_of,
    score_line,
)
from bot.games.konchinka.words import total
from bot.i18n import Translator
from bot.views.common import (
    Rendered,
    SeatInfo,
    button,
    by_place,
    card,
    fit,
    keyboard,
    name_of,
    place_line,
    rules_button,
    seat_name,
)
from engine.konchinka import DealScore, KonchinkaView, Settlement


def _deal_score(view: KonchinkaView, deal_number: int | None) -> DealScore | None:
    for score in reversed(view.deal_scores):
        if deal_number is None or score.deal_number == deal_number:
            return score
    return None


def _plus(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def render_deal_end(
    table: KonchinkaTable, tr: Translator, deal_number: int | None = None, *, personal: bool = False
) -> Rendered:
    """The scoring of a finished deal (the last one unless ``deal_number``): each seat's points, then why.
    ``personal``: a player's own chat — each seat's points in one line, the deal's moves since the player's last
    one, the score."""
    view = table.view
    score = _deal_score(view, deal_number)
    if score is None:
        return Rendered(tr.t("deal-none"), None)
    if personal:
        lines = [
            _short(score, table, tr),
            *_tail(view, score, table.seats, tr),
            score_line(view, table.seats, tr),
        ]
        return Rendered("\n".join(line for line in lines if line), None)

    # The score sheet's picture beside it carries the tally and the grid: said here once, in words.
    text = "\n".join(_deal_lines(score, table.seats, tr))
    return Rendered(text, keyboard([[rules_button(tr, KonchinkaSection.SCORING, table.game_id)]]))


def _deal_lines(score: DealScore, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    """A deal's scoring: each one's points (and an early finish), then why — cards, clubs, кончинки."""

    def counts(values: Sequence[int]) -> str:
        return " · ".join(f"{seat_name(seat, tr)} {values[i]}" for i, seat in enumerate(seats))

    def award(winner: int | None, points: int) -> str:
        if winner is None:
            return tr.t("deal-tie" if score.finished_early_by is None else "deal-not-secured")
        return tr.t("deal-award", name=name_of(seats, winner, tr), points=points)

    lines = [tr.t("deal-short", deal=score.deal_number, points=_points(score, seats, tr))]
    if score.finished_early_by is not None:
        lines.append(tr.t("deal-finished-early", name=name_of(seats, score.finished_early_by, tr)))
    lines += [
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
    return lines


def _points(score: DealScore, seats: Sequence[SeatInfo], tr: Translator) -> str:
    return " · ".join(f"{seat_name(seat, tr)} {_plus(score.points[i])}" for i, seat in enumerate(seats))


def _short(score: DealScore, table: KonchinkaTable, tr: Translator) -> str:
    """«Раздача 3 окончена: Аня +3 · Борис 0 · Вера +1»."""
    return tr.t("deal-short", deal=score.deal_number, points=_points(score, table.seats, tr))


def _tail(view: KonchinkaView, score: DealScore, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    """The deal's moves after the player's own last one (the others' last cards, the leftovers, a finish)."""
    for events in (view.recent_events, view.previous_events):
        if events and events[0].deal_number == score.deal_number:
            return moves_since(events, view.player, seats, tr)
    return []


def render_party_end(
    table: KonchinkaTable, tr: Translator, *, rematch: bool = True, personal: bool = False
) -> Rendered:
    """One message for the party's end, in a few lines below the final sheet's picture (which carries the
    crossed-out tally and the grid): the winner, the totals by place, the last deal's points and the
    settlement. ``personal``: a player's own chat — «Вы победили!» or «Вы на
    2-м месте» first, the deal in one line. ``rematch``: offer «🔁 Реванш» (only where this reader may start
    one)."""
    view = table.view
    seats = table.seats
    outcome = view.outcome
    last = view.deal_scores[-1] if view.deal_scores else None
    order = by_place(outcome.scores) if outcome is not None else list(range(len(seats)))

    def build(_keep: int | None) -> str:
        head = [tr.t("party-title")]
        mine = personal or table.solo  # a solo game's chat is its player's own
        me = view.player if mine and outcome is not None and 0 <= view.player < len(seats) else None
        if me is not None and outcome is not None:
            head.append(place_line(outcome.scores, me, outcome.winners, str(outcome.scores[me]), tr))
        if personal and me is not None and last is not None and last.finished_early_by is not None:
            head.append(tr.t("move-finish", name=name_of(seats, last.finished_early_by, tr)))
        if outcome is not None:
            for winner in (w for w in outcome.winners if w != me):
                head.append(
                    tr.t(
                        "party-winner",
                        name=name_of(seats, winner, tr),
                        points=outcome.scores[winner],
                        count=outcome.scores[winner],
                    )
                )
        if any(view.tally):  # the totals by place; the crossed-out tally and the grid are the final picture's
            places = " · ".join(f"{seat_name(seats[i], tr)} {total(view, i)}" for i in order)
            head.append(tr.t("party-places", scores=places))
        blocks = [head]
        if last is not None:
            deal = [_short(last, table, tr)]
            if personal:
                deal += _tail(view, last, seats, tr)
            elif last.finished_early_by is not None:
                deal.append(tr.t("deal-finished-early", name=name_of(seats, last.finished_early_by, tr)))
            blocks.append(deal)
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
    unit = "stake" if view.options.settlement is Settlement.STAKE else "points"
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
                    unit=unit,
                )
            )
        else:
            lines.append(tr.t("settle-owes", payer=name_of(seats, payer, tr), amount=-amount, unit=unit))
    return lines
