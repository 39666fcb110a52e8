"""Кончинка's score sheet from the public part of a view: as a picture's data (a crossed-out column per player,
each deal's small print) and as text (the per-deal grid: who got the cards, the clubs, the кончинки, each
player's points, the totals)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.views.common import SeatInfo, card, seat_name
from bot.views.sheets import TallyDeal, TallySheet
from bot.views.sheets.seats import picture_name
from engine.konchinka import DealScore, KonchinkaView


def _counts(values: Sequence[int]) -> str:
    return "·".join(str(v) for v in values)


def deal_note(score: DealScore, names: Sequence[str], tr: Translator) -> str:
    """A deal's small print: «карты 20·16 · ♣ 5·3 · кончинки: 10♦ Аня · Аня приканчивает партию» (no gendered «прикончил(а)»)."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    parts = [
        tr.t("sheet-note-cards", counts=_counts(score.cards)),
        tr.t("sheet-note-clubs", counts=_counts(score.clubs)),
    ]
    if score.konchinki:
        held = ", ".join(
            f"{card(c, tr)} {name(holder)}"
            for c, holder in sorted(score.konchinki.items(), key=lambda item: item[0].index)
        )
        parts.append(tr.t("sheet-note-konchinki", held=held))
    if score.finished_early_by is not None:
        parts.append(tr.t("sheet-note-finish", name=name(score.finished_early_by)))
    return " · ".join(parts)


def tally_sheet(
    view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator, *, notes: bool = True
) -> TallySheet:
    """The picture's data: a column per seat, one row per finished deal (its running totals, its points, its
    small print when ``notes``), the target, the winners once the party is over."""
    names = tuple(picture_name(seat, tr) for seat in seats)
    deals = tuple(
        TallyDeal(
            number=score.deal_number,
            points=tuple(score.points),
            totals=tuple(score.totals),
            note=deal_note(score, names, tr) if notes else "",
        )
        for score in view.deal_scores
    )
    options = view.options
    subtitle = " · ".join(
        [
            tr.t("opt-variant", variant=options.variant.value),
            tr.t("opt-target", target=options.target),
            tr.t("sheet-deals", count=len(deals)),
        ]
    )
    return TallySheet(
        title=tr.t("sheet-konchinka-title"),
        subtitle=subtitle,
        players=names,
        deals=deals,
        target=options.target,
        target_label=tr.t("opt-target", target=options.target),
        winners=tuple(view.outcome.winners) if view.outcome is not None else (),
        winner_label=tr.t("sheet-winner"),
    )


def _seats_of(winner: int | None) -> str:
    return "—" if winner is None else str(winner + 1)


def grid_lines(view: KonchinkaView, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    """The per-deal grid in monospace (``<pre>``): a row per deal — its number («!» if the party was finished in
    it), who got +2 for the cards and +1 for the clubs (seat numbers, «—» for nobody), who held кончинки, each
    seat's points in it — then each seat's total. About 29 characters wide for four players."""
    scores = view.deal_scores
    if not scores:
        return []
    players = len(seats)
    legend = " · ".join(f"{i + 1} {seat_name(seat, tr)}" for i, seat in enumerate(seats))
    head = (
        f"{tr.t('sheet-col-deal'):>2} "
        + f"{tr.t('sheet-col-cards'):>4}"
        + " ♣"
        + f"{tr.t('sheet-col-konchinki'):>4}"
        + "".join(f"{i + 1:>4}" for i in range(players))
    )
    body = []
    for score in scores:
        mark = "!" if score.finished_early_by is not None else ""
        held = "".join(str(h + 1) for h in sorted(score.konchinki.values()))
        row = (
            f"{score.deal_number:>2}{mark:<1}"
            + f"{_seats_of(score.cards_winner):>4}"
            + f"{_seats_of(score.clubs_winner):>2}"
            + f"{held or '—':>4}"
        )
        body.append(row + "".join(f"{_plus(score.points[i]):>4}" for i in range(players)))
    totals = scores[-1].totals
    body.append("Σ".ljust(13) + "".join(f"{totals[i]:>4}" for i in range(players)))
    pre = "\n".join([head, *body])
    return [legend, f"<pre>{pre}</pre>", tr.t("sheet-grid-legend")]


def _plus(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)
