"""Queries of the skill ratings (``bot.ratings``): each person's rating per game, each rated party's change of it,
the leaderboards and seasons read from them, the groups told of a season's end, and the global board's opt-in.

Ratings are written with the party's end, in its one transaction (:func:`save_rated`); everything here but the
opt-in and the seasons told is recomputed from the finished games (:func:`finished_seats`, :func:`forget_ratings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.tx import Batch, Reader


@dataclass(frozen=True, slots=True)
class StoredSkill:
    """A person's rating of one game: the model's ``mu`` and ``sigma``, and the parties rated."""

    mu: float
    sigma: float
    parties: int


@dataclass(frozen=True, slots=True)
class RatedRow:
    """One person's change at a rated party: place, rating before and after."""

    user_id: int
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One line of a leaderboard: a person's rating of the game, and their parties and wins (first places)
    counted on that board (the chat's, or everywhere)."""

    user_id: int
    name: str
    mu: float
    sigma: float
    parties: int
    wins: int


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """One line of a season's standings: the rating gained (``gained_mu``, the model's units) over the season's
    parties counted (the chat's, or everywhere), and how many were first places."""

    user_id: int
    name: str
    gained_mu: float
    parties: int
    wins: int


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """A seat of a finished party as the rebuild reads it (in the order the parties finished)."""

    game_id: int
    kind: str
    chat_id: int
    finished_at: float
    seat: int
    user_id: int | None
    level: str | None
    replaced: bool
    score: int | None
    won: bool | None
    cancelled_by: int | None = None
    """The player who cancelled the party while it was played (None: it finished)."""


# --- ratings ---------------------------------------------------------------------------------------------------


async def skills_of(db: Reader, kind: str, user_ids: Sequence[int]) -> dict[int, StoredSkill]:
    """The people's ratings of game ``kind`` (a person never rated: absent)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    rows = await db.all(
        f"SELECT user_id, mu, sigma, parties FROM ratings WHERE kind = ? AND user_id IN ({marks})",
        (kind, *user_ids),
    )
    return {int(r["user_id"]): StoredSkill(r["mu"], r["sigma"], int(r["parties"])) for r in rows}


def save_rated(
    batch: Batch, game_id: int, kind: str, chat_id: int, season: str, at: float, rated: Sequence[RatedRow]
) -> None:
    """A rated party: each person's new rating, and the change kept as the party's (its chat and season)."""
    for row in rated:
        batch.add(
            "INSERT INTO ratings (user_id, kind, mu, sigma, parties) VALUES (?, ?, ?, ?, 1) "
            "ON CONFLICT (user_id, kind) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "parties = ratings.parties + 1",
            (row.user_id, kind, row.mu, row.sigma),
        )
        batch.add(
            "INSERT INTO rating_changes (game_id, user_id, kind, chat_id, season, place, mu_before, "
            "sigma_before, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                row.user_id,
                kind,
                chat_id,
                season,
                row.place,
                row.mu_before,
                row.sigma_before,
                row.mu,
                row.sigma,
                at,
            ),
        )


def mark_cancelled_by(batch: Batch, game_id: int, user_id: int) -> None:
    """Game ``game_id`` was cancelled, while it was played, by its player ``user_id`` (rated as their loss)."""
    batch.add("UPDATE games SET cancelled_by = ? WHERE id = ?", (user_id, game_id), changes=1)


async def ratings(db: Reader) -> dict[tuple[int, str], StoredSkill]:
    """Every stored rating, by person and game (the rebuild's check, the tests)."""
    rows = await db.all("SELECT user_id, kind, mu, sigma, parties FROM ratings")
    return {
        (int(r["user_id"]), str(r["kind"])): StoredSkill(r["mu"], r["sigma"], int(r["parties"])) for r in rows
    }


async def rank_of(db: Reader, kind: str, mu: float, settled_below: float) -> tuple[int, int]:
    """Where a settled rating ``mu`` of game ``kind`` stands among everyone's settled ones (sigma under
    ``settled_below``): its place (1 the best) and how many there are. Names nobody, so a player's page may say
    it whoever opted in to the global board."""
    row = await db.one(
        "SELECT COALESCE(SUM(mu > ?), 0) AS above, COUNT(*) AS settled FROM ratings "
        "WHERE kind = ? AND sigma < ?",
        (mu, kind, settled_below),
    )
    assert row is not None
    return int(row["above"]) + 1, int(row["settled"])


# --- leaderboards and seasons ------------------------------------------------------------------------------------


def _board(rows: Sequence[object]) -> list[BoardLine]:
    return [
        BoardLine(int(r["user_id"]), str(r["name"]), r["mu"], r["sigma"], int(r["parties"]), int(r["wins"]))  # type: ignore[index]
        for r in rows
    ]


async def chat_board(
    db: Reader, chat_id: int, kind: str, settled_below: float, limit: int
) -> list[BoardLine]:
    """The people who played game ``kind`` in chat ``chat_id``, by rating (settled ratings first: sigma under
    ``settled_below``), with their parties and wins there."""
    rows = await db.all(
        "SELECT c.user_id AS user_id, u.name AS name, r.mu AS mu, r.sigma AS sigma, COUNT(*) AS parties, "
        "SUM(c.place = 1) AS wins FROM rating_changes c JOIN ratings r ON r.user_id = c.user_id AND r.kind = c.kind "
        "JOIN users u ON u.user_id = c.user_id WHERE c.chat_id = ? AND c.kind = ? GROUP BY c.user_id "
        "ORDER BY r.sigma >= ?, r.mu DESC, c.user_id LIMIT ?",
        (chat_id, kind, settled_below, limit),
    )
    return _board(rows)


async def global_board(db: Reader, kind: str, settled_below: float, limit: int) -> list[BoardLine]:
    """Everyone rated at game ``kind`` who opted in to the global board (/privacy), by rating."""
    rows = await db.all(
        "SELECT r.user_id AS user_id, u.name AS name, r.mu AS mu, r.sigma AS sigma, r.parties AS parties, "
        "(SELECT COUNT(*) FROM rating_changes c WHERE c.user_id = r.user_id AND c.kind = r.kind AND c.place = 1) "
        "AS wins FROM ratings r JOIN board_opt_in o ON o.user_id = r.user_id "
        "JOIN users u ON u.user_id = r.user_id WHERE r.kind = ? "
        "ORDER BY r.sigma >= ?, r.mu DESC, r.user_id LIMIT ?",
        (kind, settled_below, limit),
    )
    return _board(rows)


async def season_board(
    db: Reader, season: str, chat_id: int | None, kind: str, limit: int
) -> list[SeasonLine]:
    """Season ``season``'s standings of game ``kind``: the people by rating gained in its parties (in chat
    ``chat_id``; None: everywhere, only people who opted in to the global board)."""
    where = "c.chat_id = ?" if chat_id is not None else "c.user_id IN (SELECT user_id FROM board_opt_in)"
    params: tuple[object, ...] = (season, kind, *((chat_id,) if chat_id is not None else ()), limit)
    rows = await db.all(
        "SELECT c.user_id AS user_id, u.name AS name, SUM(c.mu - c.mu_before) AS gained, COUNT(*) AS parties, "
        "SUM(c.place = 1) AS wins FROM rating_changes c JOIN users u ON u.user_id = c.user_id "
        f"WHERE c.season = ? AND c.kind = ? AND {where} GROUP BY c.user_id "
        "ORDER BY gained DESC, parties DESC, c.user_id LIMIT ?",
        params,
    )
    return [
        SeasonLine(int(r["user_id"]), str(r["name"]), float(r["gained"]), int(r["parties"]), int(r["wins"]))
        for r in rows
    ]


async def season_untold(db: Reader, season: str) -> list[int]:
    """The groups that played rated parties in season ``season`` and were not told of its end yet."""
    rows = await db.all(
        "SELECT DISTINCT c.chat_id AS chat_id FROM rating_changes c JOIN games g ON g.id = c.game_id "
        "WHERE c.season = ? AND g.mode = 'group' AND NOT EXISTS "
        "(SELECT 1 FROM seasons_told t WHERE t.season = c.season AND t.chat_id = c.chat_id) ORDER BY c.chat_id",
        (season,),
    )
    return [int(r["chat_id"]) for r in rows]


async def season_kinds(db: Reader, season: str, chat_id: int) -> list[str]:
    """The games rated in chat ``chat_id`` in season ``season``."""
    rows = await db.all(
        "SELECT DISTINCT kind FROM rating_changes WHERE season = ? AND chat_id = ? ORDER BY kind",
        (season, chat_id),
    )
    return [str(r["kind"]) for r in rows]


def mark_told(batch: Batch, season: str, chat_id: int, at: float) -> None:
    """Group ``chat_id`` was told of season ``season``'s end (it is never told again)."""
    batch.add(
        "INSERT OR IGNORE INTO seasons_told (season, chat_id, at) VALUES (?, ?, ?)", (season, chat_id, at)
    )


# --- the global board's opt-in -----------------------------------------------------------------------------------


async def is_on_board(db: Reader, user_id: int) -> bool:
    return await db.one("SELECT 1 FROM board_opt_in WHERE user_id = ?", (user_id,)) is not None


def set_on_board(batch: Batch, user_id: int, on: bool, at: float) -> None:
    """The person opts in to the global board (``on``), or out."""
    if on:
        batch.add("INSERT OR IGNORE INTO board_opt_in (user_id, at) VALUES (?, ?)", (user_id, at))
    else:
        batch.add("DELETE FROM board_opt_in WHERE user_id = ?", (user_id,))


# --- the rebuild -----------------------------------------------------------------------------------------------


async def finished_seats(db: Reader) -> list[FinishedSeat]:
    """Every seat of every party rated: finished, or cancelled by one of its players while it was played; the
    parties in the order they ended (then by id), seats in order."""
    rows = await db.all(
        "SELECT g.id AS game_id, g.kind AS kind, g.chat_id AS chat_id, g.finished_at AS finished_at, s.seat AS seat, "
        "s.user_id AS user_id, s.level AS level, s.replaced AS replaced, s.score AS score, s.won AS won, "
        "g.cancelled_by AS cancelled_by FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE g.status = 'finished' OR (g.status = 'cancelled' AND g.cancelled_by IS NOT NULL) "
        "ORDER BY g.finished_at, g.id, s.seat"
    )
    return [
        FinishedSeat(
            int(r["game_id"]),
            str(r["kind"]),
            int(r["chat_id"]),
            float(r["finished_at"] or 0.0),
            int(r["seat"]),
            r["user_id"],
            r["level"],
            bool(r["replaced"]),
            r["score"],
            None if r["won"] is None else bool(r["won"]),
            r["cancelled_by"],
        )
        for r in rows
    ]


def forget_ratings(batch: Batch) -> None:
    """Every rating and change, before a rebuild writes them anew."""
    batch.add("DELETE FROM ratings")
    batch.add("DELETE FROM rating_changes")
