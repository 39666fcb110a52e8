"""A bot players' worker that dies never takes the bot with it: the work is done again in a fresh worker, and
where that one dies too, the move is the fallback policy's (a hint or review is refused). Nothing of the work
that killed a worker runs in the bot's own process."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
from pathlib import Path

import pytest

from bot.pipeline.thinker import TEST_HOOK_ENV, Thinker, ThinkerUnavailable, fallback_action, think
from engine.ai import Level, choose_action
from engine.core import make_game
from tests.bot.test_thinker import searched_views


async def _wait_for(path: Path, seconds: float = 60.0) -> int:
    for _ in range(int(seconds / 0.05)):
        if path.exists() and path.read_text():
            return int(path.read_text())
        await asyncio.sleep(0.05)
    raise AssertionError(f"no worker started a decision within {seconds} s")


async def test_a_worker_killed_in_the_middle_of_a_decision_is_replaced_and_the_decision_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    view = searched_views(1)[0]
    expected = think(view, Level.HARD, 77)
    held = tmp_path / "held"
    monkeypatch.setenv(TEST_HOOK_ENV, f"hold:{held}")  # the first decision in a worker waits to be killed
    thinker = Thinker(1)
    await thinker.start()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.pipeline.thinker"):
            decision = asyncio.create_task(thinker.choose(view, Level.HARD, 77))
            pid = await _wait_for(held)
            assert pid != os.getpid()
            os.kill(pid, signal.SIGKILL)
            assert await decision == expected  # made again, in a fresh worker: the same action
        assert (thinker.worker_deaths, thinker.rebuilds, thinker.fallbacks) == (1, 1, 0)
        lines = [r for r in caplog.records if r.name == "bot.pipeline.thinker"]
        assert len(lines) == 1 and "fresh worker" in lines[0].getMessage()
    finally:
        await thinker.close()


async def test_a_decision_that_kills_every_worker_is_played_by_the_fallback_policy_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(
        TEST_HOOK_ENV, "crash"
    )  # every searching decision aborts its worker, as a kernel crash would
    thinker = Thinker(1)
    await thinker.start()
    state = make_game("konchinka", {"players": 2}).new_initial_state(3)
    rng = random.Random(3)
    searched = 0
    try:
        with caplog.at_level(logging.WARNING, logger="bot.pipeline.thinker"):
            for move in range(12):  # seat 0 is «мастер», seat 1 a normal player
                view = state.view(state.current_player)
                if state.current_player == 0 and len(view.legal_actions) > 1 and searched < 2:
                    action = await thinker.choose(view, Level.HARD, move)
                    assert (
                        action
                        == fallback_action(view, move)
                        == choose_action(view, Level.NORMAL, random.Random(move))
                    )
                    searched += 1
                else:
                    action = choose_action(view, Level.NORMAL, rng)
                state.apply(action)
            with pytest.raises(ThinkerUnavailable):
                await thinker.advise(state.view(state.current_player), 1)
        assert searched == 2
        assert (thinker.worker_deaths, thinker.fallbacks) == (
            6,
            3,
        )  # two decisions and a hint, two deaths each
        lines = [r for r in caplog.records if r.name == "bot.pipeline.thinker"]
        assert len(lines) == 3  # one line each
        assert all(r.levelno == logging.ERROR and "twice" in r.getMessage() for r in lines)
    finally:
        await thinker.close()
