"""A restart costs no refused edit: the outbox knows what each live message shows across restarts (the content's
digest is stored with the message, and the digest of an edit on its way before the call), so the games drawn
again at start edit only what changed — Telegram never answers «message is not modified».

``python -m bot`` is SIGKILLed right after an edit of the group's table landed — before the delivery's own row
could ride along with a later transaction —, again and again, in the middle of a party."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.bot.conftest import start_party, take_turn, turn_message
from tests.bot.test_e2e_kill_property import Bot
from tests.fakebot import FakeChat, FakeTelegram
from tests.forkserver import ForkServer
from tests.tiers import size

pytestmark = pytest.mark.xdist_group("timing")  # asserts on time: see tests/conftest.py

KILLS = size(6, 20)


async def test_kills_right_after_edits_make_no_edit_telegram_refuses_as_not_modified(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Path
) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    bot = Bot(tg, db_path, forkserver)
    await bot.start()
    try:
        await start_party(tg, group, anna, [anna, boris])
        people = [anna, boris]
        for _ in range(KILLS):
            await tg.wait_for(lambda: any(turn_message(u) for u in people), timeout=30, what="a turn")
            await tg.settle()
            mover = next(u for u in people if turn_message(u) is not None)
            edits = {
                m.message_id: len(m.history) for m in group.bot_messages() + mover.private_chat.bot_messages()
            }
            assert await take_turn(tg, mover)

            chats = (group, mover.private_chat)

            def edited(before: dict[int, int] = edits, chats: tuple[FakeChat, ...] = chats) -> bool:
                return any(
                    len(m.history) > before.get(m.message_id, len(m.history))
                    for chat in chats
                    for m in chat.bot_messages()
                )

            await tg.wait_for(edited, timeout=10, what="an edit landed")
            await bot.kill()  # at once: the delivery's row waits to ride along with a later transaction
            await asyncio.sleep(0.05)
            await bot.start()
        await tg.wait_for(lambda: any(turn_message(u) for u in people), timeout=30, what="a turn")
        await tg.settle()
    finally:
        await bot.close()
    print(f"{bot.kills} kills right after an edit: {tg.stats.not_modified} edits refused as not modified")
    assert tg.stats.not_modified == 0
