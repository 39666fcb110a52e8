"""The load benchmark end to end, small: two games and a few seconds against our bot and the floor, and (``--web``)
against our bot with the people in the Mini App.

Not a timing test: it checks that people set games up and played them, that every figure is reported for both
bots and that the ratios are computed — the numbers themselves depend on the machine. Both bots are forked from
the ``forkserver`` fixture; the measured window is 5 s on every run, 6 s in the slow tier (``FULL_TESTS=1``).
"""

from __future__ import annotations

import json

import pytest

from tests.forkserver import ForkServer
from tests.load.__main__ import table
from tests.load.run import WEB_TARGET_MS, Config, Target, benchmark, measure, web_target
from tests.tiers import size

FIGURES = (
    "presses",
    "accepted_presses",
    "refused_presses",
    "press_to_delivery_ms",
    "press_to_answer_ms",
    "press_to_own_edit_ms",
    "press_to_next_turn_ms",
    "press_to_next_turn_solo_ms",
    "moves",
    "moves_per_s",
    "taps_per_move",
    "calls_per_move",
    "message_calls_per_move",
    "bot_cpu_ms_per_move",
    "bot_cpu_ms_per_press",
    "too_many_requests",
    "not_modified",
    "peak_rss_mb",
)
QUANTILES = ("n", "p50", "p95", "p99")


@pytest.mark.slow
async def test_the_benchmark_plays_both_kinds_of_games_and_reports_every_figure(
    forkserver: ForkServer,
) -> None:
    # People think a second or a little more: the floor does not pace itself, and faster taps would meet
    # Telegram's per-chat limit (429) on its edits.
    # Every Кончинка card takes two taps, each after a think: the window lets the solo player's bot answer.
    seconds = size(5.0, 6.0)
    config = Config(
        games=2,
        seconds=seconds,
        think=(1.0, 1.3),
        drain=5.0,
        settle=size(0.2, 0.5),
        bot_delay=0.2,
        warmup=60.0,
    )
    result = await benchmark(config, forkserver=forkserver)
    assert result["config"]["mix"] == {"group konchinka 2p": 1, "solo konchinka vs 1 easy": 1}
    for name in ("ours", "floor"):
        figures = result[name]
        assert [key for key in FIGURES if key not in figures] == [], name
        assert figures["setup_failures"] == 0 and figures["parties_started"] == 2, name
        assert figures["people"] == 3, "two in the group, one alone"
        assert figures["accepted_presses"] > 0 and figures["moves"]["total"] > 0, name
        for key in ("press_to_answer_ms", "press_to_own_edit_ms"):
            assert all(figures[key][q] is not None for q in QUANTILES), (name, key)
        assert figures["bot_cpu_ms_per_move"] > 0 and figures["peak_rss_mb"] > 0, name
        assert figures["bot_cpu_ms_per_press"] > 0 and figures["presses_answered_in_window"] > 0, name
        assert figures["calls_per_move"]["answerCallbackQuery"] > 0, name
    ours = result["ours"]
    assert ours["moves"]["player"] > 0 and ours["moves"]["bot"] > 0, "people and bot players both moved"
    assert ours["accepted_moves_by_people"] > 0
    assert ours["taps_per_move"] >= 1.0 and ours["taps_per_move_by_mode"]["group"] >= 1.0
    assert ours["press_to_next_turn_ms"]["n"] > 0, "the group's people passed the turn to each other"
    assert ours["press_to_next_turn_solo_ms"]["n"] > 0, "the solo player's turn came back after the bots'"
    assert ours["calls_per_move"]["sendMessage"] > 0, "turn notices are new messages"
    ratios = result["ratios_ours_to_floor"]
    assert ratios["press_to_answer_ms.p50"] is not None and ratios["bot_cpu_ms_per_move"] is not None
    assert ratios["bot_cpu_ms_per_press"] is not None
    assert json.loads(json.dumps(result)) == result
    assert "press→answer" in table(result)


WEB_FIGURES = (
    "presses",
    "accepted_presses",
    "refused_presses",
    "pace_refusals",
    "press_to_answer_ms",
    "press_to_own_stream_ms",
    "press_to_others_stream_ms",
    "stream_events_in_window",
    "moves",
    "moves_per_s",
    "calls_per_move",
    "message_calls_per_move",
    "bot_cpu_ms_per_move",
    "bot_cpu_ms_per_press",
)


@pytest.mark.slow
async def test_the_people_play_in_the_mini_app_and_every_figure_and_the_target_are_reported(
    forkserver: ForkServer,
) -> None:
    # The page's run alone (the chat's is the test above): its target line is drawn against a chat's figure.
    config = Config(
        games=2, seconds=size(4.0, 6.0), think=(0.8, 1.0), drain=5.0, settle=0.2, bot_delay=0.2, warmup=60.0
    )
    web = await measure(Target.WEB, config, forkserver)
    assert [key for key in WEB_FIGURES if key not in web] == []
    assert web["setup_failures"] == 0 and web["parties_started"] == 2 and web["people"] == 3
    assert web["streams_opened"] == 3, "each of the three people follows their game's stream"
    assert web["streams_dropped"] == 0 and web["stream_refusals"] == {}
    assert web["refused_presses"] == 0 and web["pace_refusals"] == 0 and web["never_answered"] == 0, web
    assert web["moves"]["player"] > 0 and web["moves"]["bot"] > 0
    # Every move of a person was a press. The presses are windowed by when they were made, the stored moves by
    # when they were stored: a press in flight at an edge of the window counts on one side only, at most one a
    # person (each waits for their answer before the next press).
    assert abs(web["accepted_moves_by_people"] - web["moves"]["player"]) <= web["people"], web
    assert web["stream_events_in_window"] >= web["accepted_moves_by_people"]
    assert (
        web["press_to_own_stream_ms"]["n"] == web["accepted_moves_by_people"] and web["never_own_stream"] == 0
    )
    assert web["press_to_others_stream_ms"]["n"] > 0, "the group's other person saw the moves in their stream"
    assert web["never_others_stream"] == 0
    for key in ("press_to_answer_ms", "press_to_own_stream_ms", "press_to_others_stream_ms"):
        assert all(web[key][q] is not None for q in QUANTILES), key
        assert 0 < web[key]["p50"] < 5000, (key, web[key])
    assert web["bot_cpu_ms_per_move"] > 0 and web["message_calls_per_move"] > 0, "the chat is kept up to date"
    assert "answerCallbackQuery" not in web["calls_per_move"], "nobody pressed a chat button"
    chat = {"press_to_own_edit_ms": {"p99": 10_000.0}}
    target = web_target(web, chat)
    others = web["press_to_others_stream_ms"]["p99"]
    assert target["press_to_screen_update_p99_ms"] == others and target["target_p99_ms"] == WEB_TARGET_MS
    assert target["chat_p99_over_web_p99"] == round(10_000.0 / others, 1)
    result = {"config": {"games": 2, "mix_name": "default", "seconds": config.seconds}, "web": web}
    printed = table({**result, "web_target": target})
    assert "press→others' stream" in printed and "Mini App target p99 ≤ 100 ms" in printed
    assert json.loads(json.dumps(web)) == web
