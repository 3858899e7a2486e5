"""The host's metrics, in Prometheus's text format (`parley run --metrics`; docs/hosting.md
says what each means and which alerts are worth setting).

Counters and histograms are fed by what the services report (`bot.service.observe`) and by
the adjudication timings the service hands its `metrics` callback; the gauges (games by state,
deliveries pending and the oldest one's age, processes alive) are read at each scrape. Its own
registry, not the library's global one: two bots in one test process do not share figures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.service import observe

# The text format every Prometheus reads (0.0.4; the names here need none of 1.0.0's escaping)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: a phase's adjudication is milliseconds, a map a few hundred; deadline -> results
# posted is seconds when all is well, minutes when the bot is behind (README, Running at scale).
FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)

# Every metric's name (the test scrapes them; docs/hosting.md explains each).
NAMES = (
    "parley_phases_adjudicated_total",
    "parley_adjudication_seconds",
    "parley_render_seconds",
    "parley_deadline_to_results_seconds",
    "parley_deliveries_pending",
    "parley_delivery_oldest_pending_seconds",
    "parley_delivery_retries_total",
    "parley_discord_rate_limited_total",
    "parley_discord_retries_total",
    "parley_orders_total",
    "parley_games",
    "parley_processes_alive",
)


class HostMetrics:
    """The registry and its metrics; `close()` stops listening to the services."""

    def __init__(self, service: Any = None) -> None:
        self.service = service  # (set once opened: the callback is needed to open it)
        self.registry = CollectorRegistry()
        r = self.registry
        self.phases = Counter(
            "parley_phases_adjudicated", "Phases adjudicated by this process", registry=r
        )
        self.adjudication = Histogram(
            "parley_adjudication_seconds", "Adjudicating one phase", buckets=FAST, registry=r
        )
        self.render = Histogram(
            "parley_render_seconds", "Drawing one phase's map", buckets=FAST, registry=r
        )
        self.lag = Histogram(
            "parley_deadline_to_results_seconds",
            "From a phase's deadline to its results delivered (posted) by this process",
            buckets=LAG,
            registry=r,
        )
        self.pending = Gauge(
            "parley_deliveries_pending", "Events not delivered yet (all processes)", registry=r
        )
        self.oldest = Gauge(
            "parley_delivery_oldest_pending_seconds",
            "Age of the oldest event not delivered yet (0 if none)",
            registry=r,
        )
        self.delivery_retries = Counter(
            "parley_delivery_retries",
            "Deliveries deferred (Discord down, a failure) and tried again later",
            registry=r,
        )
        self.rate_limited = Counter(
            "parley_discord_rate_limited", "429 answers from Discord", registry=r
        )
        self.retries = Counter(
            "parley_discord_retries",
            "Requests discord.py sent again after a 429 or a 5xx",
            ["reason"],
            registry=r,
        )
        self.orders = Counter("parley_orders", "Sets of orders received", ["outcome"], registry=r)
        self.games = Gauge("parley_games", "Games by state (all processes)", ["state"], registry=r)
        self.alive = Gauge(
            "parley_processes_alive",
            "Parley processes running a scheduler on this database (1 on SQLite)",
            registry=r,
        )
        for outcome in ("accepted", "refused"):
            self.orders.labels(outcome=outcome)
        for reason in ("429", "5xx"):
            self.retries.labels(reason=reason)
        self._unlisten: Callable[[], None] = observe.listen(self._heard)

    # -- fed by the service -----------------------------------------------------------------

    def adjudicated(self, timings: dict[str, float]) -> None:
        """The `metrics` callback of `TableService.open`: after each adjudication."""
        self.phases.inc()
        self.adjudication.observe(timings.get("adjudicate", 0.0))
        if timings.get("render"):
            self.render.observe(timings["render"])

    def _heard(self, name: str, value: float, labels: dict[str, str]) -> None:
        if name == "orders":
            self.orders.labels(outcome=labels.get("outcome", "accepted")).inc()
        elif name == "results_posted":
            self.lag.observe(max(0.0, value))
        elif name == "delivery_retry":
            self.delivery_retries.inc()
        elif name == "discord_response":
            status = labels.get("status", "5xx")
            self.retries.labels(reason=status).inc()
            if status == "429":
                self.rate_limited.inc()

    # -- read at each scrape ----------------------------------------------------------------

    async def refresh(self) -> None:
        figures = await self.service.table.storage.host_figures()
        for state, n in figures.games.items():
            self.games.labels(state=state).set(n)
        self.pending.set(figures.pending)
        now = self.service.table.clock.now()  # (the clock the rows were written with)
        oldest = figures.oldest_pending
        self.oldest.set(0.0 if oldest is None else max(0.0, now - oldest))
        self.alive.set(self.service.scheduler.live_processes)

    async def exposition(self) -> bytes:
        await self.refresh()
        return generate_latest(self.registry)

    def close(self) -> None:
        self._unlisten()
