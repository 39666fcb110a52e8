"""``cardbot_service_memory_bytes``: the memory of the whole service — the bot's process and the ones it started,
the bot players' workers first — which the service's limit (systemd's ``MemoryMax``, compose's ``mem_limit``)
counts, and ``process_resident_memory_bytes`` (the main process alone) does not. Figures are printed (``-rP``)."""

from __future__ import annotations

import asyncio
import os
import sys

from bot.memory import process_memory, service_memory
from bot.pipeline.thinker import Thinker
from tests.forkserver import PIPE

HELD = 80 << 20
"""Bytes the child below holds, each page written."""

HOLDER = f"""
import sys
held = bytearray({HELD})
held[:: 4096] = b"x" * len(range(0, {HELD}, 4096))
print("holding", flush=True)
sys.stdin.read()
"""


async def test_the_memory_of_the_service_counts_what_its_child_processes_hold() -> None:
    before = service_memory()
    child = await asyncio.create_subprocess_exec(sys.executable, "-c", HOLDER, stdin=PIPE, stdout=PIPE)
    try:
        assert child.stdout is not None
        assert await asyncio.wait_for(child.stdout.readline(), 30) == b"holding\n"
        during = service_memory()
        own = process_memory(child.pid)
    finally:
        assert child.stdin is not None
        child.stdin.close()
        await child.wait()
    print(
        f"service: {before / 2**20:.0f} MB -> {during / 2**20:.0f} MB with a child holding {own / 2**20:.0f} MB"
    )
    assert own >= HELD
    assert during - before >= HELD * 0.9  # the child's pages, give or take what this process freed meanwhile
    assert service_memory() < during  # and no more once it is gone


async def test_the_bot_players_workers_count_in_the_service_and_not_in_the_main_process() -> None:
    thinker = Thinker(2)
    alone = service_memory()
    await thinker.start()
    try:
        with_workers = service_memory()
        main = process_memory(os.getpid())
    finally:
        await thinker.close()
    print(
        f"bot players' workers: the service {alone / 2**20:.0f} MB -> {with_workers / 2**20:.0f} MB "
        f"(this process {main / 2**20:.0f} MB)"
    )
    assert with_workers - alone > 10 << 20  # two interpreters with the engine imported
