"""The entry point of the bot players: each game brings its own, registered with its engine entry.

A game's package registers its :class:`BotPlayers` with :func:`register_players`; the functions here find the
players of a view's game (every game package imported first, by :func:`engine.core.games`) and ask them.
Nothing here knows a game, and the rules core (:mod:`engine.core`) knows nothing of bot players.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.ai.advice import Advice
from engine.ai.levels import Level
from engine.ai.search import SearchModel
from engine.ai.variants import Variant
from engine.core import games


class BotPlayers(Protocol):
    """One game's bot players (the three levels, the reference «мастер» for the arena, the hint's reason and what
    the review searches)."""

    @property
    def view_type(self) -> type:
        """The type of the game's views (a view of this type is this game's)."""
        ...

    @property
    def backend(self) -> str:
        """``"c"`` where the game's compiled kernel plays the rollouts in this process, else ``"python"``."""
        ...

    @property
    def variants(self) -> Mapping[str, Variant]:
        """The game's variants of «любитель» by arena name (for the arena's panel only, never offered to users)."""
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
        """The action of the reference «мастер» (the arena's and the panel's ``baseline``): the one today's is
        measured against, each game's own choice (a frozen copy of an earlier release's «мастер»)."""
        ...

    def describe(self, view: Any, action: Any) -> str:
        """A short readable line about ``action`` taken from ``view`` (Russian card names), for watching."""
        ...

    def advise(self, view: Any, rng: random.Random) -> Advice:
        """The hard level's decision from ``view`` with ``rng`` and why (see :func:`advise`)."""
        ...

    def review_search(self, view: Any) -> tuple[Sequence[object], SearchModel]:
        """What «мастер» compares at ``view`` and the search model that values them (the review's search)."""
        ...


PLAYERS: dict[str, BotPlayers] = {}
"""Game name -> its bot players (filled by the game packages as they are imported)."""


def register_players(game: str, players: BotPlayers) -> None:
    """The game ``game`` (registered with :func:`engine.core.register_game`) has these bot players."""
    PLAYERS[game] = players


def bot_players() -> dict[str, BotPlayers]:
    """Every game's bot players, by game name (every game package imported first)."""
    games()
    return PLAYERS


def players_for(view: object) -> BotPlayers:
    """The bot players of the game ``view`` belongs to."""
    for players in bot_players().values():
        if isinstance(view, players.view_type):
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
    """The action of the reference «мастер» (:meth:`BotPlayers.choose_baseline`; ``python -m engine.arena
    --versus-baseline`` and ``python -m engine.panel --subjects hard,baseline`` measure today's «мастер» against
    it on the same parties)."""
    return players_for(view).choose_baseline(
        view, rng, budget_ms=budget_ms, iterations=iterations, steps=steps
    )


def choose_variant_action(view: object, name: str, rng: random.Random) -> object:
    """The action of the variant ``name`` of «любитель» (:mod:`engine.ai.variants`; for the arena's panel)."""
    actions: tuple[object, ...] = tuple(getattr(view, "legal_actions", ()))
    if len(actions) == 1:
        return actions[0]
    return players_for(view).variants[name].choose(view, rng)


def advise(view: object, rng: random.Random) -> Advice:
    """The hard player's decision from ``view`` with ``rng`` (the action :func:`choose_action` gives at the hard
    level with the same rng) and what the search said of it."""
    return players_for(view).advise(view, rng)


def backends() -> dict[str, str]:
    """Each game with bot players (by its registered name) and the path its «мастер» thinks on in this process:
    ``"c"`` (the compiled kernel, today's «мастер») or ``"python"`` (pure Python: the first release's «мастер»,
    weaker; see README «Bot players»)."""
    return {name: players.backend for name, players in sorted(bot_players().items())}
