"""«💡 Подсказка» in a solo Кончинка game: what the strongest bot player would play, why, and what its search
expects of it, in one line. The reason is said from what the move does (the кончинка it takes, the cards or
clubs it takes, the jack's sweep); a move that was the only one says so, with no reason and no number."""

from __future__ import annotations

from bot.games.konchinka.words import is_sweep
from bot.i18n import Translator
from bot.views.common import card, cards, decimal, short_answer
from engine.ai.advice import Advice
from engine.cards import Suit
from engine.konchinka import Capture, Finish, KonchinkaView, Lay
from engine.konchinka.ai.advice import Why
from engine.konchinka.rules import KONCHINKI


def move_text(view: object, action: object, tr: Translator) -> str:
    """A Кончинка move from ``view`` as the hint and the review say it: «взять 7♦ + 3♠ картой 10♦», «взять
    весь стол (14) картой В♥» (a jack's sweep in one phrase), «положить 4♠»."""
    if isinstance(action, Finish):
        return tr.t("hint-move-finish")
    if isinstance(action, Capture):
        if isinstance(view, KonchinkaView) and not action.finish and is_sweep(action, view):
            return tr.t("hint-move-sweep", count=len(action.taken), card=card(action.card, tr))
        key = "hint-move-capture-finish" if action.finish else "hint-move-capture"
        return tr.t(key, taken=cards(action.taken, tr, " + "), card=card(action.card, tr))
    assert isinstance(action, Lay)
    return tr.t("hint-move-lay", card=card(action.card, tr))


def reason_text(view: KonchinkaView, action: object, why: str, tr: Translator) -> str | None:
    """Why «мастер» plays ``action`` from ``view``, in words: the reason ``why`` with the cards and counts of
    the move itself («забирает кончинку 10♦», «берёт 3 трефы»); None for no reason (:attr:`Why.NONE`)."""
    if why == Why.NONE:
        return None
    if why == Why.SAFEST_LAY and not view.table:
        return tr.t("konchinka-why-safest-lay-empty")
    kept = [c for c in view.hand if c in KONCHINKI]
    count = 0
    shown: list[str] = []
    if isinstance(action, Capture):
        every = (*action.taken, action.card)
        taken_konchinki = [c for c in every if c in KONCHINKI]
        count = {
            Why.KONCHINKA: len(taken_konchinki),
            Why.SWEEP: len(action.taken),
            Why.CLUBS: sum(1 for c in every if c.suit is Suit.CLUBS),
            Why.MOST_CARDS: len(action.taken),
            Why.CAPTURE: len(every),
        }.get(Why(why), 0)
        shown = [card(c, tr) for c in taken_konchinki]
    elif isinstance(action, Lay):
        shown = [card(c, tr) for c in kept if c != action.card]
    return tr.t(f"konchinka-why-{why}", count=count, card=", ".join(shown))


def gain_text(advice: Advice, tr: Translator) -> str:
    """What the move is worth beyond the best other one, in points of the rest of the deal (within what a deal
    hands out), or nothing where the search weighed no other move."""
    gain = advice.gain
    if gain is None:
        return ""
    if round(gain, 1) == 0.0:
        return " " + tr.t("hint-gain-none")
    return " " + tr.t("hint-gain", gain=decimal(gain, tr))


def hint_line(move: str, why: str | None, advice: Advice, tr: Translator, *, only: bool) -> str:
    """The hint of either game: «💡 Ход здесь один: …» for a forced move (``only``), else the move, its reason
    (None: none tells it from the best other move) and what it is worth, within a callback answer's 200
    characters."""
    if only:
        return short_answer(tr.t("hint-only", move=move))
    line = tr.t("hint-line", move=move, why=why) if why else tr.t("hint-line-bare", move=move)
    return short_answer(line + gain_text(advice, tr))


def hint_text(view: KonchinkaView, advice: Advice, tr: Translator) -> str:
    """One line (a callback answer, ≤ 200 characters): «💡 Мастер сыграл бы так: взять 7♦ + 3♠ картой 10♦ —
    забирает кончинку 10♦.» (no figure: Кончинка's search does not value moves in the player's points)
    ``advice`` is what the «мастер» bot player decided from this view."""
    why = reason_text(view, advice.action, advice.why, tr)
    return hint_line(move_text(view, advice.action, tr), why, advice, tr, only=advice.why == Why.ONLY)
