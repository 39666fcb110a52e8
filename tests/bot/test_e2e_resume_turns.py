"""A restart right after a person's move, while a bot player or a seat the bot plays for is next: the game goes
on after the restart, and the person gets their buttons back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.callbacks import LobbyCb, LobbyOp, SeatCb
from bot.storage import Database, repo
from engine.core import replay
from tests.bot.conftest import (
    BotRunner,
    lobby_of,
    move_buttons,
    open_lobby,
    play_until,
    start_solo_konchinka,
    take_turn,
    turn_message,
)
from tests.fakebot import FakeTelegram, FakeUser

SLOW_BOTS = {"bot_delay": 60.0}
"""A bot player waits a minute of the bot's clock (a real second) before it moves: time enough to stop the bot
after a person's move and before the bot player's."""


async def _next_is_played_by_the_bot(db_path: Path, game: str) -> int:
    """The stored game's version, after checking that the seat to move now is one the bot plays for."""
    db = await Database.open(db_path)
    try:
        async with db.tx() as tx:
            row = await repo.get_game(tx, int(game))
            seats = await repo.seats_of(tx, int(game))
    finally:
        await db.close()
    assert row is not None and row.record is not None
    state = replay(row.record)
    assert not state.is_terminal
    assert seats[state.current_player].bot_plays, "the restart must come while the bot is to move"
    return row.version


def _offered_version(user: FakeUser) -> int | None:
    """The game version the user's turn buttons were made for (None: no turn offered)."""
    message = turn_message(user)
    if message is None:
        return None
    return int(move_buttons(message)[0].split(":")[2])


async def _my_turn_again_after(tg: FakeTelegram, user: FakeUser, version: int) -> None:
    def offered() -> bool:
        shown = _offered_version(user)
        return shown is not None and shown > version

    await tg.wait_for(offered, timeout=10, what=f"{user.full_name}'s turn after version {version}")


async def test_a_solo_game_goes_on_after_a_restart_right_after_the_persons_move(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    first = await bot_runner(**SLOW_BOTS)
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=2)
    await tg.wait_for(lambda: turn_message(anna) is not None, timeout=20, what="Anna's first turn")
    async with first.app.db.tx() as tx:
        row = await repo.active_game_in_chat(tx, anna.id, 0)
    assert row is not None
    game = str(row.id)
    assert await take_turn(tg, anna)
    await first.stop()
    version = await _next_is_played_by_the_bot(db_path, game)

    await bot_runner(**SLOW_BOTS)
    await _my_turn_again_after(tg, anna, version)


@pytest.mark.long
async def test_a_group_game_goes_on_after_a_restart_when_a_replaced_seat_and_a_bot_are_next(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    first = await bot_runner(**SLOW_BOTS, turn_timeout=20, reminder_before=0)
    anna, vera = tg.add_user("Аня"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, vera], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, vera])
    lobby = lobby_of(group)
    await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="normal").pack(), force=True)
    async with first.app.db.tx() as tx:
        assert len(await repo.seats_of(tx, int(game))) == 3
    assert (await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())).answered

    # Vera never plays: her turns run out twice and the bot takes her seat.
    def replaced() -> bool:
        data = SeatCb(game=game).pack()
        return any(b.callback_data == data for m in group.visible_messages() for b in m.flat_buttons)

    await play_until(tg, [anna], replaced, timeout=30)
    # Anna (seat 0) moves; Vera's seat (played by the bot now) and the bot player are next.
    await tg.wait_for(lambda: turn_message(anna) is not None, timeout=20, what="Anna's turn")
    assert await take_turn(tg, anna)
    await first.stop()
    version = await _next_is_played_by_the_bot(db_path, game)

    await bot_runner(**SLOW_BOTS, turn_timeout=20, reminder_before=0)
    await _my_turn_again_after(tg, anna, version)
