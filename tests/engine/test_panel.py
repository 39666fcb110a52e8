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
from engine.core import JSONValue, make_game
from engine.stats import wilson_interval
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
    argv = [
        "--game",
        "konchinka",
        "--games",
        "2",
        "--seed",
        "4",
        "--subjects",
        "hard,baseline",
        "--jobs",
        "1",
    ]
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
    assert "hard − baseline" in text
    mirror = [line for line in text.splitlines() if line.startswith("hard ") and " 1×hard " in line]
    assert len(mirror) == 1 and mirror[0].count("(itself)") == 2  # «мастер» against itself: times only
    assert "(itself)" not in text.replace(mirror[0], "")
    assert text.index(f" {tables[0].name} ") < text.index(f" {tables[-1].name} ") < text.index("rating (")
    rating = text.split("rating (")[1]
    for name in ("hard", "baseline", "normal", "easy", *bot_players()["konchinka"].variants):
        assert f" {name} " in rating


TINY: dict[str, JSONValue] = {"players": 2, "target": 3}
"""A Кончинка party to three points: a few deals, so that a test plays whole tables in a blink."""


def _tiny_runs(subjects: tuple[str, ...], deals: int, seed: int = 8) -> list[panel.TableRun]:
    tables = panel.panel_tables(2, list(bot_players()["konchinka"].variants))
    return [
        panel.TableRun(t, subjects, panel.table_deals("konchinka", TINY, subjects, t, deals, seed, 2, 200))
        for t in tables
    ]


def _line(games: int, score: tuple[float, float], win: tuple[float, float]) -> dict[str, object]:
    return {"games": games, "mean_score_ci95": list(score), "win_rate_ci95": list(win)}


def test_a_table_plays_on_until_its_interval_is_narrow_enough_within_its_bounds() -> None:
    rule = panel.Precision(min_games=8, max_games=40, score_width=2.0, win_width=0.05)
    narrow_score = _line(12, (10.0, 13.9), (0.2, 0.8))
    narrow_win = _line(12, (0.0, 30.0), (0.5, 0.59))
    wide = _line(12, (10.0, 14.1), (0.5, 0.61))
    assert rule.is_met([narrow_score]) and rule.is_met([narrow_win])
    assert not rule.is_met([wide])
    assert not rule.is_met([narrow_score, wide])  # every subject's line
    assert not rule.is_met([_line(4, (10.0, 10.1), (0.5, 0.51))])  # the fewest games first
    assert rule.is_met([{**wide, "games": 40}])  # the most
    assert rule.is_met([wide], mirrors=[True])  # a subject playing itself: decision times only
    fixed = panel.Precision(min_games=40, max_games=40)
    assert not fixed.is_met([{**narrow_score, "games": 39}]) and fixed.is_met([{**wide, "games": 40}])


def test_a_deal_in_which_every_seat_is_the_subject_is_played_once() -> None:
    runs = {run.table.name: run for run in _tiny_runs(("hard",), deals=3)}
    mirror, other = runs["1×hard"], runs["1×normal"]
    assert mirror.mirrors() == [True] and other.mirrors() == [False]
    handed = []
    while (party := mirror.next_party()) is not None:
        handed.append(party)
        mirror.record(*party, panel.play_party(mirror.deals[party[0]][party[1]]))
    assert handed == [(0, 0), (1, 0), (2, 0)]  # the seats rotated change nothing: one party a deal
    played = mirror.played("hard")
    assert len(played) == 6 and played[0] is played[1]
    line = panel.subject_line("hard", played)
    assert line["win_rate"] == 0.5 and line["deals"] == 3
    assert [other.next_party() for _ in range(3)] == [
        (0, 0),
        (0, 1),
        (1, 0),
    ]  # every seat: two parties a deal


def test_tables_report_as_they_finish_and_stop_when_narrow() -> None:
    runs = _tiny_runs(("hard",), deals=12)
    seen: list[tuple[str, int]] = []

    def finished(run: panel.TableRun) -> None:
        seen.append((run.table.name, sum(len(r) for r in runs[-1].results.values())))

    rule = panel.Precision(min_games=4, max_games=24, win_width=0.3)
    panel.play_tables(runs, rule, jobs=1, finished=finished)
    assert [name for name, _ in seen] == [run.table.name for run in runs]
    assert seen[0][1] == 0  # the first table was reported before the last one was dealt a party
    stopped_early = 0
    for run in runs:
        line = run.lines()[0]
        assert line["games"] % 2 == 0 and 4 <= line["games"] <= 24  # whole duplicate deals
        lo, hi = line["win_rate_ci95"]
        if run.mirrors()[0]:
            assert line["games"] == 4
        elif line["games"] < 24:
            stopped_early += 1
            assert hi - lo <= 0.6
    assert stopped_early


def test_the_intervals_count_duplicate_deals_not_parties() -> None:
    def result(group: int, score: int, share: float) -> panel.PanelResult:
        return panel.PanelResult(("hard", "normal"), (score, 0), (share, 1.0 - share), group)

    # Two deals, each won once from either seat: the deals agree exactly, the parties do not.
    results = [result(0, 10, 1.0), result(0, 2, 0.0), result(1, 8, 1.0), result(1, 4, 0.0)]
    assert panel.by_deal("hard", results) == {0: (6.0, 0.5), 1: (6.0, 0.5)}
    line = panel.subject_line("hard", results)
    assert line["mean_score_ci95"] == [6.0, 6.0] and line["deals"] == 2 and line["games"] == 4


def test_the_win_rate_interval_is_worth_between_the_deals_and_the_parties() -> None:
    halves = [0.5] * 30
    assert panel.share_interval(halves, 60) == pytest.approx(
        wilson_interval(30.0, 60)
    )  # no spread: the parties
    assert panel.share_interval([1.0] * 30, 60) == pytest.approx(wilson_interval(60.0, 60))
    split = [0.0, 1.0] * 15  # a deal is wholly won or lost: worth one party, whatever it holds
    assert panel.share_interval(split, 60) == pytest.approx(wilson_interval(15.0, 30))
    lo, hi = panel.share_interval([0.0, 0.5, 1.0, 0.5] * 10, 80)
    wide, narrow = wilson_interval(20.0, 40), wilson_interval(40.0, 80)
    assert wide[0] <= lo <= narrow[0] and narrow[1] <= hi <= wide[1]


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
