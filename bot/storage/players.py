"""Queries of a person's record over time: the achievements they earned, how their parties against «мастер» ran,
and the finished parties a player's page is drawn from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from bot.model.game import GameMode
from bot.storage.tx import Batch, Reader

PARTIES_READ: Final = 1000
"""A page reads at most this many of a person's latest finished parties."""
MASTER: Final = "hard"
"""The stored level of «мастер» (``engine.ai.Level.HARD``)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """What a person held before a party's end, in its game: the achievements earned, and how many of their latest
    parties against «мастер» alone they won in a row."""

    held: frozenset[str] = frozenset()
    master_run: int = 0


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement a person earned: its game and code, the party that earned it, when (the bot's clock)."""

    kind: str
    code: str
    game_id: int
    at: float


@dataclass(frozen=True, slots=True)
class PartySeat:
    """A seat of a finished party: a person's (``user_id``; their current name) or a bot player's (``level``)."""

    user_id: int | None
    name: str
    level: str | None
    score: int
    won: bool


@dataclass(frozen=True, slots=True)
class PlayedParty:
    """A finished party a person sat in, with every seat's result."""

    game_id: int
    kind: str
    mode: GameMode
    finished_at: float
    seats: tuple[PartySeat, ...] = field(default=())


def add_achievements(
    batch: Batch, kind: str, game_id: int, earned: Sequence[tuple[int, str]], at: float
) -> None:
    """``earned``: (person, code) pairs won in party ``game_id`` of ``kind``; one already held stays as it was."""
    for user_id, code in earned:
        batch.add(
            "INSERT OR IGNORE INTO achievements (user_id, kind, code, game_id, at) VALUES (?, ?, ?, ?, ?)",
            (user_id, kind, code, game_id, at),
        )


async def standings(db: Reader, kind: str, user_ids: Sequence[int], run: int) -> dict[int, Standing]:
    """What each of ``user_ids`` held before: their achievements in ``kind`` and their run of wins against
    «мастер» in solo parties of it (counted up to ``run``; a solo party against «мастер» left unfinished after a
    move breaks it, as a loss does)."""
    found: dict[int, Standing] = {}
    for user_id in dict.fromkeys(user_ids):
        rows = await db.all("SELECT code FROM achievements WHERE user_id = ? AND kind = ?", (user_id, kind))
        results = await db.all(
            "SELECT s.won AS won FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.user_id = ? AND g.kind = ? AND g.mode = 'solo' "
            "AND (g.status = 'finished' OR (g.status = 'cancelled' AND g.version > 0)) "
            "AND NOT EXISTS (SELECT 1 FROM seats b WHERE b.game_id = g.id AND b.user_id IS NULL "
            "AND COALESCE(b.level, '') != ?) "
            "ORDER BY g.id DESC LIMIT ?",
            (user_id, kind, MASTER, run),
        )
        streak = 0
        for row in results:
            if not row["won"]:
                break
            streak += 1
        found[user_id] = Standing(frozenset(str(r["code"]) for r in rows), streak)
    return found


async def achievements_of(db: Reader, user_id: int) -> list[Earned]:
    """Every achievement ``user_id`` earned, the first earned first."""
    rows = await db.all(
        "SELECT kind, code, game_id, at FROM achievements WHERE user_id = ? ORDER BY at, game_id, code",
        (user_id,),
    )
    return [Earned(str(r["kind"]), str(r["code"]), int(r["game_id"]), float(r["at"])) for r in rows]


async def parties_of(db: Reader, user_id: int, limit: int = PARTIES_READ) -> list[PlayedParty]:
    """The latest ``limit`` finished parties ``user_id`` sat in, the oldest first, each with all its seats (a
    person under their current name)."""
    rows = await db.all(
        "SELECT g.id AS game_id, g.kind AS kind, g.mode AS mode, COALESCE(g.finished_at, g.created_at) AS at, "
        "s.user_id AS user_id, COALESCE(NULLIF(u.name, ''), s.name) AS name, s.level AS level, "
        "COALESCE(s.score, 0) AS score, COALESCE(s.won, 0) AS won "
        "FROM games g JOIN seats s ON s.game_id = g.id LEFT JOIN users u ON u.user_id = s.user_id "
        "WHERE g.id IN (SELECT g2.id FROM games g2 JOIN seats s2 ON s2.game_id = g2.id "
        "WHERE s2.user_id = ? AND g2.status = 'finished' ORDER BY g2.id DESC LIMIT ?) "
        "ORDER BY g.id, s.seat",
        (user_id, limit),
    )
    parties: list[PlayedParty] = []
    for row in rows:
        seat = PartySeat(row["user_id"], str(row["name"]), row["level"], int(row["score"]), bool(row["won"]))
        if not parties or parties[-1].game_id != row["game_id"]:
            parties.append(
                PlayedParty(int(row["game_id"]), str(row["kind"]), GameMode(row["mode"]), float(row["at"]))
            )
        last = parties[-1]
        parties[-1] = PlayedParty(last.game_id, last.kind, last.mode, last.finished_at, (*last.seats, seat))
    return parties
