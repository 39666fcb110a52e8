"""«🔍 Разбор партии»: a finished party's end message offers a review of one's own moves, sent privately."""

from __future__ import annotations

import re

from bot.callbacks import ReviewCb
from bot.games import plugin_of
from bot.i18n import Locale, translator
from bot.model.game import GameStatus
from bot.storage import repo
from bot.views.common import SeatInfo
from engine.ai.review import review_party
from tests.bot.conftest import (
    BotRunner,
    game_row,
    games_of,
    lobby_of,
    open_lobby,
    plain,
    play_until,
    start_solo_konchinka,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

RU = translator(Locale.RU)
BETTER = re.compile(r"^Мастер: (.+?)(?: — (.+))?\.$")
"""«Мастер: <move> — <what it does that the move made does not>.» (Кончинка's search values an edge over the
others, not the player's points: no figure)"""


def review_button(chat: FakeChat, game: str) -> FakeMessage | None:
    press = ReviewCb(game=game).pack()
    for message in reversed(chat.visible_messages()):
        if any(b.callback_data == press for b in message.flat_buttons):
            return message
    return None


def review_message(chat: FakeChat) -> FakeMessage | None:
    for message in reversed(chat.visible_messages()):
        if message.is_from_bot and message.text.startswith(plain(RU.t("review-title"))):
            return message
    return None


async def expected_review(running: object, game: str, player: int, seats: list[str]) -> str:
    """The review the engine makes of ``player``'s moves in the stored party, as the bot renders it."""
    row = await game_row(running, game)  # type: ignore[arg-type]
    record = await repo.record_of(running.app.db, int(game))  # type: ignore[attr-defined]
    assert record is not None
    party = plugin_of(row.kind).restore(record)
    infos = tuple(SeatInfo(name=name) for name in seats)
    from bot.games.base import Frame

    return plain(party.render_review(review_party(record, player), Frame(game, infos), RU).text)


async def press_review(tg: FakeTelegram, user: FakeUser, game: str) -> FakeMessage:
    end = review_button(user.private_chat, game)
    assert end is not None, "the party's end offers «🔍 Разбор партии»"
    assert end.button(RU.t("btn-review")).callback_data == ReviewCb(game=game).pack()
    answer = await user.press(end, data=ReviewCb(game=game).pack(), timeout=60)
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: review_message(user.private_chat) is not None, timeout=60, what="the review")
    review = review_message(user.private_chat)
    assert review is not None and review.message_id > end.message_id
    return review


async def test_a_solo_party_ends_with_a_review_of_the_three_costliest_moves(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=3, bot_delay=0.2)
    anna = tg.add_user("Аня")
    chat = anna.private_chat
    await start_solo_konchinka(tg, anna, opponents=1, level="normal")
    (row,) = await games_of(running, anna)
    game = row.key
    await play_until(tg, [anna], lambda: review_button(chat, game) is not None, timeout=120)
    await tg.settle()
    assert (await game_row(running, game)).status is GameStatus.FINISHED

    review = await press_review(tg, anna, game)
    lines = review.text.splitlines()
    better = [m for m in (BETTER.match(line) for line in lines) if m]
    assert len(better) == 3, review.text
    assert "очка" not in review.text, "no figure that is not the player's points"
    played = [line for line in lines if line.startswith("Вы: ")]
    assert len(played) == 3 and all(p[4:] != m.group(1) for p, m in zip(played, better, strict=True))
    assert [
        line.split(".")[0] for line in lines if line.startswith(("1. Раздача", "2. Раздача", "3. Раздача"))
    ] == [
        "1",
        "2",
        "3",
    ]
    assert review.text == await expected_review(running, game, 0, ["Аня", "🤖 Бот"]), (
        "the engine's own review"
    )


async def test_in_a_group_each_player_gets_the_review_of_their_own_moves_privately(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1, bot_delay=0.2)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    game = await open_lobby(tg, group, anna, [anna, boris])
    from bot.callbacks import LobbyCb, LobbyOp

    assert (await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())).answered
    await play_until(
        tg,
        [anna, boris],
        lambda: (
            review_button(anna.private_chat, game) is not None
            and review_button(boris.private_chat, game) is not None
        ),
        timeout=120,
    )
    await tg.settle()
    assert review_button(group, game) is None, "the group's message offers no review: it is private"

    review = await press_review(tg, boris, game)
    assert review_message(anna.private_chat) is None, "Аня asked for nothing"
    seats = ["Аня", "Борис"]
    assert review.text == await expected_review(running, game, 1, seats), "Борис's own moves"
    # A second tap points to it rather than sending it all again.
    end = review_button(boris.private_chat, game)
    assert end is not None
    again = await boris.press(end, data=ReviewCb(game=game).pack())
    assert again.text == RU.t("answer-review-shown")
    await tg.settle()
    assert [m for m in boris.private_chat.visible_messages() if m.text.startswith(review.text[:12])] == [
        review
    ]

    # Vera watched: a forged press of the button is refused and sends her nothing.
    await vera.send_private("/help")
    await tg.wait_for(lambda: vera.private_chat.last_bot_message() is not None, what="/help")
    other = vera.private_chat.last_bot_message()
    assert other is not None
    answer = await vera.press(other, data=ReviewCb(game=game).pack(), force=True)
    assert answer.text == RU.t("answer-not-a-player")
