"""The arena's panel: the variants of «любитель», the tables side by side, and the Bradley–Terry rating."""

from __future__ import annotations

import io
import math
import random
from contextlib import redirect_stdout

import pytest

from engine import bradley_terry, panel
from engine.ai import Level, choose_action
from engine.ai.players import bot_players, choose_variant_action
from engine.core import make_game
from tests.tiers import size

GAMES = ("king", "konchinka")


def _play(game: str, seats: tuple[str, ...], seed: int) -> tuple[list[object], list[bool]]:
    """One party: every action taken, and for each variant decision whether «любитель» would differ."""
    state = make_game(game, {"players": len(seats)} if game == "konchinka" else {}).new_initial_state(seed)
    rngs = [random.Random(seed + seat) for seat in range(len(seats))]
    actions: list[object] = []
    differs: list[bool] = []
    while not state.is_terminal:
        player = state.current_player
        view = state.view(player)
        name = seats[player]
        action = choose_variant_action(view, name, rngs[player])
        assert action in state.legal_actions()
        differs.append(action != choose_action(view, Level.NORMAL, random.Random(0)))
        actions.append(action)
        state.apply(action)
    return actions, differs


@pytest.mark.parametrize("game", GAMES)
def test_every_variant_plays_legal_deterministic_parties_unlike_the_normal_player(game: str) -> None:
    variants = bot_players()[game].variants
    assert len(variants) >= 4
    assert not set(variants) & {level.value for level in Level}  # arena-only: no level a user can pick
    for name, variant in variants.items():
        assert variant.about  # each described
        differs: list[bool] = []
        for seed in range(size(1, 6)):
            seats = (name,) * (4 if game == "king" else 2)
            first, changed = _play(game, seats, seed)
            again, _ = _play(game, seats, seed)
            assert first == again, name
            differs += changed
        assert any(differs), f"{name} always plays as «любитель»"


def test_the_panel_has_every_kind_of_table() -> None:
    names = [t.name for t in panel.panel_tables(4, ["a", "b", "c", "d"])]
    assert names == [
        "3×normal",
        "3×easy",
        "3×a",
        "3×b",
        "3×c",
        "3×d",
        "mixed:normal+easy+a",
        "mixed:b+c+d",
        "3×hard",
    ]
    assert [t.name for t in panel.panel_tables(2, ["a"])] == ["1×normal", "1×easy", "1×a", "1×hard"]


def test_every_table_is_dealt_the_same_parties_with_the_seats_rotated() -> None:
    a, b = panel.panel_tables(4, ["x", "y", "z"])[:2]
    first = panel.table_specs("king", {}, "hard", a, games=8, seed=3)
    second = panel.table_specs("king", {}, "hard", b, games=8, seed=3)
    assert [s.seed for s in first] == [s.seed for s in second]
    assert [s.seats.index("hard") for s in first] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert len({s.seed for s in first}) == 2


def test_tiny_panel_prints_every_table_paired_and_the_rating() -> None:
    out = io.StringIO()
    argv = ["--game", "konchinka", "--games", "2", "--seed", "4", "--subjects", "hard,baseline"]
    with redirect_stdout(out):
        assert (
            panel.main(
                [*argv, "--iterations", "2", "--steps", "200", "--rounds", "20", "--option", "target=3"]
            )
            == 0
        )
    text = out.getvalue()
    tables = panel.panel_tables(2, list(bot_players()["konchinka"].variants))
    for table in tables:
        assert text.count(f" {table.name} ") == 3  # each subject's line and the paired one
    assert "paired hard − baseline" in text
    rating = text.split("rating (")[1]
    for name in ("hard", "baseline", "normal", "easy", *bot_players()["konchinka"].variants):
        assert f" {name} " in rating


def test_a_pair_of_seats_is_won_by_the_higher_score_and_equal_scores_tie() -> None:
    result = panel.PanelResult(("hard", "normal", "normal", "easy"), (10, -3, 5, -3), (1.0, 0, 0, 0), 0)
    assert sorted(panel.pair_results(result)) == [
        ("hard", "easy", 1.0),
        ("hard", "normal", 1.0),
        ("hard", "normal", 1.0),
        ("normal", "easy", 0.5),
        ("normal", "easy", 1.0),
    ]


TRUTH = {"a": 0.0, "b": 200.0, "c": -150.0, "d": 400.0}
"""Elo ratings the synthetic results are drawn from."""


def _synthetic(groups: int, seed: int) -> list[list[bradley_terry.Result]]:
    """Groups of results (one of every pair in each group, either player named first) drawn from the
    Bradley–Terry model of ``TRUTH``."""
    rng = random.Random(seed)
    names = sorted(TRUTH)
    out = []
    for _ in range(groups):
        group = []
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                p = 1.0 / (1.0 + math.pow(10.0, (TRUTH[b] - TRUTH[a]) / 400.0))
                share = 1.0 if rng.random() < p else 0.0
                group.append((a, b, share) if rng.random() < 0.5 else (b, a, 1.0 - share))
        out.append(group)
    return out


def test_bradley_terry_recovers_known_strengths() -> None:
    results = [r for g in _synthetic(size(1500, 6000), seed=11) for r in g]
    fitted = bradley_terry.fit(results, anchor="a")
    assert fitted["a"] == 0.0
    for name, truth in TRUTH.items():
        assert fitted[name] == pytest.approx(truth, abs=size(45, 25)), name


def test_bradley_terry_ties_split_and_the_prior_keeps_a_clean_sweep_finite() -> None:
    even = bradley_terry.fit([("a", "b", 0.5)] * 50 + [("a", "b", 1.0), ("a", "b", 0.0)], anchor="a")
    assert even["b"] == pytest.approx(0.0, abs=1e-6)
    sweep = bradley_terry.fit([("a", "b", 1.0)] * 20, anchor="b")
    assert 300.0 < sweep["a"] < 2000.0


def test_bootstrap_intervals_contain_the_truth_about_as_often_as_they_say() -> None:
    covered = widths = 0.0
    replications = size(20, 60)
    for seed in range(replications):
        spread = bradley_terry.bootstrap(_synthetic(150, seed), rounds=size(60, 200), seed=seed, anchor="a")
        for name in ("b", "c", "d"):
            lo, hi = spread[name]
            covered += lo <= TRUTH[name] <= hi
            widths += hi - lo
    assert covered / (3 * replications) >= 0.85  # 95% intervals: a narrower one would miss far more often
    assert widths / (3 * replications) < 200.0  # an interval, not the whole line
