"""Presses Telegram really delivers: stale, repeated, foreign, forged, duplicated and simultaneous."""

from __future__ import annotations

import asyncio

from bot.callbacks import MoveCb
from bot.storage import repo
from tests.bot.conftest import BotRunner, Running, game_row, take_turn, turn_message, two_player_party
from tests.fakebot import FakeTelegram, FakeUser


async def _version(running: Running, game: str) -> int:
    row = await game_row(running, game)
    async with running.app.db.tx() as tx:
        moves = await repo.moves_of(tx, int(game))
    assert [m[0] for m in moves] == list(range(row.version)), "one stored move per version, none twice"
    return row.version


def _mover(anna: FakeUser, boris: FakeUser) -> tuple[FakeUser, FakeUser]:
    return (anna, boris) if turn_message(anna) else (boris, anna)


async def test_stale_foreign_and_forged_presses_change_nothing(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    mover, other = _mover(anna, boris)
    version = await _version(running, game)
    press = MoveCb(game=game, version=version, index=0).pack()

    # The other player forges a press of the mover's move: refused, naming whose turn it is.
    some_message = other.private_chat.last_bot_message()
    assert some_message is not None
    answer = await other.press(some_message, data=press, force=True)
    assert answer.text is not None and mover.first_name in answer.text
    # A stranger presses: not their game.
    gleb = tg.add_user("Глеб")
    await gleb.send_private("/start")
    await tg.wait_for(lambda: gleb.private_chat.last_bot_message() is not None)
    answer = await gleb.press(gleb.private_chat.last_bot_message(), data=press, force=True)  # type: ignore[arg-type]
    assert answer.text is not None and "не играете" in answer.text
    assert await _version(running, game) == version

    # The mover moves; pressing the same button again is stale.
    old = turn_message(mover)
    assert old is not None
    await mover.press(old, data=press, force=True)  # the second tap of a card's first move
    await tg.wait_for(lambda: turn_message(other) is not None, what="the next turn")
    answer = await mover.press(old, data=press, force=True)
    assert answer.text is not None and "уже сделан" in answer.text
    assert await _version(running, game) == version + 1


async def test_a_duplicate_update_is_applied_once(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    mover, other = _mover(anna, boris)
    version = await _version(running, game)
    message = turn_message(mover)
    assert message is not None
    await mover.press(message, data=MoveCb(game=game, version=version, index=0).pack(), force=True)
    update_id = tg.last_update_id
    assert update_id is not None
    tg.inject_duplicate(update_id)
    await tg.settle()
    assert await _version(running, game) == version + 1
    assert turn_message(other) is not None and turn_message(mover) is None


async def test_two_presses_at_once_apply_one_move(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    mover, _other = _mover(anna, boris)
    version = await _version(running, game)
    message = turn_message(mover)
    assert message is not None
    first = MoveCb(game=game, version=version, index=0).pack()
    second = MoveCb(game=game, version=version, index=1).pack()
    answers = await asyncio.gather(
        mover.press(message, data=first, force=True), mover.press(message, data=second, force=True)
    )
    assert all(a.answered for a in answers)
    assert sum(1 for a in answers if a.text and "уже сделан" in a.text) == 1
    await tg.settle()
    assert await _version(running, game) == version + 1
    # And the game goes on normally.
    assert await take_turn(tg, _other)
