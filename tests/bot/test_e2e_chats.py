"""The bot's place in groups: removed and added back, a group upgraded to a supergroup, a forum topic closed."""

from __future__ import annotations

import asyncio

import pytest

from bot.model.game import GameStatus
from bot.storage import repo
from tests.bot.conftest import (
    BotRunner,
    Running,
    find_lobby,
    game_row,
    has_rematch,
    open_lobby,
    play_until,
    start_party,
    take_turn,
    turn_message,
    two_player_party,
)
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser


async def _status(running: Running, game: str) -> GameStatus:
    return (await game_row(running, game)).status


async def _play_to_the_end(tg: FakeTelegram, running: Running, users: list[FakeUser]) -> None:
    """The users play until no game is active any more (the group may not show the end)."""
    done = False

    async def watch() -> None:
        nonlocal done
        while not done:
            async with running.app.db.tx() as tx:
                done = await repo.active_games(tx) == []
            await tg.sleep(0.05)

    watcher = asyncio.create_task(watch())
    await play_until(tg, users, lambda: done, timeout=120)
    await watcher
    await tg.settle()


async def test_a_group_that_removes_the_bot_loses_its_lobby_and_gets_a_fresh_one_after_adding_it_back(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna])
    old_lobby = find_lobby(group)
    assert old_lobby is not None
    tg.remove_bot(group, anna)
    await tg.wait_for(lambda: tg.pending_updates == 0, what="the removal read")
    await tg.settle()
    assert await _status(running, game) is GameStatus.CANCELLED
    assert tg.stats.chat_errors[(group.id, 403)] == 0, "nothing was tried in a chat the bot left"

    tg.add_bot(group, anna)
    await tg.settle()
    # Back in the group, the bot updates the cancelled lobby's message (within the group's rate).
    await tg.wait_for(lambda: not old_lobby.url_buttons, what="the old lobby to say it was cancelled")
    before = len(group.bot_messages())
    await boris.send(group, "/konchinka")
    await tg.wait_for(
        lambda: find_lobby(group) is not None and len(group.bot_messages()) > before,
        what="a new lobby in the group",
    )


async def test_a_running_game_goes_on_in_private_and_its_table_returns_with_the_bot(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, group, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    tg.remove_bot(group, anna)
    await tg.settle()
    # Two moves while the bot is out of the group: nothing is sent there, the hands go on.
    for _ in range(2):
        mover = anna if turn_message(anna) else boris
        assert await take_turn(tg, mover)
        await tg.settle()
    assert await _status(running, game) is GameStatus.PLAYING
    assert tg.stats.chat_errors[(group.id, 403)] <= 1
    errors = tg.stats.chat_errors[(group.id, 403)]
    old_table = group.last_bot_message()
    assert old_table is not None

    tg.add_bot(group, anna)

    def fresh_table() -> FakeMessage | None:
        newer = [m for m in group.bot_messages() if m.message_id > old_table.message_id and "Аня" in m.text]
        return newer[-1] if newer and old_table.is_deleted else None

    await tg.wait_for(fresh_table, what="the table posted anew")
    table = fresh_table()
    assert table is not None
    # /score is answered again.
    await boris.send(group, "/score")
    await tg.wait_for(lambda: table.is_deleted, what="/score to repost the table")
    assert tg.stats.chat_errors[(group.id, 403)] == errors


@pytest.mark.parametrize("notified", [True, False], ids=["service-messages", "refused-call"])
async def test_a_group_upgraded_to_a_supergroup_takes_its_game_along(
    tg: FakeTelegram, bot_runner: BotRunner, notified: bool
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_basic_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    await tg.settle()
    supergroup = tg.migrate(group, anna, notify=notified)
    if not notified:  # the next move's edit of the table meets the 400 with migrate_to_chat_id
        assert await take_turn(tg, anna if turn_message(anna) else boris)
    await tg.wait_for(lambda: supergroup.last_bot_message() is not None, what="the table in the supergroup")
    async with running.app.db.tx() as tx:
        row = await repo.get_game(tx, int(game))
    assert row is not None and row.chat_id == supergroup.id
    # The game goes on; its table now lives in the supergroup, and nothing more is tried in the old group.
    for _ in range(3):
        mover = anna if turn_message(anna) else boris
        assert await take_turn(tg, mover)
        await tg.settle()
    refused_before = tg.stats.chat_errors[(group.id, 400)]
    table = supergroup.last_bot_message()
    assert table is not None
    await tg.wait_for(lambda: table.edit_count >= 1, what="the moves shown in the supergroup's table")
    await boris.send(supergroup, "/score")
    await tg.wait_for(lambda: table.is_deleted, what="/score in the supergroup to see the game")
    await boris.send(supergroup, "/konchinka")
    await tg.wait_for(
        lambda: "уже идёт партия" in (supergroup.last_bot_message() or table).text,
        what="the running game seen",
    )
    async with running.app.db.tx() as tx:
        assert [g.id for g in await repo.active_games(tx)] == [int(game)]
    assert tg.stats.chat_errors[(group.id, 400)] == refused_before <= 2


async def test_a_closed_topic_keeps_the_results_until_it_reopens(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Клуб", [anna, boris], admins=[anna], forum=True)
    topic = group.add_topic("Карты")
    await anna.send(group, "/konchinka", thread_id=topic)
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby in the topic")
    lobby = find_lobby(group)
    assert lobby is not None and lobby.thread_id == topic
    url = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
    for user in (anna, boris):
        await user.send_private("/start " + url.split("start=", 1)[1])
    await tg.wait_for(lambda: "Борис" in lobby.text, what="both seated")
    await anna.press(lobby, "Начать")
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    tg.close_topic(group, topic, anna)

    await _play_to_the_end(tg, running, [anna, boris])
    assert not has_rematch(group.visible_messages()), "nothing new can appear in a closed topic"
    tg.reopen_topic(group, topic, anna)
    await tg.wait_for(
        lambda: has_rematch(group.visible_messages()), what="the results after the topic reopened"
    )
    results = [
        m
        for m in group.bot_messages()
        if any(b.callback_data and "rm:" in b.callback_data for b in m.flat_buttons)
    ]
    assert [m.thread_id for m in results] == [topic]


async def test_results_of_a_party_that_ended_while_the_bot_was_out_are_posted_on_its_return(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, anna, boris, group, _game = await two_player_party(tg, bot_runner)
    tg.remove_bot(group, anna)
    await _play_to_the_end(tg, running, [anna, boris])
    assert not has_rematch(group.visible_messages())
    assert tg.stats.chat_errors[(group.id, 403)] <= 1
    tg.add_bot(group, anna)
    await tg.wait_for(
        lambda: has_rematch(group.visible_messages()), what="the results after the bot's return"
    )
