"""A third game the bot has never heard of — the toy «Старшая карта» of ``tests/games`` (its engine and bot players,
its plug-in, its texts, each in a folder laid out as the project's own games' are) — hosted by ``python -m bot``
because the setting ``EXTRA_GAMES`` names that package, and by nothing else: played in a group and solo against
its bot player through the fake Bot API, its rules section shown by /rules, its records replayed. Where
``scripts/with_toy_game.sh`` has placed the toy in the project's own game folders, the bot hosts it from there
without the setting, and these games are played there (``tests/toy_game.py``)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import plugins
from bot.model.game import Actor, GameStatus
from bot.storage import Database, repo
from engine.core import GameRecord, add_place, replay
from tests.bot.conftest import ROOT, SEED, SPEED, bot_process_env, play_until, start_party
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram
from tests.forkserver import ForkServer
from tests.toy_game import ENGINE_PLACE, EXTRA_GAMES, IN_THE_PROJECT

pytestmark = pytest.mark.over_http(
    "python -m bot in a process of its own, finding a game through EXTRA_GAMES (the registry of games is the process's)"
)

TOY_FOLDERS = ("tests/games/engine/highcard/", "tests/games/bot/games/highcard/", "tests/games/locales/")


@contextlib.asynccontextmanager
async def running_bot(
    forkserver: ForkServer, tg: FakeTelegram, db_path: Path, extra_games: str
) -> AsyncIterator[None]:
    """``python -m bot`` against ``tg`` with ``EXTRA_GAMES=extra_games``, until the block ends."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    env = bot_process_env(
        tg,
        db_path,
        CLOCK_SPEED=str(SPEED),
        GAME_SEED=str(SEED),
        TURN_TIMEOUT="0",
        LOG_LEVEL="WARNING",
        EXTRA_GAMES=extra_games,
    )
    process = await forkserver.spawn("bot", env=env, cwd=db_path.parent)
    try:
        await tg.wait_for(lambda: "konchinka" in commands(tg), timeout=30, what="the bot's group commands")
        yield
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await process.wait()


def commands(tg: FakeTelegram) -> set[str]:
    return {str(c["command"]) for listed in tg.commands.values() for c in listed}


async def finished_record(db_path: Path, game: int) -> GameRecord:
    db = await Database.open(db_path)
    try:
        async with db.tx() as tx:
            row = await repo.get_game(tx, game)
            record = await repo.record_of(tx, game)
    finally:
        await db.close()
    assert row is not None and row.kind == "highcard" and row.status is GameStatus.FINISHED
    assert record is not None
    return record


def won_by(record: GameRecord) -> int:
    """The winner of a stored toy party, replayed here (this process finds the toy's engine in its place)."""
    add_place(ENGINE_PLACE)
    state = replay(record)
    assert state.is_terminal and state.version in (4, 6)  # two tricks to nil, or two to one
    assert state.outcome is not None
    return state.outcome.winners[0]


async def answer_after(tg: FakeTelegram, chat: FakeChat, after: int) -> FakeMessage:
    def newer() -> list[FakeMessage]:
        return [m for m in chat.bot_messages() if m.message_id > after]

    await tg.wait_for(lambda: newer(), what="the bot's answer")
    return newer()[0]


async def test_a_toy_game_is_played_in_a_group_by_a_bot_that_found_it_in_its_place(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Path
) -> None:
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    async with running_bot(forkserver, tg, db_path, EXTRA_GAMES):
        assert "highcard" in commands(tg)
        await anna.send(group, "/help")
        await tg.wait_for(lambda: any("/highcard" in m.text for m in group.bot_messages()), what="/help")

        game = await start_party(tg, group, anna, [anna, boris], command="/highcard")
        ended = lambda: any("🏆 Победа" in m.text for m in group.bot_messages())  # noqa: E731
        await play_until(tg, [anna, boris], ended, timeout=30)
        await tg.settle()
        # each player's private chat followed the party: the last hand shows no card to play
        for user in (anna, boris):
            assert "Взятки:" in user.private_chat.visible_messages()[-1].text
        winner = (anna, boris)[won_by(await finished_record(db_path, int(game)))]
        assert f"🏆 Победа: {winner.full_name}" in next(
            m.text for m in group.bot_messages() if "🏆" in m.text
        )


async def test_a_toy_game_is_played_solo_against_its_bot_player_and_its_rules_are_shown(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Path
) -> None:
    anna = tg.add_user("Аня")
    chat = anna.private_chat
    async with running_bot(forkserver, tg, db_path, EXTRA_GAMES):
        asked = await anna.send_private("/rules старшая карта")
        rules = await answer_after(tg, chat, asked.message_id)
        assert "старшая берёт взятку и ходит снова. Две взятки — победа." in rules.text, rules.text

        sent = await anna.send_private("/play")
        menu = await answer_after(tg, chat, sent.message_id)
        await anna.press(menu, "🂡 Старшая карта — с одним ботом")
        await tg.wait_for(lambda: "🤖 мастер" in [b.text for b in menu.flat_buttons], what="the levels")
        await anna.press(menu, "🤖 мастер")
        ended = lambda: any("🏆 Победа" in m.text for m in chat.bot_messages())  # noqa: E731
        await play_until(tg, [anna], ended, timeout=30)
        await tg.settle()
    db = await Database.open(db_path)
    try:
        async with db.tx() as tx:
            (row,) = await repo.games_of_user(tx, anna.id, [GameStatus.FINISHED])
            moves = await repo.moves_of(tx, row.id)
    finally:
        await db.close()
    record = await finished_record(db_path, row.id)
    assert {move.actor for move in moves} == {Actor.PLAYER, Actor.BOT}, "the bot player played its half"
    (by_winner,) = {move.actor for move in moves if move.seat == won_by(record)}
    winner = "🤖" if by_winner is Actor.BOT else anna.full_name
    assert f"🏆 Победа: {winner}" in next(m.text for m in chat.bot_messages() if "🏆 Победа" in m.text)


async def test_without_the_setting_the_bot_hosts_only_its_own_games(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Path
) -> None:
    """Its own games are those of its folders: the toy only where it has been placed there."""
    async with running_bot(forkserver, tg, db_path, ""):
        offered = commands(tg)
    assert {plugin.command for plugin in plugins()} <= offered
    assert ("highcard" in offered) is IN_THE_PROJECT


def test_adding_the_toy_game_touched_nothing_outside_its_folders_and_its_tests() -> None:
    """Every tracked file naming the toy game is in its folders or a test (or a document describing it): the
    bot, the engine, the shared texts and the packaging know nothing of it."""
    named = subprocess.run(
        ["git", "grep", "-l", "-i", "highcard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert any(path.startswith(TOY_FOLDERS[0]) for path in named)
    outside = [path for path in named if not path.startswith("tests/") and not path.endswith(".md")]
    assert not outside, outside
    folders = [path for path in named if path.startswith("tests/games/")]
    assert all(path.startswith(TOY_FOLDERS) or path == "tests/games/__init__.py" for path in folders), folders
