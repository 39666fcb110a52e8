"""The one wiring point: settings -> bot, database, outbox, game service, dispatcher; polling or webhook."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from dataclasses import dataclass

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramAPIError
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from aiohttp import web

from bot import metrics
from bot.games import rules_library
from bot.handlers import handled_commands, routers
from bot.i18n import Locale, translator
from bot.services.access import Membership
from bot.services.clock import Clock
from bot.services.facade import GameService, ServiceConfig
from bot.services.flood import ThrottleMiddleware
from bot.services.outbox import Outbox, OutboxLimits
from bot.services.outbox.session import KeptResponsesSession
from bot.services.thinker import Thinker
from bot.services.throttle import RefusalThrottle
from bot.services.trouble import DatabaseTrouble, InFlightLimit
from bot.services.updates import OnceMiddleware
from bot.settings import ExitCode, Settings, StartupError
from bot.startup import TELEGRAM_TIMEOUT, ask_telegram, check_texts, open_database
from bot.storage import Database
from bot.views import bot_commands

log = logging.getLogger(__name__)


@dataclass(slots=True)
class App:
    settings: Settings
    bot: Bot
    db: Database
    clock: Clock
    outbox: Outbox
    service: GameService
    dispatcher: Dispatcher
    throttle: ThrottleMiddleware
    guards: Guards
    metrics: web.AppRunner | None = None


@dataclass(frozen=True, slots=True)
class Guards:
    """The middlewares every update passes, kept for their figures (metrics)."""

    in_flight: InFlightLimit
    trouble: DatabaseTrouble
    once: OnceMiddleware


def make_bot(settings: Settings) -> Bot:
    session = (
        KeptResponsesSession(api=TelegramAPIServer.from_base(settings.telegram_api_url))
        if settings.telegram_api_url
        else KeptResponsesSession()
    )
    return Bot(settings.token, session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML))


def service_config(settings: Settings) -> ServiceConfig:
    return ServiceConfig(
        lobby_ttl=settings.lobby_ttl,
        turn_timeout=settings.turn_timeout,
        reminder_before=settings.reminder_before,
        afk_strikes=settings.afk_strikes,
        bot_delay=settings.bot_delay,
        game_seed=settings.game_seed,
        default_target=settings.default_target,
    )


async def build_app(settings: Settings, bot: Bot | None = None) -> App:
    """Everything the bot needs, connected; nothing running yet (see :func:`on_startup`)."""
    check_texts()
    bot = bot or make_bot(settings)
    me = await ask_telegram(bot)
    db = await open_database(settings.database_path)
    clock = Clock(settings.clock_speed)
    limits = OutboxLimits(settings.chat_interval, settings.group_per_minute, settings.global_per_second)
    outbox = Outbox(bot, db, clock, limits)
    membership = Membership(bot, clock)
    refusals = RefusalThrottle(clock)
    config = service_config(settings)
    thinker = Thinker(settings.bot_thinkers)
    service = GameService(db, outbox, clock, config, me.username or "", membership, refusals, thinker)
    outbox.on_forbidden = service.on_forbidden
    outbox.on_migrated = service.on_chat_migrated
    # No FSM: the bot keeps no conversation state, and aiogram's memory storage would keep an entry for every
    # (chat, user) it ever saw.
    dispatcher = Dispatcher(
        service=service, disable_fsm=True
    )  # handlers take the service (and aiogram's bot)
    guards = Guards(InFlightLimit(), DatabaseTrouble(), OnceMiddleware(service.store.processed))
    dispatcher.update.outer_middleware(guards.in_flight)
    dispatcher.update.outer_middleware(guards.trouble)
    dispatcher.update.outer_middleware(guards.once)
    throttle = ThrottleMiddleware(outbox, clock)
    dispatcher.message.outer_middleware(throttle)
    dispatcher.callback_query.outer_middleware(throttle)
    dispatcher.include_routers(*routers())
    app = App(settings, bot, db, clock, outbox, service, dispatcher, throttle, guards)

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
    try:
        await set_commands(app.bot)
    except Exception:
        log.exception("setMyCommands failed; the bot works without its command menu")
    await app.service.store.processed.load()
    if app.settings.metrics_port:
        app.metrics = await metrics.serve(app, app.settings.metrics_host, app.settings.metrics_port)
    await app.outbox.start()
    await app.service.thinker.start()
    resumed = await app.service.resume()
    log.info("bot @%s started; %d active games resumed", app.service.bot_username, resumed)


async def on_shutdown(app: App) -> None:
    await app.service.close()
    await app.service.thinker.close()
    try:
        await asyncio.wait_for(app.outbox.drain(), 3.0)
    except TimeoutError:
        log.warning("shutting down with messages still queued (they are re-sent from the database)")
    await app.outbox.stop()
    if app.metrics is not None:
        await app.metrics.cleanup()
    await app.db.close()


async def run(settings: Settings) -> None:
    """Run until stopped (SIGINT, SIGTERM); a :class:`StartupError` when the bot cannot start.

    Whatever start-up opened is closed again before the error leaves, so the process can exit at once.
    """
    bot = make_bot(settings)
    try:
        app = await build_app(settings, bot)
        try:
            if settings.webhook_url:
                await run_webhook(app)
            else:
                await _delete_webhook(app.bot)
                await app.dispatcher.start_polling(
                    app.bot, allowed_updates=app.dispatcher.resolve_used_update_types()
                )
        finally:
            await app.db.close()
    finally:
        await bot.session.close()


async def _delete_webhook(bot: Bot) -> None:
    try:
        await asyncio.wait_for(bot.delete_webhook(drop_pending_updates=False), TELEGRAM_TIMEOUT)
    except (TimeoutError, TelegramAPIError) as exc:
        raise StartupError(
            ExitCode.UNREACHABLE, f"cannot switch the bot to polling: {exc} (check the network)"
        ) from exc


async def run_webhook(app: App) -> None:
    """Webhook mode: aiohttp serves ``webhook_path``; Telegram is told the public URL and secret."""
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
    from aiohttp import web

    settings = app.settings
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    web_app = web.Application()
    SimpleRequestHandler(app.dispatcher, app.bot, secret_token=secret).register(
        web_app, path=settings.webhook_path
    )
    setup_application(web_app, app.dispatcher, bot=app.bot)
    runner = web.AppRunner(web_app)
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
        except (TimeoutError, TelegramAPIError) as exc:
            raise StartupError(
                ExitCode.WEBHOOK,
                f"Telegram did not take the webhook {settings.webhook_url}{settings.webhook_path}: {exc} "
                "(check WEBHOOK_URL: a public https:// address that reaches this port)",
            ) from exc
        log.info("webhook mode: listening on %s:%d", settings.webhook_host, settings.webhook_port)
        await stop.wait()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)
        await runner.cleanup()
