"""«🔍 Разбор партии» of a Кинг party: the player's three costliest moves, each with its deal, trick and hand,
the move made and the one «мастер» prefers with its reason and what that was worth."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.king.hint import move_text, reason_text
from bot.games.king.views import deal_label
from bot.i18n import Translator
from bot.views.common import Rendered, SeatInfo, card, cards, name_of
from bot.views.review import ReviewWords
from bot.views.review import render_review as review_frame
from engine.ai.review import Review
from engine.king import KingView, Phase
from engine.king.ai.advice import can_change, king_why
from engine.king.rules import NUM_DEALS


def _position(view: KingView, n: int, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    deal = deal_label(view.deal_index, view.contract, tr)
    if view.trump is not None:
        deal += ", " + tr.t("review-king-trump-suit", suit=view.trump.symbol)
    head = tr.t(
        "review-king-position",
        n=n,
        deal=view.deal_index + 1,
        total=NUM_DEALS,
        contract=deal,
        trick=len(view.tricks_this_deal) + 1,
    )
    if view.phase is Phase.CHOOSE_TRUMP:
        return [head, tr.t("review-king-choose", hand=cards(view.hand, tr))]
    if view.trick:
        plays = ", ".join(f"{card(c, tr)} ({name_of(seats, p, tr)})" for p, c in view.trick)
        on_table = tr.t("review-king-trick", plays=plays)
    else:
        on_table = tr.t("review-king-lead")
    return [head, on_table, tr.t("review-hand", hand=cards(view.hand, tr))]


def render_review(review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
    def position(view: object, n: int) -> list[str]:
        assert isinstance(view, KingView)
        return _position(view, n, seats, tr)

    def reason(view: object, action: object, other: object) -> str | None:
        assert isinstance(view, KingView)
        return reason_text(view, action, king_why(view, action, other), tr)

    def most(view: object) -> float:
        assert isinstance(view, KingView)
        return can_change(view)

    words = ReviewWords(position, move_text, reason, lambda _view, _action: None, most)
    return review_frame(review, tr, words)
