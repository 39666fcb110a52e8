"""The ratings' benchmark: ``python -m tests.bench_ratings [--parties N] [--people P] [--seed S] [--json]``.

Writes N finished parties (default 10,000) into a real SQLite file, as the bot stores them (a ``games`` row and its
``seats``): group parties of two to four people among P people in a few dozen chats, and solo parties of one person
against one to three bot players of a random level, each with its scores and winner. Then rates them all through
the rebuild (``bot.ratings.rebuild``: read every finished seat, rate each party in order, write every rating and
change in one transaction) and prints the wall time, the CPU time of the rating itself, and parties per second.
The issue's target: 10,000 parties in under 10 s.

``--models`` compares openskill's Weng–Lin models on simulated parties instead: P people with hidden true
strengths play N parties of two to four (each finishing in the order of strength plus noise); each model rates
them in turn, and over the second half predicts each party's winner as the player it rates highest before the
party. It prints the share of winners predicted and the CPU seconds per model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from bot.ratings import rebuild
from bot.storage import Database

KINDS = ("konchinka", "king")
LEVELS = ("easy", "normal", "hard")


def write_parties(path: Path, parties: int, people: int, seed: int) -> None:
    """``parties`` finished parties in the bot's tables at ``path`` (migrated already)."""
    rng = random.Random(seed)
    start = 1_790_000_000.0
    games, seats = [], []
    for game_id in range(1, parties + 1):
        kind = rng.choice(KINDS)
        at = start + game_id * 600.0
        if rng.random() < 0.4:  # solo: one person against bot players
            person = rng.randrange(1, people + 1)
            mode, chat = "solo", person
            table: list[tuple[int | None, str | None]] = [(person, None)]
            level = rng.choice(LEVELS)
            table += [(None, level)] * (3 if kind == "king" else rng.randint(1, 3))
        else:
            mode, chat = "group", -1000 - rng.randrange(40)
            size = 4 if kind == "king" else rng.randint(2, 4)
            table = [(user, None) for user in rng.sample(range(1, people + 1), size)]
        scores = [rng.randint(-20, 30) for _ in table]
        best = max(scores)
        games.append((game_id, kind, mode, "finished", chat, table[0][0] or 0, "{}", at - 1200.0, at))
        for seat, ((user, bot_level), score) in enumerate(zip(table, scores, strict=True)):
            name = f"p{user}" if user is not None else "bot"
            seats.append((game_id, seat, user, name, bot_level, score, int(score == best), 0, score))
    users = [(user, f"p{user}") for user in range(1, people + 1)]
    with sqlite3.connect(path) as conn:
        conn.executemany("INSERT INTO users (user_id, name) VALUES (?, ?)", users)
        conn.executemany(
            "INSERT INTO games (id, kind, mode, status, chat_id, creator_id, options, created_at, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            games,
        )
        conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, level, score, won, replaced, settlement) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            seats,
        )


async def measure(path: Path) -> rebuild.Rebuilt:
    db = await Database.open(path)
    try:
        return await rebuild.rebuild(db)
    finally:
        await db.close()


async def prepare(path: Path) -> None:
    db = await Database.open(path)
    await db.close()


def compare_models(parties: int, people: int, seed: int) -> dict[str, dict[str, float]]:
    """Each model's share of winners predicted (second half of the parties) and CPU seconds (see the docstring)."""
    rng = random.Random(seed)
    strength = [rng.gauss(25.0, 8.0) for _ in range(people)]
    tables = []
    for _ in range(parties):
        seated = rng.sample(range(people), rng.randint(2, 4))
        shown = {p: strength[p] + rng.gauss(0.0, 25.0 / 6) for p in seated}
        tables.append(sorted(seated, key=lambda p: -shown[p]))  # finishing order
    found: dict[str, dict[str, float]] = {}
    models = (
        PlackettLuce,
        BradleyTerryFull,
        BradleyTerryPart,
        ThurstoneMostellerFull,
        ThurstoneMostellerPart,
    )
    for model_type in models:
        model: Any = model_type()  # five models, five rating types: one loop
        ratings: dict[int, Any] = {p: model.rating() for p in range(people)}
        hits = judged = 0
        cpu = time.process_time()
        for i, order in enumerate(tables):
            seated = sorted(order)
            if i >= parties // 2:
                judged += 1
                hits += max(seated, key=lambda p: ratings[p].mu) == order[0]
            rated = model.rate(
                [[ratings[p]] for p in seated], ranks=[float(order.index(p) + 1) for p in seated]
            )
            for p, (after,) in zip(seated, rated, strict=True):
                ratings[p] = after
        found[model_type.__name__] = {
            "winners_predicted": round(hits / judged, 4),
            "cpu_s": round(time.process_time() - cpu, 3),
        }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench_ratings")
    parser.add_argument("--parties", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=500)
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--models", action="store_true", help="compare the Weng–Lin models instead")
    args = parser.parse_args()
    if args.models:
        compared = compare_models(args.parties, args.people, args.seed)
        if args.json:
            print(json.dumps(compared))
            return
        for name, figures in compared.items():
            print(
                f"{name:24} winners predicted {figures['winners_predicted']:.1%}, {figures['cpu_s']:.2f} s CPU"
            )
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bot.sqlite3"
        asyncio.run(prepare(path))
        write_parties(path, args.parties, args.people, args.seed)
        wall, cpu = time.perf_counter(), time.process_time()
        done = asyncio.run(measure(path))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    figures = {
        "parties": done.parties,
        "ratings": done.people,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "rating_cpu_s": round(done.seconds, 3),
        "parties_per_s": round(done.parties / wall),
        "target_s": 10.0,
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{done.parties} parties rated ({done.people} ratings) in {wall:.2f} s wall, {cpu:.2f} s CPU "
        f"(the rating itself {done.seconds:.2f} s): {done.parties / wall:,.0f} parties/s; target < 10 s"
    )


if __name__ == "__main__":
    main()
