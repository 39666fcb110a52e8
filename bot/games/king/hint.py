"""«💡 Подсказка» in a solo Кинг game: what the strongest bot player would play, and why, in one line."""

from __future__ import annotations

from bot.i18n import Translator
from bot.views.common import card, short_answer
from engine.king import ChooseTrump, KingAction, KingView, winning_play


def hint_text(view: KingView, action: KingAction, tr: Translator) -> str:
    """One line (a callback answer, ≤ 200 characters): «💡 Мастер сыграл бы так: 7♦ — отдаёт взятку
    другому.» ``action`` is the one the «мастер» bot player chose from this view."""
    if isinstance(action, ChooseTrump):
        if action.suit is None:
            move, why = tr.t("hint-move-trump-last"), "trump-last"
        else:
            move, why = tr.t("hint-move-trump", suit=action.suit.symbol), "trump-suit"
        return short_answer(tr.t("hint-line", move=move, why=tr.t("hint-why", why=why)))
    move = tr.t("hint-move-play", card=card(action.card, tr))
    if not view.trick:
        why = "lead"
    else:
        led = view.trick[0][1].suit
        takes = winning_play((*view.trick, (view.player, action.card)), view.trump)[0] == view.player
        if takes:
            why = "takes"
        elif action.card.suit is not led and action.card.suit is not view.trump:
            why = "discard"
        else:
            why = "ducks"
    return short_answer(tr.t("hint-line", move=move, why=tr.t("hint-why", why=why)))
