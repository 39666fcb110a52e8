"""One measured run (our bot or the floor) and the whole benchmark (both, with the ratios)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import shutil
import socket
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import aiohttp

from tests.fakebot import FakeTelegram, Limits
from tests.forkserver import ForkServer
from tests.load.page import Site, run_page_game
from tests.load.page_recorder import PageRecorder
from tests.load.people import GameSpec, Sim, mix, run_floor_game, run_game
from tests.load.proc import BotProcess, Usage
from tests.load.recorder import VISIBLE_METHODS, Recorder
from tests.webapp.launching import PAGE

START_TIMEOUT = 60.0
"""Real seconds the bot process may take to start polling (importing aiogram alone takes seconds)."""


class Target(StrEnum):
    OURS = "ours"
    """Our bot, every person playing in the chat."""
    WEB = "web"
    """Our bot, every person playing in the Mini App once their game is set up in the chat."""
    FLOOR = "floor"


@dataclass(frozen=True)
class Config:
    games: int = 50
    seconds: float = 90.0
    think: tuple[float, float] = (1.0, 3.0)
    seed: int = 1
    warmup: float = 120.0
    """At most this many real seconds for every game to be set up; the window starts then anyway."""
    drain: float = 60.0
    """After the window, at most this long for the presses made in it to get their answers and edits."""
    bot_delay: float | None = None
    """BOT_DELAY for our bot (None: the bot's default, one second)."""
    settle: float = 3.0
    """Real seconds between the end of the warm-up and the start of the measured window."""
    mix: str = "default"
    """Which games the people play (a key of :data:`tests.load.people.MIXES`)."""
    profile: Path | None = None
    """Where py-spy writes the bot process's stacks sampled over the window (collapsed, one per line), if set."""


async def _wait(predicate: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(step)
    return True


def _count_moves(db_path: Path, start: float, end: float) -> dict[str, int]:
    """Moves recorded by our bot with times in [start, end) (wall clock; the bot's clock at speed 1)."""
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        rows = db.execute(
            "SELECT actor, COUNT(*) FROM moves WHERE at >= ? AND at < ? GROUP BY actor", (start, end)
        ).fetchall()
    return {str(actor): int(count) for actor, count in rows}


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


DB_FIGURES = ("cardbot_db_transactions_total", "cardbot_db_statements_total")


async def _scrape(port: int | None) -> dict[str, float]:
    """The bot's database counters from its metrics endpoint (empty for the floor)."""
    if port is None:
        return {}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics", timeout=aiohttp.ClientTimeout(total=10)) as response,
    ):
        text = await response.text()
    figures: dict[str, float] = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in DB_FIGURES:
            figures[name] = float(value)
    return figures


def _self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(target: Target, config: Config, forkserver: ForkServer | None = None) -> dict[str, Any]:
    """Run ``config.games`` games against one bot process (forked from ``forkserver`` if given); the figures of
    the measured window."""
    tg = FakeTelegram(speed=1.0, limits=Limits())
    rec = Recorder()
    tg.observer = rec
    base = await tg.start()
    specs = mix(config.games, config.mix)
    sim = Sim(tg, rec, config.think, config.seed)
    pages = PageRecorder(rec.window)
    # Hundreds of streams stay open at once: no cap on the client's connections.
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    with tempfile.TemporaryDirectory(prefix="load-") as tmp:
        workdir = Path(tmp)
        db_path = workdir / "bot.sqlite3"
        env = {"BOT_TOKEN": tg.token, "TELEGRAM_API_URL": base, "LOG_LEVEL": "WARNING"}
        metrics_port: int | None = None
        play: Callable[[Sim, int, GameSpec], Coroutine[Any, Any, None]] = run_game
        if target is not Target.FLOOR:
            metrics_port = _free_port()
            env |= {
                "DATABASE_PATH": str(db_path),
                "GAME_SEED": str(config.seed),
                "METRICS_PORT": str(metrics_port),
            }
            if config.bot_delay is not None:
                env["BOT_DELAY"] = str(config.bot_delay)
        if target is Target.WEB:
            page_port = _free_port()
            env |= {"WEBAPP_URL": PAGE, "WEBAPP_HOST": "127.0.0.1", "WEBAPP_PORT": str(page_port)}
            site = Site(f"http://127.0.0.1:{page_port}/app", tg.token, session, pages)

            async def play_in_page(sim: Sim, index: int, spec: GameSpec) -> None:
                await run_page_game(sim, site, index, spec)

            play = play_in_page
        elif target is Target.FLOOR:
            play = run_floor_game
        module = "tests.load.floor" if target is Target.FLOOR else "bot"
        process = BotProcess(module, env, workdir, forkserver)
        tasks: list[asyncio.Task[None]] = []
        try:
            await process.start()
            if not await _wait(lambda: tg.waiting_polls > 0 or not process.is_running(), START_TIMEOUT):
                raise RuntimeError(f"the {target} bot did not start polling:\n{process.log_tail()}")
            warmup_start = time.monotonic()
            tasks = [asyncio.create_task(play(sim, index, spec)) for index, spec in enumerate(specs)]
            await _wait(
                lambda: len(sim.started) + sim.setup_failures.total() >= len(specs), config.warmup, 0.2
            )
            warmup = time.monotonic() - warmup_start
            await asyncio.sleep(config.settle)
            _check_alive(process, target)
            playing = len(sim.started)
            db_before = await _scrape(metrics_port)
            before, self_before = process.usage(), _self_cpu()
            rec.window.start, wall_start = time.monotonic(), time.time()
            profiler = await _profile(process.pid, config, target) if target is not Target.FLOOR else None
            await _wait(lambda: not process.is_running(), config.seconds, 0.5)
            rec.window.end, wall_end = time.monotonic(), time.time()
            _check_alive(process, target)
            after, self_after = process.usage(), _self_cpu()
            db_after = await _scrape(metrics_port)
            sim.stopping = True
            drain_start = time.monotonic()
            await _wait(lambda: rec.outstanding() + pages.outstanding() == 0, config.drain, 0.2)
            drained = time.monotonic() - drain_start
            peak = process.usage().peak_rss_mb
            if profiler is not None:
                await profiler.wait()
        finally:
            sim.stopping = True
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await process.stop()
            await session.close()
            await tg.stop()
        window = wall_end - wall_start
        if target is not Target.FLOOR:
            moves_by_actor = _count_moves(db_path, wall_start, wall_end)
        else:
            moves_by_actor = {"player": rec.latencies()["accepted_presses"]}
    return _figures(
        target,
        config,
        rec,
        pages if target is Target.WEB else None,
        sim,
        window=window,
        warmup=warmup,
        playing=playing,
        drained=drained,
        moves_by_actor=moves_by_actor,
        cpu=(before, after),
        self_cpu=self_after - self_before,
        peak_rss_mb=peak,
        db={name: db_after[name] - db_before.get(name, 0.0) for name in db_after},
    )


async def _profile(pid: int, config: Config, target: Target) -> asyncio.subprocess.Process | None:
    """py-spy sampling the bot over the window (``pip install py-spy``; it must be allowed to ptrace); the Mini
    App's run beside ``config.profile``, its name ending ``-web``."""
    if config.profile is None:
        return None
    path = config.profile
    if target is Target.WEB:
        path = path.with_name(f"{path.stem}-web{path.suffix}")
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return await asyncio.create_subprocess_exec(
        spy,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, round(config.seconds))),
        "--rate",
        "200",
        "--nonblocking",
        "--format",
        "raw",
        "--output",
        str(path),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


def _check_alive(process: BotProcess, target: Target) -> None:
    if not process.is_running():
        raise RuntimeError(f"the {target} bot exited:\n{process.log_tail()}")


def _figures(
    target: Target,
    config: Config,
    rec: Recorder,
    pages: PageRecorder | None,
    sim: Sim,
    *,
    window: float,
    warmup: float,
    playing: int,
    drained: float,
    moves_by_actor: dict[str, int],
    cpu: tuple[Usage, Usage],
    self_cpu: float,
    peak_rss_mb: float,
    db: dict[str, float],
) -> dict[str, Any]:
    moves = sum(moves_by_actor.values())
    per_move = 1 / moves if moves else 0.0
    cpu_s = cpu[1].cpu_s - cpu[0].cpu_s
    # In the page a press is answered by the page's server, not by answerCallbackQuery.
    answered = rec.answered_in_window() if pages is None else pages.answered_in_window()
    message_calls = sum(n for method, n in rec.calls.items() if method in VISIBLE_METHODS)
    return {
        "bot": str(target),
        "games": config.games,
        "people": len(sim.tg.users),
        "parties_started": sim.parties,
        "setup_failures": sim.setup_failures.total(),
        "setup_failures_by_game": dict(sim.setup_failures),
        "warmup_s": round(warmup, 1),
        "games_set_up_at_window_start": playing,
        "window_s": round(window, 1),
        "drain_s": round(drained, 1),
        **(rec.latencies() if pages is None else pages.latencies()),
        "moves": {"total": moves, **moves_by_actor},
        "moves_per_s": round(moves / window, 2) if window else 0.0,
        "calls_in_window": dict(sorted(rec.calls.items())),
        "calls_per_move": {method: round(n * per_move, 3) for method, n in sorted(rec.calls.items())},
        "message_calls_per_move": round(message_calls * per_move, 3),
        "message_calls_per_move_by_kind": {
            kind: round(n * per_move, 3) for kind, n in rec.message_calls.most_common()
        },
        "bot_cpu_ms_per_move": round(cpu_s * 1000 * per_move, 2),
        "bot_cpu_ms_per_press": round(cpu_s * 1000 / answered, 2) if answered else 0.0,
        "db_transactions_per_move": round(db.get(DB_FIGURES[0], 0.0) * per_move, 2) if db else None,
        "db_statements_per_move": round(db.get(DB_FIGURES[1], 0.0) * per_move, 2) if db else None,
        "bot_cpu_percent_of_a_core": round(cpu_s / window * 100, 1) if window else 0.0,
        "bot_loop_waited_for_a_cpu_percent": (
            round((cpu[1].loop_waited_s - cpu[0].loop_waited_s) / window * 100, 1) if window else 0.0
        ),
        "simulator_cpu_percent_of_a_core": round(self_cpu / window * 100, 1) if window else 0.0,
        "too_many_requests": rec.too_many_requests,
        "too_many_requests_by_chat": dict(rec.too_many_by_chat),
        "not_modified": rec.not_modified,
        "errors": dict(sorted(rec.errors.items())),
        "peak_rss_mb": round(peak_rss_mb, 1),
    }


RATIO_KEYS = (
    ("press_to_answer_ms", "p50"),
    ("press_to_answer_ms", "p95"),
    ("press_to_answer_ms", "p99"),
    ("press_to_own_edit_ms", "p50"),
    ("press_to_own_edit_ms", "p95"),
    ("press_to_own_edit_ms", "p99"),
)


def ratios(ours: dict[str, Any], floor: dict[str, Any]) -> dict[str, float | None]:
    """Ours divided by the floor, figure by figure (None where the floor's figure is 0 or missing)."""

    def ratio(a: Any, b: Any) -> float | None:
        if not isinstance(a, int | float) or not isinstance(b, int | float) or not b:
            return None
        return round(a / b, 2)

    result = {f"{key}.{q}": ratio(ours[key][q], floor[key][q]) for key, q in RATIO_KEYS}
    for key in ("bot_cpu_ms_per_move", "bot_cpu_ms_per_press", "message_calls_per_move", "peak_rss_mb"):
        result[key] = ratio(ours[key], floor[key])
    return result


WEB_TARGET_MS = 100.0
"""Issue 47's target for the Mini App: press → screen update p99 on this machine."""


def web_target(web: dict[str, Any], chat: dict[str, Any]) -> dict[str, Any]:
    """The Mini App's press → screen update (the others' streams in group games: what they see of a move; and
    the presser's answer) against the target, and how many times sooner than the chat's press → own edit."""
    others = web["press_to_others_stream_ms"]["p99"]
    answer = web["press_to_answer_ms"]["p99"]
    chat_p99 = chat["press_to_own_edit_ms"]["p99"]

    def times(a: Any, b: Any) -> float | None:
        return round(b / a, 1) if isinstance(a, int | float) and isinstance(b, int | float) and a else None

    return {
        "target_p99_ms": WEB_TARGET_MS,
        "press_to_screen_update_p99_ms": others,
        "press_to_answer_p99_ms": answer,
        "is_met": others is not None and answer is not None and max(others, answer) <= WEB_TARGET_MS,
        "chat_press_to_own_edit_p99_ms": chat_p99,
        "chat_p99_over_web_p99": times(others, chat_p99),
    }


def machine() -> dict[str, Any]:
    return {"cores": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()]}


async def benchmark(
    config: Config, *, floor: bool = True, web: bool = False, forkserver: ForkServer | None = None
) -> dict[str, Any]:
    """Our bot, then (``web``) our bot with every person in the Mini App, then the floor, with the same people;
    one JSON-ready dict. ``forkserver``: the bots are forked from it (tests; a fresh interpreter for each is
    what an operator starts)."""
    result: dict[str, Any] = {
        "config": {
            "games": config.games,
            "seconds": config.seconds,
            "think_s": list(config.think),
            "seed": config.seed,
            "bot_delay": config.bot_delay,
            "mix_name": config.mix,
            "mix": _mix_counts(config.games, config.mix),
            "speed": 1.0,
            "limits": "Telegram's (fake server): 1/s per chat, 20/min per group, 30/s overall",
        },
        "machine_before": machine(),
    }
    result["ours"] = await measure(Target.OURS, config, forkserver)
    result["machine_after_ours"] = machine()
    if web:
        result["web"] = await measure(Target.WEB, config, forkserver)
        result["machine_after_web"] = machine()
        result["web_target"] = web_target(result["web"], result["ours"])
    if floor:
        result["floor"] = await measure(Target.FLOOR, config, forkserver)
        result["machine_after_floor"] = machine()
        result["ratios_ours_to_floor"] = ratios(result["ours"], result["floor"])
    return result


def _mix_counts(games: int, name: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for spec in mix(games, name):
        counts[spec.label] = counts.get(spec.label, 0) + 1
    return counts
