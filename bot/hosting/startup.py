"""What `parley run` adds for the host (docs/hosting.md): the doctor's checks at start-up
(logged, one line per finding; they never stop the bot) and, with `--metrics HOST:PORT`,
`/healthz` and `/metrics` served until the bot stops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from bot.hosting.doctor import PROBLEM, WARNING, Options, diagnose
from bot.hosting.metrics import HostMetrics
from bot.hosting.server import HostServer, parse_address
from bot.service import ServiceError

log = logging.getLogger("parley.hosting")
START_GAMES = 25  # games whose channels the start-up check looks at (all: `parley doctor`)


class Hosting:
    def __init__(self, args: Any, token: str) -> None:
        """Raises server.AddressError for a `--metrics` address it must refuse."""
        self.args = args
        self.token = token
        self.address = None
        if getattr(args, "metrics", None):
            self.address = parse_address(args.metrics, public=args.metrics_public)
        self.metrics = HostMetrics() if self.address else None
        self.server: HostServer | None = None
        self._doctor: asyncio.Task[None] | None = None

    def service_options(self) -> dict[str, Any]:
        """For `TableService.open`: the adjudication timings go to the metrics."""
        return {"metrics": self.metrics.adjudicated} if self.metrics else {}

    async def started(self, service: Any, bot: Callable[[], Any]) -> None:
        """The service is open and the bot made (`bot()`: the current one, it is remade
        after a failed connection)."""
        if getattr(self.args, "doctor", True):
            self._doctor = asyncio.create_task(self._check())
        if self.metrics is None or self.address is None:
            return
        self.metrics.service = service
        self.server = HostServer(self.metrics, lambda: health(service, bot()))
        host, port = self.address
        await self.server.start(host, port)
        log.info("health and metrics on http://%s:%d/healthz and /metrics", host, self.server.port)

    async def _check(self) -> None:
        opts = Options(self.token, self.args.db, self.args.message_content, max_games=START_GAMES)
        try:
            findings = await diagnose(opts)
        except Exception:  # (a check that breaks must not stop the bot)
            log.exception("doctor: the start-up checks failed")
            return
        for f in findings:
            level = logging.WARNING if f.level in (WARNING, PROBLEM) else logging.INFO
            log.log(level, "doctor: %s", f.line())

    async def stop(self) -> None:
        if self._doctor is not None:
            self._doctor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._doctor
        if self.server is not None:
            await self.server.stop()
        if self.metrics is not None:
            self.metrics.close()


def connected(bot: Any) -> bool:
    """The gateway session is up (every shard's, for a sharded bot)."""
    if bot is None or bot.is_closed() or not bot.is_ready():
        return False
    shards = getattr(bot, "shards", None)
    if shards:
        return all(not s.is_closed() for s in shards.values())
    ws = getattr(bot, "ws", None)
    return ws is not None and bool(getattr(ws, "open", True))


async def health(service: Any, bot: Any) -> dict[str, str]:
    gateway = "ok" if connected(bot) else "not connected"
    try:
        await asyncio.wait_for(service.table.storage.game(0), 2.0)
        database = "ok"
    except TimeoutError:
        database = "no answer within 2 s"
    except Exception as exc:  # noqa: BLE001 - whatever it is, the answer is "not healthy"
        database = exc.message if isinstance(exc, ServiceError) else f"{type(exc).__name__}: {exc}"
    return {"gateway": gateway, "database": database}
