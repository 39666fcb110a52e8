"""Metrics in Prometheus's text format, on ``METRICS_PORT`` (off unless it is set), beside ``/healthz``.

The figures are read when Prometheus asks (collectors over the counters the bot keeps anyway), so they cost
the bot nothing between two scrapes. :class:`bot.ops_server.OpsServer` serves them in two parts (:class:`Scrape`):
what its own thread reads itself (:class:`ServiceCollector`: the version, the uptime, ``cardbot_unhealthy``, the
last backup, the memory of the whole service, the webhook as Telegram sees it, the last update's time, and the
process's ``process_*`` and Python's ``python_*``), served even while the event loop is blocked — so that a
blocked loop is scraped as ``cardbot_unhealthy{check="loop"} 1`` —, and the rest, gathered on the event loop, the
one thread that changes them (:class:`BotCollector`), within :data:`bot.health.ANSWER_WITHIN` seconds, left out
while the loop does not answer.
Every counter only grows, every gauge is there at zero too. ``deploy/`` holds alert rules and a dashboard over
these names (``tests/bot/test_deploy.py`` checks that each name they use exists).

This module knows the running bot only through :class:`BotParts`, the parts it reads: it imports no wiring.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    GCCollector,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    InfoMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from bot import version
from bot.backups import last_backup, last_failure
from bot.games import plugins
from bot.health import CHECKS
from bot.memory import service_memory
from bot.model.answers import Answer
from engine.ai import backends

if TYPE_CHECKING:
    from bot.delivery.outbox import Outbox
    from bot.guards.throttle import ThrottleMiddleware
    from bot.guards.updates import DatabaseTrouble, InFlightLimit, InRange, OnceMiddleware
    from bot.health import Health
    from bot.operations.operator import Operator
    from bot.pipeline.service import Pipeline
    from bot.storage import Database

log = logging.getLogger(__name__)


class GuardParts(Protocol):
    @property
    def in_flight(self) -> InFlightLimit: ...
    @property
    def trouble(self) -> DatabaseTrouble: ...
    @property
    def once(self) -> OnceMiddleware: ...
    @property
    def in_range(self) -> InRange: ...


class BotParts(Protocol):
    """What the metrics read of the running bot (the wiring's ``App`` has all of it)."""

    @property
    def db(self) -> Database: ...
    @property
    def outbox(self) -> Outbox: ...
    @property
    def pipeline(self) -> Pipeline: ...
    @property
    def guards(self) -> GuardParts: ...
    @property
    def throttle(self) -> ThrottleMiddleware: ...
    @property
    def health(self) -> Health: ...
    @property
    def operator(self) -> Operator: ...


class BotCollector(Collector):
    def __init__(self, app: BotParts) -> None:
        self.app = app
        self.games: dict[str, int] = {}
        """Active games by kind, read from the database just before each scrape (:func:`scraper`)."""

    def collect(self) -> Iterator[Metric]:
        db = self.app.db
        yield CounterMetricFamily(
            "cardbot_db_transactions", "SQLite transactions begun", value=db.transactions
        )
        yield CounterMetricFamily(
            "cardbot_db_statements",
            "Statements sent to SQLite (an executemany counts once; BEGIN and COMMIT count)",
            value=db.statements,
        )
        yield CounterMetricFamily(
            "cardbot_db_rows_set_aside",
            "Rows set aside unstored because SQLite cannot store them (an id beyond 64 bits)",
            value=db.rows_set_aside,
        )
        yield GaugeMetricFamily(
            "cardbot_games_in_memory", "Active games held in memory", value=len(self.app.pipeline.store.games)
        )
        guards, pipeline = self.app.guards, self.app.pipeline
        yield GaugeMetricFamily(
            "cardbot_updates_in_flight", "Updates being handled", value=guards.in_flight.in_flight
        )
        yield GaugeMetricFamily(
            "cardbot_updates_in_flight_peak",
            "The most updates handled at once so far",
            value=guards.in_flight.peak,
        )
        yield CounterMetricFamily(
            "cardbot_updates_skipped",
            "Updates skipped as copies of ones already handled",
            value=guards.once.skipped,
        )
        yield CounterMetricFamily(
            "cardbot_updates_out_of_range",
            "Updates refused for holding a number no Telegram sends (it could not be stored)",
            value=guards.in_range.refused,
        )
        yield CounterMetricFamily(
            "cardbot_db_busy_retries",
            "Updates tried again because the database was busy",
            value=guards.trouble.retries,
        )
        yield CounterMetricFamily(
            "cardbot_db_apologies",
            "Presses answered with an apology: the database failed",
            value=guards.trouble.apologies,
        )
        yield CounterMetricFamily(
            "cardbot_presses_throttled",
            "Presses and commands refused as too fast",
            value=self.app.throttle.refused,
        )
        yield CounterMetricFamily(
            "cardbot_commands_delayed",
            "Commands answered after waiting for their chat's window rather than refused",
            value=self.app.throttle.delayed,
        )
        yield CounterMetricFamily(
            "cardbot_commands_merged",
            "Group commands answered by the same question's answer that was waiting already",
            value=self.app.throttle.merged,
        )
        yield CounterMetricFamily(
            "cardbot_refusals_merged",
            "Repeated refusals in a chat left unsaid",
            value=pipeline.refusals.merged,
        )
        yield CounterMetricFamily(
            "cardbot_membership_calls",
            "getChatMember calls (rights, membership)",
            value=pipeline.membership.calls,
        )
        health = self.app.health
        calls = CounterMetricFamily(
            "cardbot_api_calls",
            "Bot API calls (getUpdates included) by method and outcome: ok, or the error's kind "
            "(retryafter is a 429, conflict a 409, network no answer)",
            labels=["method", "outcome"],
        )
        for (method, outcome), count in sorted(health.results.items()):
            calls.add_metric([method, outcome], count)
        yield calls
        yield CounterMetricFamily(
            "cardbot_api_retry_after_seconds",
            "Seconds Telegram's 429 answers asked the bot to wait",
            value=health.retry_after,
        )
        operator = self.app.operator
        refused = CounterMetricFamily(
            "cardbot_refusals", "Presses and commands refused, by reason", labels=["reason"]
        )
        for reason in sorted({answer.value for answer in Answer} | set(operator.refusals)):
            refused.add_metric([reason], operator.refusals.get(reason, 0))  # every reason, at 0 too
        yield refused
        latency = HistogramMetricFamily(
            "cardbot_update_seconds", "Seconds from an update's arrival to its handler's end"
        )
        latency.add_metric(
            [], operator.traffic.latency.cumulative(), sum_value=operator.traffic.latency.total
        )
        yield latency
        yield CounterMetricFamily(
            "cardbot_failures", "Updates whose handler failed unexpectedly", value=operator.failure_count
        )
        active = GaugeMetricFamily(
            "cardbot_games_active", "Lobbies and games being played, by kind", labels=["kind"]
        )
        kinds = {plugin.kind for plugin in plugins()} | set(self.games)
        for kind in sorted(kinds):
            active.add_metric([kind], self.games.get(kind, 0))
        yield active
        waiting, age = self.app.outbox.backlog()
        yield GaugeMetricFamily(
            "cardbot_outbox_waiting", "Calls waiting in the outbox (sends, edits, deletions)", value=waiting
        )
        yield GaugeMetricFamily(
            "cardbot_outbox_oldest_seconds", "Real seconds the oldest waiting message has waited", value=age
        )
        for name, text, buckets in (
            (
                "cardbot_decision_seconds",
                "Seconds a searching bot player took to decide",
                pipeline.thinker.decisions,
            ),
            (
                "cardbot_db_transaction_seconds",
                "Seconds a transaction held the database",
                self.app.db.tx_seconds,
            ),
        ):
            histogram = HistogramMetricFamily(name, text)
            histogram.add_metric([], buckets.cumulative(), sum_value=buckets.total)
            yield histogram
        yield CounterMetricFamily(
            "cardbot_thinker_rebuilds",
            "Bot players' worker pools rebuilt after a crash",
            value=pipeline.thinker.rebuilds,
        )
        backend = GaugeMetricFamily(
            "cardbot_bot_players_backend",
            "1 for the path each game's «мастер» thinks on here: c (compiled kernel) or python (weaker)",
            labels=["game", "backend"],
        )
        for game, path in backends().items():
            backend.add_metric([game, path], 1)
        yield backend
        yield CounterMetricFamily(
            "cardbot_thinker_worker_deaths",
            "Bot players' decisions, hints and reviews that met a dead worker (each retried in a fresh one)",
            value=pipeline.thinker.worker_deaths,
        )
        yield CounterMetricFamily(
            "cardbot_thinker_fallbacks",
            "Work that killed a fresh worker too: the move played by the fallback policy, a hint or review refused",
            value=pipeline.thinker.fallbacks,
        )


class ServiceCollector(Collector):
    """The figures the metrics server's thread reads itself (numbers the event loop writes whole, files, ``/proc``):
    served even while the loop is blocked."""

    def __init__(self, app: BotParts) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        health = self.app.health
        build = InfoMetricFamily(
            "cardbot_build", "The running bot's version and the commit it was built from"
        )
        build.add_metric(
            [], {"version": version.version(), "commit": version.commit(), "python": version.python()}
        )
        yield build
        uptime = time.monotonic() - health.started
        yield GaugeMetricFamily("cardbot_uptime_seconds", "Seconds since the bot started", value=uptime)
        failing = {check for check, _text in health.failing()}
        unhealthy = GaugeMetricFamily(
            "cardbot_unhealthy", "1 while /healthz reports this check failing, else 0", labels=["check"]
        )
        for check in CHECKS:
            unhealthy.add_metric([check], 1.0 if check in failing else 0.0)
        yield unhealthy
        yield GaugeMetricFamily(
            "cardbot_last_backup_timestamp_seconds",
            "When `python -m bot backup` last copied this database successfully (Unix time; 0: never)",
            value=last_backup(self.app.db.path) or 0.0,
        )
        yield GaugeMetricFamily(
            "cardbot_last_backup_failure_timestamp_seconds",
            "When `python -m bot backup` last failed to copy this database (Unix time; 0: never)",
            value=last_failure(self.app.db.path) or 0.0,
        )
        yield GaugeMetricFamily(
            "cardbot_service_memory_bytes",
            "Memory of the bot's process and the processes it started (the bot players' workers): the sum of "
            "their proportional set sizes, what the service's memory limit counts",
            value=service_memory(),
        )
        last = self.app.operator.traffic.last_update or time.time() - uptime
        yield GaugeMetricFamily(
            "cardbot_last_update_timestamp_seconds",
            "When the bot last received an update from Telegram (Unix time; its start until one came)",
            value=last,
        )
        webhook = health.webhook
        yield GaugeMetricFamily(
            "cardbot_webhook_pending_updates",
            "Updates waiting at Telegram for the webhook, as getWebhookInfo said last (0 while polling)",
            value=webhook.pending,
        )
        yield GaugeMetricFamily(
            "cardbot_webhook_last_error_timestamp_seconds",
            "When Telegram last failed to deliver an update to the webhook, as getWebhookInfo said last "
            "(Unix time; 0: never, or polling)",
            value=webhook.error_at,
        )


class Scrape:
    """What ``/metrics`` serves: :meth:`read` on the metrics server's thread, :meth:`gather` on the event loop;
    called, both (the whole text and its content type)."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self, app: BotParts) -> None:
        self.app = app
        self.own = CollectorRegistry(auto_describe=True)
        self.own.register(ServiceCollector(app))
        ProcessCollector(registry=self.own)
        PlatformCollector(registry=self.own)
        GCCollector(registry=self.own)
        self.loop = CollectorRegistry(auto_describe=True)
        self.collector = BotCollector(app)
        self.loop.register(self.collector)

    def read(self) -> bytes:
        """The figures any thread may read, the event loop blocked or not."""
        return generate_latest(self.own)

    async def gather(self) -> bytes:
        """The figures only the event loop may read (it changes them)."""
        try:
            self.collector.games = await self.app.operator.games_running()
        except Exception as exc:  # the other figures are worth having while the database is in trouble
            log.warning("metrics: cannot count the games: %s", exc)
        return generate_latest(self.loop)

    async def __call__(self) -> tuple[bytes, str]:
        return self.read() + await self.gather(), self.content_type


def scraper(app: BotParts) -> Scrape:
    """What ``/metrics`` serves of ``app``."""
    return Scrape(app)
