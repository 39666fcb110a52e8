"""Seats of a group lobby: leaving it, coming back, a full table, and joining once the game runs."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp
from bot.i18n import Locale, translator
from bot.model.game import GameStatus
from tests.bot.conftest import BotRunner, game_row, joined_text, lobby_of, open_lobby, seat_names
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

RU = translator(Locale.RU)


async def reply_to_link(tg: FakeTelegram, user: FakeUser, game: str) -> str:
    """The user follows the lobby's join link; the bot's answer in private."""
    sent = await user.send_private(f"/start j_{game}")

    def reply() -> FakeMessage | None:
        last = user.private_chat.last_bot_message()
        return last if last is not None and last.message_id > sent.message_id else None

    await tg.wait_for(reply, what=f"the answer to {user.full_name}'s join")
    message = reply()
    assert message is not None
    return message.text


def join_link(lobby: FakeMessage) -> bool:
    return any("start=j_" in (b.url or "") for b in lobby.flat_buttons)


async def test_a_player_leaves_the_lobby_and_comes_back(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, boris, vera])
    lobby = lobby_of(group)
    leave = LobbyCb(game=game, op=LobbyOp.LEAVE).pack()
    assert leave in [b.callback_data for b in lobby.flat_buttons]

    answer = await boris.press(lobby, data=leave)
    assert answer.text == RU.t("answer-left")
    await tg.wait_for(lambda: "Борис" not in lobby.text, what="Boris gone from the lobby")
    assert await seat_names(running, game) == ["Аня", "Вера"]
    answer = await boris.press(lobby, data=leave)
    assert answer.text == RU.t("answer-not-a-player")
    assert await seat_names(running, game) == ["Аня", "Вера"]

    assert await reply_to_link(tg, boris, game) == joined_text(RU, group)
    await tg.wait_for(lambda: "Борис" in lobby.text, what="Boris back in the lobby")
    assert sorted(await seat_names(running, game)) == ["Аня", "Борис", "Вера"]

    # Once the game runs, the lobby's leave button does nothing.
    assert (await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.START).pack())).answered
    await tg.wait_for(lambda: not join_link(lobby), what="the lobby closed")
    answer = await vera.press(lobby, data=leave, force=True)
    assert answer.text
    row = await game_row(running, game)
    assert row.status is GameStatus.PLAYING
    assert sorted(await seat_names(running, game)) == ["Аня", "Борис", "Вера"]


async def test_a_full_lobby_turns_away_a_fifth_player_until_a_seat_frees(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    people = [tg.add_user(name) for name in ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор")]
    anna, _boris, _vera, gleb, dina, egor = people
    group: FakeChat = tg.add_group("Друзья", people, admins=[anna])
    game = await open_lobby(tg, group, anna, people[:3])
    lobby = lobby_of(group)  # the full lobby has no join link: find_lobby() would not see it
    assert await reply_to_link(tg, gleb, game) == joined_text(RU, group)
    await tg.wait_for(lambda: not join_link(lobby), what="the full lobby to drop its join link")

    assert await reply_to_link(tg, dina, game) == RU.t("answer-lobby-full")
    add = LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="easy").pack()
    answer = await anna.press(lobby, data=add, force=True)
    assert answer.text == RU.t("answer-lobby-full")
    # Борис and Вера followed the link at the same moment: either may have taken the second seat.
    assert sorted(await seat_names(running, game)) == ["Аня", "Борис", "Вера", "Глеб"]

    answer = await gleb.press(lobby, data=LobbyCb(game=game, op=LobbyOp.LEAVE).pack())
    assert answer.text == RU.t("answer-left")
    await tg.wait_for(lambda: join_link(lobby), what="the join link back")
    assert await reply_to_link(tg, dina, game) == joined_text(RU, group)
    await tg.wait_for(lambda: "Дина" in lobby.text and not join_link(lobby), what="Dina seated, full again")
    assert sorted(await seat_names(running, game)) == ["Аня", "Борис", "Вера", "Дина"]

    assert (await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.START).pack())).answered
    await tg.wait_for(lambda: all(p.private_chat.bot_messages() for p in people[:3]), what="the hands")
    assert (await game_row(running, game)).status is GameStatus.PLAYING
    assert await reply_to_link(tg, egor, game) == RU.t("answer-game-running")
    assert sorted(await seat_names(running, game)) == ["Аня", "Борис", "Вера", "Дина"]
