"""The suite's own promise (``tests/conftest.py``): the tests marked ``xdist_group("timing")`` run on one worker,
one after another (and those of the second chain, ``"timing-2"``, on another).

pytest-xdist (``--dist loadgroup``) groups tests by a suffix it writes into their node ids; pytest 9.2 ignores
that write (pytest-xdist#1386), and then the group is silently spread over every worker — no test fails, the
timing tests just compete with each other for the cores. ``requirements-dev.lock`` pins pytest 9.1; this test
fails as soon as a pytest (or xdist) upgrade drops the grouping again."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("timing")
def test_the_timing_tests_are_grouped_on_one_worker(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("runs only under pytest-xdist with --dist loadgroup (scripts/test.sh)")
    assert request.node.nodeid.endswith("@timing"), request.node.nodeid


@pytest.mark.xdist_group("timing-2")
def test_the_second_chain_of_timing_tests_is_grouped_too(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("runs only under pytest-xdist with --dist loadgroup (scripts/test.sh)")
    assert request.node.nodeid.endswith("@timing-2"), request.node.nodeid
