"""The arena: seat rotation, statistics, and a tiny run through its command line."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from engine import arena, stats
from engine.ai import Level


def test_seats_rotate_so_every_level_sits_everywhere_on_the_same_cards() -> None:
    seats = (Level.HARD, Level.NORMAL, Level.NORMAL, Level.NORMAL)
    specs = arena.party_specs("king", {}, seats, parties=8, seed=3)
    assert [spec.seats.index(Level.HARD) for spec in specs] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert len({spec.seed for spec in specs[:4]}) == 1  # one group shares one shuffle
    assert specs[0].seed != specs[4].seed


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = stats.wilson_interval(62, 100)
    assert lo == pytest.approx(0.5221, abs=1e-3)
    assert hi == pytest.approx(0.7090, abs=1e-3)
    assert stats.wilson_interval(0, 10)[0] == 0.0
    assert stats.wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_mean_interval_and_percentiles() -> None:
    mean, lo, hi = stats.mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    assert mean == 3.0
    assert (lo, hi) == pytest.approx((3.0 - 1.963, 3.0 + 1.963), abs=0.01)  # t(4) = 2.776
    assert stats.t_quantile_975(1000) == pytest.approx(1.962, abs=1e-3)
    assert stats.t_quantile_975(10) == pytest.approx(2.228, abs=5e-3)
    assert stats.percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert stats.percentile(list(map(float, range(101))), 95) == 95.0


def _run(argv: list[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert arena.main(argv) == 0
    return out.getvalue()


def test_tiny_konchinka_run_prints_json_with_every_level() -> None:
    text = _run(
        [
            "--game",
            "konchinka",
            "--seats",
            "normal,easy",
            "--parties",
            "4",
            "--seed",
            "2",
            "--json",
            "--option",
            "target=6",
        ]
    )
    data = json.loads(text)
    assert data["game"] == "konchinka"
    assert data["parties"] == 4
    assert set(data["levels"]) == {"normal", "easy"}
    wins = 0.0
    for entry in data["levels"].values():
        for key in (
            "win_rate",
            "win_rate_ci95",
            "mean_score",
            "mean_score_ci95",
            "decision_ms_p50",
            "decision_ms_p95",
            "decision_ms_max",
        ):
            assert key in entry
        assert "mean_by_deal" not in entry  # Кинг only
        lo, hi = entry["win_rate_ci95"]
        assert 0.0 <= lo <= entry["win_rate"] <= hi <= 1.0
        wins += entry["wins"]
    assert wins == 4  # exactly one winner per party


def test_tiny_king_run_with_a_hard_seat_and_two_jobs() -> None:
    text = _run(
        [
            "--game",
            "king",
            "--seats",
            "hard,normal,easy,normal",
            "--parties",
            "2",
            "--seed",
            "1",
            "--json",
            "--iterations",
            "2",
            "--jobs",
            "2",
        ]
    )
    data = json.loads(text)
    levels = data["levels"]
    assert set(levels) == {"hard", "normal", "easy"}
    total = (
        levels["hard"]["mean_score"] * 2
        + levels["normal"]["mean_score"] * 4
        + levels["easy"]["mean_score"] * 2
    )
    assert total == pytest.approx(0.0, abs=1e-6)  # Кинг is zero-sum
    contracts = ["tricks", "jacks", "queens", "hearts", "last2", "king", "eralash"]
    for entry in levels.values():
        by_deal = entry["mean_by_deal"]
        assert list(by_deal) == [*contracts, "trumps_chosen", "trumps_other"]
        assert sum(by_deal.values()) == pytest.approx(entry["mean_score"], abs=0.01)
        assert all(by_deal[c] <= 0 for c in contracts)
        assert by_deal["trumps_chosen"] >= 0 and by_deal["trumps_other"] >= 0
    assert sum(s["wins"] for s in levels.values()) == pytest.approx(2.0)


def test_watch_prints_a_party_move_by_move() -> None:
    text = _run(
        ["--game", "konchinka", "--seats", "easy,normal", "--seed", "4", "--watch", "--option", "target=3"]
    )
    assert "deal 1" in text
    assert "берёт" in text and "кладёт" in text
    assert "winners" in text
