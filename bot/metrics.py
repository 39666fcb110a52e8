"""Metrics in Prometheus's text format, on ``METRICS_PORT`` (off unless it is set).

The figures are read when Prometheus asks (a collector over the counters the bot keeps anyway), so they cost
the bot nothing between two scrapes. A sample scrape config is in README.md.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)


class BotCollector(Collector):
    def __init__(self, app: App) -> None:
        self.app = app

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
        yield CounterMetricFamily(
            "cardbot_thinker_rebuilds",
            "Bot players' worker pools rebuilt after a crash",
            value=service.thinker.rebuilds,
        )


def registry_for(app: App) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=True)
    registry.register(BotCollector(app))
    return registry


async def serve(app: App, host: str, port: int) -> web.AppRunner:
    """``GET /metrics`` on ``host:port``; the runner, to clean up at shutdown."""
    registry = registry_for(app)

    async def metrics(_request: web.Request) -> web.Response:
        body = generate_latest(registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    web_app = web.Application()
    web_app.router.add_get("/metrics", metrics)
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("metrics on http://%s:%d/metrics", host, port)
    return runner
