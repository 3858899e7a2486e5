"""`/healthz` and `/metrics` over HTTP (`parley run --metrics 127.0.0.1:9108`).

Served by aiohttp (already there: discord.py's HTTP client) on the bot's own event loop, not
by prometheus_client's server thread: a thread would answer while the loop is wedged, and
`/healthz` is there to say whether the loop answers. It starts and stops with the bot.
Bound to a loopback address unless the host passes `--metrics-public`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.hosting.metrics import CONTENT_TYPE, HostMetrics

Check = Callable[[], Awaitable[dict[str, str]]]  # name -> "ok" or what is wrong


class AddressError(ValueError):
    """`--metrics` cannot be used as given (the message says why)."""


def parse_address(text: str, *, public: bool = False) -> tuple[str, int]:
    """HOST:PORT (`[::1]:9108` for IPv6; port 0: any free one, logged); a non-loopback host
    only with `public`."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise AddressError(f"--metrics {text}: want HOST:PORT, e.g. 127.0.0.1:9108")
    if not public and not _loopback(host):
        raise AddressError(
            f"--metrics {text}: {host} is not a loopback address; the metrics and health are "
            "for the host only: bind 127.0.0.1 (and scrape through a tunnel or a proxy), or "
            "add --metrics-public if this address is really what you want"
        )
    return host, int(port)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name other than localhost: it may resolve anywhere


class HostServer:
    def __init__(self, metrics: HostMetrics, checks: Check) -> None:
        self.metrics = metrics
        self.checks = checks
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, host: str, port: int) -> int:
        """Listen; returns the port (a free one for port 0)."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError:
            await self._runner.cleanup()
            self._runner = None
            raise
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, _request: web.Request) -> web.Response:
        # Answering at all says the event loop answers (this runs on it).
        try:
            found = await asyncio.wait_for(self.checks(), 5.0)
        except TimeoutError:
            found = {"checks": "took more than 5 s"}
        body = {"event_loop": "ok", **found}
        healthy = all(v == "ok" for v in body.values())
        return web.Response(
            text=json.dumps(body) + "\n",
            status=200 if healthy else 503,
            content_type="application/json",
        )

    async def _metrics(self, _request: web.Request) -> web.Response:
        body = await self.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
