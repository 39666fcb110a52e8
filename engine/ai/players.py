"""The entry point of the bot players: each game brings its own, registered with its engine entry.

A game's package registers a :class:`BotPlayers` with :func:`engine.core.register_game` (``players=``); the
functions here find the game of a view among :func:`engine.core.games` and ask its players. Nothing here knows
a game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engine.ai.levels import Level
from engine.core import games

if TYPE_CHECKING:
    from engine.ai.advice import Advice
    from engine.ai.search import SearchModel


class BotPlayers(Protocol):
    """One game's bot players (the three levels, the first release's «мастер» for the arena, the hint's reason
    and what the review searches)."""

    @property
    def view_type(self) -> type:
        """The type of the game's views (a view of this type is this game's)."""
        ...

    @property
    def backend(self) -> str:
        """``"c"`` where the game's compiled kernel plays the rollouts in this process, else ``"python"``."""
        ...

    def choose(
        self,
        view: Any,
        level: Level,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> object:
        """An action of ``view.legal_actions`` (more than one) chosen at ``level`` (see :func:`choose_action`)."""
        ...

    def choose_baseline(
        self,
        view: Any,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> object:
        """The action of the first release's «мастер» (kept for the arena's ``--versus-baseline``)."""
        ...

    def describe(self, view: Any, action: Any) -> str:
        """A short readable line about ``action`` taken from ``view`` (Russian card names), for watching."""
        ...

    def advise(self, view: Any, rng: random.Random) -> Advice:
        """The hard level's decision from ``view`` with ``rng`` and why (see :func:`engine.ai.advice.advise`)."""
        ...

    def review_search(self, view: Any) -> tuple[Sequence[object], SearchModel]:
        """What «мастер» compares at ``view`` and the search model that values them (the review's search)."""
        ...


def players_for(view: object) -> BotPlayers:
    """The bot players of the game ``view`` belongs to."""
    for entry in games().values():
        players: BotPlayers | None = entry.players
        if players is not None and isinstance(view, players.view_type):
            return players
    raise TypeError(f"not a view of a game with bot players: {type(view).__name__}")


def choose_action(
    view: object,
    level: Level,
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
) -> object:
    """One of ``view.legal_actions``, chosen by a bot player of ``level`` from ``view`` alone.

    Deterministic for the same view, level and rng state: the hard level's budget is work, not time —
    ``iterations`` sampled worlds and ``steps`` playout steps per decision (default: the level's own), so it
    plays the same on a busy machine as on an idle one. ``budget_ms`` adds an optional wall-clock cap (off
    by default); a decision it cuts short is no longer reproducible. A decision with a single legal action is
    answered at once.
    """
    players = players_for(view)
    actions: tuple[object, ...] = tuple(getattr(view, "legal_actions", ()))
    if not actions:
        raise ValueError("the view offers no legal action: it is not this player's turn")
    if len(actions) == 1:
        return actions[0]
    return players.choose(view, Level(level), rng, budget_ms=budget_ms, iterations=iterations, steps=steps)


def describe_action(view: object, action: object) -> str:
    """A short readable line (Russian card names) about ``action`` taken from ``view``, for watching games."""
    try:
        players = players_for(view)
    except TypeError:
        return str(getattr(action, "code", action))
    return players.describe(view, action)


def choose_baseline_action(
    view: object,
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    iterations: int | None = None,
    steps: int | None = None,
) -> object:
    """The action of the first release's «мастер» (kept for the arena: ``python -m engine.arena
    --versus-baseline`` measures today's «мастер» against it on the same parties)."""
    return players_for(view).choose_baseline(
        view, rng, budget_ms=budget_ms, iterations=iterations, steps=steps
    )


def backends() -> dict[str, str]:
    """Each game with bot players (by its registered name) and the path its «мастер» thinks on in this process:
    ``"c"`` (the compiled kernel, today's «мастер») or ``"python"`` (pure Python: the first release's «мастер»,
    weaker; see README «Bot players»)."""
    return {
        name: entry.players.backend for name, entry in sorted(games().items()) if entry.players is not None
    }
