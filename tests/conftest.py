"""Fixtures every part of the suite may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.forkserver import ForkServer


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
