"""What the outbox keeps in the database: each live message's id and the content Telegram accepted, the notices
waiting to go out, and the groups' rate windows handed from one run to the next."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.models import LiveMessage, Notice
from bot.storage.tx import Batch, Reader, Tx


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
