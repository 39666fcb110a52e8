"""Fuzzing: a thousand (in the slow tier ten thousand) random and forged button presses and command arguments
from people with no rights.

Every press must be answered, no exception may escape the dispatcher, and the games they aim at must not change.
Updates are fed to the real dispatcher directly (``feed_update``), in concurrent batches, against the fake Bot
API; the presses come from a stranger's private chat, the commands from the stranger and from a plain member of
the group whose game is running.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiogram.types import Update
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.callbacks import LobbyOp
from bot.games import plugins, rules_library
from bot.model.game import TURN_TIME_KEY
from bot.storage import repo
from engine.ai import Level
from tests.bot.conftest import BotRunner, Running, open_lobby, start_party, turn_message
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.tiers import size

EXAMPLES = size(25, 250)
"""Examples on every run (1,000 presses) and in the slow tier (``FULL_TESTS=1``: 10,000)."""
DRAWN = 4
"""Presses per example drawn by hypothesis strategies (shrinkable, the most varied)..."""
EXPANDED = 36
"""... and expanded from a hypothesis-drawn ``Random`` by the same grammar (drawing each one costs ~2 ms).

25 (250) examples x 40 presses = 1,000 (10,000) presses, fed 40 at a time, plus 1-2 commands per example in
each chat."""

PREFIXES = ("l", "m", "p", "b", "r", "rm", "s", "t", "n", "x", "")
WORDS = (
    *(op.value for op in LobbyOp),
    TURN_TIME_KEY,
    *(key for plugin in plugins() for key in plugin.setting_keys()),
    *(level.value for level in Level),
    *(section.id for section in rules_library().sections),
    "konchinka", "king", "classic", "points", "g", "o", "0", "1", "-1", "3", "99", "1e3", "٣", " 1", "+1",
    str(2**63 - 1), str(2**63), str(2**64), "9" * 40, "Td", "10♦", "<b>", "&", "\u200f",
)  # fmt: skip
NOISE = "abcxyzАБЯёß0123456789 _-+./@&<>\"'\u200f\u200b🃏♦️\x00\n"


def _field(games: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(games),
        st.sampled_from(WORDS),
        st.integers(-(2**70), 2**70).map(str),
        st.text(alphabet=st.characters(blacklist_characters=":"), max_size=12),
    )


def _forged(games: tuple[str, ...]) -> st.SearchStrategy[str]:
    """Data shaped like the bot's own: a known prefix, then 0-5 fields of ids, ops, words and noise."""
    fields = st.lists(_field(games), max_size=5)
    return st.builds(lambda prefix, parts: ":".join([prefix, *parts]), st.sampled_from(PREFIXES), fields)


def _fits(data: str) -> bool:
    return 1 <= len(data.encode()) <= 64


def _data(games: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.one_of(_forged(games), st.text(min_size=1, max_size=64)).filter(_fits)


def _expand(rng: random.Random, games: tuple[str, ...]) -> str:
    """One press's data by the grammar of :func:`_data`, from ``rng`` (fast; reproducible from the draw)."""

    def field() -> str:
        kind = rng.randrange(4)
        if kind == 0:
            return rng.choice(games)
        if kind == 1:
            return rng.choice(WORDS)
        if kind == 2:
            return str(rng.randint(-(2**70), 2**70))
        return "".join(rng.choices(NOISE, k=rng.randrange(13))).replace(":", "")

    while True:
        if rng.random() < 0.8:
            data = ":".join([rng.choice(PREFIXES), *(field() for _ in range(rng.randrange(6)))])
        else:
            data = "".join(rng.choices(NOISE, k=rng.randint(1, 64)))
        if _fits(data):
            return data


COMMANDS = ("start", "cancel", "score", "help", "rules", "stats", "top", "play", "new", "konchinka", "king")


def _command(games: tuple[str, ...]) -> st.SearchStrategy[str]:
    args = st.one_of(
        st.just(""),
        st.builds(lambda k, f: k + f, st.sampled_from(("j_", "g_", "", "j", "g_j_")), _field(games)),
        st.text(max_size=30),
    )
    return st.builds(
        lambda c, bot, a: f"/{c}{bot} {a}".rstrip(),
        st.sampled_from(COMMANDS),
        st.sampled_from(("", "@konchinka_test_bot", "@other_bot")),
        args,
    )


async def _snapshot(running: Running, games: tuple[str, ...]) -> list[Any]:
    result: list[Any] = []
    async with running.app.db.tx() as tx:
        for game in games:
            row = await repo.get_game(tx, int(game))
            seats = await repo.seats_of(tx, int(game))
            result.append((row, seats, await repo.moves_of(tx, int(game))))
        others = await tx.all("SELECT id, chat_id, status FROM games WHERE mode = 'group' ORDER BY id")
        result.append([tuple(r) for r in others])
    return result


@dataclass
class World:
    running: Running
    games: tuple[str, ...]
    mallory: FakeUser
    """Not in any group or game: every press is hers, from her private chat."""
    eve: FakeUser
    """A plain member of the group whose game is running: she sends commands there."""
    group: FakeChat
    target: FakeMessage
    before: list[Any]


@pytest.fixture
async def world(tg: FakeTelegram, bot_runner: BotRunner) -> World:
    running = await bot_runner(lobby_ttl=10**9)  # the lobby must not expire while the fuzzing runs
    anna, boris, eve = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Ева")
    group = tg.add_group("Друзья", [anna, boris, eve], admins=[anna])
    playing = await start_party(tg, group, anna, [anna, boris])
    other = tg.add_group("Другие", [anna], admins=[anna])
    lobby = await open_lobby(tg, other, anna, [anna])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    mallory = tg.add_user("Мэллори")
    await mallory.send_private("/help")
    await tg.wait_for(lambda: mallory.private_chat.last_bot_message() is not None, what="a message to press")
    await tg.settle()
    target = mallory.private_chat.last_bot_message()
    assert target is not None
    games = (playing, lobby)
    return World(running, games, mallory, eve, group, target, await _snapshot(running, games))


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[
        Phase.explicit,
        Phase.generate,
    ],  # a failure is reported as found: shrinking a batch of 40 takes ages
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_forged_presses_and_commands_are_answered_and_change_nothing(
    tg: FakeTelegram, world: World, data: st.DataObject
) -> None:
    games = world.games
    presses = data.draw(st.lists(_data(games), min_size=DRAWN, max_size=DRAWN), label="presses")
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    presses += [_expand(rng, games) for _ in range(EXPANDED)]
    commands = data.draw(st.lists(_command(games), min_size=1, max_size=2), label="commands")
    dispatcher, bot = world.running.app.dispatcher, world.running.app.bot

    async def feed(raw: dict[str, Any]) -> None:
        update = Update.model_validate(raw, context={"bot": bot})
        await dispatcher.feed_update(bot, update)  # an exception escaping a handler fails the test

    forged = [tg.forged_press(world.mallory, world.target, d) for d in presses]
    messages = [tg.forged_message(world.mallory, world.mallory.private_chat, text) for text in commands]
    messages += [tg.forged_message(world.eve, world.group, text) for text in commands]
    # (in-process, the throttle's waits need the clock to move: tg.finish moves it while the batch is handled)
    await tg.finish(
        asyncio.gather(*(feed(raw) for raw, _ in forged), *(feed(raw) for raw in messages)),
        timeout=60,
        what="the batch handled",
    )
    for pressed, (_, answer) in zip(presses, forged, strict=True):
        assert answer.done() and answer.result().answered, f"press {pressed!r} was not answered"
    assert await _snapshot(world.running, games) == world.before


@pytest.fixture
def db_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The database in memory-backed storage when there is one: ten thousand commits want no disk flushes."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        yield tmp_path_factory.mktemp("fuzz") / "bot.sqlite3"
        return
    folder = Path(tempfile.mkdtemp(prefix="fuzz-", dir=shm))
    try:
        yield folder / "bot.sqlite3"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
