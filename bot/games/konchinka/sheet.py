"""Кончинка's score sheet from the public part of a view, as a picture's data: a crossed-out column per player,
each deal's small print."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.views.common import SeatInfo, card
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
