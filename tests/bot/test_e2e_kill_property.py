"""Restart safety as a property: ``python -m bot`` is SIGKILLed at random moments, again and again, while four
parties run — a group Кончинка with a bot player and a person who walks away, a group Кинг with two bot players,
and a solo party of each game. The kills land at chosen kinds of moments: right after a person's move while a
bot (or the bot standing in for the absent person) is next, just after a Кинг trick is gathered, just after a
deal ends, and anywhere. Every party must still finish, with every move stored once, in order, and its record
replaying to the stored state. Eight kills on every run (two of each kind), twenty in the slow tier."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from bot.model.game import TURN_TIME_KEY, Actor, GameStatus, Move
from bot.storage import Batch, Database, repo
from engine.core import GameRecord, State, replay
from engine.king import KingState
from tests.bot.conftest import (
    SPEED,
    bot_process_env,
    lobby_of,
    move_buttons,
    open_king_lobby,
    open_lobby,
    start_solo_king,
    start_solo_konchinka,
    turn_message,
)
from tests.bot.test_e2e_restart import _check_record
from tests.fakebot import FakeTelegram, FakeUser
from tests.forkserver import ForkServer, Process
from tests.tiers import size

pytestmark = pytest.mark.over_http("python -m bot in a process of its own, SIGKILLed again and again")

KILLS = size(8, 20)
"""Kills on every run, and in the slow tier (``FULL_TESTS=1``)."""
MOMENTS = ("after a person's move, a bot next", "a trick gathered", "a deal ended", "anywhere")
MOMENT_WAIT = 10.0
"""Real seconds a kill waits for its kind of moment (a busy machine plays slower) before it lands anyway."""
KING_DEALS = 15
BOT_DELAY = 6.0
"""Clock seconds a bot player waits (0.1 real s): a kill right after a person's move lands before the bot's."""


def _env(tg: FakeTelegram, db_path: Path) -> dict[str, str]:
    return bot_process_env(
        tg,
        db_path,
        CLOCK_SPEED=str(SPEED),
        DEFAULT_TARGET="2",
        TURN_TIMEOUT="0",
        BOT_DELAY=str(BOT_DELAY),
        LOG_LEVEL="WARNING",
    )


@dataclass
class Bot:
    """``python -m bot`` (forked: twenty restarts do not cost twenty imports), killed with SIGKILL and started
    again."""

    tg: FakeTelegram
    db_path: Path
    forkserver: ForkServer
    process: Process | None = None
    kills: int = 0

    async def start(self) -> None:
        self.tg.commands.clear()
        self.process = await self.forkserver.spawn(
            "bot", env=_env(self.tg, self.db_path), cwd=self.db_path.parent
        )
        await self.tg.wait_for(lambda: self.tg.commands != {}, timeout=30, what="the bot to start")

    async def kill(self) -> None:
        if self.process is None:
            return
        self.process.kill()
        await self.process.wait()
        self.process = None
        self.kills += 1

    async def close(self) -> None:
        await self.kill()


@dataclass(frozen=True)
class Stored:
    """A party as the database has it now."""

    status: GameStatus
    state: State | None
    bot_plays: tuple[bool, ...]


_replayed: dict[tuple[int, int], State] = {}


def _read(db_path: Path) -> dict[int, Stored]:
    """Every party, read with a plain connection (no write lock: the bot keeps writing meanwhile)."""
    conn = sqlite3.connect(db_path, timeout=5)
    try:
        conn.execute("BEGIN")  # one snapshot: a game's row and its moves as one commit left them
        games = conn.execute("SELECT id, status, version, record FROM games").fetchall()
        seats = conn.execute("SELECT game_id, user_id, replaced FROM seats ORDER BY game_id, seat").fetchall()
        moves: dict[int, list[str]] = {}
        for game_id, action in conn.execute("SELECT game_id, action FROM moves ORDER BY game_id, version"):
            moves.setdefault(game_id, []).append(action)
        conn.execute("COMMIT")
    finally:
        conn.close()
    plays: dict[int, list[bool]] = {}
    for game_id, user_id, replaced in seats:
        plays.setdefault(game_id, []).append(user_id is None or bool(replaced))
    stored: dict[int, Stored] = {}
    for game_id, status, version, record in games:
        state = _replayed.get((game_id, version))
        if state is None and record:
            start = GameRecord.from_json(record)
            played = GameRecord(start.game, start.options, start.seed, tuple(moves.get(game_id, ())))
            state = _replayed[(game_id, version)] = replay(played)
        stored[game_id] = Stored(GameStatus(status), state, tuple(plays.get(game_id, [])))
    return stored


class People:
    """The people at the tables, pressing their buttons whenever it is their turn, across the bot's deaths."""

    def __init__(self, tg: FakeTelegram, people: list[FakeUser], rng: random.Random) -> None:
        self.tg = tg
        self.people = people
        self.rng = rng
        self.moved = asyncio.Event()

    async def play(self) -> None:
        """Each person on their own (one waiting for an answer the dead bot will never give holds up nobody)."""
        await asyncio.gather(*(self._play(user) for user in self.people))

    async def _play(self, user: FakeUser) -> None:
        while True:
            if await self._turn(user):
                self.moved.set()
            else:
                await asyncio.sleep(0.02)

    async def _turn(self, user: FakeUser) -> bool:
        message = turn_message(user)
        if message is None:
            return False
        buttons = move_buttons(message)
        data = self.rng.choice(buttons)
        with contextlib.suppress(LookupError):  # the message went meanwhile
            answer = await user.press(message, data=data, timeout=1, force=True)
            if not answer.answered or answer.text:
                return False  # the bot was down, or the press came late: the person looks again
            if data.startswith("p:"):
                with contextlib.suppress(TimeoutError):
                    await self.tg.wait_for(
                        lambda: message.is_deleted or data not in move_buttons(message),
                        timeout=1,
                    )
                moves = (
                    [d for d in move_buttons(message) if d.startswith("m:")] if not message.is_deleted else []
                )
                if moves:
                    await user.press(message, data=moves[0], timeout=1)
            return True
        return False


async def _moment(kind: str, people: People, db_path: Path, rng: random.Random) -> bool:
    """Wait for a moment of this kind; False if none came in a while (the kill then lands anywhere)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + MOMENT_WAIT
    before = await asyncio.to_thread(_read, db_path)
    while loop.time() < end:
        if kind == "anywhere":
            await asyncio.sleep(rng.uniform(0.0, 1.0))
            return True
        if kind == "after a person's move, a bot next":
            people.moved.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(people.moved.wait(), end - loop.time())
            now = await asyncio.to_thread(_read, db_path)
            if any(
                s.state is not None and not s.state.is_terminal and s.bot_plays[s.state.current_player]
                for s in now.values()
            ):
                return True
            continue
        await asyncio.sleep(0.02)
        now = await asyncio.to_thread(_read, db_path)
        for game_id, stored in now.items():
            old = before.get(game_id)
            if stored.state is None or old is None or old.state is None:
                continue
            if kind == "a deal ended" and stored.state.deals_completed > old.state.deals_completed:
                return True
            # A trick gathered since the last look, whether or not the next one was led meanwhile: on a busy machine
            # a look takes longer than a bot player's pause before its lead.
            if (
                kind == "a trick gathered"
                and isinstance(stored.state, KingState)
                and isinstance(old.state, KingState)
                and stored.state.tricks_done != old.state.tricks_done
            ):
                return True
        before = now
    return False


async def _fast_forward_king(db_path: Path, deals_left: int) -> None:
    """Play every Кинг party on (random legal moves, stored as the bot stores them) until ``deals_left`` deals
    remain, so the test spends its time on the kills rather than on 15 deals. The bot is down meanwhile."""
    db = await Database.open(db_path)
    try:
        for game in await repo.active_games(db):
            record = await repo.record_of(db, game.id)
            if game.kind != "king" or record is None:
                continue
            state = replay(record)
            rng = random.Random(game.id)
            batch = Batch()
            now = time.time() * SPEED  # the bot's clock: moves this old would make the party abandoned
            while state.deals_completed < KING_DEALS - deals_left:
                action = rng.choice(list(state.legal_actions()))
                seat, version = state.current_player, state.version
                state.apply(action)
                repo.add_move(batch, game.id, version, Move(action.code, seat, Actor.BOT, now))
            batch.add("UPDATE games SET version = ? WHERE id = ?", (state.version, game.id))
            await db.write(batch)
    finally:
        await db.close()


@pytest.mark.slow
async def test_the_bot_killed_at_chosen_moments_finishes_every_party(
    tg: FakeTelegram, forkserver: ForkServer, db_path: Path
) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(14)
    anna, boris, gleb = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Глеб")
    dima, elena, fedor, zhenya = (
        tg.add_user("Дима"),
        tg.add_user("Елена"),
        tg.add_user("Фёдор"),
        tg.add_user("Женя"),
    )
    friends = tg.add_group("Друзья", [anna, boris, gleb], admins=[anna])
    kings = tg.add_group("Короли", [elena, fedor], admins=[elena])
    bot = Bot(tg, db_path, forkserver)
    await bot.start()
    players: asyncio.Task[None] | None = None
    try:
        # Кончинка in a group: Аня, Борис, Глеб (who never plays: his turns run out, then a bot sits in) and a
        # bot player; 30 s a turn.
        konchinka = await open_lobby(tg, friends, anna, [anna, boris, gleb])
        lobby = lobby_of(friends)  # once: full with the bot player, it loses the join link lobby_of looks for
        set_time = LobbyCb(game=konchinka, op=LobbyOp.SET, key=TURN_TIME_KEY, value="30").pack()
        assert (await anna.press(lobby, data=set_time, force=True)).answered
        add_bot = LobbyCb(game=konchinka, op=LobbyOp.ADD_BOT, value="normal").pack()
        assert (await anna.press(lobby, data=add_bot, force=True)).answered
        start = LobbyCb(game=konchinka, op=LobbyOp.START).pack()
        assert (await anna.press(lobby, data=start, force=True)).answered
        king = await open_king_lobby(tg, kings, elena, [elena, fedor])
        await elena.press(lobby_of(kings), data=LobbyCb(game=king, op=LobbyOp.START).pack())
        await start_solo_konchinka(tg, dima, opponents=2)
        await start_solo_king(tg, zhenya)
        await tg.wait_for(lambda: len(_read(db_path)) == 4, what="four parties")
        await bot.kill()
        await _fast_forward_king(db_path, deals_left=2)
        await bot.start()
        bot.kills = 0

        people = People(tg, [anna, boris, dima, elena, fedor, zhenya], rng)
        players = asyncio.create_task(people.play())
        moments = [MOMENTS[i % len(MOMENTS)] for i in range(KILLS)]
        rng.shuffle(moments)
        met: list[str] = []
        for moment in moments:
            if await _moment(moment, people, db_path, rng):
                met.append(moment)
            await bot.kill()
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            await bot.start()

        def all_finished() -> bool:
            return all(s.status is GameStatus.FINISHED for s in _read(db_path).values())

        await tg.wait_for(all_finished, timeout=60, interval=0.2, what="every party finished")
        assert set(met) == set(MOMENTS), f"moments met: {met}"
    finally:
        if players is not None:
            players.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await players
        await bot.close()
    assert bot.kills >= KILLS
    print(f"{bot.kills} kills: {tg.stats.not_modified} edits refused as «message is not modified»")
    for game_id in _read(db_path):
        await _check_record(db_path, str(game_id))
    conn = sqlite3.connect(db_path)
    try:
        stand_in = conn.execute(
            "SELECT count(*) FROM moves JOIN seats USING (game_id, seat) WHERE seats.user_id = ? AND actor != ?",
            (gleb.id, Actor.PLAYER.value),
        ).fetchone()
    finally:
        conn.close()
    assert stand_in[0] > 0, "Глеб's turns were played for him"
