"""«💡 Подсказка»: what «мастер» would play from a view, and why, in a few words grounded in its search.

:func:`engine.ai.players.advise` makes the very decision of the hard level (the same search, budget and rng, so the move is the
one «мастер» plays) and keeps what the search found: the expected points of that move and of the best other
candidate. The reason, ``why``, is a word a person's reason is named by in the game's own list (each game's
``ai/advice.py``: e.g. a card taken, the least left to the next player, a trick ducked); the bot says it in
words.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.ai.search import SearchResult

W = TypeVar("W")


@dataclass(frozen=True, slots=True)
class Advice:
    """The hint of one decision: the move, its reason, and — where the search weighed alternatives — the
    expected points of the move and of the best other one (in the game's points of a deal)."""

    action: object
    why: str
    value: float | None = None
    runner_up: float | None = None
    other: object | None = None
    """The best other move the search weighed (the one the reason tells the move from), None without one."""
    most: float | None = float("inf")
    """The most the player's own score can still change this deal: no move is said to be worth more than that
    beyond another; None where the search's values are not the player's points (no figure is told)."""

    @property
    def gain(self) -> float | None:
        """What the move is worth beyond the best other one, in the player's points of the rest of the deal
        (None where the search weighed no other move, or its values are not in the player's points, or it found
        more than the player's score can change: then it is no figure of points)."""
        if self.value is None or self.runner_up is None:
            return None
        return worth(self.value - self.runner_up, self.most)


Fact = tuple[bool, float]
"""Whether a reason is true of a move, and how much of it the move has (more is more of it: cards taken, or
less left to the next player)."""


def told_apart(
    mine: Mapping[W, Fact], theirs: Mapping[W, Fact] | None, none: W, measures: Collection[W] = ()
) -> W:
    """The first reason of ``mine`` (a move's facts, in the order a hint names them) that is true of the move
    and tells it from the other move (``theirs``: its facts; None: no other move weighed): a reason not true of
    the other, or of which the other has less; for a reason among ``measures`` (say, what the next player may
    take from the table) the other's amount counts even where the reason is not said of it, so «leaves the next
    player least» is never said of a move that leaves more than the other. ``none`` when no reason tells them
    apart."""
    for why, (holds, amount) in mine.items():
        if not holds:
            continue
        if theirs is None:
            return why
        their_holds, their_amount = theirs.get(why, (False, 0.0))
        if not their_holds and why not in measures:
            return why
        if amount > their_amount:
            return why
    return none


def worth(gain: float, most: float | None) -> float | None:
    """A gain the search found, as a hint or a review may tell it in the player's points: at least 0, and None
    beyond ``most`` (what the player's score can still change) or where ``most`` is None (the search's values
    are not the player's points) — never a cap shown as a figure."""
    if most is None or gain > most + 1e-9:
        return None
    return max(gain, 0.0)


def best_other(legal: Sequence[object], action: object, result: SearchResult | None) -> object | None:
    """The best other move the search ``result`` weighed beside ``action`` (None: it weighed no other)."""
    if result is None:
        return None
    code = str(getattr(action, "code", action))
    others = [(v, k) for k, v in result.means.items() if k != code]
    if not others:
        return None
    best = max(others)[1]
    return next((a for a in legal if str(getattr(a, "code", a)) == best), None)


def from_search(
    action: object,
    result: SearchResult | None,
    why: str,
    most: float | None = float("inf"),
    other: object | None = None,
) -> Advice:
    """The advice of a decision the search ``result`` made (None: the move needed no search); ``most``: the
    most the player's own score can still change this deal (None: the search's values are not in points)."""
    value = runner_up = None
    if result is not None:
        code = str(getattr(action, "code", action))
        value = result.means[code]
        others = [v for k, v in result.means.items() if k != code]
        runner_up = max(others) if others else None
    return Advice(action=action, why=why, value=value, runner_up=runner_up, other=other, most=most)
