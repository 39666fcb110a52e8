"""The group lobby: creator-only settings, bot players, cancel rights, expiry, /score."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp
from bot.games.konchinka.settings import KonchinkaSetting
from tests.bot.conftest import (
    BotRunner,
    find_lobby,
    has_rematch,
    lobby_of,
    open_lobby,
    play_until,
    turn_message,
)
from tests.fakebot import FakeTelegram


async def test_lobby_settings_bots_and_cancel_rights(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner()
    anna, boris, gleb = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Глеб")
    group = tg.add_group("Друзья", [anna, boris, gleb], admins=[gleb])
    game = await open_lobby(tg, group, anna, [anna, boris])
    lobby = lobby_of(group)

    points = LobbyCb(game=game, op=LobbyOp.SET, key=KonchinkaSetting.VARIANT.value, value="points").pack()
    answer = await boris.press(lobby, data=points, force=True)
    assert answer.text is not None and "организатор" in answer.text
    answer = await anna.press(lobby, data=points, force=True)
    await tg.wait_for(lambda: "очков" in lobby_of(group).text, what="the variant in the lobby")

    add = LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="easy").pack()
    await anna.press(lobby, data=add, force=True)
    await tg.wait_for(lambda: "Новичок" in lobby_of(group).text, what="the bot player")

    cancel = LobbyCb(game=game, op=LobbyOp.CANCEL).pack()
    answer = await boris.press(lobby, data=cancel, force=True)  # neither creator nor admin
    assert answer.text is not None and "админ" in answer.text
    answer = await gleb.press(lobby, data=cancel, force=True)  # a chat admin may
    await tg.settle()
    assert not lobby.has_keyboard or "start=j_" not in str(lobby.buttons)
    # The chat is free again.
    await anna.send(group, "/konchinka")
    await tg.wait_for(
        lambda: any(
            "start=j_" in str(m.buttons) for m in group.visible_messages() if m.message_id > lobby.message_id
        ),
        what="a new lobby",
    )


async def test_an_unstarted_lobby_expires(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner(
        lobby_ttl=120
    )  # 120 s of the bot's clock: two real seconds (time to join on a busy machine)
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    await open_lobby(tg, group, anna, [anna])
    lobby = lobby_of(group)
    await tg.wait_for(lambda: "start=j_" not in str(lobby.buttons), timeout=10, what="the lobby to expire")


async def test_score_reposts_the_table_at_the_bottom(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris])
    game = await open_lobby(tg, group, anna, [anna, boris])
    await anna.press(
        lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="normal").pack(), force=True
    )
    await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack(), force=True)
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    await tg.settle()
    table = group.last_bot_message()
    assert table is not None
    await boris.send(group, "/score")
    await tg.wait_for(lambda: table.is_deleted, what="the old table to go")
    note = "📋 Записи ещё нет: первая раздача не доиграна — стол выше."
    await tg.wait_for(
        lambda: (group.last_bot_message() or table).text == note, what="the table again, and why"
    )
    fresh = [m for m in group.visible_messages() if m.is_from_bot][-2]  # the table, with the note below it
    assert fresh.message_id > table.message_id
    assert fresh.text.splitlines()[0] == table.text.splitlines()[0]
    await play_until(tg, [anna, boris], lambda: has_rematch(group.visible_messages()), timeout=90)


async def test_a_lobby_with_too_few_players_does_not_start(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna])
    answer = await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())
    assert answer.text == "Нужно хотя бы 2 игрока."
    assert find_lobby(group) is not None and turn_message(anna) is None
