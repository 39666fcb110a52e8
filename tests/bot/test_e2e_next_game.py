"""/nextgame: a member is called in private when the group's next lobby opens (Werewolf's /nextgame), once."""

from __future__ import annotations

from tests.bot.conftest import BotRunner, find_lobby, lobby_of
from tests.fakebot import FakeChat, FakeTelegram, FakeUser


def private_calls(user: FakeUser) -> list[str]:
    """The join links of the calls ``user`` got in private."""
    return [
        b.url
        for m in user.private_chat.bot_messages()
        for b in m.url_buttons
        if b.url and "start=j_" in b.url
    ]


async def asks(tg: FakeTelegram, user: FakeUser, group: FakeChat) -> str:
    """``user`` sends /nextgame in ``group``; the bot's answer there."""
    before = group.bot_message_count()
    await user.send(group, "/nextgame")
    await tg.wait_for(lambda: group.bot_message_count() > before, what="the answer to /nextgame")
    answer = group.last_bot_message()
    assert answer is not None
    return answer.text


async def test_next_game_calls_the_listed_once_in_private(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner()
    anna, boris, gleb, dina = (tg.add_user(n) for n in ("Аня <&>", "Борис", "Глеб", "Дина"))
    group = tg.add_group("Друзья", [anna, boris, gleb, dina])
    for user in (anna, boris, dina):  # Глеб never opened the private chat: the bot cannot write to him
        await user.send_private("/start")
    await tg.settle()

    assert "позову вас в личке" in await asks(tg, boris, group)
    said = await asks(tg, gleb, group)
    assert "не могу" in said and group.last_bot_message() is not None
    assert any(b.url and "t.me/" in b.url for b in group.last_bot_message().url_buttons)  # type: ignore[union-attr]
    assert "позову вас в личке" in await asks(tg, dina, group)
    assert "больше не позову" in await asks(tg, dina, group)  # again: off the list
    await tg.settle()

    calls = tg.stats.copy()
    await anna.send(group, "/konchinka")
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    await tg.wait_for(lambda: bool(private_calls(boris)), what="Борис called")
    await tg.settle()
    lobby = lobby_of(group)
    join = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
    assert private_calls(boris) == [join]
    assert "Кончинка" in boris.private_chat.bot_messages()[-1].text
    assert "Аня <&>" in boris.private_chat.bot_messages()[-1].text
    # what the calls cost: one message to Борис; none to Глеб (a 403 spared) nor to Дина (off the list)
    assert tg.stats.chat_calls[boris.id] - calls.chat_calls[boris.id] == 1
    assert tg.stats.chat_calls[gleb.id] == calls.chat_calls[gleb.id]
    assert tg.stats.chat_calls[dina.id] == calls.chat_calls[dina.id]
    assert not private_calls(dina) and not private_calls(gleb)

    await boris.send_private(f"/start {join.split('start=', 1)[1]}")  # the call's button seats him
    await tg.wait_for(lambda: "Борис" in lobby_of(group).text, what="Борис seated")

    # the list was emptied: the chat's next lobby calls nobody
    await anna.send(group, "/cancel")
    await tg.settle()
    await anna.send(group, "/konchinka")
    await tg.wait_for(lambda: lobby_of(group).message_id != lobby.message_id, what="a second lobby")
    await tg.settle()
    assert private_calls(boris) == [join]


async def test_next_game_is_in_the_group_menu_and_help(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    await bot_runner()
    anna = tg.add_user("Аня")
    group = tg.add_group("Друзья", [anna])
    group_menus = [c for (scope, _), c in tg.commands.items() if "group" in scope]
    assert group_menus and all(
        {"nextgame", "settings"} <= {c["command"] for c in menu} for menu in group_menus
    )
    await anna.send(group, "/help")
    await tg.wait_for(lambda: group.last_bot_message() is not None, what="the help")
    text = group.last_bot_message().text  # type: ignore[union-attr]
    assert "/nextgame" in text and "/settings" in text and "Отменить ход нельзя" in text
