"""The toy game's bot players: simple and honest, with nothing to search.

«новичок» plays a card at random (from its own rng), «любитель» its lowest card, «мастер» its highest; the first
release's «мастер» (the arena's baseline) played the lowest. The review values a card by its rank.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final

from engine.ai.advice import Advice
from engine.ai.levels import Level
from engine.ai.variants import Variant
from tests.games.engine.highcard.state import HighCardView, Play

WHY_HIGHEST: Final = "highest"
"""The reason «мастер» gives for its move (the hint's)."""


class ByRank:
    """The review's search model: nothing hidden changes what a card is worth, its rank."""

    def sample_world(self, rng: random.Random) -> None:
        return None

    def evaluate(self, world: None, actions: Sequence[Play]) -> tuple[list[float], int]:
        return [float(play.card.rank) for play in actions], len(actions)


class HighCardPlayers:
    """The toy's :class:`engine.ai.players.BotPlayers`."""

    view_type = HighCardView
    backend = "python"
    variants: Mapping[str, Variant] = MappingProxyType({})

    def choose(
        self,
        view: HighCardView,
        level: Level,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> Play:
        plays = sorted(view.legal_actions, key=lambda play: play.card.rank)
        if level is Level.EASY:
            return rng.choice(plays)
        return plays[-1] if level is Level.HARD else plays[0]

    def choose_baseline(
        self,
        view: HighCardView,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> Play:
        return min(view.legal_actions, key=lambda play: play.card.rank)

    def describe(self, view: HighCardView, action: Play) -> str:
        led = f" на {view.led.code}" if view.led is not None else ""
        return f"{action.card.code}{led}"

    def advise(self, view: HighCardView, rng: random.Random) -> Advice:
        action = self.choose(view, Level.HARD, rng, budget_ms=None, iterations=None, steps=None)
        return Advice(action, WHY_HIGHEST, float(action.card.rank))

    def review_search(self, view: HighCardView) -> tuple[Sequence[object], ByRank]:
        return list(view.legal_actions), ByRank()


PLAYERS: Final = HighCardPlayers()
