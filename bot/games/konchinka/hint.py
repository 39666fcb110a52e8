"""«💡 Подсказка» in a solo Кончинка game: what the strongest bot player would play, and why, in one line."""

from __future__ import annotations

from bot.i18n import Translator
from bot.views.common import card, cards, short_answer
from engine.cards import Rank
from engine.konchinka import KONCHINKI, Capture, Finish, KonchinkaAction, KonchinkaView, Lay, Variant


def hint_text(view: KonchinkaView, action: KonchinkaAction, tr: Translator) -> str:
    """One line (a callback answer, ≤ 200 characters): «💡 Мастер сыграл бы так: взять 7♦ + 3♠ картой 10♦ —
    забирает кончинку.» ``action`` is the one the «мастер» bot player chose from this view."""
    if isinstance(action, Finish):
        move, why = tr.t("hint-move-finish"), "finish"
    elif isinstance(action, Lay):
        move = tr.t("hint-move-lay", card=card(action.card, tr))
        could_capture = any(isinstance(a, Capture) for a in view.legal_actions)
        why = "lay-better" if could_capture else "lay-nothing"
    else:
        move = tr.t("hint-move-capture", taken=cards(action.taken, tr, " + "), card=card(action.card, tr))
        every = (*action.taken, action.card)
        if any(c in KONCHINKI for c in every):
            why = "konchinka"
        elif (
            view.options.variant is Variant.CLASSIC
            and action.card.rank is Rank.JACK
            and len(action.taken) == len(view.table)
        ):
            why = "sweep"
        else:
            why = "capture"
    return short_answer(tr.t("hint-line", move=move, why=tr.t("hint-why", why=why)))
