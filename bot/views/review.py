"""«🔍 Разбор партии», every game alike: the title, how many decisions were weighed, and for each of the player's
costliest moves its position (in the game's own words), the move made and the one «мастер» prefers with its
reason (what it does that the move made does not), in one line, and what that was worth in the player's points
(where the game's search values moves in them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import Translator
from bot.views.common import Rendered, decimal, fit
from engine.ai.advice import worth
from engine.ai.review import Review, Verdict


@dataclass(frozen=True, slots=True)
class ReviewWords:
    """How a game says the parts of its review.

    ``position(view, n)``: the lines showing the ``n``-th move's position; ``move(view, action, tr)``: a move
    there in words; ``reason(view, action, other)``: why «мастер» plays that move there rather than ``other``
    (the move made), from what the one does and the other does not (None: no reason tells them apart, or a game
    that gives no reasons); ``note(view, action)``: what the move made did that the player should hear of
    («кончинка осталась на столе»), or None; ``most(view)``: the most the player's own score can still change
    that deal — a gain beyond it is no figure of points, and None says the search's values are not the
    player's points at all: the line then tells no figure."""

    position: Callable[[object, int], list[str]]
    move: Callable[[object, object, Translator], str]
    reason: Callable[[object, object, object], str | None] | None = None
    note: Callable[[object, object], str | None] = lambda _view, _action: None
    most: Callable[[object], float | None] = lambda _view: float("inf")


def _better_line(verdict: Verdict, tr: Translator, words: ReviewWords) -> str:
    """«Мастер: <move> — <what it does that the move made does not>; в среднем на <gain> очка больше …», the
    reason only where one tells the two moves apart, the figure only where it is the player's points."""
    view = verdict.view
    gain = worth(verdict.gain, words.most(view))
    better = words.move(view, verdict.better, tr)
    why = words.reason(view, verdict.better, verdict.played) if words.reason is not None else None
    if gain is None:
        return (
            tr.t("review-better-why", move=better, why=why)
            if why
            else tr.t("review-better-move", move=better)
        )
    figure = decimal(gain, tr)
    if why:
        return tr.t("review-better", move=better, why=why, gain=figure)
    return tr.t("review-better-bare", move=better, gain=figure)


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
        played = words.move(view, verdict.played, tr)
        note = words.note(view, verdict.played)
        if note is None:
            lines.append(tr.t("review-played", move=played))
        else:
            lines.append(tr.t("review-played-note", move=played, note=note))
        lines.append(_better_line(verdict, tr, words))
    text = "\n".join(lines)
    return Rendered(fit(lambda _keep: text))
