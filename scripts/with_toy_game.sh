#!/usr/bin/env bash
# Check that a third game added as README's «Adding a game» says (its folders, nothing else) leaves the suite green:
# copy this checkout into a temporary folder, place the tests' toy «Старшая карта» (each game of tests/games) in
# the project's own game folders there — engine/<game>/, bot/games/<game>/, locales/<lang>/<game>/, its imports of
# tests.games.engine / tests.games.bot made the project's own —, install it into a .venv of its own and run pytest
# there. The checkout itself is not touched. The copy is a git clone of the last commit with the checkout's files
# as they are now laid over it (tracked and new ones, not what .gitignore ignores); `--head`: the last commit alone.
# Arguments after the options go to pytest (default: -q -n 2 --dist loadgroup). KEEP=1 keeps the temporary folder.
# PYTHON names the interpreter to build the .venv with (default: python3).
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
source_ref=""
if [ "${1:-}" = "--head" ]; then
    source_ref=HEAD
    shift
fi
if [ "$#" -eq 0 ]; then
    set -- -q -n 2 --dist loadgroup
fi
scratch="$(mktemp -d "${TMPDIR:-/tmp}/with-toy-game.XXXXXX")"
if [ "${KEEP:-0}" = 1 ]; then
    echo "with_toy_game.sh: the copy stays in $scratch" >&2
else
    trap 'rm -rf "$scratch"' EXIT
fi
copy="$scratch/checkout"
cd "$checkout"
# A git checkout of its own (some tests ask git what the project tracks), sharing this one's objects.
git clone --quiet --shared --no-checkout "$checkout" "$copy"
git -C "$copy" checkout --quiet --detach "$(git rev-parse HEAD)"
if [ -z "$source_ref" ]; then
    # The files as they are on disk now, over the last commit: every file git would show (tracked or new), and
    # the tracked files deleted here deleted there too.
    git ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' path; do
            if [ -e "$path" ] || [ -L "$path" ]; then printf '%s\0' "$path"; fi
        done \
        | tar --null --no-recursion -T - -c | tar -x -C "$copy"
    git ls-files -z --deleted | (cd "$copy" && xargs -0 -r rm -f --)
fi

cd "$copy"
# Each game of tests/games (the toy) into the project's own folders, as README's «Adding a game» lays one out.
placed=()
for folder in tests/games/engine/*/; do
    game="$(basename "$folder")"
    [ -f "$folder/__init__.py" ] || continue
    rm -rf "engine/$game" "bot/games/$game"
    cp -R "tests/games/engine/$game" "engine/$game"
    cp -R "tests/games/bot/games/$game" "bot/games/$game"
    for texts in tests/games/locales/*/"$game"; do
        lang="$(basename "$(dirname "$texts")")"
        rm -rf "locales/$lang/$game"
        cp -R "$texts" "locales/$lang/$game"
    done
    # Its own imports name its place in tests/games; in the project's folders they name the project's packages.
    find "engine/$game" "bot/games/$game" -name '*.py' -exec \
        sed -i -e 's/\btests\.games\.engine\./engine./g' -e 's/\btests\.games\.bot\./bot./g' {} +
    if grep -rn 'tests\.games' "engine/$game" "bot/games/$game"; then
        echo "with_toy_game.sh: $game still names tests.games (above)" >&2
        exit 1
    fi
    placed+=("$game")
done
if [ "${#placed[@]}" -eq 0 ]; then
    echo "with_toy_game.sh: no game in tests/games/engine" >&2
    exit 1
fi
echo "with_toy_game.sh: ${placed[*]} placed in engine/, bot/games/ and locales/*/ of $copy" >&2

python="${PYTHON:-python3}"
"$python" -m venv .venv
.venv/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements-dev.lock
.venv/bin/python -m pip install --quiet --no-deps -e .
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m compileall -q -j 0 bot engine tests > /dev/null
status=0
.venv/bin/python -m pytest "$@" || status=$?
echo "with_toy_game.sh: pytest exited with $status (the toy in the game folders of $copy)" >&2
exit "$status"
