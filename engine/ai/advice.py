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


def from_search(action: object, result: SearchResult | None, why: str) -> Advice:
    """The advice of a decision the search ``result`` made (None: the move needed no search)."""
    value = runner_up = None
    if result is not None:
        code = str(getattr(action, "code", action))
        value = result.means[code]
        others = [v for k, v in result.means.items() if k != code]
        runner_up = max(others) if others else None
    return Advice(action=action, why=why, value=value, runner_up=runner_up)
