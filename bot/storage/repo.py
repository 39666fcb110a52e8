"""Queries: small async functions over one transaction (:class:`bot.storage.db.Tx`).

The service composes them inside ``async with db.tx() as tx`` so that a move, the game's record and its
version, the seats and the notices it causes are written together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.storage.db import Tx
from bot.storage.models import (
    Actor,
    ChatRank,
    GameMode,
    GameRow,
    GameStatus,
    LiveMessage,
    Notice,
    SeatRow,
    UserRow,
    UserStats,
)
from engine.core import GameRecord, JSONValue


class StaleVersionError(Exception):
    """The game moved on: the version a move was drawn for is no longer the current one."""


# --- users -------------------------------------------------------------------------------------------------


async def upsert_user(
    tx: Tx, user_id: int, name: str, username: str | None, lang: str | None, *, started: bool = False
) -> None:
    """Remember a user's current name; ``started`` marks that they opened the private chat (and unblocks)."""
    await tx.execute(
        "INSERT INTO users (user_id, name, username, lang, started) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, username = excluded.username, "
        "lang = COALESCE(excluded.lang, users.lang), "
        "started = MAX(users.started, excluded.started), "
        "blocked = CASE WHEN excluded.started THEN 0 ELSE users.blocked END",
        (user_id, name, username, lang, int(started)),
    )


async def get_user(tx: Tx, user_id: int) -> UserRow | None:
    row = await tx.one("SELECT * FROM users WHERE user_id = ?", (user_id,))
    return UserRow.from_row(row) if row else None


async def set_blocked(tx: Tx, user_id: int, blocked: bool) -> None:
    await tx.execute("UPDATE users SET blocked = ? WHERE user_id = ?", (int(blocked), user_id))


# --- games -------------------------------------------------------------------------------------------------


async def insert_game(
    tx: Tx,
    *,
    kind: str,
    mode: GameMode,
    status: GameStatus,
    chat_id: int,
    thread_id: int,
    creator_id: int,
    options: dict[str, JSONValue],
    turn_timeout: int,
    lang: str,
    now: float,
    expires_at: float | None,
) -> int:
    return await tx.insert(
        "INSERT INTO games (kind, mode, status, chat_id, thread_id, creator_id, options, turn_timeout, lang, "
        "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            kind,
            mode.value,
            status.value,
            chat_id,
            thread_id,
            creator_id,
            json.dumps(options, sort_keys=True),
            turn_timeout,
            lang,
            now,
            expires_at,
        ),
    )


async def get_game(tx: Tx, game_id: int) -> GameRow | None:
    row = await tx.one("SELECT * FROM games WHERE id = ?", (game_id,))
    return GameRow.from_row(row) if row else None


async def active_game_in_chat(tx: Tx, chat_id: int, thread_id: int) -> GameRow | None:
    row = await tx.one(
        "SELECT * FROM games WHERE chat_id = ? AND thread_id = ? AND status IN ('lobby', 'playing')",
        (chat_id, thread_id),
    )
    return GameRow.from_row(row) if row else None


async def active_games_in(tx: Tx, chat_id: int) -> list[GameRow]:
    """The lobbies and running games of one chat, in every forum topic."""
    rows = await tx.all(
        "SELECT * FROM games WHERE chat_id = ? AND status IN ('lobby', 'playing') ORDER BY id", (chat_id,)
    )
    return [GameRow.from_row(row) for row in rows]


async def open_lobbies_of(tx: Tx, creator_id: int) -> int:
    """How many group lobbies this person opened and nobody started or closed yet."""
    row = await tx.one(
        "SELECT COUNT(*) AS n FROM games WHERE creator_id = ? AND status = 'lobby' AND mode = 'group'",
        (creator_id,),
    )
    return int(row["n"]) if row else 0


async def active_games(tx: Tx) -> list[GameRow]:
    rows = await tx.all("SELECT * FROM games WHERE status IN ('lobby', 'playing') ORDER BY id")
    return [GameRow.from_row(row) for row in rows]


async def games_of_user(tx: Tx, user_id: int, statuses: Sequence[GameStatus]) -> list[GameRow]:
    marks = ", ".join("?" for _ in statuses)
    rows = await tx.all(
        f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) "
        "ORDER BY g.id",
        (user_id, *(s.value for s in statuses)),
    )
    return [GameRow.from_row(row) for row in rows]


async def set_options(tx: Tx, game_id: int, options: dict[str, JSONValue], turn_timeout: int) -> None:
    await tx.execute(
        "UPDATE games SET options = ?, turn_timeout = ? WHERE id = ?",
        (json.dumps(options, sort_keys=True), turn_timeout, game_id),
    )


async def set_status(tx: Tx, game_id: int, status: GameStatus, now: float | None = None) -> None:
    finished = now if not status.is_active else None
    await tx.execute(
        "UPDATE games SET status = ?, finished_at = ?, deadline = NULL WHERE id = ?",
        (status.value, finished, game_id),
    )


async def start_game(tx: Tx, game_id: int, record: GameRecord) -> None:
    changed = await tx.execute(
        "UPDATE games SET status = 'playing', record = ?, version = 0, expires_at = NULL "
        "WHERE id = ? AND status = 'lobby'",
        (record.to_json(), game_id),
    )
    if changed != 1:
        raise StaleVersionError(f"game {game_id} is not a lobby any more")


async def record_move(
    tx: Tx, game_id: int, version: int, record: GameRecord, action: str, seat: int, actor: Actor, now: float
) -> None:
    """Append one move: the games row moves from ``version`` to ``version + 1`` and the moves row is added.

    Raises :class:`StaleVersionError` if the game is no longer at ``version`` (the UNIQUE key of ``moves``
    backs this up: a move can't be stored twice for one version).
    """
    changed = await tx.execute(
        "UPDATE games SET record = ?, version = version + 1 WHERE id = ? AND version = ? AND status = 'playing'",
        (record.to_json(), game_id, version),
    )
    if changed != 1:
        raise StaleVersionError(f"game {game_id} is not at version {version}")
    await tx.execute(
        "INSERT INTO moves (game_id, version, action, seat, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, version, action, seat, actor.value, now),
    )


async def moves_of(tx: Tx, game_id: int) -> list[tuple[int, str, int, Actor]]:
    rows = await tx.all(
        "SELECT version, action, seat, actor FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
    )
    return [(row["version"], row["action"], row["seat"], Actor(row["actor"])) for row in rows]


async def set_deadline(tx: Tx, game_id: int, deadline: float | None) -> None:
    await tx.execute("UPDATE games SET deadline = ?, reminded = 0 WHERE id = ?", (deadline, game_id))


async def set_reminded(tx: Tx, game_id: int) -> None:
    await tx.execute("UPDATE games SET reminded = 1 WHERE id = ?", (game_id,))


# --- seats -------------------------------------------------------------------------------------------------


async def seats_of(tx: Tx, game_id: int) -> list[SeatRow]:
    rows = await tx.all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
    return [SeatRow.from_row(row) for row in rows]


async def add_seat(tx: Tx, game_id: int, user_id: int | None, name: str, level: str | None) -> int:
    row = await tx.one("SELECT COALESCE(MAX(seat) + 1, 0) AS next FROM seats WHERE game_id = ?", (game_id,))
    seat = int(row["next"]) if row else 0
    await tx.execute(
        "INSERT INTO seats (game_id, seat, user_id, name, level) VALUES (?, ?, ?, ?, ?)",
        (game_id, seat, user_id, name, level),
    )
    return seat


async def remove_seat(tx: Tx, game_id: int, seat: int) -> None:
    """Remove a lobby seat and close the gap so seats stay numbered 0..n-1."""
    await tx.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
    rows = await tx.all(
        "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat)
    )
    for row in rows:
        await tx.execute(
            "UPDATE seats SET seat = seat - 1 WHERE game_id = ? AND seat = ?", (game_id, row["seat"])
        )


async def rename_seat(tx: Tx, game_id: int, user_id: int, name: str) -> None:
    await tx.execute("UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ?", (name, game_id, user_id))


async def set_seat_afk(tx: Tx, game_id: int, seat: int, misses: int, replaced: bool) -> None:
    await tx.execute(
        "UPDATE seats SET misses = ?, replaced = ? WHERE game_id = ? AND seat = ?",
        (misses, int(replaced), game_id, seat),
    )


async def set_results(
    tx: Tx, game_id: int, scores: Sequence[int], winners: Sequence[int], settlement: Sequence[int]
) -> None:
    for seat, score in enumerate(scores):
        await tx.execute(
            "UPDATE seats SET score = ?, won = ?, settlement = ? WHERE game_id = ? AND seat = ?",
            (score, int(seat in winners), settlement[seat], game_id, seat),
        )


async def user_stats(tx: Tx, user_id: int) -> UserStats:
    row = await tx.one(
        "SELECT COUNT(*) AS games, COALESCE(SUM(s.won), 0) AS wins, COALESCE(SUM(s.score), 0) AS points, "
        "COALESCE(SUM(s.settlement), 0) AS settlement FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE s.user_id = ? AND g.status = 'finished'",
        (user_id,),
    )
    if row is None:
        return UserStats(0, 0, 0, 0)
    return UserStats(int(row["games"]), int(row["wins"]), int(row["points"]), int(row["settlement"]))


async def chat_top(tx: Tx, chat_id: int, limit: int = 10) -> list[ChatRank]:
    """The chat's people by wins, then points, over the parties finished there (group games only)."""
    rows = await tx.all(
        "SELECT s.user_id AS user_id, u.name AS name, COUNT(*) AS games, COALESCE(SUM(s.won), 0) AS wins, "
        "COALESCE(SUM(s.score), 0) AS points FROM seats s JOIN games g ON g.id = s.game_id "
        "JOIN users u ON u.user_id = s.user_id "
        "WHERE g.chat_id = ? AND g.status = 'finished' AND s.user_id IS NOT NULL "
        "GROUP BY s.user_id ORDER BY wins DESC, points DESC, games ASC, s.user_id ASC LIMIT ?",
        (chat_id, limit),
    )
    return [
        ChatRank(int(r["user_id"]), str(r["name"]), int(r["games"]), int(r["wins"]), int(r["points"]))
        for r in rows
    ]


# --- updates -----------------------------------------------------------------------------------------------


async def is_processed(tx: Tx, update_id: int) -> bool:
    return await tx.one("SELECT 1 FROM processed_updates WHERE update_id = ?", (update_id,)) is not None


async def mark_processed(tx: Tx, update_id: int, now: float) -> bool:
    """Mark an update processed; False if it already was."""
    changed = await tx.execute(
        "INSERT OR IGNORE INTO processed_updates (update_id, at) VALUES (?, ?)", (update_id, now)
    )
    return changed == 1


async def forget_updates_before(tx: Tx, when: float) -> None:
    await tx.execute("DELETE FROM processed_updates WHERE at < ?", (when,))


# --- messages ----------------------------------------------------------------------------------------------


async def get_live(tx: Tx, slot: str) -> LiveMessage | None:
    row = await tx.one("SELECT * FROM live_messages WHERE slot = ?", (slot,))
    if row is None:
        return None
    return LiveMessage(row["slot"], row["chat_id"], row["message_id"], row["digest"])


async def put_live(tx: Tx, message: LiveMessage) -> None:
    await tx.execute(
        "INSERT INTO live_messages (slot, chat_id, message_id, digest) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (slot) DO UPDATE SET chat_id = excluded.chat_id, message_id = excluded.message_id, "
        "digest = excluded.digest",
        (message.slot, message.chat_id, message.message_id, message.digest),
    )


async def live_with_prefix(tx: Tx, prefix: str) -> list[LiveMessage]:
    """The live messages whose slot starts with ``prefix`` (slots are ASCII letters, digits and colons)."""
    rows = await tx.all("SELECT * FROM live_messages WHERE substr(slot, 1, ?) = ?", (len(prefix), prefix))
    return [LiveMessage(r["slot"], r["chat_id"], r["message_id"], r["digest"]) for r in rows]


async def drop_live(tx: Tx, slot: str) -> None:
    await tx.execute("DELETE FROM live_messages WHERE slot = ?", (slot,))


async def add_notice(tx: Tx, chat_id: int, thread_id: int, text: str, markup: str | None, now: float) -> int:
    return await tx.insert(
        "INSERT INTO outbox (chat_id, thread_id, text, markup, created_at) VALUES (?, ?, ?, ?, ?)",
        (chat_id, thread_id, text, markup, now),
    )


async def pending_notices(tx: Tx) -> list[Notice]:
    rows = await tx.all("SELECT * FROM outbox ORDER BY id")
    return [Notice(row["id"], row["chat_id"], row["thread_id"], row["text"], row["markup"]) for row in rows]


async def drop_notice(tx: Tx, notice_id: int) -> None:
    await tx.execute("DELETE FROM outbox WHERE id = ?", (notice_id,))


async def put_rate_stamps(tx: Tx, stamps: Sequence[tuple[int, float]]) -> None:
    """Replace the recorded calls to group chats (chat id, time on the bot's clock) with ``stamps``."""
    await tx.execute("DELETE FROM rate_stamps")
    for chat_id, stamp in stamps:
        await tx.execute("INSERT INTO rate_stamps (chat_id, stamp) VALUES (?, ?)", (chat_id, stamp))


async def take_rate_stamps(tx: Tx) -> list[tuple[int, float]]:
    """The recorded calls to group chats, oldest first; the record is emptied."""
    rows = await tx.all("SELECT chat_id, stamp FROM rate_stamps ORDER BY stamp")
    await tx.execute("DELETE FROM rate_stamps")
    return [(int(row["chat_id"]), float(row["stamp"])) for row in rows]


async def drop_notices_for_chat(tx: Tx, chat_id: int) -> None:
    await tx.execute("DELETE FROM outbox WHERE chat_id = ?", (chat_id,))


# --- a group upgraded to a supergroup --------------------------------------------------------------------------


async def move_chat(tx: Tx, old: int, new: int) -> None:
    """Every game of chat ``old`` now belongs to chat ``new`` (finished ones too, so /top goes on)."""
    await tx.execute("UPDATE games SET chat_id = ? WHERE chat_id = ?", (new, old))


async def move_notices(tx: Tx, old: int, new: int) -> None:
    await tx.execute("UPDATE outbox SET chat_id = ? WHERE chat_id = ?", (new, old))


async def forget_live_in_chat(tx: Tx, chat_id: int) -> None:
    await tx.execute("DELETE FROM live_messages WHERE chat_id = ?", (chat_id,))
