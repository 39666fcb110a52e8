"""«🔍 Разбор партии» of a Кончинка party: the player's three costliest moves, each with its table and hand,
the move made (and a кончинка it left on the table) and the one «мастер» prefers with what it does that the move
made does not."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.konchinka.hint import move_text, reason_text
from bot.i18n import Translator
from bot.views.common import Rendered, SeatInfo, cards
from bot.views.review import ReviewWords
from bot.views.review import render_review as review_frame
from engine.ai.review import Review
from engine.konchinka import KonchinkaView, Lay
from engine.konchinka.ai.advice import konchinka_why
from engine.konchinka.rules import KONCHINKI


def render_review(review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
    def position(view: object, n: int) -> list[str]:
        assert isinstance(view, KonchinkaView)
        table = cards(view.table, tr) if view.table else tr.t("review-empty-table")
        return [
            tr.t("review-konchinka-position", n=n, deal=view.deal_number, table=table),
            tr.t("review-hand", hand=cards(view.hand, tr)),
        ]

    def reason(view: object, action: object, other: object) -> str | None:
        assert isinstance(view, KonchinkaView)
        return reason_text(view, action, konchinka_why(view, action, other), tr)

    def note(view: object, action: object) -> str | None:
        gave = isinstance(action, Lay) and action.card in KONCHINKI
        return tr.t("review-konchinka-gave") if gave else None

    # No figure: the search values a move by the player's edge over the others (and the party's win), not in
    # the player's own points.
    words = ReviewWords(position, move_text, reason, note, lambda _view: None)
    return review_frame(review, tr, words)
