"""The operator's queries: the games running (``/admin``, the metrics, the «alive» line) and the live messages
of games long over, to forget (see :mod:`bot.operations.operator`). Reads take anything that reads
(:class:`~bot.storage.tx.Reader`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.storage.tx import Batch, Reader


async def games_running(db: Reader) -> dict[tuple[str, str], int]:
    """Active games (lobbies and parties being played) by (kind, status)."""
    rows = await db.all(
        "SELECT kind, status, count(*) AS n FROM games WHERE status IN ('lobby', 'playing') GROUP BY kind, status"
    )
    return {(str(row["kind"]), str(row["status"])): int(row["n"]) for row in rows}


IDS_AT_ONCE: Final = 500
"""Game ids asked about in one query (SQLite's limit on a statement's parameters is far above it)."""


async def finished_live_slots(
    db: Reader, before: float, firsts: str, game_of_slot: Callable[[str], int | None]
) -> list[str]:
    """Slots of live messages whose game ended (finished, cancelled, expired, abandoned) before ``before``
    (bot's clock) — of every such game, asked about :data:`IDS_AT_ONCE` ids at a time. A game's slots start with
    one of ``firsts``; ``game_of_slot`` reads the game of one (the outbox names them)."""
    letters = ",".join("?" * len(firsts))
    rows = await db.all(f"SELECT slot FROM live_messages WHERE substr(slot, 1, 1) IN ({letters})", (*firsts,))
    by_game: dict[int, list[str]] = {}
    for row in rows:
        game_id = game_of_slot(str(row["slot"]))
        if game_id is not None:
            by_game.setdefault(game_id, []).append(str(row["slot"]))
    ids = sorted(by_game)
    slots: list[str] = []
    for start in range(0, len(ids), IDS_AT_ONCE):
        chunk = ids[start : start + IDS_AT_ONCE]
        marks = ",".join("?" * len(chunk))
        ended = await db.all(
            f"SELECT id FROM games WHERE id IN ({marks}) AND status NOT IN ('lobby', 'playing') "
            "AND COALESCE(finished_at, created_at) < ?",
            (*chunk, before),
        )
        slots += [slot for row in ended for slot in by_game[int(row["id"])]]
    return slots


async def abandoned_games(db: Reader, before: float, limit: int = 1000) -> list[int]:
    """Games being played whose last move (or start, with none) was before ``before`` (bot's clock), oldest
    first: nobody has played them since."""
    rows = await db.all(
        "SELECT g.id AS id, COALESCE((SELECT max(m.at) FROM moves m WHERE m.game_id = g.id), g.created_at) AS last "
        "FROM games g WHERE g.status = 'playing' AND last < ? ORDER BY last LIMIT ?",
        (before, limit),
    )
    return [int(row["id"]) for row in rows]


async def live_slots_of_kinds(db: Reader, firsts: str) -> list[str]:
    """Slots of live messages whose name starts with one of ``firsts`` (the outbox names them)."""
    letters = ",".join("?" * len(firsts))
    rows = await db.all(f"SELECT slot FROM live_messages WHERE substr(slot, 1, 1) IN ({letters})", (*firsts,))
    return [str(row["slot"]) for row in rows]


def drop_live(batch: Batch, slots: Sequence[str]) -> None:
    for slot in slots:
        batch.add("DELETE FROM live_messages WHERE slot = ?", (slot,))
