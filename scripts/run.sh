#!/usr/bin/env bash
# Start the bot (long polling, or webhook mode when WEBHOOK_URL is set) from a virtual environment in .venv.
# Settings come from the environment or a .env file: BOT_TOKEN is required (see .env.example).
#
# The environment is (re)built only when needed: .venv is missing, or was made by another Python version, or
# pyproject.toml or requirements.lock changed since the last install (a stamp in .venv records their hashes).
# Otherwise nothing is installed, so the bot starts offline. The dependencies are exactly requirements.lock's
# (versions and file hashes), as in the container. Arguments go to the bot: `bash scripts/run.sh check`; a
# relative path among them (`backup backups/today.sqlite3`) is taken from the folder you ran the script in.
# PYTHON names the interpreter to build .venv with (default: python3).
set -euo pipefail
export CARDBOT_CALLER_DIR="${CARDBOT_CALLER_DIR:-$PWD}"
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
version_of() {
    "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true
}
wanted_version="$(version_of "$python")"
if [ -z "$wanted_version" ]; then
    echo "run.sh: cannot run $python (set PYTHON to a Python 3.11 or newer)" >&2
    exit 1
fi
if [ -e .venv ] && [ "$(version_of .venv/bin/python)" != "$wanted_version" ]; then
    echo "run.sh: .venv was made by another Python; rebuilding it with Python $wanted_version" >&2
    rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
stamp=.venv/.cardbot-installed
wanted_stamp="python $wanted_version, pyproject.toml and lock $("$python" -c \
    'import hashlib, os; print(hashlib.sha256(b"".join(open(f, "rb").read() for f in ("pyproject.toml", "requirements.lock") if os.path.exists(f))).hexdigest())')"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$wanted_stamp" ]; then
    echo "run.sh: installing the bot and its dependencies into .venv" >&2
    rm -f "$stamp"
    # pip as the venv brought it (no unpinned upgrade from the index); setuptools' notices while it builds the
    # bot (its experimental ext-modules table, the editable install) are no concern of the operator's.
    export PIP_DISABLE_PIP_VERSION_CHECK=1
    .venv/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements.lock
    PYTHONWARNINGS=ignore::UserWarning .venv/bin/python -m pip install --quiet --no-deps -e .
    printf '%s\n' "$wanted_stamp" >"$stamp"
fi
exec .venv/bin/python -m bot "$@"
