#!/usr/bin/env bash
# Set up everything on a fresh machine (a virtual environment in .venv) and start the bot (long polling).
# Settings come from the environment or a .env file: BOT_TOKEN is required.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/python -m bot "$@"
