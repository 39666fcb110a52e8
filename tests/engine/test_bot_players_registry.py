"""A game brings its own bot players: it registers them with its engine entry, and the shared machinery — the
levels' entry point, the hint's advice, the review and the arena — finds them from a view, naming no game.

The toy third game (tests/games/engine/highcard) brings tiny bot players of its own, registered the way a game's
package registers its own, and is played by the arena and reviewed with nothing added for it elsewhere.
"""

from __future__ import annotations

import io
import json
import random
import re
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import arena
from engine.ai import Level, choose_action, describe_action
from engine.ai.advice import Advice
from engine.ai.players import advise, bot_players, players_for
from engine.ai.review import review_party
from engine.core import GameRecord, games, make_game
from tests.toy_game import TOY, WHY_HIGHEST, HighCardPlayers, HighCardView, Play

ROOT = Path(__file__).resolve().parents[2]
SHARED = (
    *sorted((ROOT / "engine" / "ai").rglob("*.py")),
    *sorted((ROOT / "engine" / "ai" / "csrc").glob("*.h")),
    ROOT / "engine" / "core.py",
    ROOT / "engine" / "arena.py",
    ROOT / "engine" / "arena_report.py",
    ROOT / "engine" / "stats.py",
    ROOT / "bot" / "pipeline" / "thinker.py",
    ROOT / "bot" / "flow" / "hints.py",
)
"""The modules every game's bot players go through."""


def toy_view() -> HighCardView:
    state = make_game(TOY).new_initial_state(5)
    view = state.view(state.current_player)
    assert isinstance(view, HighCardView) and len(view.legal_actions) > 1
    return view


@dataclass(frozen=True)
class ViewOfNoGame:
    """A view no registered game's bot players know."""

    legal_actions: tuple[int, ...] = (1, 2)


def test_a_view_of_a_game_without_bot_players_is_refused_by_its_name() -> None:
    with pytest.raises(TypeError, match="ViewOfNoGame"):
        choose_action(ViewOfNoGame(), Level.NORMAL, random.Random(1))


def test_the_shared_entry_points_ask_the_players_the_game_registered() -> None:
    view = toy_view()
    assert TOY in games() and TOY in bot_players()
    assert isinstance(players_for(view), HighCardPlayers)
    highest = max(view.legal_actions, key=lambda a: a.card.rank)
    lowest = min(view.legal_actions, key=lambda a: a.card.rank)
    assert choose_action(view, Level.HARD, random.Random(1)) == highest
    assert choose_action(view, Level.NORMAL, random.Random(1)) == lowest
    easy = {choose_action(view, Level.EASY, random.Random(seed)) for seed in range(20)}
    assert easy == set(view.legal_actions), "«новичок» plays any card"
    assert describe_action(view, highest) == highest.card.code + (f" на {view.led.code}" if view.led else "")
    assert advise(view, random.Random(1)) == Advice(highest, WHY_HIGHEST, float(highest.card.rank))


def test_the_arena_and_the_review_play_a_third_game_from_its_registration() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        argv = ["--game", TOY, "--seats", "hard,normal", "--parties", "4", "--seed", "3"]
        assert arena.main([*argv, "--json", "--versus-baseline"]) == 0
    summary = json.loads(out.getvalue())
    assert summary["parties"] == 4 and set(summary["levels"]) == {"hard", "normal"}
    assert summary["baseline_run"]["parties"] == 4

    state = make_game(TOY).new_initial_state(11)
    while not state.is_terminal:  # seat 0 always plays its lowest card: the review must name better ones
        view = state.view(state.current_player)
        state.apply(min(view.legal_actions, key=lambda a: a.card.rank))
    record = GameRecord(TOY, {}, 11, tuple(a.code for a in state.history))
    review = review_party(record, 0)
    assert review.moves, "a lower card than the highest was played at some choice"
    for verdict in review.moves:
        assert verdict.better == max(verdict.view.legal_actions, key=lambda a: a.card.rank)
        assert isinstance(verdict.better, Play) and isinstance(verdict.played, Play)
        assert verdict.gain == verdict.better.card.rank - verdict.played.card.rank > 0


def test_the_shared_modules_name_no_game() -> None:
    """Issue 23's ``git grep -i -E 'konchinka|кончинк|\bking\b|кинг'``, and every other game's name as a word."""
    words = "|".join(rf"\b{re.escape(name)}\b" for name in games())
    pattern = re.compile(rf"konchinka|кончинк|\bking\b|кинг|{words}", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in SHARED
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)
