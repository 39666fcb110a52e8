"""Fixtures every part of the suite may use, and how the suite runs in parallel.

``scripts/test.sh`` runs pytest with ``--dist loadgroup`` (pytest-xdist) and two workers a core, each test
where a worker is free, except the tests that assert how long something took, or run the bot at a slow clock
against real-time windows: they are marked ``xdist_group("timing")`` or ``xdist_group("timing-2")``, two chains
of about equal length, each on one worker, one test after another — so at most two of them run at once, one a
core. The chains start first (xdist hands out the largest unit of work first), then the long scenarios (marked
``slow``), then the other tests of many seconds (marked ``long``), so that no worker is left with one of them at
the end while the others have nothing to do. Each worker is forked from the fork server (see
:func:`pytest_configure`); session fixtures (the ``forkserver`` client) exist once per worker.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.forkserver import WORKER_PYTHON, ForkServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        """0: the long scenarios (the soak is the longest test of all), 1: other long tests, 2: the rest."""
        return 0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("long") else 2

    items.sort(key=rank)  # stable: the order otherwise kept


SHARED: dict[str, ForkServer] = {}
"""In xdist's controller: the fork server it started for all its workers."""


def pytest_configure(config: pytest.Config) -> None:
    """xdist's controller (``-n N``): one fork server for all its workers, started at once; each worker is forked
    from it too (``forkserver/python.py`` as the workers' ``python``), so none spends seconds importing the bot
    before it collects a test, and each bot a worker starts is forked from it (``pytest_configure_node``)."""
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no":
        return
    tx: list[str] = config.getoption("tx") or []
    if not tx:
        return
    server = ForkServer(Path(tempfile.mkdtemp(prefix="forkserver-")))
    server.start(wait=False)
    SHARED["server"] = server
    python = f"{sys.executable} -I -S {WORKER_PYTHON} {server.path}"
    config.option.tx = [f"popen//python={python}" if spec == "popen" else spec for spec in tx]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist's controller, as it sets up each worker: the fork server's socket, for the bots the worker starts."""
    node.workerinput["forkserver"] = SHARED["server"].path


def pytest_unconfigure(config: pytest.Config) -> None:
    server = SHARED.pop("server", None)
    if server is not None:
        server.close()
        shutil.rmtree(server.workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def forkserver(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ForkServer]:
    """Starts ``python -m bot`` (and ``python -m tests.load.floor``) children in a fraction of a second: one
    interpreter imports the bot once and forks them — xdist's controller's for all its workers, or this
    session's own."""
    shared = getattr(request.config, "workerinput", {}).get("forkserver")
    if shared is not None:
        yield ForkServer.attach(shared)
        return
    server = ForkServer(tmp_path_factory.mktemp("forkserver"))
    server.start()
    try:
        yield server
    finally:
        server.close()
