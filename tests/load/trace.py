"""``python -m tests.load.trace``: which files of ``bot/`` and ``engine/`` one card press runs through.

The figure of issue 31: a profiler on from the move's tap in a two-person group Кончинка party to the last
Telegram call the tap causes (its delivery included), beside an idle window for comparison. The profiler is the
project's given tool ``trace_press.py`` (``--tool``; by default ``../shared/tools/trace_press.py`` beside the
project's root): it runs the bot, SIGUSR1 starts a recording and SIGUSR2 appends ``{file: calls}`` as one JSON
line to ``$TRACE_OUT``.

The bot runs as a separate process (``python trace_press.py``, the bot's third-party packages imported first; its
cwd the project's root, the environment a test's ``python -m bot`` gets: clocks at ``--speed``, ``GAME_SEED``, no
turn timer, bot players thinking in-process, a temporary database) against the project's fake Bot API. Аня and Борис start the bot through the lobby's join link
in their group, Аня starts the party; then, with the bot quiet:

1. **idle** — ``--idle`` seconds with nobody pressing anything;
2. **tap 1: card** — the mover presses a card of their hand (the first that plays on its tap — a card that can do one
   thing — else the first that can be played) until the last call it
   causes (its answer, the hand's edit) and ``--quiet`` seconds without any call (by default a minute of the clocks: the outbox's pacing and
   its lazy clean-up of old hands fit in it);
3. **tap 2: move** — only if the card opened a choice: what it does (its first move), until the other person's
   turn is shown and the
   calls have stopped;
4. **a whole move** — the other person's move, its card (and what it does, if it asks), in one window;
5. **idle, as long** — nobody pressing, as long as window 4.

A window's files are counted as a whole, and those in the game-flow, delivery, guards and operations packages
(today's ``bot/flow/``, ``bot/delivery/`` with its outbox, ``bot/guards/``, ``bot/operations/``; until the move
``bot/services/`` with its outbox). ``--json`` prints one JSON object. A measuring tool, not a test: the profiler
slows the bot a few times, so the windows' lengths say nothing of the bot's speed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bot.conftest import (
    SEED,
    SPEED,
    bot_process_env,
    move_buttons,
    start_party,
    turn_message,
)
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser, Limits
from tests.fakebot.server import ApiError, Params
from tests.forkserver import THIRD_PARTY, ForkServer
from tests.load.proc import ROOT, BotProcess

TOOL_PLACES = (
    ROOT.parent / "shared/tools/trace_press.py",
    ROOT.parent.parent.parent / "shared/tools/trace_press.py",
)
"""Where the given tool lives: beside the main checkout, or beside it from a worktree in its ``wt/``."""

PACKAGES = {
    "model": ("bot/model/",),
    "flow": ("bot/flow/",),
    "pipeline": ("bot/pipeline/",),
    "delivery": ("bot/delivery/",),
    "guards": ("bot/guards/",),
    "operations": ("bot/operations/",),
}
"""The middle of the bot: between the handlers and the engine, storage and views (issue 46's decider)."""
MIDDLE = tuple(prefix for prefixes in PACKAGES.values() for prefix in prefixes)

START_TIMEOUT = 90.0
"""Real seconds for the traced bot to start (importing aiogram under a profiler on a busy machine)."""
QUIET_CLOCK = 60.0
"""Clock seconds without a call that end a press's window by default: longer than the outbox's slowest pacing
(a group's 20 calls a minute: 3 s) and its lazy clean-up of old hands (``LAZY_AGE``, 20 s), so the window holds
every call the press causes, its deferred ``deleteMessages`` included — 1 real second at the tests' speed."""
STEP_TIMEOUT = 30.0
"""Real seconds for one step of the party (a lobby, a tap's visible effect, the calls to stop)."""


PRELOADED = "import importlib, runpy\nfor name in {modules!r}:\n    importlib.import_module(name)\nrunpy.run_path({tool!r}, run_name='__main__')\n"
"""How the traced bot is started: the third-party packages imported first, then the tool run as its own
``__main__``. The tool sets its profiler at its start; imported after it, aiogram alone took ~10 s of CPU under
the profiler, and nothing of it can fall in a window (only files of ``bot/`` and ``engine/`` are counted). The
tests fork it from the fork server instead (``trace(options, forkserver)``), where the bot's modules are imported
too: ~7 CPU-s a run less, and no import falls in a window either way (they all happen before the first)."""


def default_tool() -> Path:
    return next((place for place in TOOL_PLACES if place.exists()), TOOL_PLACES[0])


@dataclass(frozen=True)
class Options:
    tool: Path = field(default_factory=default_tool)
    speed: float = SPEED
    """Both clocks (the fake server's limits and the bot's ``CLOCK_SPEED``), as the tests run them."""
    seed: int = SEED
    idle: float = 0.5
    """The first idle window, in real seconds."""
    quiet: float | None = None
    """A press's window ends once no Telegram call came for this many real seconds after its effect showed
    (None: a minute of the clocks', :data:`QUIET_CLOCK`)."""

    @property
    def quiet_s(self) -> float:
        return self.quiet if self.quiet is not None else QUIET_CLOCK / self.speed


class CallLog:
    """The fake server's observer: when each Bot API call but polling was decided (``time.monotonic()``)."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, str]] = []

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if method != "getUpdates":
            self.calls.append((at, method if error is None else f"{method} ({error.code})"))

    def on_update(self, update: Any, at: float) -> None:
        pass

    def between(self, start: float, end: float) -> list[tuple[float, str]]:
        return [(at, method) for at, method in self.calls if start <= at < end]


@dataclass
class Window:
    name: str
    seconds: float
    files: dict[str, int]
    """File (relative to the project's root) -> functions entered in it."""
    calls: dict[str, int]
    """The Telegram calls the fake server saw in the window, by method."""
    last_call_ms: float | None
    """From the tap to the last Telegram call in the window (None for an idle window)."""

    def summary(self) -> dict[str, Any]:
        files = sorted(self.files)
        middle = [f for f in files if f.startswith(MIDDLE)]
        by_package = {
            name: sum(1 for f in files if f.startswith(prefixes)) for name, prefixes in PACKAGES.items()
        }
        return {
            "name": self.name,
            "seconds": round(self.seconds, 2),
            "last_call_ms": None if self.last_call_ms is None else round(self.last_call_ms),
            "telegram_calls": dict(sorted(self.calls.items())),
            "files": len(files),
            "files_in_middle": len(middle),
            "by_package": {name: n for name, n in by_package.items() if n},
            "files_in_engine": sum(1 for f in files if f.startswith("engine/")),
            "file_list": files,
            "calls_per_file": {f: self.files[f] for f in files},
        }


class TracedBot(BotProcess):
    """The bot under ``trace_press.py``: run from the project's root (the tool names files relative to its cwd)."""

    def __init__(
        self, tool: Path, env: dict[str, str], workdir: Path, out: Path, forkserver: ForkServer | None = None
    ) -> None:
        code = PRELOADED.format(modules=THIRD_PARTY, tool=str(tool))
        super().__init__("trace_press", env, workdir, forkserver, code=code, cwd=ROOT)
        self.tool = tool
        self.out = out
        self.recorded = 0

    async def record(self, name: str, calls: CallLog, action: Callable[[], Any]) -> Window:
        """SIGUSR1, ``await action()`` (it returns the moment of its tap, or None), SIGUSR2: the window."""
        os.kill(self.pid, signal.SIGUSR1)
        await asyncio.sleep(
            0.3
        )  # the handler runs between two bytecodes of the bot's main thread (later when busy)
        start = time.monotonic()
        tapped: float | None = await action()
        end = time.monotonic()
        os.kill(self.pid, signal.SIGUSR2)
        self.recorded += 1
        await _until(lambda: self._lines() >= self.recorded, "the trace's line", self)
        files: dict[str, int] = json.loads(self.out.read_text().splitlines()[-1])
        seen = calls.between(start, end)
        last = None if tapped is None or not seen else (max(at for at, _ in seen) - tapped) * 1000
        return Window(name, end - start, files, dict(Counter(m for _, m in seen)), last)

    def _lines(self) -> int:
        return len(self.out.read_text().splitlines()) if self.out.exists() else 0


async def _until(
    predicate: Callable[[], object], what: str, bot: BotProcess, timeout: float = STEP_TIMEOUT
) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if not bot.is_running():
            raise RuntimeError(f"the bot exited while waiting for {what}:\n{bot.log_tail()}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} within {timeout} s; the bot's log:\n{bot.log_tail()}")
        await asyncio.sleep(0.01)


def _version(data: str) -> int:
    """The state version in a move's callback data (``m:<game>:<version>:...``, ``p:...``)."""
    return int(data.split(":")[2])


def _card_to_pick(message: FakeMessage) -> str | None:
    """The first card of the hand that can be played now (a dimmed «·К♥·» cannot), one that plays on its tap
    first (a card marked «…» opens a choice); None if the hand offers moves at once (Кинг)."""
    picks = [b for b in message.flat_buttons if (b.callback_data or "").startswith("p:")]
    playable = [b for b in picks if not b.text.startswith("·")]
    chosen = ([b for b in playable if not b.text.endswith("…")] or playable or picks)[:1]
    return chosen[0].callback_data if chosen else None


class Party:
    """Аня and Борис in a group Кончинка party, taking their turns one tap at a time."""

    def __init__(self, tg: FakeTelegram, bot: TracedBot, people: list[FakeUser], quiet: float) -> None:
        self.tg = tg
        self.bot = bot
        self.people = people
        self.quiet = quiet

    def mover(self) -> tuple[FakeUser, FakeMessage] | None:
        for user in self.people:
            message = turn_message(user)
            if message is not None:
                return user, message
        return None

    async def wait_turn(self, after_version: int = -1) -> tuple[FakeUser, FakeMessage]:
        """Someone's hand offering moves of a state later than ``after_version``."""

        def ready() -> tuple[FakeUser, FakeMessage] | None:
            found = self.mover()
            if found is None or not any(_version(d) > after_version for d in move_buttons(found[1])):
                return None
            return found

        await _until(ready, "turn of a person", self.bot)
        found = ready()
        assert found is not None
        return found

    async def settle(self) -> None:
        await self.tg.settle(quiet=self.quiet, timeout=STEP_TIMEOUT)

    async def tap_card(self, user: FakeUser, message: FakeMessage) -> tuple[float, bool]:
        """The first tap: a card; done when it has played (the next turn shows) or its moves show, and the calls
        have stopped. The moment of the tap, and whether a second tap is wanted (the card opened a choice)."""
        data = _card_to_pick(message)
        if data is None:
            raise LookupError("the hand offers no card to pick")
        shown = {
            d for d in move_buttons(message) if d.startswith("m:")
        }  # the moves a hand offers beside its cards
        tapped = time.monotonic()
        answer = await user.press(message, data=data, timeout=STEP_TIMEOUT)
        if not answer.answered or answer.text:
            raise RuntimeError(f"the card's tap was refused: {answer.text!r}")

        def done() -> bool | None:
            if any(
                d.startswith("m:") and d not in shown for d in move_buttons(turn_message(user) or message)
            ):
                return True  # the card's own moves, opened by its tap
            found = self.mover()
            if found is not None and any(_version(d) > _version(data) for d in move_buttons(found[1])):
                return False
            return None

        await _until(lambda: done() is not None, "the card played, or its moves", self.bot)
        asks = bool(done())
        await self.settle()
        return tapped, asks

    async def tap_move(self, user: FakeUser) -> float:
        """The second tap: the picked card's first move; done when the next turn shows and the calls stopped."""
        message = turn_message(user)
        moves = [d for d in move_buttons(message) if d.startswith("m:")] if message is not None else []
        if message is None or not moves:
            raise LookupError("no move to press")
        tapped = time.monotonic()
        answer = await user.press(message, data=moves[0], timeout=STEP_TIMEOUT)
        if not answer.answered or answer.text:
            raise RuntimeError(f"the move was refused: {answer.text!r}")
        await self.wait_turn(after_version=_version(moves[0]))
        await self.settle()
        return tapped

    async def one_move(self) -> float:
        """Whoever is to move makes a whole move: a card, and what it does if it asks; the first tap's moment."""
        user, message = await self.wait_turn()
        if _card_to_pick(message) is None:
            return await self.tap_move(user)
        tapped, asks = await self.tap_card(user, message)
        if asks:
            await self.tap_move(user)
        return tapped


async def trace(options: Options, forkserver: ForkServer | None = None) -> dict[str, Any]:
    """Start the fake server and the traced bot, set the party up, record the windows; one JSON-ready dict.
    ``forkserver``: the traced bot is forked from it (the tests), not a fresh interpreter."""
    if not options.tool.exists():
        raise FileNotFoundError(f"no {options.tool} (see --tool)")
    tg = FakeTelegram(speed=options.speed, limits=Limits())
    calls = CallLog()
    tg.observer = calls
    await tg.start()
    try:
        with tempfile.TemporaryDirectory(prefix="trace-") as tmp:
            workdir = Path(tmp)
            out = workdir / "trace.jsonl"
            env = bot_process_env(tg, workdir / "bot.sqlite3") | {
                "PYTHONUNBUFFERED": "1",
                "CLOCK_SPEED": str(options.speed),
                "GAME_SEED": str(options.seed),
                "DEFAULT_TARGET": "3",
                "TURN_TIMEOUT": "0",
                "BOT_DELAY": "1",
                "LOG_LEVEL": "WARNING",
                "TRACE_OUT": str(out),
            }
            bot = TracedBot(options.tool, env, workdir, out, forkserver)
            await bot.start()
            try:
                windows = await _play(tg, bot, calls, options)
            finally:
                await bot.stop()
    finally:
        await tg.stop()
    return {
        "config": {
            "tool": str(options.tool),
            "root": str(ROOT),
            "speed": options.speed,
            "seed": options.seed,
            "idle_s": options.idle,
            "quiet_s": options.quiet_s,
            "middle": list(MIDDLE),
        },
        "windows": [w.summary() for w in windows],
    }


async def _play(tg: FakeTelegram, bot: TracedBot, calls: CallLog, options: Options) -> list[Window]:
    await _until(lambda: tg.commands != {}, "start-up (the menus set)", bot, START_TIMEOUT)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    party = Party(tg, bot, [anna, boris], options.quiet_s)
    user, message = await party.wait_turn()
    await party.settle()

    async def idle(seconds: float) -> None:
        await asyncio.sleep(seconds)

    windows = [await bot.record("idle", calls, lambda: idle(options.idle))]
    asks = [True]

    async def card() -> float:
        tapped, asks[0] = await party.tap_card(user, message)
        return tapped

    if _card_to_pick(message) is not None:
        windows.append(await bot.record("tap 1: card", calls, card))
    if asks[0]:
        windows.append(await bot.record("tap 2: move", calls, lambda: party.tap_move(user)))
    both = await bot.record("a whole move", calls, party.one_move)
    windows.append(both)
    windows.append(await bot.record("idle, as long", calls, lambda: idle(both.seconds)))
    return windows


def text(result: dict[str, Any]) -> str:
    lines = []
    config = result["config"]
    lines.append(
        f"traced by {config['tool']}; clocks ×{config['speed']:g}, seed {config['seed']}, a press's window ends "
        f"{config['quiet_s']:g} s after its last call"
    )
    lines.append(f"middle = {', '.join(config['middle'])}")
    lines.append("")
    lines.append(f"{'window':16}{'s':>7}{'last call ms':>14}{'files':>7}{'middle':>8}{'engine':>8}  calls")
    for w in result["windows"]:
        last = "—" if w["last_call_ms"] is None else str(w["last_call_ms"])
        telegram = ", ".join(f"{m} {n}" for m, n in w["telegram_calls"].items()) or "—"
        lines.append(
            f"{w['name']:16}{w['seconds']:>7.2f}{last:>14}{w['files']:>7}{w['files_in_middle']:>8}"
            f"{w['files_in_engine']:>8}  {telegram}"
        )
    for w in result["windows"]:
        packages = ", ".join(f"{name} {n}" for name, n in w["by_package"].items()) or "none"
        lines.append("")
        lines.append(f"{w['name']}: {w['files']} files, {w['files_in_middle']} in the middle ({packages})")
        lines.extend(f"  {'*' if f.startswith(MIDDLE) else ' '} {f}" for f in w["file_list"])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.load.trace", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tool",
        type=Path,
        default=default_tool(),
        help="the given trace_press.py (default: ../shared/tools/trace_press.py beside the project's root)",
    )
    parser.add_argument("--speed", type=float, default=SPEED, help=f"both clocks' speed (default {SPEED:g})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"GAME_SEED (default {SEED})")
    parser.add_argument("--idle", type=float, default=0.5, help="the first idle window, s (default 0.5)")
    parser.add_argument(
        "--quiet",
        type=float,
        default=None,
        help=f"real s without calls that end a press's window (default {QUIET_CLOCK:g} s of the clocks)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.speed <= 0 or args.idle <= 0 or (args.quiet is not None and args.quiet <= 0):
        parser.error("--speed, --idle and --quiet must be > 0")
    options = Options(
        tool=args.tool.resolve(), speed=args.speed, seed=args.seed, idle=args.idle, quiet=args.quiet
    )
    result = asyncio.run(trace(options))
    print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else text(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
