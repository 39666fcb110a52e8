#!/usr/bin/env bash
# Set up everything on a fresh machine (a virtual environment in .venv) and run the whole test suite, in parallel
# on every core (pytest-xdist; the timing-sensitive tests share one worker), then ruff and mypy. Exits non-zero
# when any of them fails. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
.venv/bin/python -m pytest -q -n auto --dist loadgroup "$@"
.venv/bin/python -m ruff check .
.venv/bin/python -m ruff format --check .
.venv/bin/python -m mypy
