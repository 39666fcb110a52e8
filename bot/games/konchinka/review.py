"""«🔍 Разбор партии» of a Кончинка party: the player's three costliest moves, each with its table and hand,
the move made and the one «мастер» prefers, with what that was worth."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.konchinka.hint import move_text
from bot.i18n import Translator
from bot.views.common import cards, decimal, fit
from bot.views.models import Rendered, SeatInfo
from engine.ai.review import Review
from engine.konchinka import KonchinkaView


def render_review(review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
    lines = [tr.t("review-title")]
    if not review.moves:
        lines.append(tr.t("review-none", count=review.decisions))
        return Rendered("\n".join(lines))
    lines.append(tr.t("review-weighed", count=review.decisions))
    for n, verdict in enumerate(review.moves, 1):
        view = verdict.view
        assert isinstance(view, KonchinkaView)
        table = cards(view.table, tr) if view.table else tr.t("review-empty-table")
        lines.append("")
        lines.append(tr.t("review-konchinka-position", n=n, deal=view.deal_number, table=table))
        lines.append(tr.t("review-hand", hand=cards(view.hand, tr)))
        lines.append(tr.t("review-played", move=move_text(verdict.played, tr)))
        lines.append(
            tr.t("review-better", move=move_text(verdict.better, tr), gain=decimal(verdict.gain, tr))
        )
    text = "\n".join(lines)
    return Rendered(fit(lambda _keep: text))
