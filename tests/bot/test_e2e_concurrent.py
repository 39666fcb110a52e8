"""Several games with bot players at once: five solo games and a group game with bot seats, played side by side.

Each person plays only in their own chat; every game must reach its end, and no chat may show a button of
another person's game (no cross-talk between games whose bot players move at the same time).
"""

from __future__ import annotations

import asyncio
import time

from bot.callbacks import LobbyCb, LobbyOp
from bot.storage import GameMode, GameStatus
from tests.bot.conftest import (
    BotRunner,
    games_of,
    games_on,
    has_rematch,
    lobby_of,
    open_lobby,
    play_until,
    seat_names,
    start_solo_konchinka,
)
from tests.fakebot import FakeTelegram, FakeUser

SOLO = [
    ("Аня", 1, "easy"),
    ("Борис", 2, "normal"),
    ("Вера", 3, "hard"),
    ("Глеб", 1, "hard"),
    ("Дина", 2, "easy"),
]
"""The solo players: name, bot opponents, their level."""


async def test_five_solo_games_and_a_group_game_with_bots_run_at_once(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1, bot_delay=0.2, bot_thinkers=2)
    solos = [(tg.add_user(name), opponents, level) for name, opponents, level in SOLO]
    zhenya, zoya = tg.add_user("Женя"), tg.add_user("Зоя")
    group = tg.add_group("Клуб", [zhenya, zoya], admins=[zhenya])
    game = await open_lobby(tg, group, zhenya, [zhenya, zoya])
    answer = await zhenya.press(
        lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="easy").pack(), force=True
    )
    assert answer.answered
    await tg.wait_for(lambda: "start=j_" in str(lobby_of(group).buttons), what="the lobby")
    await asyncio.gather(*(start_solo_konchinka(tg, user, n, level) for user, n, level in solos))
    answer = await zhenya.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())
    assert answer.answered and not answer.text

    # to 1 point a bot may take a кончинка and finish on that very capture: a game may be over already
    started_games = [g for u, _, _ in solos for g in await games_of(running, u)]
    assert len(started_games) == len(SOLO), "every solo game runs"
    assert all(g.status in (GameStatus.PLAYING, GameStatus.FINISHED) for g in started_games)
    assert (await games_of(running, zhenya))[0].status is GameStatus.PLAYING

    async def play_solo(user: FakeUser) -> None:
        await play_until(tg, [user], lambda: has_rematch(user.private_chat.visible_messages()), timeout=60)

    started = time.monotonic()
    await asyncio.gather(
        *(play_solo(u) for u, _, _ in solos),
        play_until(tg, [zhenya, zoya], lambda: has_rematch(group.visible_messages()), timeout=60),
    )
    print(f"\n{len(SOLO)} solo games and a group game at once: {time.monotonic() - started:.1f} s")
    await tg.settle()

    for user, opponents, level in solos:
        (row,) = await games_of(running, user)
        assert row.mode is GameMode.SOLO and row.status is GameStatus.FINISHED
        assert await seat_names(running, row.id) == [user.full_name] + [f"bot:{level}"] * opponents
        assert games_on(user.private_chat) == {row.key}, f"{user.full_name} saw another game's buttons"
    (row,) = await games_of(running, zhenya)
    assert row.mode is GameMode.GROUP and row.status is GameStatus.FINISHED and row.key == game
    assert await seat_names(running, game) == ["Женя", "Зоя", "bot:easy"]
    assert games_on(group) == {game}
    for person in (zhenya, zoya):
        assert games_on(person.private_chat) <= {game}
    assert tg.stats.too_many_requests == 0
