"""What people read of a tournament (issue 35), on SQLite and PostgreSQL: a round's times
computed once from its start and announced once, the same at every table; each entrant named
by the display name kept when they entered, or by the director's name for them, in the
standings, the CSV and JSON and the export; the round told it is over only once every
table's end has been posted."""

from __future__ import annotations

import asyncio
import csv
import io

import pytest

from bot.service import Event, EventKind, MemoryNotifier
from bot.service.clock.presets import load_clock
from bot.service.clock.rounds import schedule
from bot.service.tournaments.export import export_document, standings_csv, tables_csv
from bot.service.tournaments.service import Tournaments
from bot.service.tournaments.state import snapshot
from bot.service.tournaments.texts import TournamentRefusedError
from tests.bot.service.tournaments.test_tournaments import DIRECTOR, _tournament

MIN = 60.0


async def test_a_rounds_times_are_announced_once_the_same_at_every_table(opener, clock) -> None:
    notifier = MemoryNotifier()
    svc = await opener(notifier=notifier)
    tours = Tournaments(svc)
    tid = (await tours.create(DIRECTOR, name="EDC", guild_id="1", channel_id="2")).id
    for i in range(14):
        await tours.check_in(tid, f"p{i:02d}", by=f"p{i:02d}")
    await tours.seat(tid, DIRECTOR)
    snap = await tours.start_round(tid, DIRECTOR)
    clock.advance(2)  # the tables' games start a little after the round
    await svc.run_due()
    games = [t.game_id for t in snap.tables_of(1)]
    started = (await snapshot(svc.storage, tid)).round(1).started_at  # type: ignore[union-attr]
    assert started is not None
    slots = {s.phase: s for s in schedule(load_clock("edc2023"), started)}
    deadline = (await svc.status(games[0])).deadline  # spring 1901, then the fall opens
    assert deadline is not None
    clock.set(deadline)
    await svc.run_due()
    clock.advance(4 * MIN + 1)
    await svc.run_due()
    await svc.deliver()
    for phase in ("S1901M", "F1901M"):
        writing = 1 * MIN  # edc-2023 B: writing 1'
        said = [
            (e.payload["writing_at"], e.payload["deadline"])
            for e in notifier.events
            if e.kind is EventKind.WINDOW_OPENED
            and e.phase == phase
            and e.payload["window"] == "negotiation"
        ]
        # One announcement per table, the round's times: its deadline, 1' of writing before.
        assert said == [(slots[phase].deadline - writing, slots[phase].deadline)] * 2, phase
    # Nothing corrected afterwards ("New deadline" 5-7 s later, issue 35).
    assert EventKind.DEADLINE_CHANGED.value not in notifier.kinds()
    assert [(await svc.status(g)).phase for g in games] == ["F1901M", "F1901M"]


async def test_the_round_is_told_over_after_every_tables_end_is_posted(opener) -> None:
    told: list[str] = []

    class Posting(MemoryNotifier):
        async def notify(self, event: Event) -> None:
            await super().notify(event)
            if event.kind is EventKind.GAME_OVER:
                told.append(f"over {event.game_id}")  # the table's "is over", posted

    svc = await opener(notifier=Posting())
    tours = Tournaments(svc)
    tid = (await tours.create(DIRECTOR, name="EDC", guild_id="1", channel_id="2")).id
    for i in range(14):
        await tours.check_in(tid, f"p{i:02d}", by=f"p{i:02d}")

    async def posted(t: int, n: int) -> None:
        told.append(f"standings {n}")

    tours.round_done.append(posted)
    await tours.seat(tid, DIRECTOR)
    snap = await tours.start_round(tid, DIRECTOR)
    await svc.run_due()
    g1, g2 = (t.game_id for t in snap.tables_of(1))
    await svc.end_game(g1, DIRECTOR, "time")  # the tables end by the clock, not a result
    await svc.end_game(g2, DIRECTOR, "time")
    await svc.deliver()
    assert told == [f"over {g1}", f"over {g2}", "standings 1"]


@pytest.mark.parametrize(
    ("lang", "too_long"),
    [("en", "A name has at most 64 characters."), ("fr", "Un nom a au plus 64 caractères.")],
)
async def test_entrants_are_named_by_their_kept_or_the_directors_name(
    opener, lang: str, too_long: str
) -> None:
    svc, tours, tid, players = await _tournament(opener, lang=lang)
    for p in players:
        await tours.remember_name(tid, p, f"Player  {p[1:]} ")
    assert await tours.set_name(tid, DIRECTOR, "p03", "Ann Example") == "Ann Example"
    with pytest.raises(TournamentRefusedError, match="director"):
        await tours.set_name(tid, "p01", "p01", "Me")
    with pytest.raises(TournamentRefusedError) as refused:
        await tours.set_name(tid, DIRECTOR, "p04", "x" * 65)
    assert refused.value.localized(lang) == too_long
    await tours.remember_name(tid, "p03", "ann")  # a later check-in keeps the director's name
    snap = await snapshot(svc.storage, tid)
    assert snap.names["p03"] == "Ann Example"
    assert snap.names["p00"] == "Player 00"
    assert "p04" in snap.names  # its name unchanged
    assert await tours.set_name(tid, DIRECTOR, "p03", "") == "ann"  # the display name again
    await tours.set_name(tid, DIRECTOR, "p03", "Ann Example")
    await tours.seat(tid, DIRECTOR)
    snap = await tours.start_round(tid, DIRECTOR)
    await svc.run_due()
    for table, board in ((1, "France 10, England 8, Russia 16"), (2, "Italy 12, Turkey 9")):
        await tours.record_result(tid, DIRECTOR, table, board)
    await svc.deliver()
    snap = await snapshot(svc.storage, tid)
    rows = await tours.standings(tid)
    names = dict(snap.names)
    shown = {
        r["player"]: r["name"] for r in csv.DictReader(io.StringIO(standings_csv(rows, names)))
    }
    assert shown["p03"] == "Ann Example"
    assert shown["p00"] == "Player 00"
    seats = list(csv.DictReader(io.StringIO(tables_csv(snap, names))))
    assert {r["name"] for r in seats} == {"Ann Example"} | {
        f"Player {i:02d}" for i in range(14) if i != 3
    }
    doc = await export_document(svc, snap, names)
    assert {r["name"] for r in doc["standings"]} == {r["name"] for r in seats}


async def test_two_tables_scored_side_by_side_still_end_the_round(opener) -> None:
    """The round clock's last year ends every table at once: their scores enter side by side,
    each reading the other as unscored; the round is over all the same."""
    svc, tours, tid, _ = await _tournament(opener)
    await tours.seat(tid, DIRECTOR)
    snap = await tours.start_round(tid, DIRECTOR)
    await svc.run_due()
    g1, g2 = (t.game_id for t in snap.tables_of(1))
    svc.outbox.hooks.remove(tours.on_event)  # the two ends are entered below, together
    await svc.end_game(g1, DIRECTOR, "time")
    await svc.end_game(g2, DIRECTOR, "time")
    await asyncio.gather(tours.table_ended(g1), tours.table_ended(g2))
    assert all(t.scores_json for t in (await snapshot(svc.storage, tid)).tables_of(1))
    assert await tours.unposted() == [(tid, 1)]  # its standings are due
