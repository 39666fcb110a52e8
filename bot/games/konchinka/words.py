"""Кончинка moves in words: «Борис берёт 3♠ + 5♦ восьмёркой пик · 🎯 кончинка 10♦», one line each, for the
table, the hand («С вашего хода») and a deal's result."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.views.common import SeatInfo, card, cards, name_of
from engine.cards import Card
from engine.konchinka import KONCHINKI, Event, EventKind


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


def last_own_move(events: Sequence[Event], player: int, seats: Sequence[SeatInfo], tr: Translator) -> str:
    """``player``'s own last move among ``events`` (one deal's), in words; "" before their first."""
    own = [e for e in events if e.player == player and e.kind is not EventKind.LEFTOVERS]
    told = [t for t in (event_text(e, seats, tr) for e in own) if t]
    return told[-1] if told else ""


def moves_since(
    events: Sequence[Event], player: int, seats: Sequence[SeatInfo], tr: Translator, *, auto: bool = False
) -> list[str]:
    """The moves among ``events`` (one deal's) made since ``player``'s own last one, one line each; ``auto``: the
    last one marked as the timer's."""
    told = [e for e in events if e.kind is not EventKind.DEAL_START]
    # The leftovers go to the last capturer at the deal's end: no move of theirs, so their own summary tells it.
    mine = [i for i, e in enumerate(told) if e.player == player and e.kind is not EventKind.LEFTOVERS]
    since = told[mine[-1] + 1 :] if mine else told
    texts = [t for t in (event_text(e, seats, tr) for e in since) if t]
    if texts and auto:
        texts[-1] = tr.t("move-auto", move=texts[-1])
    return [f"· {t}" for t in texts]
