"""Кончинка moves in words on the buttons of a choice: what a move does («Взять 7♦ + 3♠», «Положить на стол»,
«🏁 Взять 10♦ и прикончить»), and why «🏁 Прикончить!» is offered («10♦ даёт +1 → 15», from a seat's score so far:
:func:`total`, which the screens show too). The moves told as they happen (the table's, the hand's, a deal's
result) are in :mod:`bot.games.konchinka.views`."""

from __future__ import annotations

from bot.i18n import Translator
from bot.views.common import card, cards
from engine.cards import Rank
from engine.konchinka import Capture, Finish, KonchinkaView, Lay, Variant
from engine.konchinka.rules import CARDS_POINTS, CLUBS_POINTS, SECURE_CARDS, SECURE_CLUBS
from engine.konchinka.scoring import secured_points


def action_label(action: Lay | Capture | Finish, view: KonchinkaView, tr: Translator) -> str:
    """A button's words for an action: «Взять 7♦ + 3♠», «Положить на стол», «🏁 Прикончить!», «🏁 Взять 10♦ и
    прикончить»."""
    if isinstance(action, Finish):
        return tr.t("btn-finish")
    if isinstance(action, Lay):
        return tr.t("btn-lay")
    if action.finish:
        return tr.t("btn-and-finish", action=action_label(action.capture, view, tr))
    if is_sweep(action, view):
        return tr.t("btn-sweep", count=len(action.taken))
    groups = " | ".join(" + ".join(card(c, tr) for c in group) for group in action.groups)
    return tr.t("btn-capture", cards=groups)


def card_capture_label(action: Capture, view: KonchinkaView, tr: Translator) -> str:
    """A capture on its card's own row of the hand, card first and short: «10♦ берёт 7♦+3♠», «В♥ берёт всё (4)»."""
    by = card(action.card, tr)
    if is_sweep(action, view):
        return tr.t("btn-card-sweep", card=by, count=len(action.taken))
    groups = ", ".join("+".join(card(c, tr) for c in group) for group in action.groups)
    return tr.t("btn-card-capture", card=by, cards=groups)


def is_sweep(action: Capture, view: KonchinkaView) -> bool:
    """A classic jack taking the whole table (its cards are not written out: it takes them all)."""
    return (
        len(action.groups) == 1
        and len(action.taken) == len(view.table)
        and view.options.variant is Variant.CLASSIC
        and action.card.rank is Rank.JACK
    )


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
    return tr.t("finish-reason", parts=", ".join(parts), total=total(view, me) + secured)


def total(view: KonchinkaView, seat: int) -> int:
    """A seat's score so far: the last figure of its tally (0 before the first deal has ended)."""
    totals = view.tally[seat]
    return totals[-1] if totals else 0
