#!/usr/bin/env bash
# Set up everything on a fresh machine (a virtual environment in .venv with exactly the versions and files of
# requirements-dev.lock: the bot's dependencies as requirements.lock pins them, plus the test tools and checkers)
# and run the whole test suite, in parallel on every core (pytest-xdist; the timing-sensitive tests share one
# worker), with ruff and mypy beside it. Exits non-zero when any of them fails. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Mini App's browser tests drive the distribution's Chromium (Playwright only drives it: no browser of its own
# is downloaded). Installed from the distribution's packages where it is missing (as root, or through sudo).
as_root=""
[ "$(id -u)" -eq 0 ] || as_root=sudo
if ! command -v chromium > /dev/null; then
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends chromium > /dev/null
fi
# The score sheets draw names' emoji from the distribution's colour emoji font, as the Dockerfile installs it
# (bot/views/sheets/text.py: EMOJI_FONTS); the picture tests that check them need it.
if [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends fonts-noto-color-emoji \
        > /dev/null
fi
# promtool checks the alert rules and runs their unit tests (tests/bot/test_alerts.py): the distribution ships it in
# its prometheus package, which also brings a Prometheus server and, under systemd, starts it; the server installed
# here only for its promtool is stopped and disabled again.
if ! command -v promtool > /dev/null; then
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends prometheus > /dev/null
    if command -v systemctl > /dev/null && systemctl is-enabled --quiet prometheus.service 2> /dev/null; then
        $as_root systemctl disable --now prometheus.service > /dev/null 2>&1 || true
    fi
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# The install runs again only when what it installs changed since the last one here (a stamp in .venv records it):
# the lock, pyproject.toml, the kernels' C sources and the folders of packages (the editable install lists them),
# this checkout's path, the Python, and a kernel missing where it has sources (`git clean`). A fresh clone has no
# .venv, so no stamp: it installs everything. About 8 s (6 of them the editable install's build of the kernels).
stamp=.venv/.test-sh-installed
installed() {
    {
        pwd
        .venv/bin/python -c 'import sys; print(sys.version)'
        cat requirements-dev.lock pyproject.toml engine/ai/csrc/* engine/*/ai/csrc/*
        find bot engine locales -type d -not -name __pycache__ | LC_ALL=C sort
        for csrc in engine/*/ai/csrc; do compgen -G "${csrc%/csrc}/_kernel.*.so" || echo "no kernel: $csrc"; done
    } | sha256sum
}
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$(installed)" ]; then
    rm -f "$stamp"
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements-dev.lock
    .venv/bin/python -m pip install --quiet --no-deps -e .
    installed >"$stamp"
fi
# Bytecode once, before the workers start: every test interpreter (four workers, each bot process they start, the
# import test's hundred and fifty children) would otherwise compile the same modules again, or, where the
# environment sets PYTHONDONTWRITEBYTECODE, every time.
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m compileall -q -j 0 bot engine tests > /dev/null
# The linters and the type check in the background, while one collection fills pytest's cache of test modules
# with their asserts rewritten: on a fresh clone every worker would otherwise rewrite them all at once (about 8 s
# of CPU each).
checks_log="$(mktemp)"
trap 'rm -f "$checks_log"' EXIT
(.venv/bin/python -m ruff check . && .venv/bin/python -m ruff format --check . && .venv/bin/python -m mypy) \
    >"$checks_log" 2>&1 &
checks=$!
if ! compgen -G "tests/__pycache__/conftest.*-pytest-*.pyc" > /dev/null; then  # not filled by an earlier run
    .venv/bin/python -m pytest -q --collect-only -p no:cacheprovider > /dev/null 2>&1 || true  # the run says why
fi
# Two workers a core: a worker is forked from one interpreter that imported the bot (tests/conftest.py), so it
# costs little, and the tests that wait on real time (the fake Bot API over HTTP, processes) leave the CPU to the
# others; the tests that assert on time run in two chains, each on one worker (xdist_group "timing", "timing-2").
# Not three: on 2 cores six workers took ~236 CPU-s and 123 s, four ~214 CPU-s and 119 s (each worker collects
# the suite, builds its own caches, and more of them at once thrash the cores' caches).
status=0
.venv/bin/python -m pytest -q -n "$(( $(nproc) * 2 ))" --dist loadgroup "$@" || status=$?
wait "$checks" || status=1
cat "$checks_log"
exit "$status"
