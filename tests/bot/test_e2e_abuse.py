"""Hostile and odd input: unknown buttons, ids out of range, old links, floods of refusals, too many lobbies."""

from __future__ import annotations

import logging

import pytest

from bot.callbacks import LobbyCb, LobbyOp, MoveCb, RematchCb
from bot.model.game import GameStatus
from bot.storage import repo
from tests.bot.conftest import SPEED, BotRunner, Running, find_lobby, game_row, lobby_of, open_lobby
from tests.fakebot import FakeTelegram
from tests.fakebot.models import UpdateType


async def _status(running: Running, game: str) -> GameStatus:
    return (await game_row(running, game)).status


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
    running = await bot_runner(lobby_ttl=120)  # two real seconds: time to join on a busy machine
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris])
    game = await open_lobby(tg, group, anna, [anna])
    await tg.wait_for(lambda: find_lobby(group) is None, timeout=10, what="the lobby to expire")
    assert await _status(running, game) is GameStatus.EXPIRED
    await boris.send_private(f"/start j_{game}")
    await tg.wait_for(lambda: boris.private_chat.last_bot_message() is not None, what="the answer")
    reply = boris.private_chat.last_bot_message()
    assert reply is not None
    assert "закрыт" in reply.text, reply.text


async def test_a_hundred_refused_commands_get_one_answer_and_hold_nothing_up(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await open_lobby(tg, group, anna, [anna])
    started = tg.monotonic()
    for _ in range(100):
        await boris.send(group, "/konchinka")
    await tg.wait_for(lambda: tg.pending_updates == 0, what="the commands read")
    # Vera joins by the lobby's link: she is in the lobby at once, not after a queue of refusals.
    url = next(b.url for b in lobby_of(group).flat_buttons if b.url and "start=j_" in b.url)
    await vera.send_private("/start " + url.split("start=", 1)[1])
    await tg.wait_for(lambda: "Вера" in lobby_of(group).text, timeout=5, what="Vera in the lobby")
    await tg.settle()
    # One refusal a minute of the bot's clock (SPEED of them a real minute) while the commands were handled.
    minutes = (tg.monotonic() - started) * SPEED / 60
    refusals = [m for m in group.bot_messages() if "уже идёт набор в партию" in m.text]
    assert 1 <= len(refusals) <= 1 + int(minutes), (len(refusals), minutes)


async def test_one_person_may_keep_only_a_few_lobbies_open(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня")
    groups = [tg.add_group(f"Группа {n}", [anna]) for n in range(4)]
    for group in groups[:3]:
        await open_lobby(tg, group, anna, [anna])
        await tg.sleep(0.2)  # a person's pace: the incoming throttle allows a few commands per 10 s
    await anna.send(groups[3], "/konchinka")
    await tg.wait_for(lambda: groups[3].last_bot_message() is not None, what="the answer")
    reply = groups[3].last_bot_message()
    assert reply is not None and "слишком много" in reply.text and find_lobby(groups[3]) is None
    async with running.app.db.tx() as tx:
        assert len(await repo.active_games(tx)) == 3


async def test_the_new_game_menu_forged_in_private_opens_no_lobby(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    mallory = tg.add_user("Мэллори")
    await mallory.send_private("/help")
    await tg.wait_for(lambda: mallory.private_chat.last_bot_message() is not None, what="a message to press")
    message = mallory.private_chat.last_bot_message()
    assert message is not None
    answer = await mallory.press(message, data="n:konchinka:classic", force=True)
    assert answer.text is not None and "в группе" in answer.text
    async with running.app.db.tx() as tx:
        assert await repo.active_games(tx) == []


async def test_an_update_with_a_number_no_telegram_sends_is_refused_with_one_line_and_stops_nothing(
    tg: FakeTelegram, bot_runner: BotRunner, caplog: pytest.LogCaptureFixture
) -> None:
    """A broken Bot API server hands over a /start from a person whose id SQLite cannot store: refused before
    anything of it is stored, one WARNING line, and the people after it are answered."""
    running = await bot_runner()
    caplog.clear()
    huge = {"id": 10**30, "is_bot": False, "first_name": "Ноль"}
    tg.push_update(
        UpdateType.MESSAGE,
        {
            "message_id": 1,
            "date": 1_700_000_000,
            "chat": huge | {"type": "private"},
            "from": huge,
            "text": "/start",
        },
    )
    people = [tg.add_user(f"Гость {n}") for n in range(5)]
    for person in people:
        await person.send_private("/start")
    await tg.wait_for(lambda: all(p.private_chat.bot_messages() for p in people), what="the greetings")
    refused = [r for r in caplog.records if "no Telegram sends" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.WARNING, caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert running.app.guards.in_range.refused == 1
