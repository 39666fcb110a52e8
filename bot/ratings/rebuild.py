"""Every skill rating computed again from the stored games: ``python -m bot.ratings.rebuild <database>``.

The parties are rated in the order they ended (then by id) — the finished ones, and those cancelled by one of
their players while they were played (``games.cancelled_by``: their loss) —, each from its seats as stored — the same function
(:func:`bot.ratings.skill.rate`) on the same numbers as at each party's end, so the rebuild gives the same
ratings, and the same changes per party (a person's history, every season's standings). Run it with the bot
stopped (or on a copy): it replaces the tables ``ratings`` and ``rating_changes`` in one transaction. The global
board's opt-ins and the seasons already told stay as they are.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.ratings import seasons, skill
from bot.storage import Batch, Database, standings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Rebuilt:
    parties: int
    """Finished parties rated."""
    people: int
    """Ratings (a person at a game) written."""
    seconds: float
    """CPU seconds of the rating itself (reading and writing aside)."""


def rate_all(seats: Sequence[standings.FinishedSeat], batch: Batch) -> tuple[int, int, float]:
    """Rate the parties of ``seats`` (in their order) into ``batch``: parties rated, ratings, CPU seconds."""
    current: dict[tuple[int, str], skill.Skill] = {}
    parties = 0
    spent = 0.0
    for _, grouped in itertools.groupby(seats, key=lambda s: s.game_id):
        table = list(grouped)
        first = table[0]
        started = time.process_time()
        priors = {
            s.user_id: current[(s.user_id, first.kind)]
            for s in table
            if s.user_id is not None and (s.user_id, first.kind) in current
        }
        rated = skill.rate(table, priors, cancelled_by=first.cancelled_by)
        spent += time.process_time() - started
        if not rated:
            continue
        parties += 1
        for r in rated:
            current[(r.user_id, first.kind)] = r.after
        rows = [
            standings.RatedRow(r.user_id, r.place, r.before.mu, r.before.sigma, r.after.mu, r.after.sigma)
            for r in rated
        ]
        at = first.finished_at
        standings.save_rated(batch, first.game_id, first.kind, first.chat_id, seasons.season_of(at), at, rows)
    return parties, len(current), spent


async def rebuild(db: Database) -> Rebuilt:
    """Replace every rating and change with those computed from the finished games (one transaction)."""
    seats = await standings.finished_seats(db)
    batch = Batch()
    standings.forget_ratings(batch)
    parties, people, seconds = rate_all(seats, batch)
    await db.write(batch, patience=max(db.busy_timeout, 60.0))
    log.info("ratings rebuilt: %d parties rated, %d ratings, %.2f CPU s of rating", parties, people, seconds)
    return Rebuilt(parties, people, seconds)


async def _main(path: Path) -> Rebuilt:
    db = await Database.open(path)
    try:
        return await rebuild(db)
    finally:
        await db.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ratings.rebuild",
        description="Compute every skill rating again from the finished games (stop the bot first).",
    )
    parser.add_argument("database", type=Path, help="the bot's SQLite file (DATABASE_PATH)")
    args = parser.parse_args(argv)
    if not args.database.is_file():
        print(f"no database at {args.database}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    done = asyncio.run(_main(args.database))
    print(
        f"{done.parties} parties rated, {done.people} ratings written in {time.perf_counter() - started:.2f} s "
        f"({done.seconds:.2f} CPU s of rating)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
