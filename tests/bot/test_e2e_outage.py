"""Telegram down in the middle of games: minutes of 5xx, then minutes of requests that hang. When it is back,
every player has the buttons of the current position, the group table is current, and replies are delivered."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import repo
from bot.storage import repo as stored
from engine.core import replay
from tests.bot.conftest import (
    BotRunner,
    Running,
    move_buttons,
    play_until,
    start_party,
    start_solo_konchinka,
    turn_message,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

OUTBOX_METHODS = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")
"""The calls of the outbox; updates and answers to presses keep flowing (people see their taps answered)."""
OUTAGE = 300.0
"""Telegram seconds each fault lasts: five real seconds, longer than the bot used to keep trying."""


def _offered_version(user: FakeUser) -> int | None:
    message = turn_message(user)
    return None if message is None else int(move_buttons(message)[0].split(":")[2])


async def _press_whatever_is_offered(tg: FakeTelegram, people: list[FakeUser], seconds: float) -> int:
    """People tap the first button of the turn they were shown, while Telegram misbehaves; the taps made."""
    end = tg.monotonic() + tg.clock.to_real(seconds)
    pressed: set[tuple[int, int, str]] = set()
    taps = 0
    while tg.monotonic() < end:
        for user in people:
            message = turn_message(user)
            if message is None:
                continue
            data = move_buttons(message)[0]
            key = (message.chat.id, message.message_id, data)
            if key in pressed:
                continue
            pressed.add(key)
            await user.press(message, data=data, timeout=2)
            taps += 1
        await tg.sleep(0.02)
    return taps


async def _wrong_buttons(running: Running, tg: FakeTelegram, game_ids: list[int]) -> list[str]:
    """Who is shown buttons they should not have, or lacks the buttons of their turn (empty: all right)."""
    wrong: list[str] = []
    async with running.app.db.tx() as tx:
        for game_id in game_ids:
            record = await repo.record_of(tx, game_id)
            seats = await repo.seats_of(tx, game_id)
            assert record is not None
            state = replay(record)
            for seat in seats:
                if seat.user_id is None:
                    continue
                user = tg.users[seat.user_id]
                expected = state.version if seat.seat == state.current_player else None
                if _offered_version(user) != expected:
                    wrong.append(f"{user.full_name}: shown {_offered_version(user)}, expected {expected}")
    return wrong


async def _until_right_buttons(running: Running, tg: FakeTelegram, game_ids: list[int], when: str) -> None:
    deadline = tg.monotonic() + 30
    while wrong := await _wrong_buttons(running, tg, game_ids):
        assert tg.monotonic() < deadline, f"{when}: {wrong}"
        await tg.sleep(0.05)


async def _table_is_current(
    tg: FakeTelegram, running: Running, group: FakeChat, game: str, by: FakeUser
) -> None:
    """The group table reads exactly as a fresh one: /score posts a new table, which must say the same."""
    table_id = running.app.outbox.message_id(f"g{game}")
    assert table_id is not None
    table = group.messages[table_id]
    await by.send(group, "/score")

    def reposted() -> FakeMessage | None:
        new_id = running.app.outbox.message_id(f"g{game}")
        if new_id is None or new_id == table_id:
            return None
        return group.messages.get(new_id)

    await tg.wait_for(lambda: reposted() is not None, timeout=10, what="the table posted again by /score")
    fresh = reposted()
    assert fresh is not None
    assert (table.text, table.reply_markup) == (fresh.text, fresh.reply_markup)


@pytest.mark.long
async def test_games_go_on_after_minutes_of_5xx_and_of_hung_requests(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    running = await bot_runner()
    anna, boris, vera, dima = (
        tg.add_user("Аня"),
        tg.add_user("Борис"),
        tg.add_user("Вера"),
        tg.add_user("Дима"),
    )
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris, vera])
    await start_solo_konchinka(tg, dima, opponents=2)
    async with running.app.db.tx() as tx:
        solo = await repo.active_game_in_chat(tx, dima.id, 0)
    assert solo is not None
    people = [anna, boris, vera, dima]
    await play_until(tg, people, lambda: False, moves=6, timeout=30)
    games = [int(game), solo.id]
    await _until_right_buttons(running, tg, games, "before the outage")

    tg.fail(OUTAGE / 2, *OUTBOX_METHODS)  # the Bot API's own 502, then a proxy's HTML page (not JSON)
    tg.fail(OUTAGE, *OUTBOX_METHODS, html=True)
    await vera.send_private("/help")  # a reply asked for while nothing can be sent: kept until it can
    taps = await _press_whatever_is_offered(tg, people, OUTAGE)
    tg.hang(OUTAGE, *OUTBOX_METHODS)
    taps += await _press_whatever_is_offered(tg, people, OUTAGE)
    assert taps >= 2
    assert tg.faults.errors > 0 and tg.faults.hangs > 0
    assert running.app.outbox.calls["failed"] > 0

    await _until_right_buttons(running, tg, games, "after the outage")
    await tg.finish(running.app.outbox.drain())
    await _table_is_current(tg, running, group, game, anna)
    await tg.finish(running.app.outbox.drain())  # /score's note below the table (no score yet) sent too
    assert any("/konchinka" in m.text for m in vera.private_chat.bot_messages()), "the /help reply was lost"
    async with running.app.db.tx() as tx:
        assert await stored.pending_notices(tx) == []

    # And the games go on.
    await play_until(tg, people, lambda: False, moves=6, timeout=30)
