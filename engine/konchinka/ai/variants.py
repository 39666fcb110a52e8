"""Кончинка: variants of «любитель» for the arena's panel (:mod:`engine.ai.variants`), each the normal policy
(:mod:`engine.konchinka.ai.policy`) with one of its weights (:class:`~engine.konchinka.ai.policy.Habits`) moved
the way people lean."""

from __future__ import annotations

import random

from engine.ai.variants import Variant
from engine.konchinka.actions import KonchinkaAction
from engine.konchinka.ai.policy import Habits, position_from_view, score_actions
from engine.konchinka.views import KonchinkaView


def _variant(name: str, about: str, habits: Habits) -> Variant:
    def choose(view: KonchinkaView, rng: random.Random) -> KonchinkaAction:
        actions = view.legal_actions
        scores = score_actions(position_from_view(view), actions, habits)
        return actions[max(range(len(actions)), key=lambda i: (scores[i], -i))]

    return Variant(name, about, choose)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        _variant(
            "cautious",
            "fears what it leaves on the table twice as much (exposure weight 2): lays safe, passes up risky grabs",
            Habits(risk=2.0),
        ),
        _variant(
            "greedy",
            "grabs the richest capture now and barely minds what it leaves behind (exposure weight 0.3)",
            Habits(risk=0.3),
        ),
        _variant(
            "jack-keeper",
            "saves its jack for a big table (a jack is worth 1.2 points held, not 0.35)",
            Habits(jack_keep=1.2),
        ),
        _variant(
            "jack-spender",
            "sweeps with its jack at the first chance, as if holding it were worth nothing (−0.3, not 0.35)",
            Habits(jack_keep=-0.3),
        ),
    )
}
"""Кончинка's variants of «любитель», by arena name."""
