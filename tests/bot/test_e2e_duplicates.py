"""One update delivered several times — copies in one getUpdates batch, or again in a later one — is applied
once: one bot player per «+ Бот», one reply per command, one move per press."""

from __future__ import annotations

import asyncio

import pytest

from bot.callbacks import LobbyCb, LobbyOp, MoveCb
from bot.pipeline.store import PRUNE_EVERY, UPDATES_KEPT_FOR
from bot.storage import Batch, repo
from tests.bot.conftest import BotRunner, lobby_of, open_lobby, turn_message, two_player_party
from tests.fakebot import FakeTelegram, FakeUser

COPIES = 3


def _help_replies(user: FakeUser) -> int:
    return sum(1 for m in user.private_chat.bot_messages() if "/konchinka" in m.text)


async def test_copies_of_an_update_in_one_batch_are_applied_once(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna])

    tg.copies = COPIES
    add_bot = LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="normal").pack()
    assert (await anna.press(lobby_of(group), data=add_bot, force=True)).answered
    await anna.send_private("/help")
    await tg.settle()
    async with running.app.db.tx() as tx:
        seats = await repo.seats_of(tx, int(game))
    assert [s.is_bot for s in seats] == [False, True]
    assert _help_replies(anna) == 1
    assert running.app.outbox.calls["send"] > 0


async def test_a_move_delivered_in_several_copies_and_again_later_is_played_once(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    mover = anna if turn_message(anna) else boris
    message = turn_message(mover)
    assert message is not None
    async with running.app.db.tx() as tx:
        row = await repo.get_game(tx, int(game))
    assert row is not None

    tg.copies = COPIES
    await mover.press(message, data=MoveCb(game=game, version=row.version, index=0).pack(), force=True)
    await mover.send_private("/help")
    help_update = tg.last_update_id
    assert help_update is not None
    await tg.settle()
    tg.copies = 1
    tg.inject_duplicate(help_update)  # and once more, in a later batch
    await tg.settle()
    async with running.app.db.tx() as tx:
        after = await repo.get_game(tx, int(game))
    assert after is not None and after.version == row.version + 1
    assert _help_replies(mover) == 1


@pytest.mark.over_http("the bot prunes the update ids it remembers on monotonic time: real seconds must pass")
async def test_old_update_ids_are_forgotten_while_the_bot_runs(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня")
    await anna.send_private("/help")
    await tg.settle()  # started up (and pruned once, as at every start)
    clock = running.app.clock
    # A little more than PRUNE_EVERY: the first /help may have been marked a moment after the bot went quiet.
    await clock.sleep(PRUNE_EVERY * 1.5)
    long_ago = clock.now() - (UPDATES_KEPT_FOR + 3600) * clock.speed
    batch = Batch()
    repo.mark_processed(batch, 1, long_ago)  # an update handled four days ago
    repo.mark_processed(batch, 2, clock.now())
    await running.app.db.write(batch)
    await anna.send_private("/help")
    await tg.settle()
    # The pruning rides along with the next transaction (this test's own, or its own within half a second).
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 5
    while True:
        async with running.app.db.tx() as tx:
            old, recent = await repo.is_processed(tx, 1), await repo.is_processed(tx, 2)
        assert recent
        if not old:
            break
        assert loop.time() < deadline, "the update handled four days ago is still remembered"
        await asyncio.sleep(0.05)
