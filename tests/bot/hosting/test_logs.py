"""`--log-format json`: one object a line with time, level, game, phase, event."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from pathlib import Path

import pytest

from bot.hosting.logs import JsonFormatter, configure
from bot.service import FakeClock, TableService, TransientDeliveryError, observe
from tests.bot.service.conftest import SimpleEngine, seven_player_game


def record(msg: str, *args: object, level: int = logging.INFO, exc: bool = False) -> str:
    exc_info = None
    if exc:
        try:
            raise ValueError("boom")
        except ValueError:
            import sys  # noqa: PLC0415

            exc_info = sys.exc_info()
    rec = logging.LogRecord("parley.test", level, __file__, 1, msg, args, exc_info)
    return JsonFormatter().format(rec)


def test_one_object_a_line() -> None:
    with observe.about(12, "F1901M"):
        line = record("results posted in %s", "#table")
    assert "\n" not in line
    obj = json.loads(line)
    assert obj["level"] == "INFO"
    assert obj["game"] == 12
    assert obj["phase"] == "F1901M"
    assert obj["event"] == "results posted in #table"
    assert datetime.fromisoformat(obj["time"]).utcoffset().total_seconds() == 0
    # Outside any game's work: null, or the game a message names.
    assert json.loads(record("starting"))["game"] is None
    assert json.loads(record("game %s: clock step failed", 7))["game"] == 7
    failed = json.loads(record("it broke", level=logging.ERROR, exc=True))
    assert failed["level"] == "ERROR"
    assert "ValueError: boom" in failed["error"]
    assert "\n" not in record("it broke", exc=True)  # (the traceback escaped inside)


async def test_a_games_failure_logs_a_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    configure("json")
    try:
        clock = FakeClock()
        svc = await TableService.open(
            tmp_path / "p.db", clock=clock, engine=SimpleEngine(), run=False, grace=0.0
        )
        game = await seven_player_game(svc)
        # A clock step that fails is logged from inside the game's work.
        broken = svc.machine.advance_locked

        async def fails(game_id: int) -> None:
            raise RuntimeError("a bug")

        svc.machine.advance_locked = fails  # type: ignore[method-assign]
        clock.set(await svc.next_due(game) or 0)
        await svc.run_due()
        svc.machine.advance_locked = broken  # type: ignore[method-assign]
        await svc.close()
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line]
    assert lines, "nothing logged"
    for obj in lines:
        assert {"time", "level", "game", "phase", "event"} <= obj.keys()
    step = next(o for o in lines if "clock step failed" in o["event"])
    assert step["game"] == game
    assert step["level"] == "ERROR"
    assert "RuntimeError: a bug" in step["error"]


async def test_a_deferred_delivery_names_its_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    class Down:
        async def notify(self, event: object) -> None:
            raise TransientDeliveryError("Discord is down")

    root = logging.getLogger()
    saved = root.handlers[:], root.level
    configure("json")
    try:
        svc = await TableService.open(
            tmp_path / "p.db", clock=FakeClock(), engine=SimpleEngine(), run=False, notifier=Down()
        )
        game = await seven_player_game(svc)
        await svc.close()
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line]
    deferred = [o for o in lines if "deferred" in o["event"]]
    assert deferred
    assert all(o["game"] == game and o["level"] == "WARNING" for o in deferred)
