"""The creator of a lobby sits down at once when the bot may already write to them; otherwise they join."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp, NewCb
from bot.i18n import Locale, translator
from tests.bot.conftest import (
    BotRunner,
    find_lobby,
    joined_text,
    lobby_of,
    plain,
    seat_names,
    turn_message,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

RU = translator(Locale.RU)
MARK = plain(RU.t("lobby-creator-mark"))


async def started(tg: FakeTelegram, user: FakeUser) -> None:
    """The user opens the bot in private (/start), as anyone who played before has."""
    await user.send_private("/start")
    await tg.wait_for(lambda: user.private_chat.bot_messages(), what=f"the help for {user.full_name}")


def join_payload(lobby: FakeMessage) -> str:
    url = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
    return url.split("start=", 1)[1]


async def private_reply(tg: FakeTelegram, user: FakeUser, text: str) -> str:
    sent = await user.send_private(text)

    def reply() -> FakeMessage | None:
        last = user.private_chat.last_bot_message()
        return last if last is not None and last.message_id > sent.message_id else None

    await tg.wait_for(reply, what=f"the answer to {user.full_name}'s {text}")
    message = reply()
    assert message is not None
    return message.text


async def lobby_in(tg: FakeTelegram, group: FakeChat) -> FakeMessage:
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    return lobby_of(group)


async def test_a_creator_who_started_the_bot_is_seated_at_once(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await started(tg, anna)

    await anna.send(group, "/konchinka")
    lobby = await lobby_in(tg, group)
    lines = lobby.text.splitlines()
    assert RU.t("lobby-players", count=1, max=4) in lines
    assert f" 1. Аня {MARK}".strip() in [line.strip() for line in lines]
    assert not any(line.startswith(RU.t("lobby-creator", name="Аня")) for line in lines)
    assert await seat_names(running, lobby_payload_game(lobby)) == ["Аня"]

    # Her own link says she is in already; Борис joins and is told where and what comes next.
    payload = join_payload(lobby)
    assert await private_reply(tg, anna, f"/start {payload}") == RU.t("answer-already-joined")
    assert await private_reply(tg, boris, f"/start {payload}") == joined_text(RU, group)
    await tg.wait_for(lambda: "Борис" in lobby_of(group).text, what="Boris seated")

    game = lobby_payload_game(lobby)
    assert (await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.START).pack())).answered
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="the first turn")


async def test_a_creator_who_never_started_the_bot_joins_by_the_link(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna], admins=[anna])

    await anna.send(group, "/king")
    lobby = await lobby_in(tg, group)
    game = lobby_payload_game(lobby)
    assert RU.t("lobby-empty") in lobby.text.splitlines()
    assert MARK not in lobby.text
    assert await seat_names(running, game) == []

    assert await private_reply(tg, anna, f"/start {join_payload(lobby)}") == joined_text(RU, group, "king")
    await tg.wait_for(lambda: MARK in lobby_of(group).text, what="the creator's seat marked")
    assert await seat_names(running, game) == ["Аня"]


async def test_new_seats_a_creator_who_started_the_bot(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna], admins=[anna])
    await started(tg, anna)

    await anna.send(group, "/new")
    await tg.wait_for(lambda: group.last_bot_message(), what="the game choice")
    choice = group.last_bot_message()
    assert choice is not None
    assert (await anna.press(choice, data=NewCb(kind="king").pack())).answered
    lobby = await lobby_in(tg, group)
    assert await seat_names(running, lobby_payload_game(lobby)) == ["Аня"]
    assert MARK in lobby.text


def lobby_payload_game(lobby: FakeMessage) -> str:
    return join_payload(lobby).removeprefix("j_")
