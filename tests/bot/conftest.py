"""The bot under test: the real aiogram dispatcher fed by a fake Telegram, and simulated players.

Two ways to run it, with the same fixtures' shape (``tg``: a :class:`FakeTelegram`; ``bot_runner(**settings)``: a
:class:`Running` bot, ``running.app``, ``await running.stop()``; ``bot_runner`` again: a restart on the same
database and the same Telegram):

- **in-process** (the default): nothing listens, nothing waits in real time. The bot's clock and Telegram's are one
  :class:`~tests.fakebot.manual.ManualClock` at a nominal ``SPEED``, moved only by the test: the bot's calls go to
  the fake's logic directly (``InProcessSession``), updates go to the dispatcher as users act (``DispatcherFeed``),
  and ``tg.wait_for(predicate, timeout=5)`` runs the loop until idle, looks, and moves the clock to the next
  wake-up, 5 × ``SPEED`` clock seconds at most (``tg.settle()``, ``tg.sleep(seconds)`` and ``tg.monotonic()``
  likewise);
- **over HTTP** (``@pytest.mark.over_http("why")`` on a test or module, or the fixtures ``tg_http`` and
  ``http_bot_runner``): the whole application polling a fake Bot API server on localhost, both clocks running
  ``SPEED`` times faster than real time, so a Telegram minute passes in a second on both sides — for what needs
  a real connection, real time or a process (webhooks, outages, SIGKILL, a database locked by another process).

Helpers below play turns the way a person does: read the newest private message, press a button, and when a card
has several moves, press one of those.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.enums import ParseMode

from bot.app import App, build_app
from bot.clock import Clock
from bot.games import plugin_of
from bot.i18n import Translator
from bot.model.game import GameStatus
from bot.settings import Settings
from bot.storage import Database, GameRow, repo
from bot.views import LobbyInfo, SeatInfo
from bot.views.common import without_bidi_controls
from engine.core import JSONValue
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser, Limits
from tests.fakebot.client import IN_PROCESS_URL, DispatcherFeed
from tests.fakebot.manual import Driver, ManualClock

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: ``python -m bot`` subprocesses run its code."""

SPEED = 60.0
"""Both clocks run this much faster than real time (a Telegram minute per real second)."""
SEED = 20240601


def make_settings(tg: FakeTelegram, db_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "bot_token": tg.token,
        "database_path": db_path,
        "telegram_api_url": tg.base_url or IN_PROCESS_URL,
        "clock_speed": SPEED,
        "bot_delay": 1.0,
        "turn_timeout": 0,
        "reminder_before": 15.0,
        "game_seed": SEED,
        "default_target": 3,
        "bot_thinkers": 0,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def bot_process_env(tg: FakeTelegram, database: Path, **settings: str) -> dict[str, str]:
    """The environment of a ``python -m bot`` subprocess against ``tg``: this one's, less the bot's own settings,
    plus ``settings`` (``TURN_TIMEOUT="0"``).

    Its bot players think in-process (``BOT_THINKERS=0``): a pool is two fresh interpreters to start, and the
    pool's own behaviour, a killed bot's included, is tested in ``test_thinker.py``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("BOT_", "TELEGRAM_", "DATABASE_", "WEBHOOK_"))
    }
    env.update(
        PYTHONPATH=str(ROOT),
        BOT_TOKEN=tg.token,
        TELEGRAM_API_URL=tg.base_url,
        DATABASE_PATH=str(database),
        BOT_THINKERS="0",
    )
    env.update(settings)
    return env


@dataclass(frozen=True)
class Exited:
    """How ``python -m bot`` ended (a process, or in-process: :func:`python_m_bot`): the exit code the shell sees,
    what it wrote on standard output and standard error, and how long it took (real seconds)."""

    code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def errors(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if " ERROR " in line]


PythonMBot = Callable[..., Exited]
"""``python_m_bot(env, cwd, *args)``: ``python -m bot args`` in this interpreter."""

LOGGERS_SET_UP = ("", "aiohttp.access", "aiogram.event")
"""The loggers whose handlers or level ``python -m bot`` sets (:func:`bot.logs.setup`, ``bot.__main__``)."""


@pytest.fixture
def python_m_bot(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> PythonMBot:
    """``python -m bot args`` in this interpreter (``bot.__main__.main``, no process: for what needs no fresh
    interpreter), with this environment less the bot's own settings plus ``env``, run from ``cwd`` (its ``.env``
    read); the log's handlers and levels it set up are put back as they were before it. A test that calls it is
    not async: ``main`` runs its own loop (``asyncio.run``)."""
    from bot.__main__ import main

    def run(env: dict[str, str], cwd: Path, *args: str) -> Exited:
        for name in list(os.environ):
            if name.startswith(("BOT_", "TELEGRAM_", "DATABASE_", "WEBHOOK_")):
                monkeypatch.delenv(name)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        loggers = [logging.getLogger(name) for name in LOGGERS_SET_UP]
        kept = [(logger, logger.handlers[:], logger.level) for logger in loggers]
        started = time.monotonic()
        try:
            code = main(list(args))
        except SystemExit as exit_:  # what argparse refuses: its message, and code 2
            assert isinstance(exit_.code, int), exit_.code
            code = exit_.code
        finally:
            for logger, handlers, level in kept:
                logger.handlers[:] = handlers
                logger.setLevel(level)
        out, err = capsys.readouterr()
        return Exited(code, out, err, time.monotonic() - started)

    return run


@dataclass
class Running:
    app: App
    task: asyncio.Task[None]
    """The bot's run: aiogram's polling over HTTP; in-process, until :meth:`stop` (then the shut-down)."""
    stopping: asyncio.Event | None = None
    """In-process: set to stop the run."""
    driver: Driver | None = None
    """In-process: moves the clock while the bot shuts down (its outbox drains on the clock)."""

    async def stop(self) -> None:
        if self.stopping is None:
            with contextlib.suppress(RuntimeError):
                await self.app.dispatcher.stop_polling()
        else:
            self.stopping.set()
        if self.driver is not None:
            with contextlib.suppress(TimeoutError):  # a drain held by real time: waited for below
                await self.driver.wait_for(self.task.done, 10, "the bot to shut down")
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, 10)
        await self.app.bot.session.close()


BotRunner = Callable[..., Awaitable[Running]]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "over_http(why): the fixtures tg and bot_runner run the bot against the fake Telegram over HTTP, in real "
        "time, not in-process on a manual clock (tests/bot/conftest.py)",
    )


@contextlib.asynccontextmanager
async def fake_telegram(*, over_http: bool, speed: float = SPEED) -> AsyncIterator[FakeTelegram]:
    """A fake Telegram at ``speed`` with Telegram's limits: listening on localhost (``over_http``), or in-process
    on a manual clock (the loop's default executor counted, so that a settle waits for work in threads)."""
    if over_http:
        server = FakeTelegram(speed=speed, limits=Limits())
        await server.start()
        try:
            yield server
        finally:
            await server.stop()
        return
    tg = FakeTelegram(speed=speed, clock=ManualClock(speed), limits=Limits())
    assert tg.driver is not None
    tg.driver.install()
    try:
        yield tg
    finally:
        await tg.stop()
        await tg.driver.close()


@pytest.fixture
async def tg(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    """The fake Telegram: in-process on a manual clock, or over HTTP for a test marked ``over_http``."""
    async with fake_telegram(over_http=request.node.get_closest_marker("over_http") is not None) as server:
        yield server


@pytest.fixture
async def tg_http() -> AsyncIterator[FakeTelegram]:
    """The fake Telegram listening on localhost, in real time at ``SPEED``."""
    async with fake_telegram(over_http=True) as server:
        yield server


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@contextlib.asynccontextmanager
async def runner(tg: FakeTelegram, db_path: Path) -> AsyncIterator[BotRunner]:
    """Starts bots (``start(**settings)``) against ``tg``, the way ``tg`` runs (over HTTP, or in-process); the ones
    still running are stopped at the end."""
    started: list[Running] = []

    async def start(**overrides: Any) -> Running:
        settings = make_settings(tg, db_path, **overrides)
        bot = Bot(tg.token, session=tg.session(), default=DefaultBotProperties(parse_mode=ParseMode.HTML))
        running = await (
            _start_polling(tg, settings, bot) if tg.driver is None else _start_in_process(tg, settings, bot)
        )
        started.append(running)
        return running

    try:
        yield start
    finally:
        for running in started:
            if not running.task.done():
                await running.stop()


async def _start_polling(tg: FakeTelegram, settings: Settings, bot: Bot) -> Running:
    app = await build_app(settings, bot)
    polls = tg.polls
    task = asyncio.create_task(
        app.dispatcher.start_polling(
            bot,
            handle_signals=False,
            close_bot_session=False,
            polling_timeout=1,
            allowed_updates=app.dispatcher.resolve_used_update_types(),
        )
    )
    running = Running(app, task)
    # aiogram polls once the start-up handlers are done: the menus set, the games resumed.
    await tg.wait_for(lambda: tg.polls > polls, timeout=10, what="start-up")
    return running


async def _start_in_process(tg: FakeTelegram, settings: Settings, bot: Bot) -> Running:
    """The bot on the fake's manual clock: built, its start-up handlers run (the menus set, the games resumed)
    as polling runs them, then fed every update as users act."""
    driver = tg.driver
    assert driver is not None
    app = await build_app(settings, bot, clock=driver.clock)
    unwatch = driver.watch(lambda: app.db.pending)  # statements on SQLite's thread: a settle waits for them
    feed = DispatcherFeed(tg, app.dispatcher, bot)
    stopping = asyncio.Event()

    async def run() -> None:
        try:
            await stopping.wait()
        finally:
            try:
                await feed.stop()
            finally:
                unwatch()

    try:  # the start-up's calls may need the clock to move (a request timing out under a fault switched on)
        await tg.finish(feed.start(), timeout=10, what="start-up")
    except BaseException:
        unwatch()
        await bot.session.close()
        raise
    return Running(app, asyncio.create_task(run(), name="bot"), stopping, driver)


@pytest.fixture
async def bot_runner(tg: FakeTelegram, db_path: Path) -> AsyncIterator[BotRunner]:
    """Starts the bot against ``tg`` (in-process, or over HTTP); again: a restart on the same database."""
    async with runner(tg, db_path) as start:
        yield start


@pytest.fixture
async def http_bot_runner(tg_http: FakeTelegram, db_path: Path) -> AsyncIterator[BotRunner]:
    """Starts the bot polling ``tg_http`` over HTTP, in real time at ``SPEED``."""
    async with runner(tg_http, db_path) as start:
        yield start


# --- playing like a person ---------------------------------------------------------------------------------

MOVE_PREFIXES = ("m:", "p:")


@contextlib.asynccontextmanager
async def outbox_world(
    tmp_path: Path, speed: float, observer: Any, *, over_http: bool = False
) -> AsyncIterator[tuple[FakeTelegram, Bot, Database]]:
    """For outbox tests: a strict fake Telegram at ``speed`` whose calls ``observer`` sees, a bot on it, and a
    database file. In-process on a manual clock (a settle waits for the database's statements), or listening on
    localhost in real time (``over_http``). The outbox a test builds runs on :func:`clock_of` ``tg``; it waits
    for the outbox with ``tg.finish(outbox.drain())``."""
    async with fake_telegram(over_http=over_http, speed=speed) as tg:
        tg.observer = observer
        bot = Bot(tg.token, session=tg.session(), default=DefaultBotProperties(parse_mode=ParseMode.HTML))
        db = await Database.open(tmp_path / "bot.sqlite3")
        unwatch = tg.driver.watch(lambda: db.pending) if tg.driver is not None else lambda: None
        try:
            yield tg, bot, db
        finally:
            unwatch()
            await db.close()
            await bot.session.close()


def clock_of(tg: FakeTelegram) -> Clock:
    """The clock a test's outbox runs on against ``tg``: in-process, the manual clock ``tg`` runs on (the one
    time there is); over HTTP, a clock of real time at Telegram's speed."""
    return tg.driver.clock if tg.driver is not None else Clock(tg.clock.speed)


def move_buttons(message: FakeMessage) -> list[str]:
    return [
        b.callback_data
        for b in message.flat_buttons
        if b.callback_data and b.callback_data.startswith(MOVE_PREFIXES)
    ]


def turn_message(user: FakeUser) -> FakeMessage | None:
    """The user's private message that offers moves now (None when it is not their turn)."""
    for message in reversed(user.private_chat.visible_messages()):
        if message.is_from_bot and move_buttons(message):
            return message
    return None


async def take_turn(
    tg: FakeTelegram, user: FakeUser, pick: int = 0, *, through: FakeMessage | None = None
) -> bool:
    """Play one move if it is this user's turn: the ``pick``-th button (a card: it plays on its tap, or then its
    first move), pressed on the newest message offering moves (or on ``through``)."""
    return await _take_turn(tg, user, pick, through) is not None


@dataclass(frozen=True)
class Pressed:
    """The message a move was last pressed on, and how many versions it had then."""

    message: FakeMessage
    versions: int

    @property
    def is_taken_in(self) -> bool:
        """The bot changed the message since (the move shown, or the press refused and the message redrawn)."""
        return self.message.is_deleted or len(self.message.history) > self.versions


async def _take_turn(
    tg: FakeTelegram, user: FakeUser, pick: int = 0, through: FakeMessage | None = None
) -> Pressed | None:
    message = through or turn_message(user)
    if message is None:
        return None
    buttons = move_buttons(message)
    data = buttons[pick % len(buttons)]
    pressed = Pressed(message, len(message.history))
    answer = await user.press(message, data=data)
    if not data.startswith("p:") or answer.text:
        return pressed
    with contextlib.suppress(TimeoutError):
        await tg.wait_for(
            lambda: message.is_deleted or data not in move_buttons(message),
            timeout=5,
            what="the card played, or its moves",
        )
    moves = [d for d in move_buttons(message) if d.startswith("m:")] if not message.is_deleted else []
    if moves:
        pressed = Pressed(message, len(message.history))
        await user.press(message, data=moves[0])
    return pressed


async def start_solo_konchinka(
    tg: FakeTelegram, user: FakeUser, opponents: int, level: str = "normal"
) -> None:
    """``/play`` in private, then the number of bot opponents and their level, as a person presses them."""
    from bot.callbacks import SoloCb, SoloStep

    chat = user.private_chat
    sent = await user.send_private("/play")

    def setup_message() -> FakeMessage | None:
        last = chat.last_bot_message()
        return last if last is not None and last.message_id > sent.message_id else None

    await tg.wait_for(setup_message, what="the solo setup")
    setup = setup_message()
    assert setup is not None
    count = SoloCb(step=SoloStep.OPPONENTS, game="konchinka", opponents=opponents).pack()
    assert (await user.press(setup, data=count)).answered
    choice = SoloCb(step=SoloStep.LEVEL, game="konchinka", opponents=opponents, level=level).pack()
    await tg.wait_for(lambda: choice in [b.callback_data for b in setup.flat_buttons], what="the levels")
    assert (await user.press(setup, data=choice)).answered


async def start_solo_king(tg: FakeTelegram, user: FakeUser, level: str = "normal") -> None:
    """``/play`` in private, then «👑 Кинг» (always against three bot players) and their level."""
    from bot.callbacks import SoloCb, SoloStep

    chat = user.private_chat
    await user.send_private("/play")
    await tg.wait_for(lambda: chat.last_bot_message() is not None, what="the game menu")
    menu = chat.last_bot_message()
    assert menu is not None
    await user.press(menu, "👑 Кинг — с тремя ботами")
    choice = SoloCb(step=SoloStep.LEVEL, game="king", opponents=3, level=level).pack()
    await tg.wait_for(lambda: choice in [b.callback_data for b in menu.flat_buttons], what="the levels")
    await user.press(menu, data=choice)


async def open_king_lobby(
    tg: FakeTelegram, group: FakeChat, creator: FakeUser, people: list[FakeUser]
) -> str:
    """``/king`` in the group and everyone in ``people`` seated through the deep link; the game id."""
    await creator.send(group, "/king")
    await tg.wait_for(lambda: group.last_bot_message() is not None, what="the lobby")
    url = next(b.url for b in lobby_of(group).flat_buttons if b.url and "start=j_" in b.url)
    payload = url.split("start=", 1)[1]
    for user in people:
        await user.send_private(f"/start {payload}")
    await tg.wait_for(lambda: all(u.full_name in lobby_of(group).text for u in people), what="all seated")
    return payload.removeprefix("j_")


def has_rematch(chat_messages: list[FakeMessage]) -> bool:
    return any(
        b.callback_data and b.callback_data.startswith("rm:") for m in chat_messages for b in m.flat_buttons
    )


def _taken_in(pressed: list[Pressed], done: Callable[[], bool]) -> Callable[[], bool]:
    return lambda: done() or all(p.is_taken_in for p in pressed)


TAKEN_IN = 2.0
"""Seconds :func:`play_until` waits for the bot to take a move in (redraw the message pressed) before going on."""


async def play_until(
    tg: FakeTelegram,
    users: list[FakeUser],
    done: Callable[[], bool],
    *,
    timeout: float = 60.0,
    moves: int = 0,
) -> int:
    """Let the users play whenever it is their turn until ``done()``; the number of moves they made.

    A person waits for the bot to take a move in (the message pressed changes) before looking for the next turn,
    ``TAKEN_IN`` seconds at most: in-process no time passes unless waited for, and a hand not yet redrawn still
    shows the move just made."""
    deadline = tg.monotonic() + timeout
    made = 0
    while not done():
        if tg.monotonic() > deadline:
            raise TimeoutError(f"the party did not finish in {timeout} s ({made} moves by people)")
        pressed: list[Pressed] = []
        for user in users:
            turn = await _take_turn(tg, user, pick=made)
            if turn is not None:
                made += 1
                pressed.append(turn)
                if moves and made >= moves:
                    return made
        with contextlib.suppress(TimeoutError):  # the deadline is looked at above
            if pressed:
                await tg.wait_for(
                    _taken_in(pressed, done),
                    timeout=min(TAKEN_IN, max(0.0, deadline - tg.monotonic())),
                    what="the moves taken in",
                )
            else:
                await tg.wait_for(
                    lambda: done() or any(turn_message(u) is not None for u in users),
                    timeout=max(0.0, deadline - tg.monotonic()),
                    what="someone's turn",
                )
    return made


def find_lobby(group: FakeChat) -> FakeMessage | None:
    """The newest lobby message in the group (the one with the deep-link join button), if any."""
    for message in reversed(group.visible_messages()):
        if message.is_from_bot and any("start=j_" in (b.url or "") for b in message.flat_buttons):
            return message
    return None


def joined_text(tr: Translator, group: FakeChat, kind: str = "konchinka") -> str:
    """What the private chat says (as the person reads it) after joining a ``kind`` lobby of ``group``."""
    from bot.views import render_joined

    return plain(render_joined(group.title or "", tr.t(f"game-{kind}"), tr).text)


@functools.lru_cache(maxsize=8192)
def plain(html: str) -> str:
    """A message's HTML as a person reads it (tags gone, entities decoded). Kept per text: a party's checks read
    every message the bot sent so far at each move, the same texts thousands of times."""
    from tests.fakebot.html import parse_html

    return parse_html(html)[0]


def lobby_of(group: FakeChat) -> FakeMessage:
    lobby = find_lobby(group)
    if lobby is None:
        raise AssertionError("no lobby in the group")
    return lobby


async def open_lobby(
    tg: FakeTelegram, group: FakeChat, creator: FakeUser, players: list[FakeUser], command: str = "/konchinka"
) -> str:
    """``command`` (a game's) in the group, then every player follows the join link; the game id."""
    await creator.send(group, command)
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    lobby = lobby_of(group)
    url = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
    payload = url.split("start=", 1)[1]
    for user in players:
        await user.send_private(f"/start {payload}")
    # the same message, edited (a full table offers no join link any more); a name as the bot shows it (its bidi
    # controls taken out)
    seated = [without_bidi_controls(u.full_name) for u in players]
    await tg.wait_for(lambda: all(name in lobby.text for name in seated), what="everyone seated")
    return payload.removeprefix("j_")


async def two_player_party(
    tg: FakeTelegram, bot_runner: BotRunner, **overrides: Any
) -> tuple[Running, FakeUser, FakeUser, FakeChat, str]:
    """A running bot (its settings changed by ``overrides``), Аня (the group's admin) and Борис in a group
    Кончинка party, someone to move; the game id."""
    running = await bot_runner(**overrides)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    return running, anna, boris, group, game


async def game_row(running: Running, game: str) -> GameRow:
    """The game as stored now."""
    row = await repo.get_game(running.app.db, int(game))
    assert row is not None
    return row


async def start_party(
    tg: FakeTelegram, group: FakeChat, creator: FakeUser, players: list[FakeUser], command: str = "/konchinka"
) -> str:
    from bot.callbacks import LobbyCb, LobbyOp

    game = await open_lobby(tg, group, creator, players, command)
    lobby = next(
        m
        for m in reversed(group.visible_messages())
        if any((b.callback_data or "").startswith(f"l:{game}:") for b in m.flat_buttons)
    )
    answer = await creator.press(lobby, data=LobbyCb(game=game, op=LobbyOp.START).pack())
    assert answer.answered and not answer.text
    return game


# --- what a chat shows, and which games a user sits in ------------------------------------------------------

GAME_BUTTON_PREFIXES = ("l:", "m:", "p:", "b:", "rm:", "t:")
"""Callback data whose second field is a game id (lobby, move, pick, back, rematch, take-seat buttons)."""


def games_on(chat: FakeChat) -> set[str]:
    """The game ids the bot's buttons in ``chat`` refer to, on every version of every message it ever sent."""
    ids: set[str] = set()
    for message in chat.bot_messages():
        for version in message.history:
            rows = (version.reply_markup or {}).get("inline_keyboard") or []
            for data in (b.get("callback_data") or "" for row in rows for b in row):
                if data.startswith(GAME_BUTTON_PREFIXES):
                    ids.add(data.split(":")[1])
    return ids


async def games_of(running: Running, user: FakeUser, *statuses: GameStatus) -> list[GameRow]:
    """The stored games the user sits in (with one of ``statuses``, or any), oldest first."""
    return await repo.games_of_user(running.app.db, user.id, statuses or tuple(GameStatus))


async def seat_names(running: Running, game: str | int) -> list[str]:
    """The stored seats of a game: a person's name, or the bot level of a bot seat."""
    seats = await repo.seats_of(running.app.db, int(game))
    return [f"bot:{s.level}" if s.is_bot else s.name for s in seats]


async def pause_like_a_person(tg: FakeTelegram) -> None:
    """Wait as long as a person would between commands: the bot refuses a fourth command within 10 s."""
    await tg.sleep(10.0 / SPEED + 0.02)


# --- views ----------------------------------------------------------------------------------------------------


def lobby_info(
    game_id: str,
    kind: str,
    options: dict[str, JSONValue],
    seats: Sequence[SeatInfo],
    tr: Translator,
    **fields: Any,
) -> LobbyInfo:
    """A lobby as the publisher describes it: what the game's plug-in says of it, and ``fields``."""
    plugin = plugin_of(kind)
    return LobbyInfo(
        game_id,
        kind,
        options,
        tuple(seats),
        "kbot",
        summary=plugin.summary(options, tr),
        rules_section=plugin.rules_section(options),
        fills_with_bots=plugin.fills_with_bots,
        min_players=plugin.min_players,
        max_players=plugin.max_players,
        **fields,
    )


def hosted_backends() -> dict[str, str]:
    """The path each hosted game's «мастер» thinks on (a game only this process's engine knows — a test's — aside)."""
    from bot.games import is_hosted
    from engine.ai import backends

    return {game: backend for game, backend in backends().items() if is_hosted(game)}
