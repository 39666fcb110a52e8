"""A database of the schema before typed notices (version 3: a waiting notice is its text, nothing else; a game's
record holds every move, written again at each one, beside the moves' rows; nothing of what the messages show is
stored) is brought up to date when the bot starts, and what was running goes on: the party resumes where it stood,
and a notice written by the older bot and not yet sent goes out as it was written."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from bot.storage.migrations import MIGRATIONS
from tests.bot.conftest import BotRunner, game_row, start_party, take_turn, turn_message
from tests.fakebot import FakeTelegram

OLD_NOTICE = "Записка, оставленная ботом прошлой версии"


async def test_a_running_party_and_a_waiting_notice_survive_the_upgrade_from_version_3(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    first = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: bool(turn_message(anna) or turn_message(boris)), what="a turn")
    assert await take_turn(tg, anna) or await take_turn(tg, boris)
    await tg.wait_for(lambda: bool(turn_message(anna) or turn_message(boris)), what="the next turn")
    await tg.settle()
    moved = (await game_row(first, game)).version
    await first.stop()

    # The file as the bot of schema version 3 left it: the outbox without the game and the typed event of a row,
    # and a notice of that bot's still waiting (its text is all it has).
    with sqlite3.connect(db_path) as conn:
        actions = [
            a for (a,) in conn.execute("SELECT action FROM moves WHERE game_id = ? ORDER BY version", (game,))
        ]
        (start,) = conn.execute("SELECT record FROM games WHERE id = ?", (game,)).fetchone()
        conn.execute(
            "UPDATE games SET record = ? WHERE id = ?",
            (json.dumps({**json.loads(start), "actions": actions}), game),
        )
        conn.execute("ALTER TABLE games DROP COLUMN screens")
        conn.execute("DROP TABLE next_game_calls")
        conn.execute("DROP TABLE chat_settings")
        conn.execute("DROP TABLE achievements")
        for table in ("ratings", "rating_changes", "seasons_told", "board_opt_in"):  # migration 8's
            conn.execute(f"DROP TABLE {table}")
        conn.execute("ALTER TABLE games DROP COLUMN cancelled_by")
        conn.execute("ALTER TABLE outbox DROP COLUMN event")
        conn.execute("ALTER TABLE outbox DROP COLUMN game_id")
        conn.execute(
            "INSERT INTO outbox (chat_id, thread_id, text, markup, created_at) VALUES (?, 0, ?, NULL, ?)",
            (group.id, OLD_NOTICE, time.time()),
        )
        conn.execute("PRAGMA user_version = 3")
    conn.close()

    running = await bot_runner()
    row = await running.app.db.one("PRAGMA user_version")
    assert row is not None and row[0] == len(MIGRATIONS) == 8
    stored = await running.app.db.one("SELECT record FROM games WHERE id = ?", (int(game),))
    assert stored is not None and json.loads(stored[0])["actions"] == [], "the moves are their rows only"
    await tg.wait_for(
        lambda: any(m.text == OLD_NOTICE for m in group.bot_messages()),
        what="the older bot's notice, sent as written",
    )

    # The party goes on from where it stood: the player to move moves, and the game is one version further.
    await tg.wait_for(lambda: bool(turn_message(anna) or turn_message(boris)), what="the turn, shown again")
    assert (await game_row(running, game)).version == moved
    assert await take_turn(tg, anna) or await take_turn(tg, boris)
    await tg.settle()
    assert (await game_row(running, game)).version == moved + 1
