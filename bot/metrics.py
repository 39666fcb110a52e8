"""Metrics in Prometheus's text format, on ``METRICS_PORT`` (off unless it is set), beside ``/healthz``.

The figures are read when Prometheus asks (a collector over the counters the bot keeps anyway), so they cost
the bot nothing between two scrapes. They are gathered on the event loop (:func:`scraper`), the one thread that
changes them; :class:`bot.health.OpsServer` serves them. A sample scrape config is in README.md.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from engine.ai import backends

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)


class BotCollector(Collector):
    def __init__(self, app: App) -> None:
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
        calls = CounterMetricFamily(
            "cardbot_bot_api_calls", "Outbox calls to the Bot API, by kind", labels=["kind"]
        )
        for kind, count in sorted(self.app.outbox.calls.items()):
            calls.add_metric([kind], count)
        yield calls
        yield GaugeMetricFamily(
            "cardbot_games_in_memory", "Active games held in memory", value=len(self.app.service.store.games)
        )
        guards, service = self.app.guards, self.app.service
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
            "cardbot_refusals_merged",
            "Repeated refusals in a chat left unsaid",
            value=service.refusals.merged,
        )
        if service.membership is not None:
            yield CounterMetricFamily(
                "cardbot_membership_calls",
                "getChatMember calls (rights, membership)",
                value=service.membership.calls,
            )
        health = self.app.health
        requests = CounterMetricFamily(
            "cardbot_api_requests",
            "Bot API calls by method and result (ok, or the error's kind)",
            labels=["method", "result"],
        )
        for (method, result), count in sorted(health.results.items()):
            requests.add_metric([method, result], count)
        yield requests
        yield CounterMetricFamily(
            "cardbot_api_retry_after_seconds",
            "Seconds Telegram's 429 answers asked the bot to wait",
            value=health.retry_after,
        )
        operator = self.app.operator
        refused = CounterMetricFamily(
            "cardbot_refusals", "Presses and commands refused, by reason", labels=["reason"]
        )
        for reason, count in sorted(operator.refusals.items()):
            refused.add_metric([reason], count)
        yield refused
        latency = HistogramMetricFamily(
            "cardbot_update_seconds", "Seconds from an update's arrival to its handler's end"
        )
        latency.add_metric([], operator.latency.cumulative(), sum_value=operator.latency.total)
        yield latency
        yield CounterMetricFamily(
            "cardbot_failures", "Updates whose handler failed unexpectedly", value=len(operator.failures)
        )
        active = GaugeMetricFamily(
            "cardbot_games_active", "Lobbies and games being played, by kind", labels=["kind"]
        )
        for kind, count in sorted(self.games.items()):
            active.add_metric([kind], count)
        yield active
        yield CounterMetricFamily(
            "cardbot_api_calls_ok", "Bot API calls that succeeded (getUpdates aside)", value=health.calls
        )
        yield CounterMetricFamily(
            "cardbot_api_calls_failed",
            "Bot API calls that failed, getUpdates included",
            value=health.failed_calls,
        )
        waiting, age = self.app.outbox.backlog()
        yield GaugeMetricFamily(
            "cardbot_outbox_waiting", "Calls waiting in the outbox (sends, edits, deletions)", value=waiting
        )
        yield GaugeMetricFamily(
            "cardbot_outbox_oldest_seconds", "Real seconds the oldest waiting message has waited", value=age
        )
        yield GaugeMetricFamily(
            "cardbot_uptime_seconds", "Seconds since the bot started", value=time.monotonic() - health.started
        )
        for name, text, buckets in (
            (
                "cardbot_decision_seconds",
                "Seconds a searching bot player took to decide",
                service.thinker.decisions,
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
            value=service.thinker.rebuilds,
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
            value=service.thinker.worker_deaths,
        )
        yield CounterMetricFamily(
            "cardbot_thinker_fallbacks",
            "Work that killed a fresh worker too: the move played by the fallback policy, a hint or review refused",
            value=service.thinker.fallbacks,
        )


def registry_for(app: App) -> tuple[CollectorRegistry, BotCollector]:
    registry = CollectorRegistry(auto_describe=True)
    collector = BotCollector(app)
    registry.register(collector)
    return registry, collector


def scraper(app: App) -> Callable[[], Coroutine[Any, Any, tuple[bytes, str]]]:
    """What ``/metrics`` runs on the event loop: the text and its content type."""
    registry, collector = registry_for(app)

    async def scrape() -> tuple[bytes, str]:
        try:
            collector.games = await app.operator.games_running()
        except Exception as exc:  # the other figures are worth having while the database is in trouble
            log.warning("metrics: cannot count the games: %s", exc)
        return generate_latest(registry), CONTENT_TYPE_LATEST

    return scrape
