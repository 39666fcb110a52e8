"""«Реванш» after a finished game: in a group a new lobby with the same seats, in private a new solo game."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp, RematchCb
from bot.i18n import Locale, translator
from bot.model.game import GameStatus
from tests.bot.conftest import (
    BotRunner,
    find_lobby,
    game_row,
    games_of,
    has_rematch,
    lobby_of,
    move_buttons,
    open_lobby,
    play_until,
    seat_names,
    start_solo_konchinka,
    turn_message,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram

RU = translator(Locale.RU)


def rematch_message(chat: FakeChat) -> FakeMessage:
    return next(
        m
        for m in reversed(chat.visible_messages())
        if any(b.callback_data and b.callback_data.startswith("rm:") for b in m.flat_buttons)
    )


def ended(chat: FakeChat, game: str) -> bool:
    """The chat shows the end of ``game`` (its rematch button)."""
    press = RematchCb(game=game).pack()
    return any(b.callback_data == press for m in chat.visible_messages() for b in m.flat_buttons)


async def test_a_rematch_in_a_group_opens_a_lobby_with_the_same_seats(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1, bot_delay=0.2)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, boris])
    points = LobbyCb(game=game, op=LobbyOp.SET, key="variant", value="points").pack()
    assert (await anna.press(lobby_of(group), data=points, force=True)).answered
    add = LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="hard").pack()
    assert (await anna.press(lobby_of(group), data=add, force=True)).answered
    assert (await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())).answered
    await play_until(tg, [anna, boris], lambda: has_rematch(group.visible_messages()), timeout=60)
    await tg.settle()
    old = await game_row(running, game)
    assert old.status is GameStatus.FINISHED
    final = rematch_message(group)
    press = RematchCb(game=game).pack()
    assert press in [b.callback_data for b in final.flat_buttons]

    # Vera watched but did not play: her press is refused.
    answer = await vera.press(final, data=press)
    assert answer.text == RU.t("answer-not-a-player")
    assert find_lobby(group) is None

    answer = await boris.press(final, data=press)
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the rematch lobby")
    lobby = lobby_of(group)
    assert lobby.thread_id == final.thread_id
    (new,) = await games_of(running, boris, GameStatus.LOBBY)
    assert new.id != old.id and new.chat_id == group.id
    assert new.creator_id == anna.id, "the party's host runs its rematch, whoever tapped first"
    assert new.kind == old.kind and new.options["variant"] == "points"
    assert (
        await seat_names(running, new.id) == await seat_names(running, game) == ["Аня", "Борис", "bot:hard"]
    )
    assert new.key in str(lobby.buttons)
    # The other player is called by a mention (Telegram tells her), and told who starts the rematch.
    await tg.wait_for(
        lambda: any(m.text.startswith("🔁 Борис") for m in group.bot_messages()), what="the call"
    )
    call = next(m for m in group.bot_messages() if m.text.startswith("🔁 Борис"))
    assert call.text == "🔁 Борис зовёт на реванш: Аня — ваши места за вами, начать партию может Аня."
    assert [e.url for e in call.entities if e.type == "text_link"] == [f"tg://user?id={anna.id}"]

    # A second press (the rematch is already open) opens nothing more, and says the lobby is open.
    answer = await anna.press(final, data=press)
    assert answer.text == RU.t("answer-lobby-open")
    assert [g.id for g in await games_of(running, anna, GameStatus.LOBBY)] == [new.id]

    # The new lobby works: its host starts it and everyone gets a hand.
    start = LobbyCb(game=new.key, op=LobbyOp.START).pack()
    assert (await boris.press(lobby, data=start)).text == RU.t("answer-not-creator")
    assert (await anna.press(lobby, data=start)).answered
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn of the rematch")
    assert (await game_row(running, new.key)).status is GameStatus.PLAYING


async def test_a_solo_rematch_starts_a_new_game_against_the_same_bots(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1, bot_delay=0.2)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    chat = anna.private_chat
    await start_solo_konchinka(tg, anna, opponents=2, level="hard")
    await play_until(tg, [anna], lambda: has_rematch(chat.visible_messages()), timeout=60)
    await tg.settle()
    (old,) = await games_of(running, anna)
    assert old.status is GameStatus.FINISHED
    final = rematch_message(chat)
    press = RematchCb(game=old.key).pack()

    # A forged press of her rematch button by someone else is refused.
    await boris.send_private("/help")
    await tg.wait_for(lambda: boris.private_chat.last_bot_message() is not None, what="/help")
    other = boris.private_chat.last_bot_message()
    assert other is not None
    answer = await boris.press(other, data=press, force=True)
    assert answer.text == RU.t("answer-not-a-player")
    assert await games_of(running, boris) == []

    answer = await anna.press(final, data=press)
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: turn_message(anna) is not None, what="her first turn of the rematch")
    old_again, new = await games_of(running, anna)
    assert old_again.id == old.id and new.status is GameStatus.PLAYING and new.chat_id == anna.id
    assert await seat_names(running, new.id) == ["Аня", "bot:hard", "bot:hard"]
    hand = turn_message(anna)
    assert hand is not None and {d.split(":")[1] for d in move_buttons(hand)} == {new.key}
    answer = await anna.press(final, data=press, force=True)
    assert answer.text == RU.t("answer-game-running")
    assert len(await games_of(running, anna)) == 2
    # The rematch is played to its end like any game.
    await play_until(tg, [anna], lambda: ended(chat, new.key), timeout=60)
    assert (await game_row(running, new.key)).status is GameStatus.FINISHED


async def test_a_cancelled_game_cannot_be_rematched(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, boris])
    lobby = lobby_of(group)
    assert (await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.CANCEL).pack())).answered
    assert (await game_row(running, game)).status is GameStatus.CANCELLED
    # No «Реванш» button is ever drawn for a cancelled game; Boris forges its press on the old lobby message.
    answer = await boris.press(lobby, data=RematchCb(game=game).pack(), force=True)
    await tg.settle()
    assert await games_of(running, boris, GameStatus.LOBBY) == []
    assert answer.text == RU.t("answer-no-game")
