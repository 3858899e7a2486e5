"""A clock that fits people's week, on the fake Discord: a schedule at a fixed local time across
the October change with Sunday skipped, reminders the GM chose (only to who has not ordered),
an absence that moves a deadline and says why."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.core.model import Power
from tests.cogs.conftest import Table

PARIS = ZoneInfo("Europe/Paris")


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=PARIS).timestamp()


def local(ts: float | None) -> str:
    assert ts is not None
    return datetime.fromtimestamp(ts, PARIS).isoformat()


async def test_a_weekly_schedule_reminders_and_an_absence(table: Table) -> None:
    fake = table.fake
    table.clock.set(at("2026-10-22T20:00:00"))  # a Thursday evening
    reply = await table.command(
        table.gm,
        "game create",
        {
            "name": "Week",
            "clock": "casual",
            "schedule": "at: 21:00 zone: Europe/Paris every: 1 skip: sun",
            "reminders": "1h",
        },
    )
    assert "deadlines at 21:00 (Europe/Paris)" in reply.content
    game_id = int(reply.content.split("(#")[1].split(")")[0])
    for power, user in table.players.items():
        await table.command(user, "game join", {"power": power.value})
    await table.command(table.gm, "game start")
    await table.settle()
    status = await table.service.status(game_id)
    assert local(status.deadline) == "2026-10-23T21:00:00+02:00"
    opened = "\n".join(m.content for m in fake.state.messages_in(table.table.id))
    assert f"<t:{int(status.deadline)}" in opened  # each reader sees it in their own time

    # France is away Saturday and Sunday; the GM approves.
    france = table.players[Power.FRANCE]
    asked = await table.command(france, "absence", {"from": "2026-10-24", "to": "2026-10-25"})
    assert "Absence #1" in asked.content
    approved = await table.command(table.gm, "absences approve", {"absence": 1})
    assert "approved" in approved.content
    assert "Absence #1" in fake.state.messages_in(table.table.id)[-1].content  # all see it

    # France orders; the reminder an hour before goes only to those who have not.
    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "A PAR - BUR; A MAR - SPA; F BRE - MAO", at=table.clock.now())
    ack = await fake.dm_reply(france, before, within=10)
    assert "A PAR - BUR" in ack.content
    await table.advance(status.deadline - 3600 - table.clock.now())
    assert all("reminder" not in m.content.lower() for m in fake.state.dms_to(france.id))
    germany = table.players[Power.GERMANY]
    await fake.wait_for(lambda: fake.state.dms_to(germany.id), what="the reminder")
    assert "Spring 1901" in fake.state.dms_to(germany.id)[-1].content

    # Friday's deadline: Saturday 21:00 falls in France's absence -> Monday 21:00, winter time.
    await table.advance(3600)
    await table.settle()
    status = await table.service.status(game_id)
    assert local(status.deadline) == "2026-10-26T21:00:00+01:00"

    def told() -> list[str]:
        return [m.content for m in fake.state.messages_in(table.table.id) if "is away" in m.content]

    [why] = await fake.wait_for(told, what="why the deadline moved")
    assert f"<@{france.id}> (France)" in why
    assert f"<t:{int(status.deadline)}" in why


async def test_an_absence_over_the_limit_is_refused_and_nothing_saved(table: Table) -> None:
    game_id = await table.create_started_game()
    gm = table.gm
    await table.command(gm, "absences settings", {"days": 3, "mode": "hold"})
    france = table.players[Power.FRANCE]
    refused = await table.command(france, "absence", {"from": "2030-01-01", "to": "2030-01-07"})
    assert "at most 3 days" in refused.content
    assert not await _absences(table, game_id)
    bad = await table.command(france, "absence", {"from": "next week", "to": "2030-01-02"})
    assert "Cannot read the date" in bad.content
    ok = await table.command(france, "absence", {"from": "2030-01-01", "to": "2030-01-02"})
    assert "Absence #1" in ok.content
    outsider = await table.command(table.outsider, "absences approve", {"absence": 1})
    assert "GM" in outsider.content
    held = await table.command(gm, "absences approve", {"absence": 1})
    assert "hold" in held.content


async def _absences(table: Table, game_id: int) -> list:
    status = await table.service.status(game_id)
    return list(status.meta.get("absences") or [])
