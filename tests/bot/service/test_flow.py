"""A phase end to end on a real SQLite file with a fake clock: windows, orders, reminders,
adjudication at the writing deadline, results, press, game over."""

from __future__ import annotations

import pytest

from bot.core.model import Phase, PhaseKind, Position, Power, Season
from bot.core.outcome import Outcome
from bot.service import ConfigError, EventKind, LateSubmissionError, MemoryNotifier, load_clock
from tests.bot.service.conftest import PNG, SEVEN, SimpleEngine, run_until, seven_player_game


async def test_edc_spring_windows_orders_and_results(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    st = await svc.status(gid)
    assert (st.phase, st.window, st.phase_status) == ("S1901M", "negotiation", "open")
    assert st.deadline - st.opens_at == 540  # EDC spring: 8' negotiation + 1' writing
    assert st.writing_at - st.opens_at == 480

    reply = await svc.submit(gid, "user-france", "A PAR - BUR\nA MAR H")
    assert reply.accepted
    assert reply.orders == ["A PAR - BUR", "A MAR H"]
    assert reply.warnings == ["F BRE: no order (it will hold)"]

    clock.advance(480)
    await svc.run_due()
    st = await svc.status(gid)
    # edc-2023 B: "negotiations 8', writing of orders 1'": the negotiation is over when the
    # writing starts, so press is closed while orders are written.
    assert (st.window, st.press_open) == ("writing", False)
    assert EventKind.PRESS_LOCKED.value in notes.kinds()
    clock.advance(1)  # 59 s left: the 1' reminder is due, to everyone but France
    await svc.run_due()
    reminders = [e for e in notes.events if e.kind is EventKind.REMINDER_DUE]
    assert len(reminders) == 1
    assert "user-france" not in reminders[0].payload["users"]
    assert len(reminders[0].payload["users"]) == 6

    clock.advance(59)  # the deadline
    await svc.run_due()
    results = [e for e in notes.events if e.kind is EventKind.RESULTS_READY]
    assert len(results) == 1
    assert results[0].png == PNG
    lines = {(r["order"], r["succeeded"]) for r in results[0].payload["lines"]}
    assert ("A PAR - BUR", True) in lines
    # edc-2023 E: no talk while orders are read (press stays closed from the writing on).
    st = await svc.status(gid)
    assert (st.phase, st.phase_status, st.window, st.press_open) == (
        "F1901M",
        "pending",
        "reading",
        False,
    )

    with pytest.raises(LateSubmissionError):
        await svc.submit(gid, "user-france", "A BUR H")

    clock.advance(240)  # reading over: fall negotiation, press open again
    await svc.run_due()
    st = await svc.status(gid)
    assert (st.phase, st.window, st.press_open) == ("F1901M", "negotiation", True)
    assert notes.kinds()[-1] == EventKind.PRESS_UNLOCKED.value
    orders = await svc.phase_orders(gid, "user-england", (await svc.results(gid)).phase_id)
    assert orders[Power.FRANCE] == ["A PAR - BUR", "A MAR H"]


async def test_game_ends_after_the_clock_years(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, clock_overrides={"years": 1})

    async def over() -> bool:
        return (await svc.status(gid)).status == "over"

    await run_until(svc, clock, gid, over)
    st = await svc.status(gid)
    assert st.status == "over"
    assert st.end_reason == "year limit"
    assert notes.kinds().count("game_over") == 1
    assert SEVEN[0] in st.players.values()
    # issue 16: "the final map has no 'game over'": the end is decided after adjudication,
    # and the map of the phase that ended the game is the one that says so.
    maps = [e.png for e in notes.events if e.kind is EventKind.RESULTS_READY]
    assert len(maps) >= 2
    assert maps[-1] == PNG + b" game over"  # SimpleEngine's picture of a final map
    assert all(png == PNG for png in maps[:-1])
    assert (await svc.results(gid)).png == maps[-1]


async def test_reminders_at_each_configured_offset_only_to_those_missing(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, clock_overrides={"reminders": ["2m", "30s"]})
    deadline = (await svc.status(gid)).deadline
    await svc.submit(gid, "user-italy", "A VEN H")
    clock.set(deadline - 120)
    await svc.run_due()
    await svc.submit(gid, "user-france", "A PAR H")
    clock.set(deadline - 30)
    await svc.run_due()
    await svc.run_due()
    reminders = [e for e in notes.events if e.kind is EventKind.REMINDER_DUE]
    assert [r.payload["offset"] for r in reminders] == [120, 30]
    assert len(reminders[0].payload["users"]) == 6
    assert "user-france" not in reminders[1].payload["users"]
    assert "user-italy" not in reminders[1].payload["users"]
    assert len(reminders[1].payload["users"]) == 5


async def test_adjudication_in_a_process_pool(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes, executor="process")
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    res = await svc.results(gid)
    assert res.png == PNG
    assert res.outcome.position.unit_in("BUR").power is Power.FRANCE


async def test_a_phase_with_nothing_to_do_is_skipped(opener, clock):
    class WithRetreats(SimpleEngine):
        """Spring movement leads to a retreat phase with no dislodged unit."""

        def adjudicate(self, position, orders, rules, game_map):
            if position.phase.kind is PhaseKind.RETREAT:
                out = super().adjudicate(
                    Position(
                        Phase(position.phase.year, Season.SPRING, PhaseKind.MOVEMENT),
                        position.units,
                        position.centers,
                    ),
                    [],
                    rules,
                    game_map,
                )
                return Outcome(position.phase, (), (), (), out.position)
            out = super().adjudicate(position, orders, rules, game_map)
            if position.phase.season is Season.SPRING:
                nxt = Position(
                    Phase(position.phase.year, Season.SPRING, PhaseKind.RETREAT),
                    out.position.units,
                    out.position.centers,
                )
                return Outcome(out.phase, out.results, (), (), nxt)
            return out

    notes = MemoryNotifier()
    svc = await opener(engine=WithRetreats(), notifier=notes)
    gid = await seven_player_game(svc)
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    st = await svc.status(gid)
    assert st.phase == "F1901M"
    assert [(p.phase, p.status) for p in await svc.phases(gid)] == [
        ("S1901M", "done"),
        ("S1901R", "skipped"),
        ("F1901M", "pending"),
    ]
    [res] = [e for e in notes.events if e.kind is EventKind.RESULTS_READY]
    assert res.payload["skipped"] == ["S1901R"]


def test_clock_presets_follow_the_seeds():
    edc = load_clock("edc2023")
    spring, fall = edc.slots["spring_movement"], edc.slots["fall_movement"]
    assert (spring.negotiation, spring.writing, spring.reading) == (480, 60, 240)
    assert (fall.negotiation, fall.writing, fall.reading) == (480, 60, 360)
    assert edc.slots["spring_retreat"].writing == 60
    assert edc.slots["winter_adjustment"].writing == 60
    assert edc.years == 7
    # edc-2023 E: no talk while orders are read, nor in retreats and adjustments.
    assert "reading" not in spring.press
    assert edc.slots["spring_retreat"].press == ()
    casual = load_clock("casual")
    assert casual.slots["fall_movement"].writing == 48 * 3600
    assert casual.slots["fall_retreat"].writing == 24 * 3600
    house = load_clock("house")
    assert house.slots["spring_movement"].writing == 72 * 3600
    assert not house.early_adjudication  # VII(2) A: never before the deadline
    custom = edc.with_overrides({"fall_movement": {"negotiation": "10m"}, "years": 3})
    assert custom.slots["fall_movement"].negotiation == 600
    assert custom.years == 3
    with pytest.raises(ConfigError):
        edc.with_overrides({"fall_movement": {"negotiation": "soon"}})
