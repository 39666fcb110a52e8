"""The bot player benchmark runs and reports every game and level, and the hard player's search figures."""

from __future__ import annotations

import json

import pytest

from engine.ai import Level
from tests import bench_ai


def test_bench_ai_prints_decision_times_for_every_game_and_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_ai.main(["--json", "--positions", "2", "--budget", "work"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["budget"] == "work"
    assert set(report["results"]) == {label for label, _, _ in bench_ai.GAMES}
    searched = 0
    for levels in report["results"].values():
        assert set(levels) == {level.value for level in Level}
        for figures in levels.values():
            assert figures["decisions"] == 2
            assert 0.0 <= figures["cpu_ms_p50"] <= figures["cpu_ms_p99"]
            assert 0.0 <= figures["wall_ms_p50"] <= figures["wall_ms_p99"]
        hard = levels["hard"]
        if "stopped_by" in hard:
            assert "time" not in hard["stopped_by"]  # the work budget never looks at the clock
            assert hard["steps_p50"] > 0
            searched += 1
    assert searched >= 2
