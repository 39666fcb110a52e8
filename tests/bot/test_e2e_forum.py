"""Games in forum topics: one game per topic, every message in its own topic, presses and commands from it work."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp, RematchCb
from bot.i18n import Locale, translator
from bot.model.game import GameStatus
from tests.bot.conftest import (
    BotRunner,
    game_row,
    games_on,
    has_rematch,
    pause_like_a_person,
    play_until,
    turn_message,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

RU = translator(Locale.RU)


def in_topic(group: FakeChat, topic: int) -> list[FakeMessage]:
    return [m for m in group.bot_messages() if m.thread_id == topic]


def lobby_in(group: FakeChat, topic: int) -> FakeMessage | None:
    return next(
        (
            m
            for m in reversed(in_topic(group, topic))
            if any("start=j_" in (b.url or "") for b in m.flat_buttons)
        ),
        None,
    )


async def open_in_topic(
    tg: FakeTelegram, group: FakeChat, topic: int, creator: FakeUser, command: str, players: list[FakeUser]
) -> tuple[FakeMessage, str]:
    """``command`` sent in the topic, the players follow the join link; the lobby message and the game id."""
    await creator.send(group, command, thread_id=topic)
    await tg.wait_for(lambda: lobby_in(group, topic), what=f"the lobby in topic {topic}")
    lobby = lobby_in(group, topic)
    assert lobby is not None
    url = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
    payload = url.split("start=", 1)[1]
    for user in players:
        await user.send_private(f"/start {payload}")
    await tg.wait_for(lambda: all(u.full_name in lobby.text for u in players), what="everyone seated")
    return lobby, payload.removeprefix("j_")


def topic_of_game(group: FakeChat) -> dict[str, set[int | None]]:
    """For every game whose buttons the group shows: the topics of the messages that carry them."""
    topics: dict[str, set[int | None]] = {}
    for message in group.bot_messages():
        for game in games_on_message(message):
            topics.setdefault(game, set()).add(message.thread_id)
    return topics


def games_on_message(message: FakeMessage) -> set[str]:
    return {
        d.split(":")[1]
        for version in message.history
        for row in (version.reply_markup or {}).get("inline_keyboard") or []
        for d in (b.get("callback_data") or "" for b in row)
        if d.startswith(("l:", "rm:", "t:"))
    }


async def test_two_topics_hold_two_games_that_never_mix(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner(default_target=1, bot_delay=0.2)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Клуб", [anna, boris, vera], admins=[anna], forum=True)
    cards, king = group.add_topic("Кончинка"), group.add_topic("Кинг")

    lobby_k, konchinka_game = await open_in_topic(tg, group, cards, anna, "/konchinka", [anna, vera])
    lobby_g, king_game = await open_in_topic(tg, group, king, boris, "/king", [boris])
    assert konchinka_game != king_game
    for game, topic in ((konchinka_game, cards), (king_game, king)):
        row = await game_row(running, game)
        assert row.status is GameStatus.LOBBY and row.chat_id == group.id and row.thread_id == topic

    # Presses on the lobby messages in the topics start each game.
    assert (await anna.press(lobby_k, data=LobbyCb(game=konchinka_game, op=LobbyOp.START).pack())).answered
    assert (await boris.press(lobby_g, data=LobbyCb(game=king_game, op=LobbyOp.START).pack())).answered
    await tg.wait_for(lambda: turn_message(anna) or turn_message(vera), what="a Кончинка turn")
    assert (await game_row(running, king_game)).status is GameStatus.PLAYING

    # The same command again in the first topic: that topic already has its game.
    await pause_like_a_person(tg)
    await vera.send(group, "/konchinka", thread_id=cards)
    await tg.wait_for(
        lambda: RU.t("answer-game-running") in [m.text for m in in_topic(group, cards)], what="the refusal"
    )

    # /cancel in the King topic cancels the King game only.
    await boris.send(group, "/cancel", thread_id=king)
    await tg.wait_for(lambda: any(RU.t("notice-cancelled") in m.text for m in in_topic(group, king)))
    assert (await game_row(running, king_game)).status is GameStatus.CANCELLED
    assert (await game_row(running, konchinka_game)).status is GameStatus.PLAYING

    await play_until(tg, [anna, vera], lambda: has_rematch(in_topic(group, cards)), timeout=60)
    await tg.settle()
    assert (await game_row(running, konchinka_game)).status is GameStatus.FINISHED
    assert all(m.thread_id in (cards, king) for m in group.bot_messages()), "nothing went to General"
    # The cancelled game's message, sent anew in its topic, offers nothing to press any more.
    assert topic_of_game(group) == {konchinka_game: {cards}}
    assert games_on(group) == {konchinka_game}
    assert [m for m in in_topic(group, king) if RU.t("notice-cancelled") in m.text and not m.is_deleted]
    assert not has_rematch(in_topic(group, king)), "the cancelled game has no results"

    # «Реванш» pressed in the first topic opens the new lobby there; /new in the second opens one there.
    final = next(m for m in reversed(in_topic(group, cards)) if "rm:" in str(m.buttons))
    assert (await vera.press(final, data=RematchCb(game=konchinka_game).pack())).answered
    await tg.wait_for(
        lambda: lobby_in(group, cards) not in (None, lobby_k), what="the rematch lobby in its topic"
    )
    await boris.send(group, "/new", thread_id=king)
    await tg.wait_for(
        lambda: any("n:" in str(m.buttons) for m in in_topic(group, king)), what="the /new choice"
    )
    choice = next(m for m in in_topic(group, king) if "n:" in str(m.buttons))
    king_choice = next(
        b.callback_data for b in choice.flat_buttons if b.callback_data and "king" in b.callback_data
    )
    assert (await boris.press(choice, data=king_choice)).answered
    await tg.wait_for(
        lambda: lobby_in(group, king) not in (None, lobby_g), what="a new lobby in the King topic"
    )
    assert all(m.thread_id in (cards, king) for m in group.bot_messages())
    topics = topic_of_game(group)
    assert len(topics) == 3 and all(len(t) == 1 for t in topics.values()), (
        topics
    )  # the cancelled one offers nothing
