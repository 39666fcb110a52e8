"""Soak: thousands of short solo games through the fake Bot API, and the bot's memory stays flat.

The bot runs as ``python -m bot`` in a subprocess (its RSS is read from /proc) against the fake Bot API in this
process, both on a very fast clock, with bot moves undelayed and parties to one point. Every game is played by a
new person, so anything kept per user, per chat or per game would show as growth.

CI plays ``SOAK_GAMES`` games (default 100); the full soak is ``SOAK_GAMES=2000 .venv/bin/python -m pytest -q
-s tests/bot/test_soak.py``, which prints the RSS curve.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
import time
from pathlib import Path

import pytest

from tests.bot.conftest import bot_process_env, play_until, start_solo_konchinka
from tests.fakebot import FakeTelegram, FakeUser, Limits

GAMES = int(os.environ.get("SOAK_GAMES", "100"))
PLAYERS = 4
"""Games played at the same time."""
SPEED = 600.0
WARM_UP = 0.25
"""The share of the games after which memory must stop growing."""
GROWTH_ALLOWED = 6 * 1024
"""KiB the RSS may still grow after the warm-up (allocator noise, SQLite's page cache filling up)."""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def finals(user: FakeUser) -> int:
    """The party-end messages (they carry the rematch button) in the user's private chat."""
    return sum(
        1
        for m in user.private_chat.visible_messages()
        if m.is_from_bot
        and any(b.callback_data and b.callback_data.startswith("rm:") for b in m.flat_buttons)
    )


async def play_one(tg: FakeTelegram, user: FakeUser) -> None:
    await start_solo_konchinka(tg, user, opponents=1, level="easy")
    await play_until(tg, [user], lambda: finals(user) > 0, timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
async def test_memory_stays_flat_over_many_games(tmp_path: Path) -> None:
    tg = FakeTelegram(speed=SPEED, limits=Limits())
    await tg.start()
    env = bot_process_env(tg, tmp_path / "bot.sqlite3")
    env.update(
        CLOCK_SPEED=str(SPEED),
        BOT_DELAY="0",
        DEFAULT_TARGET="1",
        TURN_TIMEOUT="0",
        LOG_LEVEL="WARNING",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdin=asyncio.subprocess.DEVNULL
    )
    names = (f"Игрок {n}" for n in itertools.count(1))
    played = 0
    curve: list[tuple[int, int]] = []
    started = time.monotonic()
    try:
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start")
        curve.append((0, rss_kib(process.pid)))
        step = max(1, GAMES // 20)

        async def worker() -> None:
            nonlocal played
            while played < GAMES:
                played += 1
                await play_one(tg, tg.add_user(next(names)))
                if played % step == 0:
                    curve.append((played, rss_kib(process.pid)))

        await asyncio.gather(*(worker() for _ in range(PLAYERS)))
        curve.append((played, rss_kib(process.pid)))
    finally:
        process.terminate()
        await process.wait()
        await tg.stop()
    seconds = time.monotonic() - started
    print(f"\n{played} games in {seconds:.0f} s; RSS of the bot (games: MiB):")
    print("  " + ", ".join(f"{games}: {kib / 1024:.1f}" for games, kib in curve))
    after_warm_up = [kib for games, kib in curve if games >= GAMES * WARM_UP]
    assert max(after_warm_up) - after_warm_up[0] < GROWTH_ALLOWED, curve
