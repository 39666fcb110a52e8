"""/new opens a lobby of the chosen game; /cancel ends a lobby or a running game, in a group and in private."""

from __future__ import annotations

from bot.callbacks import LobbyCb, LobbyOp, NewCb
from bot.games import plugins
from bot.i18n import Locale, translator
from bot.model.game import GameStatus
from tests.bot.conftest import (
    BotRunner,
    find_lobby,
    game_row,
    games_of,
    lobby_of,
    open_lobby,
    pause_like_a_person,
    start_party,
    start_solo_konchinka,
    turn_message,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

RU = translator(Locale.RU)
CANCELLED = RU.t("notice-cancelled")
"""Said once, by the game's own message sent anew below (a lobby's, a table's with the standings, a solo hand)."""
NO_GAME = RU.t("answer-no-game")
OVER = {RU.t("answer-game-over"), NO_GAME, RU.t("answer-stale")}
"""What a press of a cancelled game's button may be answered with."""


def new_choices(message: FakeMessage) -> list[str]:
    return [
        b.callback_data for b in message.flat_buttons if b.callback_data and b.callback_data.startswith("n:")
    ]


async def bot_says(tg: FakeTelegram, chat: FakeChat, text: str, after: int = 0) -> FakeMessage:
    """Wait for the bot's message saying ``text`` in ``chat`` (newer than message ``after``); it says it alone."""

    def said() -> list[FakeMessage]:
        return [
            m for m in chat.visible_messages() if m.is_from_bot and m.message_id > after and text in m.text
        ]

    await tg.wait_for(said, what=repr(text))
    await tg.settle()
    messages = said()
    assert len(messages) == 1, [m.text for m in messages]
    return messages[0]


async def send_new(tg: FakeTelegram, user: FakeUser, group: FakeChat) -> FakeMessage:
    await user.send(group, "/new")
    await tg.wait_for(lambda: any(new_choices(m) for m in group.bot_messages()), what="the /new choice")
    return next(m for m in reversed(group.bot_messages()) if new_choices(m))


async def test_new_opens_a_lobby_of_the_chosen_game(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    choice = await send_new(tg, anna, group)
    choices = new_choices(choice)
    offered = [NewCb(kind=p.kind, choice=c).pack() for p in plugins() for _, c in p.new_choices(RU)]
    assert choices == offered, "each game's choices, in menu order"
    konchinka = [d for d in choices if d.startswith("n:konchinka:")]
    king = [d for d in choices if "king" in d]
    points = [d for d in choices if "points" in d]
    assert len(konchinka) == 2 and len(king) == 1 and len(points) == 1, choices
    assert find_lobby(group) is None, "/new alone opens nothing"

    answer = await boris.press(choice, data=points[0])
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    row = await game_row(running, lobby_game(group))
    assert row.kind == "konchinka" and row.options["variant"] == "points" and row.creator_id == boris.id
    assert row.status is GameStatus.LOBBY and row.chat_id == group.id

    # One game per chat: another choice is refused while the lobby is open.
    answer = await anna.press(choice, data=king[0])
    assert answer.text == RU.t("answer-lobby-open")
    assert (await game_row(running, lobby_game(group))).id == row.id

    await boris.send(group, "/cancel")
    await bot_says(tg, group, CANCELLED)
    answer = await anna.press(choice, data=king[0])
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: lobby_game(group) not in ("", row.key), what="the King lobby")
    king_row = await game_row(running, lobby_game(group))
    assert king_row.kind == "king" and king_row.creator_id == anna.id and king_row.status is GameStatus.LOBBY


def lobby_game(group: FakeChat) -> str:
    lobby = find_lobby(group)
    if lobby is None:
        return ""
    data = next(
        b.callback_data for b in lobby.flat_buttons if b.callback_data and b.callback_data.startswith("l:")
    )
    return LobbyCb.unpack(data).game


async def test_the_creator_cancels_a_group_lobby_with_the_command(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[boris])
    game = await open_lobby(tg, group, anna, [anna, boris])
    lobby = lobby_of(group)
    await anna.send(group, "/cancel")
    closed = await bot_says(tg, group, CANCELLED, after=lobby.message_id)
    assert (await game_row(running, game)).status is GameStatus.CANCELLED
    await tg.wait_for(
        lambda: lobby.is_deleted and not closed.url_buttons, what="the lobby closed, said below"
    )
    answer = await anna.press(closed, data=LobbyCb(game=game, op=LobbyOp.START).pack(), force=True)
    assert answer.text in OVER | {RU.t("answer-lobby-closed")}
    assert (await game_row(running, game)).status is GameStatus.CANCELLED
    assert turn_message(anna) is None and turn_message(boris) is None
    # Nothing is left to cancel; the chat is free for a new lobby.
    await pause_like_a_person(tg)
    await anna.send(group, "/cancel")
    await bot_says(tg, group, NO_GAME, after=lobby.message_id)
    await boris.send(group, "/konchinka")
    await tg.wait_for(lambda: find_lobby(group) not in (None, lobby), what="a new lobby")


async def test_an_admin_cancels_a_running_group_game_and_its_buttons_go_stale(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[vera])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    await tg.settle()
    mover = anna if turn_message(anna) else boris
    hand = turn_message(mover)
    assert hand is not None
    data = next(
        b.callback_data for b in hand.flat_buttons if b.callback_data and b.callback_data[:2] in ("m:", "p:")
    )
    version = (await game_row(running, game)).version

    # A player who neither created the game nor administers the chat may not cancel it.
    await boris.send(group, "/cancel")
    await bot_says(tg, group, RU.t("answer-not-creator-or-admin"))
    assert (await game_row(running, game)).status is GameStatus.PLAYING

    await vera.send(group, "/cancel")
    await bot_says(tg, group, CANCELLED)
    assert (await game_row(running, game)).status is GameStatus.CANCELLED
    answer = await mover.press(hand, data=data, force=True)
    assert answer.text in OVER
    row = await game_row(running, game)
    assert row.status is GameStatus.CANCELLED and row.version == version
    await tg.settle()
    assert turn_message(anna) is None and turn_message(boris) is None, "no move buttons left after the cancel"


async def test_cancel_in_private_ends_the_solo_game_only(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    chat = anna.private_chat

    # No solo game: /cancel in private says so, and leaves her group lobby alone.
    lobby_game_id = await open_lobby(tg, group, anna, [anna])
    await anna.send_private("/cancel")
    await bot_says(tg, chat, NO_GAME)
    assert (await game_row(running, lobby_game_id)).status is GameStatus.LOBBY

    await pause_like_a_person(tg)
    await start_solo_konchinka(tg, anna, opponents=2)
    await tg.wait_for(lambda: turn_message(anna), what="her turn")
    (solo,) = await games_of(running, anna, GameStatus.PLAYING)
    hand = turn_message(anna)
    assert hand is not None
    data = next(
        b.callback_data for b in hand.flat_buttons if b.callback_data and b.callback_data[:2] in ("m:", "p:")
    )
    last = hand.message_id
    await pause_like_a_person(tg)
    await anna.send_private("/cancel")
    cancelled = await bot_says(tg, chat, CANCELLED, after=last)
    assert (await game_row(running, solo.key)).status is GameStatus.CANCELLED
    assert (await game_row(running, lobby_game_id)).status is GameStatus.LOBBY, "the group lobby stays"
    answer = await anna.press(cancelled, data=data, force=True)  # the old hand's button, pressed late
    assert answer.text in OVER
    await tg.settle()
    assert turn_message(anna) is None

    # A new solo game can start at once.
    await pause_like_a_person(tg)
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.wait_for(lambda: turn_message(anna), what="a new solo game")
    (again,) = await games_of(running, anna, GameStatus.PLAYING)
    assert again.id != solo.id


async def test_an_admin_whose_rights_the_library_cannot_parse_still_cancels_and_no_refusal_is_silent(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """getChatMember answered without a field aiogram's model requires (an older or another Bot API server):
    the status alone says who administers the group. Each person's own refusal is said, even just after
    another's; a person whose rights Telegram does not tell is told so, not «only the creator or an admin»."""
    running = await bot_runner()
    anna, boris, vera, gleb = (tg.add_user(n) for n in ("Аня", "Борис", "Вера", "Глеб"))
    group = tg.add_group("Друзья", [anna, boris, vera, gleb], admins=[anna, boris])  # Anna created the group
    game = await open_lobby(tg, group, vera, [vera, gleb])
    lobby = lobby_of(group)
    tg.member_fields_left_out = {"can_send_welcome_messages"}
    refused = RU.t("answer-not-creator-or-admin")
    await gleb.send(group, "/cancel")  # a member who did not open the lobby
    first = await bot_says(tg, group, refused, after=lobby.message_id)
    await pause_like_a_person(tg)
    tg.fail(60.0, "getChatMember")  # Telegram does not answer about Anna for a while
    await anna.send(group, "/cancel")
    await bot_says(tg, group, RU.t("answer-cannot-check-rights"), after=first.message_id)
    assert (await game_row(running, game)).status is GameStatus.LOBBY
    tg.faults.clear()
    await pause_like_a_person(tg)
    await boris.send(group, "/cancel")  # an admin, not the creator of the lobby
    await bot_says(tg, group, CANCELLED, after=first.message_id)
    assert (await game_row(running, game)).status is GameStatus.CANCELLED
