"""The one wiring point: settings -> bot, database, outbox, pipeline, dispatcher; polling or webhook."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass, field

from aiogram import Bot, Dispatcher
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import TelegramAPIError, TelegramUnauthorizedError
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats, User
from aiohttp import web

from bot import metrics
from bot.clock import Clock
from bot.delivery.outbox import Outbox, OutboxLimits
from bot.delivery.outbox.core import ANSWER_TIMEOUT, PICTURES_KEPT
from bot.delivery.web import Page
from bot.flow.commands import FlowConfig
from bot.games import add_place, rules_library
from bot.guards.throttle import ThrottleMiddleware
from bot.guards.updates import (
    DatabaseTrouble,
    InFlightLimit,
    InRange,
    LogContext,
    OnceMiddleware,
    OriginMiddleware,
    Traffic,
    TrafficMiddleware,
)
from bot.handlers import handled_commands, routers
from bot.health import ApiWatch, Health, keep_beating
from bot.i18n import Locale, translator
from bot.instance import InstanceLock
from bot.operations.operator import Operator
from bot.ops_server import OpsServer
from bot.pipeline.access import Membership
from bot.pipeline.service import Pipeline
from bot.pipeline.thinker import Thinker
from bot.settings import ExitCode, Settings, StartupError
from bot.startup import check_texts, open_database, unexpected
from bot.storage import Database
from bot.systemd import Notifier
from bot.telegram import TELEGRAM_TIMEOUT, ask_telegram, make_bot
from bot.version import described
from bot.views import bot_commands
from bot.views.sheets import PictureCache
from bot.webapp.server import WebApp
from engine.ai import backends

log = logging.getLogger(__name__)

LONG_POLL = 10
"""Seconds of the bot's clock Telegram may hold a ``getUpdates`` open (aiogram's default; at least one real
second): a revoked token is noticed within one such wait."""


@dataclass(slots=True)
class App:
    settings: Settings
    bot: Bot
    db: Database
    clock: Clock
    outbox: Outbox
    pipeline: Pipeline
    dispatcher: Dispatcher
    throttle: ThrottleMiddleware
    guards: Guards
    health: Health
    operator: Operator
    ops: OpsServer | None = None
    systemd: Notifier = field(default_factory=Notifier)
    """systemd told of the start, the stop and that the loop runs (the unit's watchdog), under systemd."""
    webapp: WebApp | None = None
    """The Mini App's routes (``WEBAPP_URL`` set), served by :func:`serve_page` while the bot runs."""
    page: web.AppRunner | None = None
    """The Mini App's server, while it listens."""
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    resumed: int = 0
    texts: dict[Locale, int] = field(default_factory=dict)
    """Text files loaded, by locale (the start line says it)."""
    started: bool = False
    """The start line was said: a failure now is a stop, not a start that failed."""
    stopped: bool = False
    """:func:`on_shutdown` ran (once is enough: a start that failed runs it, and so may aiogram)."""


@dataclass(frozen=True, slots=True)
class Guards:
    """The middlewares every update passes, kept for their figures (metrics)."""

    in_flight: InFlightLimit
    trouble: DatabaseTrouble
    once: OnceMiddleware
    in_range: InRange


def flow_config(settings: Settings) -> FlowConfig:
    return FlowConfig(
        lobby_ttl=settings.lobby_ttl,
        turn_timeout=settings.turn_timeout,
        reminder_before=settings.reminder_before,
        afk_strikes=settings.afk_strikes,
        bot_delay=settings.bot_delay,
        game_seed=settings.game_seed,
        default_target=settings.default_target,
    )


async def build_app(
    settings: Settings, bot: Bot | None = None, lock: InstanceLock | None = None, clock: Clock | None = None
) -> App:
    """Everything the bot needs, connected; nothing running yet (see :func:`on_startup`). With ``lock``, the
    instance lock is taken once Telegram took the token, before the database is opened (and migrated);
    ``clock``: the bot's clock (tests move one by hand), else one at ``settings.clock_speed``."""
    for package in settings.extra_game_packages:
        add_place(package)
    texts = check_texts()
    bot = bot or make_bot(settings)
    me = await ask_telegram(bot)
    if lock is not None:
        lock.acquire()
    db = await open_database(settings.database_path, settings.database_busy_timeout)
    try:
        return connect(settings, bot, db, me, texts, clock)
    except BaseException:
        await db.close()  # its thread would keep the process alive
        raise


def connect(
    settings: Settings, bot: Bot, db: Database, me: User, texts: dict[Locale, int], clock: Clock | None
) -> App:
    """The parts around the open database, connected (what :func:`build_app` does once the database is open)."""
    health = Health(
        stall=settings.health_stall,
        polling=not settings.webhook_url,
        api_limit=settings.health_api_limit,
        conflict_exit=settings.conflict_exit_after,
    )
    bot.session.middleware(ApiWatch(health))
    clock = clock or Clock(settings.clock_speed)
    limits = OutboxLimits(settings.chat_interval, settings.group_per_minute, settings.global_per_second)
    pictures = PictureCache(PICTURES_KEPT)  # the score sheets drawn, for the chat and the Mini App
    outbox = Outbox(bot, db, clock, limits, pictures)
    membership = Membership(bot, clock)
    thinker = Thinker(settings.bot_thinkers)
    # No FSM: the bot keeps no conversation state, and aiogram's memory storage would keep an entry for every
    # (chat, user) it ever saw.
    traffic = Traffic()
    operator = Operator(
        clock,
        health,
        db,
        settings.admins,
        settings.admin_chat_id,
        lambda chat_id, text: outbox.say(chat_id, text),
        traffic,
    )
    operator.backlog = outbox.backlog
    pipeline = Pipeline(
        db, outbox, clock, flow_config(settings), membership, thinker, operator, me.username or ""
    )
    operator.end_abandoned = lambda: pipeline.end_abandoned(settings.abandoned_after)
    # Handlers take the pipeline (it does every command, and answers) and where their update came from.
    dispatcher = Dispatcher(pipeline=pipeline, disable_fsm=True)
    guards = Guards(
        InFlightLimit(),
        DatabaseTrouble(pipeline, settings.database_busy_timeout, settings.database_path),
        OnceMiddleware(pipeline.store.processed),
        InRange(),
    )
    dispatcher.update.outer_middleware(LogContext())
    dispatcher.update.outer_middleware(guards.in_range)
    dispatcher.update.outer_middleware(TrafficMiddleware(traffic))
    dispatcher.update.outer_middleware(guards.in_flight)
    dispatcher.update.outer_middleware(guards.trouble)
    dispatcher.update.outer_middleware(guards.once)
    dispatcher.update.outer_middleware(OriginMiddleware(pipeline.store.languages))
    throttle = ThrottleMiddleware(pipeline, clock)
    dispatcher.message.outer_middleware(throttle)
    dispatcher.callback_query.outer_middleware(throttle)
    dispatcher.include_routers(*routers())
    app = App(settings, bot, db, clock, outbox, pipeline, dispatcher, throttle, guards, health, operator)
    app.texts = texts
    # The loop beats from here on, through the start-up's waits: a slow start is no blocked loop.
    app.tasks.append(asyncio.create_task(keep_beating(health, outbox, db, app.systemd), name="beat"))
    if settings.webapp_url:
        link = (
            f"https://t.me/{me.username}/{settings.webapp_name}"
            if settings.webapp_name and me.username
            else ""
        )
        pipeline.page = Page(settings.webapp_url, link)
        app.webapp = WebApp(pipeline, bot.token, clock, guards.trouble, pictures)

    async def startup() -> None:
        await on_startup(app)

    async def shutdown() -> None:
        await on_shutdown(app)

    dispatcher.startup.register(startup)
    dispatcher.shutdown.register(shutdown)
    return app


async def set_commands(bot: Bot) -> None:
    """The command menus: private and group scopes, Russian (also the default) and English."""
    for locale in Locale:
        private, group = bot_commands(rules_library(), translator(locale))
        private = _handled(private)
        group = _handled(group)
        for language in (locale.value, None) if locale is Locale.RU else (locale.value,):
            await bot.set_my_commands(private, scope=BotCommandScopeAllPrivateChats(), language_code=language)
            await bot.set_my_commands(group, scope=BotCommandScopeAllGroupChats(), language_code=language)


def _handled(commands: list[BotCommand]) -> list[BotCommand]:
    return [c for c in commands if c.command in handled_commands()]


async def on_startup(app: App) -> None:
    """Everything the bot runs, started; if anything fails, what was started is stopped again (aiogram calls
    :func:`on_shutdown` only after a start that succeeded)."""
    try:
        await _start(app)
    except BaseException:
        with contextlib.suppress(Exception):
            await on_shutdown(app)
        raise


async def _start(app: App) -> None:
    try:
        await set_commands(app.bot)
    except Exception:
        log.exception("setMyCommands failed; the bot works without its command menu")
    await app.pipeline.store.processed.load()
    await app.pipeline.store.languages.load()
    app.tasks.append(asyncio.create_task(app.pipeline.follow(app.outbox.reports), name="outbox-reports"))
    await app.outbox.start()
    await app.pipeline.thinker.start()
    app.resumed = await app.pipeline.resume()
    app.tasks.append(asyncio.create_task(app.operator.keep_pruning(), name="prune"))
    app.tasks.append(asyncio.create_task(app.pipeline.seasons.keep(), name="seasons"))
    if app.settings.heartbeat_every > 0:
        app.tasks.append(asyncio.create_task(heartbeat(app), name="heartbeat"))
    if not app.settings.webhook_url:  # webhook mode says it once it listens (run_webhook)
        log_started(app)


def log_started(app: App) -> None:
    """The one line that says the bot runs: which version and commit, how it gets updates, on which database, with which
    texts, and how many games it took up again."""
    app.started = True
    settings = app.settings
    mode = (
        f"webhook {settings.webhook_url}{settings.webhook_path} (listening on "
        f"{settings.webhook_host}:{settings.webhook_port})"
        if settings.webhook_url
        else "polling"
    )
    texts = ", ".join(f"{locale.value} {count} files" for locale, count in app.texts.items())
    log.info(
        "bot @%s %s started; mode %s; database %s; texts %s; bot players' «мастер»: %s; %d active games resumed",
        app.pipeline.bot_username,
        described(),
        mode,
        settings.database_path.resolve(),
        texts,
        describe_backends(),
        app.resumed,
    )


def describe_backends() -> str:
    """Which «мастер» each game plays here, for the start line: ``king: c (compiled kernel), ...``."""
    names = {"c": "c (compiled kernel)", "python": "python (no kernel: the first release's «мастер», weaker)"}
    return ", ".join(f"{game}: {names.get(backend, backend)}" for game, backend in backends().items())


async def heartbeat(app: App) -> None:
    """An «alive» line every ``heartbeat_every`` real seconds: a log that goes quiet is a bot that hangs."""
    health = app.health
    calls = health.calls
    while True:
        await asyncio.sleep(app.settings.heartbeat_every)
        try:
            games = await app.operator.games_running()
        except Exception as exc:  # the line must come even when the database is in trouble
            games = {}
            log.warning("alive: cannot count the games: %s", exc)
        per_second = (health.calls - calls) / app.settings.heartbeat_every
        calls = health.calls
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(games.items())) or "none"
        waiting, age = app.outbox.backlog()
        log.info(
            "alive: games %s; %.2f Bot API calls/s; %d calls queued, the oldest for %.1f s; "
            "the loop came late by %.0f ms at most",
            kinds,
            per_second,
            waiting,
            age,
            health.worst_lag * 1000,
        )
        health.worst_lag = 0.0


async def on_shutdown(app: App) -> None:
    if app.stopped:
        return
    app.stopped = True
    app.systemd.stopping()
    for task in app.tasks:
        task.cancel()
    await asyncio.gather(*app.tasks, return_exceptions=True)
    await app.pipeline.close()
    await app.pipeline.thinker.close()
    await app.outbox.answers.settle(ANSWER_TIMEOUT)
    if app.health.fatal is None:  # with the token revoked nothing more can be sent
        try:
            await asyncio.wait_for(app.outbox.drain(), 3.0)
        except TimeoutError:
            log.warning("shutting down with messages still queued (they are re-sent from the database)")
    await app.outbox.stop()
    await app.db.close()


async def run(settings: Settings, *, session: BaseSession | None = None) -> None:
    """Run until stopped (SIGINT, SIGTERM); a :class:`StartupError` when the bot cannot start, or must stop
    (the token revoked while it ran: ``while_running``). ``session``: the Bot API client's (see :func:`make_bot`).

    Whatever start-up opened is closed again before the error leaves, so the process can exit at once; a failure
    no check foresaw (a bug, stored data the bot cannot read) is one too: :attr:`ExitCode.CRASH` and one line
    naming it and where it came from, instead of a traceback."""
    refuse_taken_ports(settings)  # before the database is created or migrated: a bad setting changes nothing
    bot = make_bot(settings, session)
    lock = InstanceLock(settings.database_path)
    app: App | None = None
    try:
        app = await build_app(settings, bot, lock)
        out_of_the_collectors_sight()
        try:
            await serve(app)
        finally:
            await close(app)
        fatal = app.health.fatal
        if fatal is not None:
            raise StartupError(fatal.code, fatal.message, while_running=True)
    except StartupError:
        raise
    except Exception as exc:
        running = app is not None and app.started
        raise StartupError(ExitCode.CRASH, unexpected(exc), while_running=running) from exc
    finally:
        await bot.session.close()
        lock.release()


async def serve(app: App) -> None:
    """The ops server and the Mini App listening, then the updates taken (polling or webhook) until the stop."""
    settings = app.settings
    if settings.metrics_port:
        app.ops = serve_ops(app, settings.metrics_host, settings.metrics_port)
    if app.webapp is not None:
        app.page = await serve_page(app.webapp, settings)
    if settings.webhook_url:
        await run_webhook(app)
    else:
        await _delete_webhook(app.bot)
        await poll(app)


async def close(app: App) -> None:
    """Whatever :func:`serve` opened, closed, the database last (its thread would keep the process alive); the
    tasks a start that failed before the shut-down left running, cancelled."""
    for task in app.tasks:
        task.cancel()
    try:
        if app.ops is not None:
            app.ops.close()
        if app.page is not None:
            await app.page.cleanup()
    finally:
        await app.db.close()


def out_of_the_collectors_sight() -> None:
    """The start's objects (aiogram's models, the texts, the rules' index: most of what the bot ever holds) moved
    where the garbage collector no longer walks them: each full collection would otherwise visit them all, a pause
    of tens of milliseconds in whatever press is being answered (the p99 of press→answer at G = 200)."""
    gc.collect()
    gc.freeze()


def refuse_taken_ports(settings: Settings) -> None:
    """Each port the bot will listen on besides a webhook's (``METRICS_PORT``, ``WEBAPP_PORT``), tried and let go
    at once: a taken one is exit code 2 before anything is written."""
    wanted: list[tuple[str, int, Callable[[OSError], StartupError]]] = []
    if settings.metrics_port:
        host, port = settings.metrics_host, settings.metrics_port
        wanted.append((host, port, lambda exc: metrics_port_refused(host, port, exc)))
    if settings.webapp_url:
        wanted.append(
            (settings.webapp_host, settings.webapp_port, lambda exc: page_port_refused(settings, exc))
        )
    for host, port, refused in wanted:
        try:
            socket.create_server((host, port)).close()
        except OSError as exc:
            raise refused(exc) from exc


def metrics_port_refused(host: str, port: int, exc: OSError) -> StartupError:
    return StartupError(
        ExitCode.SETTINGS,
        f"cannot listen on {host}:{port} for /healthz and /metrics: {exc.strerror or exc} "
        "(set METRICS_PORT to a free port, or METRICS_HOST to an address of this machine)",
    )


def page_port_refused(settings: Settings, exc: OSError) -> StartupError:
    return StartupError(
        ExitCode.SETTINGS,
        f"cannot listen on {settings.webapp_host}:{settings.webapp_port} for the Mini App: "
        f"{exc.strerror or exc} (set WEBAPP_PORT to a free port, or WEBAPP_HOST to an address of this machine)",
    )


async def serve_page(webapp: WebApp, settings: Settings) -> web.AppRunner:
    """The Mini App on ``WEBAPP_HOST:WEBAPP_PORT``, listening before the bot takes its first update; its open
    streams are closed within a second of the bot's stop."""
    runner = web.AppRunner(webapp.application(), access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, settings.webapp_host, settings.webapp_port).start()
    except OSError as exc:
        await runner.cleanup()
        raise page_port_refused(settings, exc) from exc
    log.info(
        "Mini App at %s (listening on %s:%d)", settings.webapp_url, settings.webapp_host, settings.webapp_port
    )
    return runner


def serve_ops(app: App, host: str, port: int) -> OpsServer:
    """``/healthz`` and ``/metrics`` on ``host:port``, listening before the bot takes its first update."""
    try:
        server = OpsServer(app.health, asyncio.get_running_loop(), metrics.scraper(app), host, port)
    except OSError as exc:
        raise metrics_port_refused(host, port, exc) from exc
    server.start()
    log.info("health at http://%s:%d/healthz, metrics at /metrics", host, server.port)
    return server


async def poll(app: App) -> None:
    """Long polling until a signal stops it, or a fatal answer (the token revoked) does."""
    polling = asyncio.create_task(
        app.dispatcher.start_polling(
            app.bot,
            polling_timeout=max(1, round(LONG_POLL / app.clock.speed)),
            allowed_updates=app.dispatcher.resolve_used_update_types(),
        ),
        name="polling",
    )
    fatal = asyncio.create_task(app.health.on_fatal.wait(), name="fatal")
    try:
        await asyncio.wait({polling, fatal}, return_when=asyncio.FIRST_COMPLETED)
        if fatal.done() and not polling.done():
            with contextlib.suppress(RuntimeError):  # not polling yet: it ends as soon as it begins
                await app.dispatcher.stop_polling()
        await polling
    finally:
        fatal.cancel()


async def _delete_webhook(bot: Bot) -> None:
    try:
        await asyncio.wait_for(bot.delete_webhook(drop_pending_updates=False), TELEGRAM_TIMEOUT)
    except (TimeoutError, TelegramAPIError) as exc:
        raise StartupError(
            ExitCode.UNREACHABLE, f"cannot switch the bot to polling: {exc} (check the network)"
        ) from exc


async def run_webhook(app: App) -> None:
    """Webhook mode: aiohttp serves ``webhook_path``; Telegram is told the public URL and secret."""
    from aiogram.webhook.aiohttp_server import setup_application
    from aiohttp import web

    from bot.webhook import WebhookHandler, watch_webhook

    settings = app.settings
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    web_app = web.Application()
    WebhookHandler(app.dispatcher, app.bot, secret_token=secret).register(web_app, path=settings.webhook_path)
    setup_application(web_app, app.dispatcher, bot=app.bot)
    runner = web.AppRunner(web_app, access_log=None)  # no line per update
    await runner.setup()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    try:
        site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
        try:
            await site.start()
        except OSError as exc:
            raise StartupError(
                ExitCode.WEBHOOK,
                f"cannot listen on {settings.webhook_host}:{settings.webhook_port}: {exc} "
                "(set WEBHOOK_HOST and WEBHOOK_PORT to a free address)",
            ) from exc
        # Only now that the endpoint listens: Telegram's first delivery must not meet a closed port (it would
        # back off and hold the updates back).
        try:
            await asyncio.wait_for(
                app.bot.set_webhook(
                    f"{settings.webhook_url}{settings.webhook_path}",
                    secret_token=secret,
                    allowed_updates=app.dispatcher.resolve_used_update_types(),
                ),
                TELEGRAM_TIMEOUT,
            )
        except TelegramUnauthorizedError as exc:
            raise StartupError(
                ExitCode.TOKEN,
                f"Telegram rejected the token when setting the webhook: {exc.message} "
                "(set BOT_TOKEN to the bot's current token from @BotFather)",
            ) from exc
        except (TimeoutError, TelegramAPIError) as exc:
            raise StartupError(
                ExitCode.WEBHOOK,
                f"Telegram did not take the webhook {settings.webhook_url}{settings.webhook_path}: {exc} "
                "(check WEBHOOK_URL: a public https:// address that reaches this port)",
            ) from exc
        app.health.webhook.url = f"{settings.webhook_url}{settings.webhook_path}"
        app.health.ready = True
        traffic = app.operator.traffic
        app.tasks.append(
            asyncio.create_task(
                watch_webhook(
                    app.bot, app.health.webhook, lambda: traffic.last_update, settings.webhook_check_every
                ),
                name="webhook-info",
            )
        )
        log_started(app)
        stopped = asyncio.create_task(stop.wait())
        fatal = asyncio.create_task(app.health.on_fatal.wait())
        try:
            await asyncio.wait({stopped, fatal}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
            fatal.cancel()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)
        await runner.cleanup()
