"""Кончинка's own achievements, read from a finished party: what a player did that players of the game remember."""

from __future__ import annotations

from typing import Final

from engine.core import Player, State
from engine.konchinka import Capture, KonchinkaAction, KonchinkaView, parse_action
from engine.konchinka.rules import CARDS_POINTS, CLUBS_POINTS, KONCHINKI

FINISH_ON_CAPTURE: Final = "konchinka-finish-capture"
"""The party won by «взять … и прикончить»: the capture that secured the last points needed and the finish as
one move."""
FIVE_OF_FIVE: Final = "konchinka-five"
"""Every point of one deal: most cards, most clubs and both кончинки."""

FEATS: Final = (FINISH_ON_CAPTURE, FIVE_OF_FIVE)
ALL_OF_A_DEAL: Final = CARDS_POINTS + CLUBS_POINTS + len(KONCHINKI)
"""The most a deal gives: 5."""


def feats_in(state: State[KonchinkaAction, KonchinkaView], player: Player) -> tuple[str, ...]:
    """Which of :data:`FEATS` ``player`` earned in the finished party ``state``."""
    found: list[str] = []
    outcome = state.outcome
    actions = state.record().actions
    if outcome is not None and player in outcome.winners and actions:
        last = parse_action(actions[-1])
        if isinstance(last, Capture) and last.finish:
            found.append(FINISH_ON_CAPTURE)
    if any(deal.points[player] == ALL_OF_A_DEAL for deal in state.view(player).deal_scores):
        found.append(FIVE_OF_FIVE)
    return tuple(found)
