"""«🔍 Разбор партии» of a Кончинка party: the player's three costliest moves, each with its table and hand,
the move made and the one «мастер» prefers, with what that was worth."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.konchinka.hint import move_text
from bot.i18n import Translator
from bot.views.common import Rendered, SeatInfo, cards
from bot.views.review import render_review as review_frame
from engine.ai.review import Review
from engine.konchinka import KonchinkaView


def render_review(review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
    def position(view: object, n: int) -> list[str]:
        assert isinstance(view, KonchinkaView)
        table = cards(view.table, tr) if view.table else tr.t("review-empty-table")
        return [
            tr.t("review-konchinka-position", n=n, deal=view.deal_number, table=table),
            tr.t("review-hand", hand=cards(view.hand, tr)),
        ]

    return review_frame(review, tr, position, move_text)
