"""Score-sheet picture benchmark: the CPU cost of drawing one sheet (PNG bytes included) per game and theme.

    python -m tests.bench_sheets [--parties N] [--json] [--docs DIR]

Parties are played to the end by random legal moves (seeded); every deal end of each party is a sheet (the
picture the group sees after that deal), drawn once without the cache — what a new sheet costs — and the run
prints per game the p50, p95 and max CPU milliseconds per picture (the process's CPU time, which a busy machine
does not inflate), the building of the sheet's data from the party apart. ``--docs DIR`` also writes the
pictures of one finished party of each game in both themes, and of one with long, right-to-left and emoji
names, to DIR (docs/sheets holds them).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from bot.games import plugin_of
from bot.i18n import Locale, translator
from bot.views.common import SeatInfo
from bot.views.sheets import Sheet, Theme, draw
from engine.core import JSONValue, State

RU = translator(Locale.RU)
SEATS = (SeatInfo("Аня", 1), SeatInfo("Борис", 2), SeatInfo("Вера", 3), SeatInfo("", None, True, number=0))
LONG_NAME = "Александра Константиновна Преображенская-Оболенская из Петербург"
"""A name of 64 characters (Telegram's longest first name and last name together)."""
HOSTILE = (
    SeatInfo(LONG_NAME, 1),
    SeatInfo("אברהם בן דוד", 2),
    SeatInfo("🦊🔥 Лиса 👩‍👩‍👧‍👦", 3),
    SeatInfo("Борис 🐻", 4),
)
GAMES: dict[str, dict[str, JSONValue]] = {"konchinka": {"players": 4, "target": 15}, "king": {}}


def sheets_of_party(kind: str, seed: int, seats: tuple[SeatInfo, ...]) -> tuple[list[Sheet], State, float]:
    """The sheet after each deal of a random party, the finished state, and the CPU ms building the sheets'
    data took in all."""
    plugin = plugin_of(kind)
    state = plugin.make_game(GAMES[kind]).new_initial_state(seed)
    rng = random.Random(seed)
    sheets: list[Sheet] = []
    built = 0.0
    while not state.is_terminal:
        deals = state.deals_completed
        state.apply(rng.choice(list(state.legal_actions())))
        if state.deals_completed > deals:
            start = time.process_time()
            sheet = plugin.paper.score_sheet(state, seats[: state.game.num_players], RU)
            built += time.process_time() - start
            if sheet is not None:
                sheets.append(sheet)
    return sheets, state, built * 1000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(parties: int) -> dict[str, Any]:
    sheets_of_party("king", 0, SEATS)  # fonts loaded, modules imported: not counted
    for sheet in sheets_of_party("konchinka", 0, SEATS)[0][:1]:
        draw(sheet, Theme.LIGHT)
    report: dict[str, Any] = {}
    for kind in GAMES:
        costs: list[float] = []
        build: list[float] = []
        sizes: list[int] = []
        for seed in range(parties):
            sheets, _state, built = sheets_of_party(kind, seed, SEATS)
            build.append(built / max(1, len(sheets)))
            for n, sheet in enumerate(sheets):
                theme = Theme.DARK if n % 2 else Theme.LIGHT
                start = time.process_time()
                png = draw(sheet, theme)
                costs.append((time.process_time() - start) * 1000)
                sizes.append(len(png))
        report[kind] = {
            "pictures": len(costs),
            "p50_ms": round(statistics.median(costs), 1),
            "p95_ms": round(percentile(costs, 0.95), 1),
            "max_ms": round(max(costs), 1),
            "build_p50_ms": round(statistics.median(build), 2),
            "png_kb_p50": round(statistics.median(sizes) / 1024, 1),
        }
    return report


def write_docs(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, seed in (("konchinka", 3), ("king", 3)):
        for label, seats in (("", SEATS), ("-names", HOSTILE)):
            _sheets, state, _ = sheets_of_party(kind, seed, seats)
            sheet = plugin_of(kind).paper.score_sheet(state, seats[: state.game.num_players], RU)
            assert sheet is not None
            for theme in Theme:
                path = folder / f"{kind}{label}-{theme.value}.png"
                path.write_bytes(draw(sheet, theme))
                written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parties", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--docs", type=Path, default=None)
    args = parser.parse_args()
    report = measure(args.parties)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print("CPU per picture (ms), one drawn for each deal end of random parties, themes alternating:")
        for kind, row in report.items():
            print(
                f"  {kind:<10} pictures {row['pictures']:>4}  p50 {row['p50_ms']:>5}  p95 {row['p95_ms']:>5}  "
                f"max {row['max_ms']:>5}  · its data built in {row['build_p50_ms']} ms · "
                f"PNG {row['png_kb_p50']} KB"
            )
    if args.docs is not None:
        for path in write_docs(args.docs):
            print("wrote", path)


if __name__ == "__main__":
    main()
