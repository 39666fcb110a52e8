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
