"""«🔍 Разбор партии», every game alike: the title, how many decisions were weighed, and for each of the player's
costliest moves its position (in the game's own words), the move made and the one «мастер» prefers with its
reason, in one line, and what that was worth (within what the deal hands out)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import Translator
from bot.views.common import Rendered, decimal, fit
from engine.ai.advice import worth
from engine.ai.review import Review


@dataclass(frozen=True, slots=True)
class ReviewWords:
    """How a game says the parts of its review.

    ``position(view, n)``: the lines showing the ``n``-th move's position; ``move(action, tr)``: a move in
    words; ``reason(view, action)``: why «мастер» plays that move there, from what it does (None: a game
    that gives no reasons); ``note(view, action)``: what the move made did that the player should hear of
    («кончинка осталась на столе»), or None; ``most(view)``: the most points the deal hands out."""

    position: Callable[[object, int], list[str]]
    move: Callable[[object, Translator], str]
    reason: Callable[[object, object], str] | None = None
    note: Callable[[object, object], str | None] = lambda _view, _action: None
    most: Callable[[object], float] = lambda _view: float("inf")


def render_review(review: Review, tr: Translator, words: ReviewWords) -> Rendered:
    lines = [tr.t("review-title")]
    if not review.moves:
        lines.append(tr.t("review-none", count=review.decisions))
        return Rendered("\n".join(lines))
    lines.append(tr.t("review-weighed", count=review.decisions))
    for n, verdict in enumerate(review.moves, 1):
        view = verdict.view
        lines.append("")
        lines.extend(words.position(view, n))
        played = words.move(verdict.played, tr)
        note = words.note(view, verdict.played)
        if note is None:
            lines.append(tr.t("review-played", move=played))
        else:
            lines.append(tr.t("review-played-note", move=played, note=note))
        gain = decimal(worth(verdict.gain, words.most(view)), tr)
        better = words.move(verdict.better, tr)
        if words.reason is None:
            lines.append(tr.t("review-better-bare", move=better, gain=gain))
        else:
            why = words.reason(view, verdict.better)
            lines.append(tr.t("review-better", move=better, why=why, gain=gain))
    text = "\n".join(lines)
    return Rendered(fit(lambda _keep: text))
