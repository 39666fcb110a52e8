"""«💡 Подсказка» in a solo Кончинка game: what the strongest bot player would play, why, and what its search
expects of it, in one line."""

from __future__ import annotations

from bot.i18n import Translator
from bot.views.common import card, cards, decimal, short_answer
from engine.ai.advice import Advice
from engine.konchinka import Capture, Finish, KonchinkaView, Lay


def move_text(action: object, tr: Translator) -> str:
    """A Кончинка move as the hint and the review say it: «взять 7♦ + 3♠ картой 10♦», «положить 4♠»."""
    if isinstance(action, Finish):
        return tr.t("hint-move-finish")
    if isinstance(action, Capture):
        key = "hint-move-capture-finish" if action.finish else "hint-move-capture"
        return tr.t(key, taken=cards(action.taken, tr, " + "), card=card(action.card, tr))
    assert isinstance(action, Lay)
    return tr.t("hint-move-lay", card=card(action.card, tr))


def values_text(advice: Advice, tr: Translator) -> str:
    """What the search expects of the move (and of the best other one), or nothing where it weighed none."""
    if advice.value is None:
        return ""
    value = decimal(advice.value, tr, signed=True)
    if advice.runner_up is None:
        return " " + tr.t("hint-value", value=value)
    return " " + tr.t("hint-values", value=value, other=decimal(advice.runner_up, tr, signed=True))


def hint_text(view: KonchinkaView, advice: Advice, tr: Translator) -> str:
    """One line (a callback answer, ≤ 200 characters): «💡 Мастер сыграл бы так: взять 7♦ + 3♠ картой 10♦ —
    забирает кончинку. В среднем +1,2 очка за сдачу, лучший другой ход — +0,3.» ``advice`` is what the «мастер»
    bot player decided from this view."""
    why = tr.t("hint-why", why=advice.why, card="")
    line = tr.t("hint-line", move=move_text(advice.action, tr), why=why)
    return short_answer(line + values_text(advice, tr))
