"""«💡 Подсказка» in a solo Кинг game: what the strongest bot player would play, why, and what its search expects
of it, in one line."""

from __future__ import annotations

from bot.games.konchinka.hint import values_text
from bot.i18n import Translator
from bot.views.common import card, short_answer
from engine.ai.advice import Advice
from engine.cards import Card, Rank
from engine.king import ChooseTrump, KingView, Play
from engine.king.rules import KING_OF_HEARTS


def move_text(action: object, tr: Translator) -> str:
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


def hint_text(view: KingView, advice: Advice, tr: Translator) -> str:
    """One line (a callback answer, ≤ 200 characters): «💡 Мастер сыграл бы так: Д♠ — сбрасывает даму, пока
    можно. В среднем −2,0 очка за сдачу, лучший другой ход — −6,5.» ``advice`` is what the «мастер» bot player
    decided from this view."""
    action = advice.action
    what = tr.t("hint-dump-what", what=_penalty_kind(action.card)) if isinstance(action, Play) else ""
    why = tr.t("hint-why", why=advice.why, card=what)
    line = tr.t("hint-line", move=move_text(action, tr), why=why)
    return short_answer(line + values_text(advice, tr))
