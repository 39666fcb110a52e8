"""Queries: the only SQL of the bot.

Reads take anything that reads (:class:`Reader`: the database itself, or an open :class:`~bot.storage.tx.Tx`).
Writes add rows to a :class:`~bot.storage.tx.Batch`, which one transaction stores with the rest of a change: a
move, the game's record and version, its seats and the notices it causes are written together or not at all.
The outbox's own rows are at the end; the operator's few queries are in :mod:`bot.storage.upkeep`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.model.game import Actor, Game, GameMode, GameStatus, Move, Person, Seat, User
from bot.storage.models import ChatRank, GameRow, LiveMessage, Notice, UserStats
from bot.storage.tx import Batch, Reader, Row, Tx
from engine.core import GameRecord, JSONValue

ACTIVE = "status IN ('lobby', 'playing')"


# --- users -------------------------------------------------------------------------------------------------


def upsert_user(batch: Batch, person: Person, *, started: bool = False) -> None:
    """Remember a person's current name; ``started`` marks that they opened the private chat (and unblocks).
    :meth:`User.seen_as` is the same rule in memory."""
    batch.add(
        "INSERT INTO users (user_id, name, username, lang, started) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, username = excluded.username, "
        "lang = COALESCE(excluded.lang, users.lang), "
        "started = MAX(users.started, excluded.started), "
        "blocked = CASE WHEN excluded.started THEN 0 ELSE users.blocked END",
        (person.user_id, person.name, person.username, person.lang, int(started)),
    )


def set_blocked(batch: Batch, user_id: int) -> None:
    """The bot may not write to this user (a row is made for one it never saw)."""
    batch.add(
        "INSERT INTO users (user_id, name, blocked) VALUES (?, '', 1) "
        "ON CONFLICT (user_id) DO UPDATE SET blocked = 1",
        (user_id,),
    )


def _user(row: Row) -> User:
    return User(
        row["user_id"], row["name"], row["username"], row["lang"], bool(row["started"]), bool(row["blocked"])
    )


async def get_user(db: Reader, user_id: int) -> User | None:
    row = await db.one("SELECT * FROM users WHERE user_id = ?", (user_id,))
    return _user(row) if row else None


async def users_by_id(db: Reader, user_ids: Sequence[int]) -> dict[int, User]:
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.all(f"SELECT * FROM users WHERE user_id IN ({marks})", tuple(user_ids))
    return {row["user_id"]: _user(row) for row in rows}


# --- games -------------------------------------------------------------------------------------------------


def _record(game: Game) -> str | None:
    """A game's stored record: the party's start (game, options, seed); its moves are the ``moves`` rows."""
    if game.party is None:
        return None
    record = game.party.record()
    return GameRecord(record.game, record.options, record.seed).to_json()


def insert_game(batch: Batch, game: Game) -> None:
    """A new game (a lobby, or a party dealt already), with its seats; its id was given beforehand
    (:meth:`bot.storage.db.Database.next_game_id`)."""
    batch.add(
        "INSERT INTO games (id, kind, mode, status, chat_id, thread_id, creator_id, options, turn_timeout, lang, "
        "created_at, expires_at, deadline, record, version, screens) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.id,
            game.kind,
            game.mode.value,
            game.status.value,
            game.chat_id,
            game.thread_id,
            game.creator_id,
            json.dumps(game.options, sort_keys=True),
            game.turn_timeout,
            game.lang,
            game.created_at,
            game.expires_at,
            game.deadline,
            _record(game),
            game.version,
            game.screens.to_json(),
        ),
    )
    insert_seats(batch, game.id, game.seats)


def save_game(batch: Batch, game: Game, was: int, *, dealt: bool = False) -> None:
    """Write the game's changeable fields (``dealt``: its record too, the party just dealt); the row must still be
    at version ``was`` (a move decided for an older version, or a second writer, fails the whole transaction)."""
    fields = (
        "status = ?, options = ?, turn_timeout = ?, version = ?, expires_at = ?, deadline = ?, reminded = ?, "
    )
    fields += "finished_at = ?, screens = ?, chat_id = ?"
    values: tuple[object, ...] = (
        game.status.value,
        json.dumps(game.options, sort_keys=True),
        game.turn_timeout,
        game.version,
        game.expires_at,
        game.deadline,
        int(game.reminded),
        game.finished_at,
        game.screens.to_json(),
        game.chat_id,
    )
    if dealt:
        fields += ", record = ?"
        values += (_record(game),)
    batch.add(f"UPDATE games SET {fields} WHERE id = ? AND version = ?", (*values, game.id, was), changes=1)


def save_screens(batch: Batch, game_id: int, shown: tuple[int, str | None]) -> None:
    """What a game's messages show (``shown``: the party's version then, and the screens' JSON), stored only while the
    game is still at that version (a later change stored its own)."""
    version, screens = shown
    batch.add("UPDATE games SET screens = ? WHERE id = ? AND version = ?", (screens, game_id, version))


async def get_game(db: Reader, game_id: int) -> GameRow | None:
    row = await db.one("SELECT * FROM games WHERE id = ?", (game_id,))
    return GameRow.from_row(row) if row else None


async def active_game_in_chat(db: Reader, chat_id: int, thread_id: int) -> GameRow | None:
    row = await db.one(
        f"SELECT * FROM games WHERE chat_id = ? AND thread_id = ? AND {ACTIVE}", (chat_id, thread_id)
    )
    return GameRow.from_row(row) if row else None


async def last_finished(
    db: Reader, *, chat: tuple[int, int] | None = None, user_id: int = 0
) -> GameRow | None:
    """The party that finished last in a chat's topic (``chat``: its id and thread), or of those ``user_id`` played."""
    where = "chat_id = ? AND thread_id = ?" if chat else "id IN (SELECT game_id FROM seats WHERE user_id = ?)"
    sql = f"SELECT * FROM games WHERE {where} AND status = 'finished' ORDER BY id DESC LIMIT 1"
    row = await db.one(sql, chat or (user_id,))
    return GameRow.from_row(row) if row else None


async def active_games_in(db: Reader, chat_id: int) -> list[GameRow]:
    """The lobbies and running games of one chat, in every forum topic."""
    rows = await db.all(f"SELECT * FROM games WHERE chat_id = ? AND {ACTIVE} ORDER BY id", (chat_id,))
    return [GameRow.from_row(row) for row in rows]


async def open_lobbies_of(db: Reader, creator_id: int) -> int:
    """How many group lobbies this person opened and nobody started or closed yet."""
    row = await db.one(
        "SELECT COUNT(*) AS n FROM games WHERE creator_id = ? AND status = 'lobby' AND mode = 'group'",
        (creator_id,),
    )
    return int(row["n"]) if row else 0


async def active_games(db: Reader) -> list[GameRow]:
    rows = await db.all(f"SELECT * FROM games WHERE {ACTIVE} ORDER BY id")
    return [GameRow.from_row(row) for row in rows]


async def games_of_user(db: Reader, user_id: int, statuses: Sequence[GameStatus]) -> list[GameRow]:
    marks = ", ".join("?" for _ in statuses)
    rows = await db.all(
        f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) "
        "ORDER BY g.id",
        (user_id, *(s.value for s in statuses)),
    )
    return [GameRow.from_row(row) for row in rows]


def set_deadlines(batch: Batch, deadlines: Sequence[tuple[int, float | None]]) -> None:
    """New AFK deadlines (game id, deadline) of games no one holds in memory (after a restart)."""
    for game_id, deadline in deadlines:
        batch.add("UPDATE games SET deadline = ?, reminded = 0 WHERE id = ?", (deadline, game_id))


def set_expiries(batch: Batch, expiries: Sequence[tuple[int, float]]) -> None:
    """New expiry times (game id, time) of lobbies no one holds in memory (after a restart)."""
    for game_id, expires_at in expiries:
        batch.add("UPDATE games SET expires_at = ? WHERE id = ?", (expires_at, game_id))


def add_move(batch: Batch, game_id: int, version: int, move: Move) -> None:
    """The move that took the game from ``version`` to ``version + 1`` (the table's key refuses a second one)."""
    batch.add(
        "INSERT INTO moves (game_id, version, action, seat, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, version, move.code, move.seat, move.actor.value, move.at),
    )


async def moves_of(db: Reader, game_id: int) -> list[Move]:
    """The game's moves, in order (the party is its record's start and these)."""
    rows = await db.all(
        "SELECT action, seat, actor, at FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
    )
    return [Move(row["action"], row["seat"], Actor(row["actor"]), row["at"]) for row in rows]


async def record_of(db: Reader, game_id: int) -> GameRecord | None:
    """A game's whole record — its party's start and every move — as the engine replays it (None: no party)."""
    row = await get_game(db, game_id)
    if row is None or row.record is None:
        return None
    moves = await moves_of(db, game_id)
    return GameRecord(row.record.game, row.record.options, row.record.seed, tuple(m.code for m in moves))


# --- seats -------------------------------------------------------------------------------------------------


def _seat(row: Row) -> Seat:
    return Seat(
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        level=row["level"],
        misses=row["misses"],
        replaced=bool(row["replaced"]),
        score=row["score"],
        won=None if row["won"] is None else bool(row["won"]),
        settlement=row["settlement"],
    )


async def seats_of(db: Reader, game_id: int) -> list[Seat]:
    rows = await db.all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
    return [_seat(row) for row in rows]


def replace_seats(batch: Batch, game_id: int, seats: Sequence[Seat]) -> None:
    """The game's seats are exactly ``seats`` (numbered 0..n-1): a lobby's seats taken, left or filled."""
    batch.add("DELETE FROM seats WHERE game_id = ?", (game_id,))
    insert_seats(batch, game_id, seats)


def insert_seats(batch: Batch, game_id: int, seats: Sequence[Seat]) -> None:
    for seat in seats:
        batch.add(
            "INSERT INTO seats (game_id, seat, user_id, name, level, misses, replaced, score, won, settlement) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                seat.seat,
                seat.user_id,
                seat.name,
                seat.level,
                seat.misses,
                int(seat.replaced),
                seat.score,
                None if seat.won is None else int(seat.won),
                seat.settlement,
            ),
        )


def save_seats(batch: Batch, game_id: int, seats: Sequence[Seat]) -> None:
    """Write the changeable fields of these seats (missed turns, a bot standing in, the results)."""
    for seat in seats:
        batch.add(
            "UPDATE seats SET misses = ?, replaced = ?, score = ?, won = ?, settlement = ? "
            "WHERE game_id = ? AND seat = ?",
            (
                seat.misses,
                int(seat.replaced),
                seat.score,
                None if seat.won is None else int(seat.won),
                seat.settlement,
                game_id,
                seat.seat,
            ),
            changes=1,
        )


async def user_stats(db: Reader, user_id: int) -> list[UserStats]:
    """A person's finished parties, one line per game and mode (group, solo)."""
    rows = await db.all(
        "SELECT g.kind AS kind, g.mode AS mode, COUNT(*) AS games, COALESCE(SUM(s.won), 0) AS wins, "
        "COALESCE(SUM(s.score), 0) AS points, COALESCE(SUM(s.settlement), 0) AS settlement "
        "FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE s.user_id = ? AND g.status = 'finished' GROUP BY g.kind, g.mode ORDER BY g.kind, g.mode",
        (user_id,),
    )
    counts = ("games", "wins", "points", "settlement")
    return [UserStats(str(r["kind"]), GameMode(r["mode"]), *(int(r[c]) for c in counts)) for r in rows]


async def chat_top(db: Reader, chat_id: int, kind: str, limit: int = 10) -> list[ChatRank]:
    """The chat's people by wins, then points, over the parties of game ``kind`` finished there."""
    rows = await db.all(
        "SELECT s.user_id AS user_id, u.name AS name, COUNT(*) AS games, COALESCE(SUM(s.won), 0) AS wins, "
        "COALESCE(SUM(s.score), 0) AS points FROM seats s JOIN games g ON g.id = s.game_id "
        "JOIN users u ON u.user_id = s.user_id "
        "WHERE g.chat_id = ? AND g.kind = ? AND g.status = 'finished' AND s.user_id IS NOT NULL "
        "GROUP BY s.user_id ORDER BY wins DESC, points DESC, games ASC, s.user_id ASC LIMIT ?",
        (chat_id, kind, limit),
    )
    return [
        ChatRank(int(r["user_id"]), str(r["name"]), *(int(r[c]) for c in ("games", "wins", "points")))
        for r in rows
    ]


# --- updates -----------------------------------------------------------------------------------------------


async def is_processed(db: Reader, update_id: int) -> bool:
    return await db.one("SELECT 1 FROM processed_updates WHERE update_id = ?", (update_id,)) is not None


async def processed_since(db: Reader, when: float) -> list[int]:
    """The updates marked processed at ``when`` or later (what a restarted bot may be sent again)."""
    rows = await db.all("SELECT update_id FROM processed_updates WHERE at >= ?", (when,))
    return [int(row["update_id"]) for row in rows]


def mark_processed(batch: Batch, update_id: int, now: float) -> None:
    batch.add("INSERT OR IGNORE INTO processed_updates (update_id, at) VALUES (?, ?)", (update_id, now))


def forget_updates_before(batch: Batch, when: float) -> None:
    batch.add("DELETE FROM processed_updates WHERE at < ?", (when,))


# --- a group upgraded to a supergroup --------------------------------------------------------------------------


def move_chat(batch: Batch, old: int, new: int) -> None:
    """Every game of chat ``old`` now belongs to chat ``new`` (finished ones too, so /top goes on), with its
    notices, its parties' ratings and the seasons it was told of; the live messages left in ``old`` are forgotten (they cannot be edited any more)."""
    batch.add("UPDATE games SET chat_id = ? WHERE chat_id = ?", (new, old))
    batch.add("UPDATE outbox SET chat_id = ? WHERE chat_id = ?", (new, old))
    batch.add("DELETE FROM live_messages WHERE chat_id = ?", (old,))
    batch.add("UPDATE OR REPLACE chat_langs SET chat_id = ? WHERE chat_id = ?", (new, old))
    batch.add("UPDATE OR REPLACE next_game_calls SET chat_id = ? WHERE chat_id = ?", (new, old))
    batch.add("UPDATE OR REPLACE chat_settings SET chat_id = ? WHERE chat_id = ?", (new, old))
    batch.add("UPDATE rating_changes SET chat_id = ? WHERE chat_id = ?", (new, old))
    batch.add("UPDATE OR REPLACE seasons_told SET chat_id = ? WHERE chat_id = ?", (new, old))


# --- chat languages ----------------------------------------------------------------------------------------


def set_chat_lang(batch: Batch, chat_id: int, lang: str | None) -> None:
    """The language ``chat_id`` chose (None: follow each person's Telegram language again)."""
    if lang is None:
        batch.add("DELETE FROM chat_langs WHERE chat_id = ?", (chat_id,))
    else:
        batch.add(
            "INSERT INTO chat_langs (chat_id, lang) VALUES (?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET lang = excluded.lang",
            (chat_id, lang),
        )


async def chat_lang(db: Reader, chat_id: int) -> str | None:
    row = await db.one("SELECT lang FROM chat_langs WHERE chat_id = ?", (chat_id,))
    return str(row["lang"]) if row is not None else None


async def chat_langs(db: Reader) -> list[tuple[int, str]]:
    return [(int(r["chat_id"]), str(r["lang"])) for r in await db.all("SELECT chat_id, lang FROM chat_langs")]


# --- who asked to be called to a chat's next game (/nextgame) -------------------------------------------------


async def toggle_next_game_call(tx: Tx, chat_id: int, user_id: int, now: float) -> bool:
    """``user_id`` is on ``chat_id``'s list to be called to its next game (True), or taken off it (False) if
    they already were."""
    if await tx.execute("DELETE FROM next_game_calls WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)):
        return False
    await tx.execute(
        "INSERT INTO next_game_calls (chat_id, user_id, at) VALUES (?, ?, ?)", (chat_id, user_id, now)
    )
    return True


async def take_next_game_calls(tx: Tx, chat_id: int) -> list[int]:
    """The people ``chat_id``'s next game is to call, in the order they asked; the list is emptied."""
    rows = await tx.all("SELECT user_id FROM next_game_calls WHERE chat_id = ? ORDER BY at", (chat_id,))
    await tx.execute("DELETE FROM next_game_calls WHERE chat_id = ?", (chat_id,))
    return [int(row["user_id"]) for row in rows]


# --- a group's own settings for its new lobbies (/settings) --------------------------------------------------


def set_chat_settings(
    batch: Batch, chat_id: int, kind: str, options: dict[str, JSONValue], turn_timeout: int
) -> None:
    """``chat_id``'s new lobbies of ``kind`` start with ``options`` and ``turn_timeout`` from now on."""
    batch.add(
        "INSERT INTO chat_settings (chat_id, kind, options, turn_timeout) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (chat_id, kind) DO UPDATE SET options = excluded.options, turn_timeout = excluded.turn_timeout",
        (chat_id, kind, json.dumps(options, sort_keys=True), turn_timeout),
    )


def forget_chat_settings(batch: Batch, chat_id: int) -> None:
    """``chat_id``'s new lobbies start with each game's own defaults again."""
    batch.add("DELETE FROM chat_settings WHERE chat_id = ?", (chat_id,))


async def chat_settings(db: Reader, chat_id: int) -> dict[str, tuple[dict[str, JSONValue], int]]:
    """``chat_id``'s saved settings, by game: its options and seconds per turn."""
    rows = await db.all("SELECT kind, options, turn_timeout FROM chat_settings WHERE chat_id = ?", (chat_id,))
    return {str(r["kind"]): (json.loads(r["options"]), int(r["turn_timeout"])) for r in rows}


# --- the outbox's rows: live messages (id, content Telegram accepted), notices waiting, groups' rate windows ---


async def get_live(db: Reader, slot: str) -> LiveMessage | None:
    row = await db.one("SELECT * FROM live_messages WHERE slot = ?", (slot,))
    if row is None:
        return None
    return LiveMessage(row["slot"], row["chat_id"], row["message_id"], row["digest"])


def put_live(batch: Batch, slot: str, message: LiveMessage | None) -> None:
    """The live message ``slot`` is now ``message`` (None: forgotten)."""
    if message is None:
        batch.add("DELETE FROM live_messages WHERE slot = ?", (slot,))
        return
    batch.add(
        "INSERT INTO live_messages (slot, chat_id, message_id, digest) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (slot) DO UPDATE SET chat_id = excluded.chat_id, message_id = excluded.message_id, "
        "digest = excluded.digest",
        (message.slot, message.chat_id, message.message_id, message.digest),
    )


async def live_with_prefix(db: Reader, prefix: str) -> list[LiveMessage]:
    """The live messages whose slot starts with ``prefix`` (slots are ASCII letters, digits and colons)."""
    rows = await db.all("SELECT * FROM live_messages WHERE substr(slot, 1, ?) = ?", (len(prefix), prefix))
    return [LiveMessage(r["slot"], r["chat_id"], r["message_id"], r["digest"]) for r in rows]


def add_notice(batch: Batch, notice: Notice, now: float) -> None:
    batch.add(
        "INSERT INTO outbox (id, chat_id, thread_id, text, markup, created_at, game_id, event)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            notice.id,
            notice.chat_id,
            notice.thread_id,
            notice.text,
            notice.markup,
            now,
            notice.game_id,
            notice.event,
        ),
    )


async def pending_notices(db: Reader, chat_id: int | None = None) -> list[Notice]:
    """The notices not sent yet (of one chat, if given), oldest first."""
    if chat_id is None:
        rows = await db.all("SELECT * FROM outbox ORDER BY id")
    else:
        rows = await db.all("SELECT * FROM outbox WHERE chat_id = ? ORDER BY id", (chat_id,))
    return [
        Notice(
            row["id"],
            row["chat_id"],
            row["thread_id"],
            row["text"],
            row["markup"],
            row["game_id"],
            row["event"],
        )
        for row in rows
    ]


def drop_notice(batch: Batch, notice_id: int, _: None = None) -> None:
    batch.add("DELETE FROM outbox WHERE id = ?", (notice_id,))


def drop_notices_for_chat(batch: Batch, chat_id: int) -> None:
    batch.add("DELETE FROM outbox WHERE chat_id = ?", (chat_id,))


def put_rate_stamps(batch: Batch, stamps: Sequence[tuple[int, float]]) -> None:
    """Replace the recorded calls to group chats (chat id, time on the bot's clock) with ``stamps``."""
    batch.add("DELETE FROM rate_stamps")
    for chat_id, stamp in stamps:
        batch.add("INSERT INTO rate_stamps (chat_id, stamp) VALUES (?, ?)", (chat_id, stamp))


async def take_rate_stamps(tx: Tx) -> list[tuple[int, float]]:
    """The recorded calls to group chats, oldest first; the record is emptied."""
    rows = await tx.all("SELECT chat_id, stamp FROM rate_stamps ORDER BY stamp")
    await tx.execute("DELETE FROM rate_stamps")
    return [(int(row["chat_id"]), float(row["stamp"])) for row in rows]
