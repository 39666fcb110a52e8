"""«💡 Подсказка»: what «мастер» would play from a view, and why, in a few words grounded in its search.

:func:`engine.ai.players.advise` makes the very decision of the hard level (the same search, budget and rng, so the move is the
one «мастер» plays) and keeps what the search found: the expected points of that move and of the best other
candidate. The reason, ``why``, is a word a person's reason is named by in the game's own list (each game's
``ai/advice.py``: e.g. a card taken, the least left to the next player, a trick ducked); the bot says it in
words.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.search import SearchResult


@dataclass(frozen=True, slots=True)
class Advice:
    """The hint of one decision: the move, its reason, and — where the search weighed alternatives — the
    expected points of the move and of the best other one (in the game's points of a deal)."""

    action: object
    why: str
    value: float | None = None
    runner_up: float | None = None
    most: float = float("inf")
    """The most points the deal hands out: no move is said to be worth more than that beyond another."""

    @property
    def gain(self) -> float | None:
        """What the move is worth beyond the best other one, in points of the rest of the deal, between 0 and
        :attr:`most` (None where the search weighed no other move). The search's values are its own yardstick
        (a game may value the edge over the others, or add a bonus for winning the party), so only their
        difference is told, and never more than a deal can hand out."""
        if self.value is None or self.runner_up is None:
            return None
        return worth(self.value - self.runner_up, self.most)


def worth(gain: float, most: float) -> float:
    """A gain the search found, as a hint or a review may tell it: between 0 and ``most`` points."""
    return min(max(gain, 0.0), most)


def from_search(action: object, result: SearchResult | None, why: str, most: float = float("inf")) -> Advice:
    """The advice of a decision the search ``result`` made (None: the move needed no search); ``most``: the
    most points the deal hands out."""
    value = runner_up = None
    if result is not None:
        code = str(getattr(action, "code", action))
        value = result.means[code]
        others = [v for k, v in result.means.items() if k != code]
        runner_up = max(others) if others else None
    return Advice(action=action, why=why, value=value, runner_up=runner_up, most=most)
