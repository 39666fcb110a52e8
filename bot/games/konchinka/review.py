"""«🔍 Разбор партии» of a Кончинка party: the player's three costliest moves, each with its table and hand,
the move made (and a кончинка it left on the table) and the one «мастер» prefers with its reason and what that
was worth."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.konchinka.hint import move_text, reason_text
from bot.i18n import Translator
from bot.views.common import Rendered, SeatInfo, cards
from bot.views.review import ReviewWords
from bot.views.review import render_review as review_frame
from engine.ai.review import Review
from engine.konchinka import KonchinkaView, Lay
from engine.konchinka.ai.advice import MOST_POINTS, konchinka_why
from engine.konchinka.rules import KONCHINKI


def render_review(review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
    def position(view: object, n: int) -> list[str]:
        assert isinstance(view, KonchinkaView)
        table = cards(view.table, tr) if view.table else tr.t("review-empty-table")
        return [
            tr.t("review-konchinka-position", n=n, deal=view.deal_number, table=table),
            tr.t("review-hand", hand=cards(view.hand, tr)),
        ]

    def reason(view: object, action: object) -> str:
        assert isinstance(view, KonchinkaView)
        return reason_text(view, action, konchinka_why(view, action), tr)

    def note(view: object, action: object) -> str | None:
        gave = isinstance(action, Lay) and action.card in KONCHINKI
        return tr.t("review-konchinka-gave") if gave else None

    words = ReviewWords(position, move_text, reason, note, lambda _view: MOST_POINTS)
    return review_frame(review, tr, words)
