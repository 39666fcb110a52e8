"""A player's page as a picture (``/me``): the CPU cost of drawing one, and the pictures of ``docs/pages``.

    python -m tests.bench_pages [--people N] [--docs DIR]

A person's record is made of random parties (seeded) of both games against the same few people and bot players,
as the database would return it (:class:`~bot.storage.players.PlayedParty`), with a few achievements earned;
each page is built (``bot.ratings.page``) and drawn once without the cache, and the run prints the p50 and max CPU
milliseconds (the process's CPU time). ``--docs DIR`` writes the page of one such person in both themes, with
plain names and with a 64-character, a right-to-left and emoji names (docs/pages holds them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from bot.games import plugin_of
from bot.games.king.feats import CLEAN_ERALASH
from bot.games.konchinka.feats import FINISH_ON_CAPTURE
from bot.i18n import Locale, translator
from bot.model.game import GameMode
from bot.ratings.achievements import MASTER_FIRST
from bot.ratings.page import player_page, rated_line
from bot.storage.players import Earned, PartySeat, PlayedParty
from bot.views.sheets import PlayerPage, Theme, draw
from tests.bench_sheets import LONG_NAME

RU = translator(Locale.RU)
ME = 1
PLAIN = ("Аня", "Борис", "Вера", "Глеб")
HOSTILE = (LONG_NAME, "אברהם בן דוד", "🦊🔥 Лиса 👩‍👩‍👧‍👦", "Борис 🐻")


def played(kind: str, seed: int, names: tuple[str, ...]) -> PlayedParty:
    """A random party of ``kind`` (Кончинка of 2–4 people; Кинг of the person, one other and two «мастер»)."""
    rng = random.Random(seed)
    plugin = plugin_of(kind)
    players = rng.choice((2, 3, 4)) if kind == "konchinka" else 4
    state = plugin.make_game(plugin.game_options(plugin.default_options(None), players)).new_initial_state(
        seed
    )
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    outcome = state.outcome
    assert outcome is not None
    others = rng.sample(range(1, len(names)), players - 1)
    seats = []
    for index in range(players):
        person = 0 if index == 0 else others[index - 1]
        bot = kind == "king" and index >= 2
        seats.append(
            PartySeat(
                None if bot else ME + person,
                "" if bot else names[person],
                "hard" if bot else None,
                outcome.scores[index],
                index in outcome.winners,
            )
        )
    return PlayedParty(seed, kind, GameMode.GROUP, 1_700_000_000.0 + seed, tuple(seats))


def person_page(names: tuple[str, ...], parties: int = 24) -> PlayerPage:
    record = [played("konchinka" if n % 3 else "king", n, names) for n in range(parties)]
    earned = [
        Earned("konchinka", FINISH_ON_CAPTURE, 2, 0.0),
        Earned("king", CLEAN_ERALASH, 3, 0.0),
        Earned("konchinka", MASTER_FIRST, 4, 0.0),
    ]
    ratings = {  # as /me reads them from the ratings kept: one settled, with its place; one not yet
        "konchinka": rated_line("konchinka", 26.9, 3.1, (4, 31), RU),
        "king": rated_line("king", 25.7, 6.4, None, RU),
    }
    return player_page(ME, names[0], record, earned, ratings, RU)


def write_docs(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for label, names in (("", PLAIN), ("-names", HOSTILE)):
        page = person_page(names)
        for theme in Theme:
            path = folder / f"page{label}-{theme.value}.png"
            path.write_bytes(draw(page, theme))
            written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=6)
    parser.add_argument("--docs", type=Path, default=None)
    args = parser.parse_args()
    draw(person_page(PLAIN, 3), Theme.LIGHT)  # fonts loaded: not counted
    costs, builds = [], []
    for n in range(args.people):
        names = HOSTILE if n % 2 else PLAIN
        start = time.process_time()
        page = person_page(names[n % 2 :] + names[: n % 2])
        builds.append((time.process_time() - start) * 1000)
        start = time.process_time()
        draw(page, Theme.DARK if n % 2 else Theme.LIGHT)
        costs.append((time.process_time() - start) * 1000)
    print(
        f"CPU per page (ms): drawn p50 {statistics.median(costs):.1f} max {max(costs):.1f} · "
        f"its data (24 random parties played and read) p50 {statistics.median(builds):.1f}"
    )
    if args.docs is not None:
        for path in write_docs(args.docs):
            print("wrote", path)


if __name__ == "__main__":
    main()
