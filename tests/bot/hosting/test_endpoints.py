"""`parley run --metrics`: /healthz and /metrics scraped by a real HTTP client (aiohttp's),
the metric names checked; the figures as a game is played; the address refusals."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.cli import main
from bot.cli import run as run_cmd
from bot.hosting.metrics import NAMES, HostMetrics
from bot.hosting.server import AddressError, HostServer, parse_address
from bot.hosting.startup import Hosting
from bot.service import FakeClock, MemoryNotifier, TableService
from bot.service.storage.health import STATES
from tests.bot.service.conftest import SEVEN, SimpleEngine, run_until, seven_player_game
from tests.fake_discord import FakeDiscord


def run_args(db: Path, metrics: str | None = "127.0.0.1:0", **kw: object) -> argparse.Namespace:
    values = {
        "db": str(db),
        "message_content": False,
        "no_sync": False,
        "verbose": False,
        "init_db": False,
        "grace": None,
        "metrics": metrics,
        "metrics_public": False,
        "doctor": True,
        "executor": "thread",
    }
    return argparse.Namespace(**{**values, **kw})


def families(text: str) -> dict[str, object]:
    # (the parser names a counter's family without `_total`: as exposed, with it)
    out = {}
    for family in text_string_to_metric_families(text):
        name = family.name + ("_total" if family.type == "counter" else "")
        out[name] = family
    return out


def value(text: str, sample: str, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    raise KeyError(sample)


async def test_endpoints_of_a_running_bot(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO")
    async with FakeDiscord() as fake:
        fake.add_guild("Club", ["table"])
        fake.rate_limit("/commands", count=1)  # one 429 while syncing: counted
        hosting = Hosting(run_args(tmp_path / "p.db"), fake.token)
        task = asyncio.create_task(run_cmd._serve(run_args(tmp_path / "p.db"), fake.token, hosting))
        await fake.wait_for(lambda: fake.state.command_syncs and fake.gateway.identifies)
        await fake.wait_for(lambda: hosting.server is not None and hosting.server.port)
        assert hosting.server is not None
        base = f"http://127.0.0.1:{hosting.server.port}"
        async with aiohttp.ClientSession() as http:
            for _ in range(100):  # (the gateway's READY may come a moment after IDENTIFY)
                async with http.get(base + "/healthz") as resp:
                    health = await resp.json()
                    if resp.status == 200:
                        break
                await asyncio.sleep(0.05)
            assert resp.status == 200, health
            assert health == {"event_loop": "ok", "gateway": "ok", "database": "ok"}
            async with http.get(base + "/metrics") as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"].startswith("text/plain; version=0.0.4")
                text = await resp.text()
        assert set(NAMES) <= set(families(text)), sorted(set(NAMES) - set(families(text)))
        assert value(text, "parley_discord_rate_limited_total") == 1
        assert value(text, "parley_discord_retries_total", reason="429") == 1
        assert value(text, "parley_processes_alive") == 1
        assert value(text, "parley_games", state="active") == 0
        # The start-up checks were logged, one line per finding.
        await fake.wait_for(lambda: "doctor: ok      token accepted" in caplog.text)
        assert "doctor: ok      migrations current" in caplog.text
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        # The endpoints stop with the bot.
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.ClientConnectionError):
                await http.get(base + "/healthz")


async def test_healthz_says_what_is_down(tmp_path: Path) -> None:
    svc = await TableService.open(tmp_path / "p.db", clock=FakeClock(), run=False)
    metrics = HostMetrics(svc)

    class Closed:
        def is_closed(self) -> bool:
            return True

    from bot.hosting.startup import health  # noqa: PLC0415

    server = HostServer(metrics, lambda: health(svc, Closed()))
    port = await server.start("127.0.0.1", 0)
    try:
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{port}/healthz") as resp,
        ):
            assert resp.status == 503
            assert (await resp.json())["gateway"] == "not connected"
        await svc.storage.close()  # the database goes away
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{port}/healthz") as resp,
        ):
            assert resp.status == 503
            assert (await resp.json())["database"] != "ok"
    finally:
        await server.stop()
        metrics.close()


async def test_figures_as_a_game_is_played(tmp_path: Path) -> None:
    clock = FakeClock()
    metrics = HostMetrics()
    svc = await TableService.open(
        tmp_path / "p.db",
        clock=clock,
        engine=SimpleEngine(),
        notifier=MemoryNotifier(),
        run=False,
        grace=0.0,
        metrics=metrics.adjudicated,
    )
    metrics.service = svc
    server = HostServer(metrics, lambda: asyncio.sleep(0, {}))
    port = await server.start("127.0.0.1", 0)
    try:
        game = await seven_player_game(svc)
        await svc.create_game("gm", name="forming")
        await svc.submit(game, SEVEN[0], "A VIE H")
        await svc.submit(game, SEVEN[1], "this is not an order")

        async def adjudicated() -> bool:
            return (await svc.status(game)).phase != "S1901M"

        await run_until(svc, clock, game, adjudicated)
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{port}/metrics") as resp,
        ):
            text = await resp.text()
    finally:
        await server.stop()
        metrics.close()
        await svc.close()
    assert value(text, "parley_phases_adjudicated_total") == 1
    assert value(text, "parley_adjudication_seconds_count") == 1
    assert value(text, "parley_orders_total", outcome="accepted") == 1
    assert value(text, "parley_orders_total", outcome="refused") == 1
    assert value(text, "parley_deadline_to_results_seconds_count") == 1
    assert value(text, "parley_deadline_to_results_seconds_bucket", le="0.5") == 1
    assert value(text, "parley_games", state="active") == 1
    assert value(text, "parley_games", state="forming") == 1
    assert set(STATES) == {"forming", "active", "paused", "over"}
    assert value(text, "parley_deliveries_pending") == 0
    assert value(text, "parley_delivery_oldest_pending_seconds") == 0


def test_addresses() -> None:
    assert parse_address("127.0.0.1:9108") == ("127.0.0.1", 9108)
    assert parse_address("[::1]:9108") == ("::1", 9108)
    assert parse_address("localhost:9108") == ("localhost", 9108)
    for public in ("0.0.0.0:9108", "192.0.2.7:9108", "metrics.example.org:9108"):
        with pytest.raises(AddressError, match="not a loopback address"):
            parse_address(public)
        assert parse_address(public, public=True)[1] == 9108
    for bad in ("9108", "127.0.0.1:", "127.0.0.1:99999", ":9108"):
        with pytest.raises(AddressError, match="want HOST:PORT"):
            parse_address(bad)


def test_run_refuses_a_public_address(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert main(["run", "--metrics", "0.0.0.0:9108"]) == 2
    assert "--metrics-public" in capsys.readouterr().err


async def test_a_port_in_use_is_a_clear_error(tmp_path: Path, capsys) -> None:
    holder = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = holder.sockets[0].getsockname()[1]
    try:
        async with FakeDiscord() as fake:
            a = run_args(tmp_path / "p.db", f"127.0.0.1:{port}")
            assert await run_cmd._serve(a, fake.token, Hosting(a, fake.token)) == 2
    finally:
        holder.close()
        await holder.wait_closed()
    assert f"cannot serve --metrics 127.0.0.1:{port}" in capsys.readouterr().err
