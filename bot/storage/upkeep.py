"""The operator's queries: the games running (``/admin``, the metrics, the «alive» line) and the live messages
of games long over, to forget (see :mod:`bot.operations.operator`). Reads take anything that reads
(:class:`~bot.storage.repo.Reader`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from bot.storage.batch import Batch
from bot.storage.repo import Reader


async def games_running(db: Reader) -> dict[tuple[str, str], int]:
    """Active games (lobbies and parties being played) by (kind, status)."""
    rows = await db.all(
        "SELECT kind, status, count(*) AS n FROM games WHERE status IN ('lobby', 'playing') GROUP BY kind, status"
    )
    return {(str(row["kind"]), str(row["status"])): int(row["n"]) for row in rows}


LIVE_GAME_SLOT: Final = re.compile(r"^[a-z](\d+)(?::|$)")
"""A live message's slot that names a game: ``g12``, ``h12:345``, ``v12:345``, ``m12:345:7`` (not ``r``/``p``
slots, which name a chat and a message)."""


async def finished_live_slots(db: Reader, before: float, limit: int = 500) -> list[str]:
    """Slots of live messages whose game ended (finished or cancelled) before ``before`` (bot's clock)."""
    rows = await db.all("SELECT slot FROM live_messages WHERE slot NOT GLOB '[rp]*'")
    by_game: dict[int, list[str]] = {}
    for row in rows:
        found = LIVE_GAME_SLOT.match(str(row["slot"]))
        if found:
            by_game.setdefault(int(found.group(1)), []).append(str(row["slot"]))
    if not by_game:
        return []
    ids = sorted(by_game)[:limit]
    marks = ",".join("?" * len(ids))
    ended = await db.all(
        f"SELECT id FROM games WHERE id IN ({marks}) AND status NOT IN ('lobby', 'playing') "
        "AND COALESCE(finished_at, created_at) < ?",
        (*ids, before),
    )
    return [slot for row in ended for slot in by_game[int(row["id"])]]


def drop_live(batch: Batch, slots: Sequence[str]) -> None:
    for slot in slots:
        batch.add("DELETE FROM live_messages WHERE slot = ?", (slot,))
