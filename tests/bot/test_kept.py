"""Work kept (a hint, a review): asked many times, by many at once, it is done once; a failure is not kept; an asker
that goes away leaves the work to those still waiting."""

from __future__ import annotations

import asyncio

import pytest

from bot.pipeline.kept import Kept


async def test_work_asked_by_many_at_once_and_again_is_done_once_and_the_oldest_is_forgotten() -> None:
    kept: Kept[int, str] = Kept(2)
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow(key: int) -> str:
        started.set()
        await release.wait()
        return f"answer {key}"

    askers = [asyncio.create_task(kept.get(1, lambda: slow(1))) for _ in range(5)]
    await started.wait()
    askers[0].cancel()  # a page closed while it waited
    release.set()
    answers = await asyncio.gather(*askers[1:])
    assert answers == ["answer 1"] * 4 and kept.made == 1
    assert await kept.get(1, lambda: slow(1)) == "answer 1" and kept.made == 1
    await kept.get(2, lambda: slow(2))
    await kept.get(3, lambda: slow(3))
    await kept.get(1, lambda: slow(1))
    assert kept.made == 4, "kept: the last two keys only"


async def test_work_that_fails_is_tried_again_at_the_next_asking() -> None:
    kept: Kept[str, int] = Kept(4)
    tries = []

    async def flaky() -> int:
        tries.append(1)
        if len(tries) == 1:
            raise RuntimeError("a worker died")
        return 7

    with pytest.raises(RuntimeError):
        await kept.get("k", flaky)
    assert await kept.get("k", flaky) == 7 and await kept.get("k", flaky) == 7
    assert len(tries) == 2
