"""Absences (bot/service/phases/absences.py): the deadline an approved absence moves, and the
limit."""

from __future__ import annotations

import pytest

from bot.service.clock.schedule import DAY, parse_schedule
from bot.service.phases.absences import Absence, AbsenceError, Absences, moved
from tests.bot.service.conftest import SEVEN, seven_player_game


def meta(*listed: Absence, mode: str = "move") -> dict:
    return {"absences": [a.to_json() for a in listed], "absence_policy": {"mode": mode}}


def test_a_deadline_in_an_absence_moves_to_its_end_and_on_through_the_next() -> None:
    first = Absence(1, "u1", "FRANCE", 100.0, 200.0, "approved")
    second = Absence(2, "u2", "ITALY", 150.0, 300.0, "approved")
    pending = Absence(3, "u3", "RUSSIA", 300.0, 900.0)
    assert moved(meta(first, second, pending), 120.0, None) == (300.0, second)
    assert moved(meta(first), 250.0, None) == (250.0, None)  # not in it
    assert moved(meta(first, mode="hold"), 120.0, None) == (120.0, None)  # the power holds
    schedule = parse_schedule("at: 21:00 zone: UTC every: 1")
    new, _ = moved(meta(Absence(1, "u", "FRANCE", 0.0, 2 * DAY, "approved")), DAY, schedule)
    assert new == 2 * DAY + 21 * 3600  # then the schedule's next time


async def test_requests_the_limit_and_the_gms_decision(opener, clock) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    rooms = Absences(svc)
    now = clock.now()
    with pytest.raises(AbsenceError) as info:
        await rooms.request(gid, SEVEN[0], now + DAY, now + 20 * DAY)
    assert info.value.key == "absence_limit"
    assert await rooms.of_game(gid) == []  # nothing saved
    asked = await rooms.request(gid, SEVEN[0], now, now + 2 * DAY)
    deadline = (await svc.status(gid)).deadline
    decided, new = await rooms.decide(gid, "gm", asked.id, approve=True)
    assert decided.status == "approved"
    assert new == now + 2 * DAY > deadline  # the open phase's deadline, moved
    with pytest.raises(AbsenceError):
        await rooms.decide(gid, "gm", asked.id, approve=False)  # decided once
