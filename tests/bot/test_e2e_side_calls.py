"""Side calls that fail in ways aiogram does not call a Telegram error: a proxy's HTML «502 Bad Gateway» page, an
answer that is not JSON at all. Asking whether someone is a member or an admin, or the group's title, then has
no answer: the bot treats it as unknown and goes on — every command and press still gets its answer."""

from __future__ import annotations

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from bot.storage import GameStatus
from tests.bot.conftest import BotRunner, Running, game_row, lobby_of, open_lobby
from tests.fakebot import FakeChat, FakeTelegram, FakeUser

FAULTS = ["html502", "garbled"]


def _break(tg: FakeTelegram, fault: str, *methods: str) -> None:
    if fault == "html502":
        tg.fail(3600, *methods, code=502, html=True)
    else:
        tg.garble(3600, *methods)


async def _reply_to(tg: FakeTelegram, user: FakeUser, text: str) -> str:
    before = len(user.private_chat.bot_messages())
    await user.send_private(text)
    await tg.wait_for(lambda: len(user.private_chat.bot_messages()) > before, what=f"a reply to {text}")
    return user.private_chat.bot_messages()[-1].text


async def _lobby(
    tg: FakeTelegram, bot_runner: BotRunner
) -> tuple[Running, FakeChat, str, FakeUser, FakeUser]:
    running = await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    game = await open_lobby(tg, group, anna, [])  # nobody has asked Telegram anything about the group yet
    return running, group, game, boris, vera


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_join_while_membership_cannot_be_asked_is_answered_and_works_once_it_can(
    tg: FakeTelegram, bot_runner: BotRunner, fault: str
) -> None:
    _running, group, game, boris, _vera = await _lobby(tg, bot_runner)
    _break(tg, fault, "getChatMember")
    reply = await _reply_to(tg, boris, f"/start j_{game}")
    assert "проверить" in reply, reply
    assert "Борис" not in lobby_of(group).text
    tg.heal()
    reply = await _reply_to(tg, boris, f"/start j_{game}")
    assert "Друзья" in reply, reply
    await tg.wait_for(lambda: "Борис" in lobby_of(group).text, what="Boris seated")


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_join_while_the_groups_title_cannot_be_had_is_confirmed(
    tg: FakeTelegram, bot_runner: BotRunner, fault: str
) -> None:
    _running, group, game, boris, _vera = await _lobby(tg, bot_runner)
    _break(tg, fault, "getChat")
    reply = await _reply_to(tg, boris, f"/start j_{game}")
    assert reply == "Вы за столом!", reply
    await tg.wait_for(lambda: "Борис" in lobby_of(group).text, what="Boris seated")


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_cancel_while_admin_rights_cannot_be_asked_is_refused_in_words(
    tg: FakeTelegram, bot_runner: BotRunner, fault: str
) -> None:
    running, group, game, _boris, vera = await _lobby(tg, bot_runner)
    _break(tg, fault, "getChatMember")
    answer = await vera.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.CANCEL).pack())
    assert answer.answered and answer.text is not None and "админ" in answer.text, answer.text
    assert (await game_row(running, game)).status is GameStatus.LOBBY
    await vera.send(group, "/cancel")
    await tg.wait_for(
        lambda: "админ" in (group.last_bot_message() or lobby_of(group)).text, what="/cancel refused"
    )
    assert (await game_row(running, game)).status is GameStatus.LOBBY
