"""«💡 Подсказка» in a solo Кинг game: what the strongest bot player would play, why, and what its search expects
of it, in one line. The reason is said from what the card does in the trick (the penalty card dropped, the
card it stays under, the trick it takes); a card that was the only legal one says so, with no reason and no
number."""

from __future__ import annotations

from bot.games.konchinka.hint import hint_line
from bot.i18n import Translator
from bot.views.common import card, short_answer
from engine.ai.advice import Advice
from engine.cards import Card, Rank
from engine.king import ChooseTrump, KingView, Play
from engine.king.ai.advice import Why
from engine.king.rules import KING_OF_HEARTS, winning_play


def move_text(_view: object, action: object, tr: Translator) -> str:
    """A Кинг move as the hint and the review say it: a card, or the trump named."""
    if isinstance(action, ChooseTrump):
        if action.suit is None:
            return tr.t("hint-move-trump-last")
        return tr.t("hint-move-trump", suit=action.suit.symbol)
    assert isinstance(action, Play)
    return tr.t("hint-move-play", card=card(action.card, tr))


def _penalty_kind(c: Card) -> str:
    """What a dropped penalty card is called: the king (K♥), a queen, a jack, or a heart."""
    if c == KING_OF_HEARTS:
        return "king"
    if c.rank is Rank.QUEEN:
        return "queen"
    if c.rank is Rank.JACK:
        return "jack"
    return "heart"


def reason_text(view: KingView, action: object, why: str, tr: Translator) -> str | None:
    """Why «мастер» plays ``action`` from ``view``, in words, with the cards of the trick it concerns
    («карта младше Т♣ — взятку не берёт», «масти нет — сбрасывает даму, пока можно»); None for no reason."""
    if why == Why.NONE:
        return None
    what = best = ""
    if isinstance(action, Play):
        what = tr.t("hint-dump-what", what=_penalty_kind(action.card))
        if view.trick:
            best = card(winning_play(view.trick, view.trump)[1], tr)
    return tr.t(f"king-why-{why}", what=what, best=best)


def hint_text(view: KingView, advice: Advice, tr: Translator) -> str:
    """One line (a callback answer, ≤ 200 characters): «💡 Мастер сыграл бы так: Д♦ — масти нет — сбрасывает
    даму, пока можно. Лучший другой ход в среднем на 4,5 очка хуже — за оставшуюся раздачу.» ``advice`` is
    what the «мастер» bot player decided from this view."""
    why = reason_text(view, advice.action, advice.why, tr)
    line = hint_line(move_text(view, advice.action, tr), why, advice, tr, only=advice.why == Why.ONLY)
    return short_answer(line)
