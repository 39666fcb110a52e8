#!/usr/bin/env bash
# Set up everything on a fresh machine (a virtual environment in .venv with exactly the versions and files of
# requirements-dev.lock: the bot's dependencies as requirements.lock pins them, plus the test tools and checkers)
# and run the whole test suite, in parallel on every core (pytest-xdist; the timing-sensitive tests share one
# worker), then ruff and mypy. Exits non-zero when any of them fails. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements-dev.lock
.venv/bin/python -m pip install --quiet --no-deps -e .
# Bytecode once, before the workers start: every test interpreter (four workers, each bot process they start, the
# import test's hundred and fifty children) would otherwise compile the same modules again, or, where the
# environment sets PYTHONDONTWRITEBYTECODE, every time.
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m compileall -q -j 0 bot engine tests > /dev/null
# Three workers a core: most tests spend their time waiting on real time (the fake Bot API, the bot's pauses), not
# on the CPU, and a worker is forked from one interpreter that imported the bot (tests/conftest.py), so it costs
# little; the tests that assert on time run in two chains, each on one worker (xdist_group "timing", "timing-2").
.venv/bin/python -m pytest -q -n "$(( $(nproc) * 3 ))" --dist loadgroup "$@"
.venv/bin/python -m ruff check .
.venv/bin/python -m ruff format --check .
.venv/bin/python -m mypy
