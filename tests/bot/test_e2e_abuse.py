"""Hostile and odd input: unknown buttons, ids out of range, old links, floods of refusals, too many lobbies."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp, MoveCb, RematchCb
from bot.storage import GameStatus, repo
from tests.bot.conftest import BotRunner, Running, find_lobby, lobby_of, open_lobby
from tests.fakebot import FakeTelegram


async def _status(running: Running, game: str) -> GameStatus:
    async with running.app.db.tx() as tx:
        row = await repo.get_game(tx, int(game))
    assert row is not None
    return row.status


async def test_unknown_buttons_and_ids_out_of_range_are_answered(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna])
    lobby = lobby_of(group)
    huge = str(2**63)
    for data in (
        "zzz",
        "l:1",
        "m:x:y:z",
        LobbyCb(game=huge, op=LobbyOp.LEAVE).pack(),
        LobbyCb(game=huge, op=LobbyOp.CANCEL).pack(),
        MoveCb(game=huge, version=0, index=0).pack(),
        RematchCb(game="9" * 30).pack(),
        LobbyCb(game=" 1", op=LobbyOp.START).pack(),
    ):
        answer = await anna.press(lobby, data=data, force=True, timeout=2)
        assert answer.answered and answer.text, f"{data!r} got no answer"
    assert await _status(running, game) is GameStatus.LOBBY


async def test_the_link_of_an_expired_lobby_says_it_closed(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner(lobby_ttl=30)  # half a real second
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris])
    game = await open_lobby(tg, group, anna, [anna])
    await tg.wait_for(lambda: find_lobby(group) is None, timeout=10, what="the lobby to expire")
    assert await _status(running, game) is GameStatus.EXPIRED
    await boris.send_private(f"/start j_{game}")
    await tg.wait_for(lambda: boris.private_chat.last_bot_message() is not None, what="the answer")
    reply = boris.private_chat.last_bot_message()
    assert reply is not None and "закрыт" in reply.text, reply.text
