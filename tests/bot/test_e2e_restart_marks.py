"""A SIGKILL moments after Telegram accepted the bot's edits and sends: the restarted bot knows what each message
shows and what it has sent. What the outbox delivered is stored with the database's next transaction (within
half a second, with nothing else to write); a kill inside that half second used to lose it, so the restart edited
every message again to what it already showed (Telegram refuses: «message is not modified») and could post a
notice a second time."""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Any

from tests.bot.conftest import play_until, start_party, take_turn, turn_message
from tests.bot.test_e2e_restart import _spawn
from tests.fakebot import FakeTelegram
from tests.fakebot.server import ApiError, Params
from tests.forkserver import ForkServer

KILL_AFTER = 0.2
"""Real seconds from the last answered call to the kill: time for the bot to take Telegram's answers in, well
inside the half second its marks wait to ride with a transaction."""
CHANGES = ("editMessageText", "sendMessage", "deleteMessages", "deleteMessage")


class LastChange:
    """When Telegram last accepted a call that changes a chat."""

    def __init__(self) -> None:
        self.at = 0.0
        self.count = 0
        self.seen = 0

    def mark(self) -> None:
        self.seen = self.count

    def more(self) -> bool:
        """Any since :meth:`mark`."""
        return self.count > self.seen

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if method in CHANGES and error is None:
            self.at, self.count = at, self.count + 1

    def on_update(self, update: Any, at: float) -> None:
        pass


async def test_a_kill_right_after_a_move_is_drawn_costs_no_refused_edit_and_no_message_twice(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Any
) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    people = [anna, boris, vera]
    group = tg.add_group("Друзья", people, admins=[anna])
    changes = LastChange()
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
            while time.monotonic() - changes.at < KILL_AFTER:
                await asyncio.sleep(0.01)
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
        f"{kills} kills, each {KILL_AFTER} s after the move's last call: {tg.stats.not_modified} refused edits"
    )
