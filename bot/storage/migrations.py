"""The schema, as an append-only list of migrations; ``PRAGMA user_version`` is the number applied.

Never edit a migration that has shipped: add a new one. Statements are separated by ``;`` (no ``;`` inside).
"""

from __future__ import annotations

from typing import Final

V1: Final = """
CREATE TABLE users (
    user_id   INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    username  TEXT,
    lang      TEXT,
    started   INTEGER NOT NULL DEFAULT 0,
    blocked   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT NOT NULL,
    mode          TEXT NOT NULL,
    status        TEXT NOT NULL,
    chat_id       INTEGER NOT NULL,
    thread_id     INTEGER NOT NULL DEFAULT 0,
    creator_id    INTEGER NOT NULL,
    options       TEXT NOT NULL,
    turn_timeout  INTEGER NOT NULL DEFAULT 0,
    lang          TEXT NOT NULL DEFAULT 'ru',
    record        TEXT,
    version       INTEGER NOT NULL DEFAULT 0,
    created_at    REAL NOT NULL,
    expires_at    REAL,
    deadline      REAL,
    reminded      INTEGER NOT NULL DEFAULT 0,
    finished_at   REAL
);
CREATE UNIQUE INDEX games_one_active_per_chat ON games (chat_id, thread_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX games_status ON games (status);
CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    name        TEXT NOT NULL,
    level       TEXT,
    misses      INTEGER NOT NULL DEFAULT 0,
    replaced    INTEGER NOT NULL DEFAULT 0,
    score       INTEGER,
    won         INTEGER,
    settlement  INTEGER,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_user ON seats (user_id);
CREATE TABLE moves (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    version  INTEGER NOT NULL,
    action   TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    actor    TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE processed_updates (
    update_id  INTEGER PRIMARY KEY,
    at         REAL NOT NULL
);
CREATE TABLE live_messages (
    slot        TEXT PRIMARY KEY,
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    digest      TEXT NOT NULL
);
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id     INTEGER NOT NULL,
    thread_id   INTEGER NOT NULL DEFAULT 0,
    text        TEXT NOT NULL,
    markup      TEXT,
    created_at  REAL NOT NULL
)
"""

V2: Final = """
CREATE TABLE rate_stamps (
    chat_id  INTEGER NOT NULL,
    stamp    REAL NOT NULL
)
"""
"""The calls to group chats still inside their minute windows when the bot stopped, for the next run."""

V3: Final = """
CREATE TABLE chat_langs (
    chat_id  INTEGER PRIMARY KEY,
    lang     TEXT NOT NULL
)
"""
"""The language a chat chose with /lang (a group's, or a person's in their private chat); no row: Telegram's."""

V4: Final = """
ALTER TABLE outbox ADD COLUMN game_id INTEGER;
ALTER TABLE outbox ADD COLUMN event TEXT
"""
"""A game's notices are stored as what happened (``event``, typed; ``text`` empty) and drawn once committed —
again after a restart, from the game as stored. Rows written before keep their text."""

V5: Final = """
ALTER TABLE games ADD COLUMN screens TEXT;
UPDATE games SET record = json_set(record, '$.actions', json('[]'))
    WHERE record IS NOT NULL
    AND json_array_length(record, '$.actions') = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)
"""
"""What a game's messages show that the rules do not know (a card picked, the lobby's screen, the reminders on
show, who keeps a copy of the table: JSON, see ``bot.model.game.Screens``), stored with the game; and a game's
moves are its ``moves`` rows only: the record keeps the party's start (game, options, seed), not its actions
written again at every move."""

V6: Final = """
CREATE TABLE next_game_calls (
    chat_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);
CREATE TABLE chat_settings (
    chat_id       INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    options       TEXT NOT NULL,
    turn_timeout  INTEGER NOT NULL,
    PRIMARY KEY (chat_id, kind)
)
"""
"""Who asked with /nextgame to be called, in private, when the next lobby opens in a group: the rows of a chat
are taken (deleted) when its next lobby opens. A group's own settings for its new lobbies of each game (JSON
options and seconds per turn), saved by its admins with /settings."""

ACHIEVEMENTS: Final = """
CREATE TABLE achievements (
    user_id  INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    code     TEXT NOT NULL,
    game_id  INTEGER NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (user_id, kind, code)
)
"""
"""The achievements people earned (``bot.ratings.achievements``): one row per person, game and achievement, so
each is told once; the party that earned it and when. Self-contained: it may take any number in the list."""

V7: Final = ACHIEVEMENTS

V8: Final = """
CREATE TABLE ratings (
    user_id  INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    mu       REAL NOT NULL,
    sigma    REAL NOT NULL,
    parties  INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind)
);
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    chat_id       INTEGER NOT NULL,
    season        TEXT NOT NULL,
    place         INTEGER NOT NULL,
    mu_before     REAL NOT NULL,
    sigma_before  REAL NOT NULL,
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    at            REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_user ON rating_changes (user_id, kind, at);
CREATE INDEX rating_changes_season ON rating_changes (season, chat_id, kind);
CREATE TABLE seasons_told (
    season   TEXT NOT NULL,
    chat_id  INTEGER NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (season, chat_id)
);
CREATE TABLE board_opt_in (
    user_id  INTEGER PRIMARY KEY,
    at       REAL NOT NULL
);
ALTER TABLE games ADD COLUMN cancelled_by INTEGER
"""
"""Skill ratings (``bot.ratings``): each person's rating per game (``ratings``), each rated party's change of it
(``rating_changes``: the party's chat and season — its calendar month in UTC —, the place, before and after; a
person's history and every season's standings, per chat and overall, are read from it and kept), the groups told
of a season's end (``seasons_told``), and who opted in to the global leaderboard (``board_opt_in``, /privacy).
A party under way cancelled by one of its own players counts as their loss: ``games.cancelled_by`` names them.
All but the opt-ins and the seasons told are recomputed from the games by ``python -m bot.ratings.rebuild``."""

MIGRATIONS: Final[tuple[str, ...]] = (V1, V2, V3, V4, V5, V6, V7, V8)
