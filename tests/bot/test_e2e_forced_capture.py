"""«Брать обязательно» in a group game: a card that cannot capture is dimmed, and a tap on it says why."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp
from bot.games.konchinka.settings import KonchinkaSetting
from bot.storage import repo
from tests.bot.conftest import BotRunner, lobby_of, open_lobby, take_turn, turn_message
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser

MUST_CAPTURE = "Брать обязательно: этой картой нужно что-то взять."


def dimmed(message: FakeMessage | None) -> list[tuple[str, str]]:
    if message is None:
        return []
    return [
        (b.text, b.callback_data)
        for b in message.flat_buttons
        if b.callback_data and b.text.startswith("·") and b.text.endswith("·")
    ]


async def test_a_card_that_cannot_capture_is_dimmed_and_refused_with_the_reason(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, boris])
    lobby = lobby_of(group)  # edited in place: main screen, settings, main again
    set_forced = LobbyCb(
        game=game, op=LobbyOp.SET, key=KonchinkaSetting.FORCED_CAPTURE.value, value="1"
    ).pack()
    await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.SETTINGS).pack())
    await tg.wait_for(lambda: set_forced in [b.callback_data for b in lobby.flat_buttons], what="settings")
    assert (await anna.press(lobby, data=set_forced)).answered
    await tg.wait_for(lambda: "Брать обязательно: да" in lobby.text, what="forced capture on")
    start = LobbyCb(game=game, op=LobbyOp.START).pack()
    await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.BACK).pack())
    await tg.wait_for(lambda: start in [b.callback_data for b in lobby.flat_buttons], what="the lobby again")
    await anna.press(lobby, data=start)

    people: list[FakeUser] = [anna, boris]
    deadline = tg.monotonic() + 60
    mover: FakeUser | None = None
    while mover is None:
        assert tg.monotonic() < deadline, "no card without a capture came up"
        await tg.settle()
        for user in people:
            if dimmed(turn_message(user)):
                mover = user
                break
        else:
            for user in people:
                await take_turn(tg, user)  # no dimmed card in sight: every card button plays
    message = turn_message(mover)
    assert message is not None
    async with running.app.db.tx() as tx:
        before = await repo.get_game(tx, int(game))
    text, data = dimmed(message)[0]
    answer = await mover.press(message, data=data)
    assert answer.text == MUST_CAPTURE
    await tg.settle()
    async with running.app.db.tx() as tx:
        after = await repo.get_game(tx, int(game))
    assert before is not None and after is not None and after.version == before.version
    still = turn_message(mover)
    assert still is not None and text in [b.text for b in still.flat_buttons]
