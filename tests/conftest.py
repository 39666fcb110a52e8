"""Fixtures every part of the suite may use, and how the suite runs in parallel.

``scripts/test.sh`` runs pytest with ``--dist loadgroup`` (pytest-xdist) and two workers a core, each test
where a worker is free, except the tests marked ``xdist_group("timing")`` — those that assert how long something
took, or run the bot at a slow clock against real-time windows — which all go to one worker, one after another,
so two of them never compete for the same core. Session fixtures (the ``forkserver``) exist once per worker.
The timing group starts first (xdist hands out the largest unit of work first), then the tests that take many
seconds (marked ``slow`` or ``long``), so that no worker is left with one of them at the end while the others
have nothing to do.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.forkserver import ForkServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def short(item: pytest.Item) -> bool:
        return item.get_closest_marker("slow") is None and item.get_closest_marker("long") is None

    items.sort(key=short)  # stable: the order otherwise kept


@pytest.fixture(scope="session")
def forkserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    """Starts ``python -m bot`` (and ``python -m tests.load.floor``) children in a fraction of a second: one
    interpreter per test session (so per xdist worker) imports the bot once and forks them."""
    server = ForkServer(tmp_path_factory.mktemp("forkserver"))
    server.start()
    try:
        yield server
    finally:
        server.close()
