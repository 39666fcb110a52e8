"""«🔍 Разбор партии», every game alike: the title, how many decisions were weighed, and for each of the player's
costliest moves its position (in the game's own words), the move made and the one «мастер» prefers, with what
that was worth."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import Translator
from bot.views.common import Rendered, decimal, fit
from engine.ai.review import Review


def render_review(
    review: Review,
    tr: Translator,
    position: Callable[[object, int], list[str]],
    move_text: Callable[[object, Translator], str],
) -> Rendered:
    """``position(view, n)``: the lines showing the ``n``-th move's position; ``move_text``: a move in words."""
    lines = [tr.t("review-title")]
    if not review.moves:
        lines.append(tr.t("review-none", count=review.decisions))
        return Rendered("\n".join(lines))
    lines.append(tr.t("review-weighed", count=review.decisions))
    for n, verdict in enumerate(review.moves, 1):
        lines.append("")
        lines.extend(position(verdict.view, n))
        lines.append(tr.t("review-played", move=move_text(verdict.played, tr)))
        lines.append(
            tr.t("review-better", move=move_text(verdict.better, tr), gain=decimal(verdict.gain, tr))
        )
    text = "\n".join(lines)
    return Rendered(fit(lambda _keep: text))
