"""Soak: many short solo games through the fake Bot API, and the bot's memory stays flat.

The bot runs as ``python -m bot`` in a process of its own (forked by the ``forkserver`` fixture, which also lets
it answer SIGUSR1 with tracemalloc snapshots) against the fake Bot API in this process, both on a very fast
clock, with bot moves undelayed and parties to one point. Every game is played by a new person in a new chat, so
anything kept per user, per chat or per game shows as growth; and every game is the same game (a fixed seed, the
same moves, the same name), so the texts the bot formats repeat and its bounded caches of them stop growing after
the first games. Two measures:

- what the bot's Python code keeps allocated from one snapshot to another, both taken while the bot is idle (so
  a game's own memory is not counted while in play): 3.1-3.4 KiB a game over 30 games (see ``KEPT_PER_GAME``),
  so a leak of 5 KiB a game fails even the short run;
- its RSS from /proc over the untraced games (anything tracemalloc does not see: SQLite, C extensions), which
  needs the long run to see a slow leak through the allocator's noise.

Every run plays 70 games (the last 40 traced); the slow tier (``FULL_TESTS=1``, see ``tests/tiers.py``) 2,000
(the last 200), and prints both measures. ``SOAK_GAMES=N`` sets any other number.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
import tracemalloc
from pathlib import Path

import pytest

from tests.bot.conftest import bot_process_env, play_until, start_solo_konchinka
from tests.fakebot import FakeTelegram, FakeUser, Limits
from tests.forkserver import ForkServer, Process
from tests.tiers import size

GAMES = int(os.environ.get("SOAK_GAMES", size(70, 2000)))
PLAYERS = 4
"""Games played at the same time."""
SPEED = 600.0
TRACED = size(40, 200)
"""The last games are played with tracemalloc on (it makes the bot ~3 times slower) ..."""
MEASURED = size(30, 150)
"""... and the last of those are measured: from a snapshot before them to one after them."""
KEPT_PER_GAME = 8 * 1024
"""Bytes a game may leave allocated between the snapshots. Measured 3.1-3.4 KiB, all of it bounded: the outbox's
memory of live messages (two per finished party, the most recent ``KNOWN_CACHED`` = 5,000 kept), the operator's
last 256 refusals (a player of these tests sometimes presses a hand a move has just made stale) and aiohttp's
objects of recent calls (its connection pool's). aiogram's cache of the last 128 updates is emptied before each
snapshot (see ``tests/forkserver/server.py``): which updates it holds made the figure swing between 7 and 13 KiB.
A leak of 5 KiB a game on top fails."""
IDLE = 1.0
"""Real seconds the bot is left idle before each snapshot (the last calls' objects go)."""
WARM_UP = 0.25
"""The share of the games after which the RSS must stop growing ..."""
RSS_GROWTH_ALLOWED = 6 * 1024
"""... but for this many KiB (allocator noise, SQLite's page cache filling up)."""


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


async def ask(process: Process, folder: Path, name: str) -> Path:
    """SIGUSR1 to the bot, idle for a second; the file it writes in answer (``tracing``, then
    ``snapshot-N.pickle``)."""
    await asyncio.sleep(IDLE)
    process.send_signal(signal.SIGUSR1)
    path = folder / name
    for _ in range(6000):
        if path.exists():
            return path
        await asyncio.sleep(0.01)
    raise TimeoutError(f"the bot wrote no {name}")


def kept(first: Path, second: Path) -> tuple[int, list[str]]:
    """Bytes allocated at the second snapshot beyond the first, and the ten places that grew most."""
    stats = tracemalloc.Snapshot.load(str(second)).compare_to(tracemalloc.Snapshot.load(str(first)), "lineno")
    return sum(s.size_diff for s in stats), [str(s) for s in stats[:10]]


@pytest.mark.slow
@pytest.mark.timeout(size(300, 3600))  # 2,000 games take ~10 minutes of the bot's CPU
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
async def test_memory_stays_flat_over_many_games(forkserver: ForkServer, tmp_path: Path) -> None:
    tg = FakeTelegram(speed=SPEED, limits=Limits())
    await tg.start()
    env = bot_process_env(tg, tmp_path / "bot.sqlite3")
    env.update(
        CLOCK_SPEED=str(SPEED),
        BOT_DELAY="0",
        DEFAULT_TARGET="1",
        TURN_TIMEOUT="0",
        LOG_LEVEL="WARNING",
        GAME_SEED="7",
    )
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    process = await forkserver.spawn("bot", env=env, cwd=tmp_path, snapshots=snapshots)
    played = 0
    curve: list[tuple[int, int]] = []
    started = time.monotonic()
    step = max(1, GAMES // 20)

    async def play(until: int) -> None:
        """Games by new people, ``PLAYERS`` at a time, until ``until`` were played; then everything sent."""

        async def worker() -> None:
            nonlocal played
            while played < until:
                played += 1
                await play_one(tg, tg.add_user("Игрок"))
                if played % step == 0:
                    curve.append((played, rss_kib(process.pid)))

        await asyncio.gather(*(worker() for _ in range(PLAYERS)))
        await tg.settle()

    try:
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start")
        curve.append((0, rss_kib(process.pid)))
        await play(GAMES - TRACED)
        untraced = list(curve)  # tracemalloc's own tables add to the RSS from here on
        await ask(process, snapshots, "tracing")
        await play(GAMES - MEASURED)
        first, measured_from = await ask(process, snapshots, "snapshot-1.pickle"), played
        await play(GAMES)
        second = await ask(process, snapshots, "snapshot-2.pickle")
        curve.append((played, rss_kib(process.pid)))
    finally:
        process.terminate()
        await process.wait()
        await tg.stop()
    growth, top = kept(first, second)
    games = played - measured_from
    seconds = time.monotonic() - started
    print(f"\n{played} games in {seconds:.0f} s; the last {games} kept {growth / games:.0f} bytes a game")
    print("  grew most: " + "\n  ".join(top[:5]))
    print("RSS of the bot (games: MiB): " + ", ".join(f"{n}: {kib / 1024:.1f}" for n, kib in curve))
    assert growth < KEPT_PER_GAME * games, "\n".join(top)
    after_warm_up = [kib for n, kib in untraced if n >= GAMES * WARM_UP]
    assert max(after_warm_up) - after_warm_up[0] < RSS_GROWTH_ALLOWED, curve
