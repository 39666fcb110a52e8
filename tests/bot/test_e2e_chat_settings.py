"""/settings: a group's own settings for its new lobbies, saved by its admins from an open lobby."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp, NewCb
from bot.games.konchinka.settings import KonchinkaSetting
from bot.model.game import TURN_TIME_KEY
from tests.bot.conftest import BotRunner, find_lobby, lobby_of
from tests.fakebot import FakeChat, FakeTelegram, FakeUser


def replies_after(group: FakeChat, last: int) -> list[str]:
    """The bot's messages in ``group`` after message ``last``, but its lobbies (sent anew below as the chat goes)."""
    return [
        m.text
        for m in group.bot_messages()
        if m.message_id > last and not any("start=j_" in (b.url or "") for b in m.flat_buttons)
    ]


async def said(tg: FakeTelegram, user: FakeUser, group: FakeChat, text: str) -> str:
    """``user`` sends ``text`` in ``group``; the bot's answer there."""
    last = max((m.message_id for m in group.bot_messages()), default=0)
    await user.send(group, text)
    await tg.wait_for(lambda: bool(replies_after(group, last)), what=f"the answer to {text}")
    await tg.settle()
    (answer,) = replies_after(group, last)
    return answer


async def a_new_lobby(tg: FakeTelegram, user: FakeUser, group: FakeChat, text: str) -> str:
    """``user`` sends ``text`` (a game's command) in ``group``; the new lobby's text."""
    old = find_lobby(group)
    await user.send(group, text)
    await tg.wait_for(
        lambda: (
            (found := find_lobby(group)) is not None and (old is None or found.message_id != old.message_id)
        ),
        what="a new lobby",
    )
    await tg.settle()
    return lobby_of(group).text


async def test_an_admin_saves_the_lobby_s_settings_for_the_chat_s_new_lobbies(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    assert "нет" in await said(tg, boris, group, "/settings")  # none saved yet: how to

    plain = await a_new_lobby(tg, anna, group, "/konchinka")
    assert "очков" not in plain and "На ход: 90 с" not in plain
    game = lobby_of(group).url_buttons[0].url.split("start=j_", 1)[1]  # type: ignore[union-attr]
    for key, value in ((KonchinkaSetting.VARIANT.value, "points"), (TURN_TIME_KEY, "90")):
        await anna.press(
            lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.SET, key=key, value=value).pack(), force=True
        )
    await tg.wait_for(lambda: "очков" in lobby_of(group).text, what="the variant set")

    assert "админ" in await said(tg, boris, group, "/settings")  # not his to save
    saved = await said(tg, anna, group, "/settings")
    assert "Сохранено" in saved and "очков" in saved and "90 с" in saved

    await anna.send(group, "/cancel")
    await tg.settle()
    lobby = await a_new_lobby(tg, boris, group, "/konchinka")  # anyone's new lobby starts with them
    assert "очков" in lobby and "На ход: 90 с" in lobby
    assert "админ" in await said(tg, boris, group, "/settings")  # his lobby, but not his chat to set

    # /new's choice of the variant wins; the chat's time per turn stays
    await boris.send(group, "/cancel")
    await tg.settle()
    await boris.send(group, "/new")
    await tg.wait_for(
        lambda: "'n:" in str(getattr(group.last_bot_message(), "buttons", "")), what="/new's menu"
    )
    menu = group.last_bot_message()
    assert menu is not None
    old = lobby_of(group).message_id
    await boris.press(menu, data=NewCb(kind="konchinka", choice="classic").pack(), force=True)
    await tg.wait_for(lambda: lobby_of(group).message_id != old, what="the lobby /new opened")
    await tg.settle()
    assert "очков" not in lobby_of(group).text and "На ход: 90 с" in lobby_of(group).text

    await boris.send(group, "/cancel")
    await tg.settle()
    shown = await said(tg, boris, group, "/settings")  # no lobby open: anyone is shown the chat's own
    assert "начинаются так" in shown and "очков" in shown and "90 с" in shown
    assert "админ" in await said(tg, boris, group, "/settings сброс")
    assert "больше нет" in await said(tg, anna, group, "/settings сброс")
    again = await a_new_lobby(tg, boris, group, "/konchinka")
    assert "очков" not in again and "На ход: 90 с" not in again
