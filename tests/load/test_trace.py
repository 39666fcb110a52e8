"""``python -m tests.load.trace`` once, short: the windows it reports hold what a press runs through.

Not a figure check (the counts change as the code does): the press's windows are recorded from the tap to its
delivery (the handler of the tap and the engine's rules in them), the idle window touches less than a press, and
the report prints. Needs the given ``trace_press.py`` beside the checkout (skipped without it).
"""

from __future__ import annotations

import json

import pytest

from tests.forkserver import ForkServer
from tests.load.trace import MIDDLE, Options, default_tool, text, trace


@pytest.mark.long
@pytest.mark.skipif(not default_tool().exists(), reason=f"no {default_tool()}")
async def test_a_press_window_holds_the_tap_and_the_rules_and_idle_touches_less(
    forkserver: ForkServer,
) -> None:
    result = await trace(Options(idle=0.3, quiet=0.5), forkserver)
    windows = {w["name"]: w for w in result["windows"]}
    names = ["idle", "tap 1: card", "tap 2: move", "a whole move", "idle, as long"]
    assert list(windows) in (names, [n for n in names if n != "tap 2: move"])
    press = windows["a whole move"]
    assert "bot/handlers/play.py" in press["file_list"]
    assert any(f.startswith("engine/") for f in press["file_list"]), press["file_list"]
    assert press["telegram_calls"].get("answerCallbackQuery") in (1, 2), press["telegram_calls"]
    assert press["files_in_middle"] == sum(f.startswith(MIDDLE) for f in press["file_list"]) > 0
    taps = [name for name in ("tap 1: card", "tap 2: move") if name in windows]
    for tap in taps:
        assert "bot/handlers/play.py" in windows[tap]["file_list"], tap
        assert windows[tap]["telegram_calls"].get("answerCallbackQuery") == 1, tap
    assert any(f.startswith("engine/") for f in windows[taps[-1]]["file_list"])
    idle = windows["idle"]
    assert idle["files"] < press["files"] and "bot/handlers/play.py" not in idle["file_list"]
    assert json.loads(json.dumps(result)) == result
    assert "a whole move" in text(result) and "bot/handlers/play.py" in text(result)
