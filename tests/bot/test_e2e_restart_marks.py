"""A SIGKILL moments after Telegram accepted the bot's edits and sends: the restarted bot knows what each message
shows and what it has sent. What the outbox delivered is stored with the database's next transaction (within
half a second, with nothing else to write); a kill inside that half second used to lose it, so the restart edited
every message again to what it already showed (Telegram refuses: «message is not modified») and could post a
notice a second time."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.bot.conftest import play_until, start_party, take_turn, turn_message
from tests.bot.test_e2e_restart import _spawn
from tests.fakebot import FakeTelegram
from tests.fakebot.server import ApiError, Params
from tests.forkserver import ForkServer

pytestmark = pytest.mark.over_http(
    "python -m bot in a process of its own, SIGKILLed right after Telegram took its calls"
)

KILL_AFTER = 0.2
"""Real seconds from the last answered call to the kill: time for the bot to take Telegram's answers in, well
inside the half second its marks wait to ride with a transaction ..."""
TAKEN_IN_WITHIN = 5.0
"""... or longer, on a busy machine, until the bot has written to its journal after the last edit or send was
accepted (a kill before that would hit a call in flight: the one case nothing can know)."""
CHANGES = ("editMessageText", "sendMessage", "deleteMessages", "deleteMessage")
JOURNALED = ("editMessageText", "sendMessage")
"""Calls whose answer the bot writes to a journal (what a live message shows, a notice sent)."""


def journal_sizes(db_path: Path) -> tuple[tuple[int, int], ...]:
    """The bot's journals beside its database: each one's bytes and time of its last write ((-1, 0): none yet)."""
    journals = (Path(f"{db_path}-live"), Path(f"{db_path}-sent"))
    return tuple((j.stat().st_size, j.stat().st_mtime_ns) if j.exists() else (-1, 0) for j in journals)


class LastChange:
    """When Telegram last accepted a call that changes a chat, and the bot's journals as they were then (an edit
    or a send: the bot writes to one once it has the answer)."""

    def __init__(self, db_path: Path) -> None:
        self.at = 0.0
        self.count = 0
        self.seen = 0
        self.db_path = db_path
        self.journals = journal_sizes(db_path)

    def taken_in(self) -> bool:
        """Whether the bot has written to a journal since the last edit or send was accepted."""
        return journal_sizes(self.db_path) != self.journals

    def mark(self) -> None:
        self.seen = self.count

    def more(self) -> bool:
        """Any since :meth:`mark`."""
        return self.count > self.seen

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if method in CHANGES and error is None:
            self.at, self.count = at, self.count + 1
            if method in JOURNALED:
                self.journals = journal_sizes(self.db_path)

    def on_update(self, update: Any, at: float) -> None:
        pass


async def test_a_kill_right_after_a_move_is_drawn_costs_no_refused_edit_and_no_message_twice(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Any
) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    people = [anna, boris, vera]
    group = tg.add_group("Друзья", people, admins=[anna])
    changes = LastChange(db_path)
    tg.observer = changes
    process = await _spawn(forkserver, tg, db_path)
    kills = 0
    try:
        await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start")
        await start_party(tg, group, anna, people)
        await play_until(tg, people, lambda: False, moves=2, timeout=60)
        for _ in range(3):
            await tg.wait_for(lambda: any(turn_message(u) for u in people), what="someone's turn")
            changes.mark()
            mover = next(u for u in people if turn_message(u))
            assert await take_turn(tg, mover)
            # The move is drawn (the hands, the table): once the calls stop, the bot is killed straight after.
            await tg.wait_for(changes.more, timeout=10, what="the move drawn")
            while time.monotonic() - changes.at < KILL_AFTER or (
                not changes.taken_in() and time.monotonic() - changes.at < TAKEN_IN_WITHIN
            ):
                await asyncio.sleep(0.01)
            assert changes.taken_in(), (
                "the bot wrote nothing to its journals after Telegram accepted its calls"
            )
            process.send_signal(signal.SIGKILL)
            await process.wait()
            kills += 1
            shown = {
                id(m): (m.text, len(m.history))
                for c in [group, *(u.private_chat for u in people)]
                for m in c.visible_messages()
            }
            sent = len(group.visible_messages())
            tg.commands.clear()
            process = await _spawn(forkserver, tg, db_path)
            await tg.wait_for(lambda: tg.commands != {}, timeout=30, what="the bot to start again")
            await asyncio.sleep(1.0)  # its games shown again: nothing to change
            assert tg.stats.not_modified == 0, f"after kill {kills}: an edit to what a message already showed"
            assert len(group.visible_messages()) == sent, f"after kill {kills}: a message to the group twice"
            now = {
                id(m): (m.text, len(m.history))
                for c in [group, *(u.private_chat for u in people)]
                for m in c.visible_messages()
            }
            assert {k: v for k, v in now.items() if k in shown} == shown
        await play_until(tg, people, lambda: False, moves=3, timeout=60)  # and the party goes on
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)
            await process.wait()
    print(
        f"{kills} kills, each {KILL_AFTER} s or more after the move's last call, once the bot had taken its "
        f"answers in: {tg.stats.not_modified} refused edits"
    )
