"""Tournaments on the service (issue 15; seed edc-2023 B, D, E, G), on SQLite and PostgreSQL:
entries and their windows, seating, the round clock, table results, penalties, standings."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from bot.service.tournaments.service import Tournaments
from bot.service.tournaments.texts import TournamentRefusedError

DIRECTOR = "td"


def at(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()


async def _tournament(opener, players: int = 14, **kw):
    svc = await opener()
    tours = Tournaments(svc)
    row = await tours.create(DIRECTOR, name="EDC", guild_id="1", channel_id="2", **kw)
    names = [f"p{i:02d}" for i in range(players)]
    for p in names:
        await tours.check_in(row.id, p, by=p)
    return svc, tours, row.id, names


async def test_seed_g_windows_for_pre_registration_and_registration(opener, clock) -> None:
    svc = await opener()
    tours = Tournaments(svc)
    tid = (await tours.create(DIRECTOR, name="EDC")).id
    clock.set(at("2023-11-23 12:00"))
    await tours.schedule(tid, DIRECTOR, 1, at("2023-11-24 19:00"))
    # G: pre-registered = "announced ... no later than the day before the round"
    assert await tours.preregister(tid, "ann", [1, 2]) == [1, 2]
    clock.set(at("2023-11-24 00:00"))
    with pytest.raises(TournamentRefusedError, match="closes the day before"):
        await tours.preregister(tid, "bob", [1])
    # G: registered = "confirmed ... at the earliest one hour before ... at the latest 30 min"
    clock.set(at("2023-11-24 17:59"))
    with pytest.raises(TournamentRefusedError, match="18:00 UTC to 2023-11-24 18:30"):
        await tours.register(tid, "ann")
    clock.set(at("2023-11-24 18:10"))
    assert await tours.register(tid, "ann") == 1
    clock.set(at("2023-11-24 18:31"))
    with pytest.raises(TournamentRefusedError):
        await tours.register(tid, "bob")
    [ann] = (await tours.storage.entries(tid))[:1]
    assert (ann.user_id, ann.registered_at, ann.preregistered_at) == (
        "ann",
        at("2023-11-24 18:10"),
        at("2023-11-23 12:00"),
    )
    with pytest.raises(TournamentRefusedError, match="Only the tournament director"):
        await tours.schedule(tid, "ann", 2, at("2023-11-25 10:00"))


async def test_a_round_is_seated_swapped_started_on_one_clock_and_scored(opener) -> None:
    svc, tours, tid, names = await _tournament(opener)
    done: list[tuple[int, int]] = []

    async def posted(t: int, n: int) -> None:
        done.append((t, n))

    tours.round_done.append(posted)
    snap = await tours.seat(tid, DIRECTOR, seed=3)
    tables = snap.tables_of(1)
    assert [len(t.seats_json) > 0 for t in tables] == [True, True]
    seated = {p for t in tables for p, _ in json.loads(t.seats_json)}
    assert seated == set(names)
    a = json.loads(tables[0].seats_json)[0][0]
    b = json.loads(tables[1].seats_json)[0][0]
    snap = await tours.swap(tid, DIRECTOR, a, b)
    first = dict(map(tuple, json.loads(snap.tables_of(1)[0].seats_json)))
    assert b in first
    assert a not in first
    with pytest.raises(TournamentRefusedError, match="Only the tournament director"):
        await tours.start_round(tid, a)
    snap = await tours.start_round(tid, DIRECTOR, {1: "101", 2: "102"})
    await svc.run_due()
    games = [t.game_id for t in snap.tables_of(1)]
    statuses = [await svc.status(g) for g in games]
    assert [s.status for s in statuses] == ["active", "active"]
    assert statuses[0].deadline is not None
    assert statuses[0].deadline == statuses[1].deadline  # one round clock
    assert statuses[0].meta["channel"] == 101
    assert statuses[0].players[next(iter(statuses[0].players))] in names
    # Time is called at table 1: the director records its centres; table 2's GM ends it.
    points = await tours.record_result(tid, DIRECTOR, 1, "France 10, England 8, Russia 16")
    assert (await svc.status(games[0])).status == "over"
    assert max(points.values()) == points[first_player(snap, 1, "RUSSIA")]
    assert done == []
    with pytest.raises(TournamentRefusedError, match="already has its result"):
        await tours.record_result(tid, DIRECTOR, 1, "France 3")
    with pytest.raises(TournamentRefusedError, match="Cannot read “Prussia 3”"):
        await tours.record_result(tid, DIRECTOR, 2, "France 3, Prussia 3")
    await svc.end_game(games[1], DIRECTOR)
    assert done == [(tid, 1)]
    rows = await tours.standings(tid)
    assert len(rows) == 14
    rank = {r.player: r.rank for r in rows}
    assert rank[first_player(snap, 1, "RUSSIA")] < rank[first_player(snap, 1, "FRANCE")]
    assert rows[0].total > 0
    with pytest.raises(TournamentRefusedError, match="no table 1 in the round being played"):
        await tours.record_result(tid, DIRECTOR, 1, "France 3")  # the round is over


def first_player(snap, table: int, power: str) -> str:
    rows = json.loads(snap.tables_of(1)[table - 1].seats_json)
    return next(p for p, pw in rows if pw == power)


async def test_the_round_clock_realigns_a_table_and_shows_one_behind(opener, clock) -> None:
    svc, tours, tid, _ = await _tournament(opener)
    await tours.seat(tid, DIRECTOR)
    snap = await tours.start_round(tid, DIRECTOR)
    await svc.run_due()
    g1, g2 = (t.game_id for t in snap.tables_of(1))
    await svc.extend(g1, DIRECTOR, 60)  # a GM gives table 1 a minute more in spring
    spring2 = (await svc.status(g2)).deadline
    assert spring2 is not None
    clock.set(spring2)
    await svc.run_due()  # table 2 is adjudicated on time, table 1 a minute later
    clock.advance(60)
    await svc.run_due()
    clock.advance(4 * 60)  # the reading window: fall opens at each table
    await svc.run_due()
    await svc.deliver()
    s1, s2 = await svc.status(g1), await svc.status(g2)
    assert (s1.phase, s2.phase) == ("F1901M", "F1901M")
    # The round clock plays summer (retreats, 1') whether a table has retreats or not:
    # edc2023 B, reading 4', summer 1', fall 8' + 1'. Table 2 waits; table 1 is on time.
    assert s2.deadline == spring2 + 4 * 60 + 60 + 9 * 60
    assert s1.deadline == s2.deadline
    await svc.pause(g2, DIRECTOR)
    clock.advance(15 * 60)
    await svc.run_due()
    status = await tours.status(tid)
    assert status is not None
    behind = {t.table: t.behind for t in status.tables}
    assert behind[1] == 0
    assert behind[2] >= 1


async def test_late_order_sheets_become_edc_penalties(opener, clock) -> None:
    svc, tours, tid, names = await _tournament(opener, players=7)
    await tours.seat(tid, DIRECTOR)
    snap = await tours.start_round(tid, DIRECTOR)
    [game] = [t.game_id for t in snap.tables_of(1)]
    await svc.run_due()
    status = await svc.status(game)
    # Everyone orders in spring but one player.
    lazy = status.players[next(iter(status.players))]
    units = {"AUSTRIA": "A VIE", "ENGLAND": "A LVP", "FRANCE": "A PAR", "GERMANY": "A BER"}
    units |= {"ITALY": "A ROM", "RUSSIA": "A MOS", "TURKEY": "A CON"}
    for power, user in status.players.items():
        if user != lazy:
            await svc.submit(game, user, f"{units[power.value]} H")
    clock.set(status.deadline + 1)
    await svc.run_due()
    await tours.record_result(tid, DIRECTOR, 1, "Austria 5")
    rows = {r.player: r for r in await tours.standings(tid)}
    late = [p for p in names if rows[p].detail["penalties"] == -1.0]
    assert late == [lazy]  # D 4: "-1 point per delay in submitting order sheets"


async def test_requests_are_once_each_and_exclusive_and_penalties_are_edc_d(opener) -> None:
    _svc, tours, tid, _ = await _tournament(opener, players=8)
    assert await tours.request(tid, "p00", "withdraw") == 1
    await tours.seat(tid, DIRECTOR)
    snap = await tours.start_round(tid, DIRECTOR)
    assert any(m.user_id == "p00" and m.kind == "withdrawal" for m in snap.marks)
    with pytest.raises(TournamentRefusedError, match="once"):
        await tours.request(tid, "p00", "two_tables")
    assert await tours.penalty(tid, DIRECTOR, "p01", "contest") == -5.0
    with pytest.raises(TournamentRefusedError, match="negative points"):
        await tours.penalty(tid, DIRECTOR, "p01", "rude", 3)
    with pytest.raises(TournamentRefusedError, match="Unknown tournament rules"):
        await tours.create(DIRECTOR, name="x", aggregation="best-of-all")


async def test_a_start_cut_short_resumes_and_a_failing_hook_holds_no_event(opener) -> None:
    svc, tours, tid, _ = await _tournament(opener)
    await tours.seat(tid, DIRECTOR)
    create = svc.create_game
    calls = 0

    async def crash_on_second(*args, **kw):
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("the process dies")
        return await create(*args, **kw)

    svc.create_game = crash_on_second  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await tours.start_round(tid, DIRECTOR)
    snap = await tours.storage.tables(tid)
    first = snap[0].game_id
    assert (first is not None, snap[1].game_id) == (True, None)
    snap = await tours.start_round(tid, DIRECTOR)  # called again: the round resumes
    games = [t.game_id for t in snap.tables_of(1)]
    assert games[0] == first
    assert [(await svc.status(g)).status for g in games] == ["active", "active"]

    async def broken(*_args):
        raise ValueError("a bug in the tournament")

    tours._table_score = broken  # type: ignore[method-assign]
    await svc.end_game(games[1], DIRECTOR)
    assert "game_over" in svc.notifier.kinds(games[1])  # delivered all the same
    points = await tours.record_result(tid, DIRECTOR, 2, "Germany 9")  # the director's path
    assert max(points.values()) > 0


async def test_a_registered_player_who_is_not_there_is_absent_a_standby_is_not(opener) -> None:
    _svc, tours, tid, names = await _tournament(opener, players=8)
    async with tours.storage.tx() as tx:
        for who in ("ghost", *names):
            await tx.mark_entry(tid, 1, who, "registered_at", 1.0)
    snap = await tours.seat(tid, DIRECTOR)
    standby = json.loads(snap.round(1).seating_json)["sitting_out"]
    assert len(standby) == 1  # 8 present: one table of 7, one on standby (seed B)
    snap = await tours.start_round(tid, DIRECTOR)
    absent = [(m.user_id, m.reason) for m in snap.marks if m.kind == "absence"]
    assert absent == [("ghost", "registered")]
    await tours.record_result(tid, DIRECTOR, 1, "Italy 6")
    rows = {r.player: r for r in await tours.standings(tid)}
    assert rows["ghost"].total == -15  # D 4: "-15 points ... if registration and absence"
    assert rows[standby[0]].total == 0


async def test_a_latecomer_replaces_a_doubler_and_scores_with_edc_d_coefficient(opener) -> None:
    # D: "A person who arrived late can replace a person who started on two tables ... the
    # person on two tables chooses the table he leaves, and the latecomer will have a
    # coefficient of (14-n)/14 applied to the score of his game".
    svc, tours, tid, _ = await _tournament(opener, players=13)
    assert await tours.request(tid, "p00", "two_tables") == 1
    async with tours.storage.tx() as tx:
        await tx.mark_entry(tid, 1, "late", "registered_at", 1.0)  # registered, not there
    await tours.seat(tid, DIRECTOR)
    with pytest.raises(TournamentRefusedError, match="No round is being played"):
        await tours.latecomer(tid, DIRECTOR, "late", "p00", 1)
    snap = await tours.start_round(tid, DIRECTOR)
    await svc.run_due()
    assert ("late", "absence") in [(m.user_id, m.kind) for m in snap.marks]
    at = {t.table_no: dict(map(tuple, json.loads(t.seats_json))) for t in snap.tables_of(1)}
    assert all("p00" in s for s in at.values())  # on both tables
    with pytest.raises(TournamentRefusedError, match="did not play two tables"):
        await tours.latecomer(tid, DIRECTOR, "late", "p01", 1)
    with pytest.raises(TournamentRefusedError, match="already has a seat"):
        await tours.latecomer(tid, DIRECTOR, "p01", "p00", 1)
    with pytest.raises(TournamentRefusedError, match="Only the tournament director"):
        await tours.latecomer(tid, "p01", "late", "p00", 1)
    seat = await tours.latecomer(tid, DIRECTOR, "late", "p00", 2)  # p00 leaves table 2
    assert (seat.season, seat.coefficient) == (1, 13 / 14)  # Spring 1901: n = 1
    assert seat.power == at[2]["p00"]
    game2 = (await tours.storage.tables(tid))[1].game_id
    assert (await svc.status(game2)).players[seat.power] == "late"
    await tours.record_result(tid, DIRECTOR, 1, "France 10, England 8, Russia 16")
    points = await tours.record_result(tid, DIRECTOR, 2, "France 10, England 8, Russia 16")
    rows = {r.player: r for r in await tours.standings(tid)}
    [late] = rows["late"].detail["scores"]
    assert late["score"] == int(points["late"] * 13 / 14)  # then truncated (D)
    other = next(p for p in points if p != "late")
    assert rows[other].detail["scores"][0]["score"] == int(points[other])  # no coefficient
    assert "p00" not in points  # the doubler's game is table 1 alone now
    assert not [m for m in (await tours.storage.marks(tid)) if m.kind == "absence"]
