"""Who may do what: admin rights in the game's own chat, asked without holding the game up; bot seats; joining."""

from __future__ import annotations

import asyncio

from bot.callbacks import LobbyCb, LobbyOp, MoveCb
from bot.model.game import GameStatus
from bot.storage import repo
from tests.bot.conftest import BotRunner, Running, game_row, lobby_of, open_lobby, start_party, turn_message
from tests.fakebot import FakeTelegram


async def _status(running: Running, game: str) -> GameStatus:
    return (await game_row(running, game)).status


async def test_the_creator_of_another_group_cannot_cancel_a_lobby_with_a_forged_press(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, gleb = tg.add_user("Аня"), tg.add_user("Глеб")
    group = tg.add_group("Друзья", [anna], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna])
    # Gleb owns a group of his own, where the bot also writes; he forges the cancel press of Anna's lobby there.
    his = tg.add_group("Глебова", [gleb], admins=[gleb])
    await gleb.send(his, "/help")
    await tg.wait_for(lambda: his.last_bot_message() is not None, what="a bot message in Gleb's group")
    message = his.last_bot_message()
    assert message is not None
    answer = await gleb.press(message, data=LobbyCb(game=game, op=LobbyOp.CANCEL).pack(), force=True)
    assert answer.answered and answer.text is not None and "админ" in answer.text
    assert await _status(running, game) is GameStatus.LOBBY
    assert "start=j_" in str(lobby_of(group).buttons)


async def test_a_flood_of_cancel_attempts_does_not_hold_up_a_move(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    await tg.settle()
    mover = anna if turn_message(anna) else boris
    message = turn_message(mover)
    assert message is not None
    async with running.app.db.tx() as tx:
        row = await repo.get_game(tx, int(game))
    assert row is not None
    tg.member_delay = 2.0  # Telegram is slow to say whether Vera is an admin
    tg.member_calls = 0
    table = group.last_bot_message()
    assert table is not None
    cancel = LobbyCb(game=game, op=LobbyOp.CANCEL).pack()
    for _ in range(10):
        await vera.send(group, "/cancel")
    presses = [asyncio.create_task(vera.press(table, data=cancel, force=True)) for _ in range(10)]
    await tg.sleep(0.2)  # the refusals are being worked on
    started = tg.monotonic()
    move = MoveCb(game=game, version=row.version, index=0).pack()  # a card's second tap
    answer = await mover.press(message, data=move, force=True)
    waited = tg.monotonic() - started
    assert answer.answered
    assert waited < 1.0, f"the move waited {waited:.1f} s behind the cancel attempts"
    refusals = await asyncio.gather(*presses)
    # Each attempt is refused: by the admin check, or earlier by the incoming throttle («Секунду…»).
    assert all(a.answered and a.text and ("админ" in a.text or a.text == "Секунду…") for a in refusals)
    assert any(a.text and "админ" in a.text for a in refusals)
    assert tg.member_calls <= 1, "one getChatMember for Vera in this chat, then the cached answer"
    assert await _status(running, game) is GameStatus.PLAYING


async def _bots(running: Running, game: str) -> int:
    async with running.app.db.tx() as tx:
        seats = await repo.seats_of(tx, int(game))
    return sum(1 for s in seats if s.is_bot)


async def test_only_the_creator_adds_and_removes_bot_players(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, boris])
    lobby = lobby_of(group)

    # Boris is seated but did not open the lobby: he can neither open the bot menu nor add a bot.
    menu = LobbyCb(game=game, op=LobbyOp.BOT_MENU).pack()
    answer = await boris.press(lobby, data=menu)
    assert answer.text is not None and "организатор" in answer.text
    add = LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="easy").pack()
    answer = await boris.press(lobby, data=add, force=True)
    assert answer.text is not None and "организатор" in answer.text
    assert await _bots(running, game) == 0

    # Anna fills the table with two bots; the full lobby still offers the bot menu, to remove one.
    for level in ("easy", "hard"):
        await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.ADD_BOT, value=level).pack(), force=True)
    await tg.wait_for(lambda: "Мастер" in lobby.text, what="both bots seated")
    await tg.settle()
    assert lobby.has_button("Боты")
    await anna.press(lobby, "Боты")
    await tg.wait_for(lambda: lobby.has_button("Убрать: 🤖 Новичок"), what="the removal buttons")
    remove = lobby.button("Убрать: 🤖 Новичок").callback_data
    assert remove is not None
    answer = await boris.press(lobby, data=remove)
    assert answer.text is not None and "организатор" in answer.text
    assert await _bots(running, game) == 2
    answer = await anna.press(lobby, data=remove)
    assert answer.text == "Бот ушёл из-за стола."
    await tg.wait_for(lambda: not lobby.has_button("Новичок"), what="the bot gone from the lobby")
    assert await _bots(running, game) == 1 and lobby.has_button("Убрать: 🤖 Мастер")
    await anna.press(lobby, "Назад")
    await tg.wait_for(lambda: "Мастер" in lobby.text and "Новичок" not in lobby.text, what="the lobby")


async def test_only_members_of_the_group_join_its_lobby(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna, boris, mallory = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Мэллори")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna])
    # Mallory is not in the group; ids are sequential, so she guesses the link.
    await mallory.send_private(f"/start j_{game}")
    await tg.wait_for(lambda: mallory.private_chat.last_bot_message() is not None, what="the answer")
    reply = mallory.private_chat.last_bot_message()
    assert reply is not None
    assert "участники" in reply.text, reply.text
    await boris.send_private(f"/start j_{game}")
    await tg.wait_for(lambda: "Борис" in lobby_of(group).text, what="Boris, a member, seated")
    async with running.app.db.tx() as tx:
        seats = await repo.seats_of(tx, int(game))
    assert [s.name for s in seats] == ["Аня", "Борис"]


async def test_a_cancel_press_is_answered_even_when_telegram_does_not_say_who_is_admin(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    membership = running.app.pipeline.membership
    assert membership is not None
    membership.timeout = 1  # real seconds; 5 in production
    anna, vera = tg.add_user("Аня"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, vera], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna])
    tg.member_delay = 30.0  # getChatMember hangs
    started = tg.monotonic()
    answer = await vera.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.CANCEL).pack(), timeout=10)
    assert answer.answered and answer.text is not None and "админ" in answer.text
    assert tg.monotonic() - started < 3
    assert await _status(running, game) is GameStatus.LOBBY
