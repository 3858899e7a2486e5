"""A tournament's rounds: seating and country allocation (seed E, the core's `seat_round`),
the director's swaps, the final table and its two-step country choice (seed B), the start of
a round (one game per table, all on one round clock), and each table's end: its score enters
the tournament, its late order sheets become EDC D's -1 penalties."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.core.map import GameMap, load_map
from bot.core.model import ModelError, Phase, Power
from bot.core.scoring import ScoringError, score
from bot.core.tournament import edc2023
from bot.core.tournament.model import StandingRow, TournamentError
from bot.core.tournament.seating import seat_round
from bot.service.clock.presets import load_clock
from bot.service.clock.rounds import TOLERANCE, lag, schedule, target_deadline
from bot.service.errors import ServiceError, StoreUnavailableError
from bot.service.events import Event, EventKind
from bot.service.games.missed import missed_counts
from bot.service.games.record import final_standings, game_record
from bot.service.storage.tournaments import MarkRow, RoundRow, TableRow
from bot.service.tournaments.state import (
    Snapshot,
    past_tables,
    seats,
    snapshot,
    standings,
)
from bot.service.tournaments.texts import TournamentRefusedError

if TYPE_CHECKING:
    from bot.service.service import TableService

log = logging.getLogger("parley.tournament")
FIRST_YEAR = 1901  # a game not started yet has no phase to take the year from


@dataclass(frozen=True, slots=True)
class LateSeat:
    """A latecomer's seat (EDC D): the power taken over, the season n, (14-n)/14."""

    variant: str
    power: str
    season: int
    coefficient: float


@dataclass(frozen=True, slots=True)
class TableClock:
    """A table of the running round as the director sees it (`/tournament status`)."""

    table: int
    game_id: int | None
    phase: str | None
    status: str  # the game's: active, paused, over, ...
    deadline: float | None
    behind: int  # phases behind the round clock (0: on time)


@dataclass(frozen=True, slots=True)
class RoundStatus:
    round: int
    started_at: float | None
    clock_phase: str | None  # where the round clock is
    tables: tuple[TableClock, ...]


class Rounds:
    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.storage = svc.storage
        self.clock = svc.clock
        self.round_done: list[Callable[[int, int], Awaitable[None]]] = []
        svc.outbox.hooks.append(self.on_event)
        svc.outbox.delivered_hooks.append(self.on_delivered)
        # Games whose end this process has posted (their event may not be marked delivered
        # yet); the lock lets one delivery at a time decide whether the round is told.
        self._ends_posted: set[int] = set()
        self._telling = asyncio.Lock()

    # --- seating ------------------------------------------------------------------------

    async def seat(self, tournament_id: int, director: str, *, seed: int = 0) -> Snapshot:
        """Propose the next round's tables and countries from the players checked in."""
        snap = await self._director(tournament_id, director)
        running = snap.running()
        if running is not None:
            raise TournamentRefusedError.of("round_running", snap.lang, round=running.round_no)
        n = snap.next_round()
        entries = snap.entries_of(n)
        present = [e.user_id for e in entries if e.checked_in_at is not None]
        used = {m.user_id for m in snap.marks if m.kind in ("withdrawal", "two_tables")}
        volunteers = {
            kind: [
                e.user_id
                for e in entries
                if e.request == kind and e.checked_in_at is not None and e.user_id not in used
            ]
            for kind in ("withdraw", "two_tables")
        }
        rows = standings(snap) if any(t.scores_json for t in snap.tables) else []
        ranking = [r.player for r in rows]
        ranking += sorted(p for p in present if p not in ranking)
        finalists: list[str] = []
        edc = snap.row.aggregation == "edc2023"
        if edc and n == edc2023.ROUNDS and edc2023.final_table_due(rows):
            # B: the final table; the seven best present (D 1's weights rank them).
            finalists = [p for p in ranking if p in present][: edc2023.FINAL_SIZE]
        rest = [p for p in present if p not in finalists]
        tables: list[TableRow] = []
        if finalists:
            tables.append(_table(n, 1, "standard", [(p, "") for p in finalists]))
        plan: dict[str, Any] = {"withdrawn": [], "two_tables": [], "sitting_out": []}
        if rest:
            try:
                seating = seat_round(
                    rest,
                    past_tables(snap),
                    powers=[p.value for p in load_map("standard").powers],
                    small_powers=[p.value for p in load_map("sandard").powers],
                    ranking=ranking,
                    volunteers_withdraw=volunteers["withdraw"],
                    volunteers_two=volunteers["two_tables"],
                    keep_apart=snap.keep_apart(),
                    seed=seed,
                )
            except TournamentError as exc:
                raise TournamentRefusedError.of("cannot_seat", snap.lang, why=str(exc)) from None
            for st in seating.tables:
                number = st.number + (1 if finalists else 0)
                tables.append(_table(n, number, st.variant, st.seats))
            plan = {
                "withdrawn": list(seating.withdrawn),
                "two_tables": list(seating.two_tables),
                "sitting_out": list(seating.sitting_out),
            }
        plan["final"] = {"players": finalists, "slots": {}, "countries": {}} if finalists else None
        old = snap.round(n)
        async with self.storage.tx() as tx:
            await tx.delete_tables(tournament_id, n)
            for t in tables:
                await tx.put_table(tournament_id, t)
            await tx.put_round(
                tournament_id,
                RoundRow(
                    n,
                    old.starts_at if old else None,
                    "seated",
                    json.dumps(plan),
                    None,
                    bool(finalists),
                ),
            )
        return await snapshot(self.storage, tournament_id)

    async def swap(self, tournament_id: int, director: str, a: str, b: str) -> Snapshot:
        """Swap two players' seats (at one table: their countries) in the proposed round; a
        standby player (not seated) takes the other's seat."""
        snap, n, plan = await self._seated(tournament_id, director)
        where = {p: (t, i) for t in snap.tables_of(n) for i, (p, _) in enumerate(seats(t))}
        if a not in where and b not in where:
            raise TournamentRefusedError.of("not_seated", snap.lang)
        changed: dict[int, list[tuple[str, str]]] = {}

        def put(player: str, table: TableRow, index: int) -> None:
            rows = changed.setdefault(table.table_no, seats(table))
            rows[index] = (player, rows[index][1])

        if a in where and b in where:
            (ta, ia), (tb, ib) = where[a], where[b]
            put(b, ta, ia)
            put(a, tb, ib)
        else:
            seated, standby = (a, b) if a in where else (b, a)
            put(standby, *where[seated])
            for key in ("withdrawn", "sitting_out"):
                plan[key] = [p for p in plan[key] if p != standby]
            plan["sitting_out"].append(seated)
        final = plan.get("final")
        if final:
            first = changed.get(1)
            if first is not None:
                final["players"] = [p for p, _ in first]
        async with self.storage.tx() as tx:
            for t in snap.tables_of(n):
                if t.table_no in changed:
                    await tx.put_table(
                        tournament_id, _table(n, t.table_no, t.variant, changed[t.table_no])
                    )
            await self._save_plan(tx, tournament_id, snap, n, plan)
        return await snapshot(self.storage, tournament_id)

    async def latecomer(
        self, tournament_id: int, director: str, latecomer: str, doubler: str, table_no: int
    ) -> LateSeat:
        """D: "A person who arrived late can replace a person who started on two tables. In
        this case, the person on two tables chooses the table he leaves, and the latecomer
        will have a coefficient of (14-n)/14 applied to the score of his game". The
        latecomer takes the doubler's seat at `table_no` (the doubler's choice, given by
        the director)."""
        snap = await self._director(tournament_id, director)
        r = snap.running()
        if r is None:
            raise TournamentRefusedError.of("no_round_running", snap.lang)
        n = r.round_no
        if latecomer == doubler:
            raise TournamentRefusedError.of("same_player", snap.lang)
        doubled = {m.user_id for m in snap.marks_of("two_tables") if m.round_no == n}
        if doubler not in doubled:
            raise TournamentRefusedError.of("not_two_tables", snap.lang, round=n)
        tables = snap.tables_of(n)
        if any(p == latecomer for t in tables for p, _ in seats(t)):
            raise TournamentRefusedError.of("latecomer_seated", snap.lang, round=n)
        table = next((t for t in tables if t.table_no == table_no), None)
        if table is None or table.game_id is None:
            raise TournamentRefusedError.of("no_table", snap.lang, table=table_no)
        if table.scores_json is not None:
            raise TournamentRefusedError.of("table_scored", snap.lang, table=table_no)
        rows = seats(table)
        at = next((i for i, (p, _) in enumerate(rows) if p == doubler), None)
        if at is None:
            raise TournamentRefusedError.of("not_at_table", snap.lang, table=table_no)
        game = await self.svc.status(table.game_id)
        start = load_map(table.variant).start.phase
        phase = Phase.parse(game.phase) if game.phase else start
        season = edc2023.season_number(phase, start.year)
        try:
            coefficient = edc2023.latecomer_coefficient(season)
        except TournamentError:  # (14-14)/14: the last season leaves nothing to score
            raise TournamentRefusedError.of(
                "latecomer_too_late", snap.lang, season=season
            ) from None
        power = rows[at][1]
        # The game first: it refuses a latecomer who already plays there.
        await self.svc.replace_player(table.game_id, game.gm, power, latecomer)
        rows[at] = (latecomer, power)
        now = self.clock.now()
        async with self.storage.tx() as tx:
            seated = json.dumps([list(x) for x in rows])
            await tx.put_table(tournament_id, replace(table, seats_json=seated))
            await tx.delete_marks(tournament_id, "absence", latecomer, n)  # there after all
            await tx.add_mark(
                tournament_id, MarkRow(latecomer, "latecomer", n, coefficient, str(table_no), now)
            )
        return LateSeat(table.variant, power, season, coefficient)

    # --- the final table (seed B) -------------------------------------------------------

    async def final_slot(self, tournament_id: int, user: str, slot: int, *, by: str) -> str | None:
        """B, first step: "each person, from the lowest ranked to the highest ranked, chooses
        at what point in relation to the others they wish to choose their country". Returns
        who chooses next (None: the first step is over)."""
        snap, n, plan = await self._final(tournament_id, by, user)
        final = plan["final"]
        order = list(reversed(final["players"]))
        turn = next((p for p in order if p not in final["slots"]), None)
        if turn != user:
            raise TournamentRefusedError.of("not_your_turn", snap.lang, user=turn or "-")
        if not 1 <= slot <= len(order) or slot in final["slots"].values():
            raise TournamentRefusedError.of("slot_taken", snap.lang, slot=slot)
        final["slots"][user] = slot
        async with self.storage.tx() as tx:
            await self._save_plan(tx, tournament_id, snap, n, plan)
        return next((p for p in order if p not in final["slots"]), None)

    async def final_country(
        self, tournament_id: int, user: str, power: str, *, by: str
    ) -> str | None:
        """B, second step: "each person chooses their country in order". Returns who chooses
        next (None: every finalist has a country)."""
        snap, n, plan = await self._final(tournament_id, by, user)
        final = plan["final"]
        if len(final["slots"]) < len(final["players"]):
            raise TournamentRefusedError.of("slots_first", snap.lang)
        order = sorted(final["players"], key=lambda p: final["slots"][p])
        turn = next((p for p in order if p not in final["countries"]), None)
        if turn != user:
            raise TournamentRefusedError.of("not_your_turn", snap.lang, user=turn or "-")
        known = [p.value for p in load_map("standard").powers]
        power = power.strip().upper()
        if power not in known or power in final["countries"].values():
            raise TournamentRefusedError.of("country_taken", snap.lang, power=power)
        final["countries"][user] = power
        table = next(t for t in snap.tables_of(n) if t.table_no == 1)
        rows = [(p, final["countries"].get(p, "")) for p, _ in seats(table)]
        if all(c for _, c in rows):
            rows.sort(key=lambda pc: known.index(pc[1]))
        async with self.storage.tx() as tx:
            await tx.put_table(tournament_id, _table(n, 1, "standard", rows))
            await self._save_plan(tx, tournament_id, snap, n, plan)
        return next((p for p in order if p not in final["countries"]), None)

    # --- starting a round ---------------------------------------------------------------

    async def start_round(
        self, tournament_id: int, director: str, channels: Mapping[int, str] | None = None
    ) -> Snapshot:
        """One game per table, every player seated at their country, all started on the
        round clock. `channels`: table -> its Discord channel or thread. A start cut short
        (a crash between two tables) resumes where it stopped when called again."""
        snap = await self._director(tournament_id, director)
        running = snap.running()
        if running is not None and await self._unstarted(snap, running.round_no):
            n = running.round_no
        else:
            snap, n, plan = await self._seated(tournament_id, director)
            final = plan.get("final")
            if final and len(final["countries"]) < len(final["players"]):
                raise TournamentRefusedError.of("final_countries", snap.lang)
            await self._begin(snap, n, plan)
            snap = await snapshot(self.storage, tournament_id)
        gms = snap.gms()
        for t in snap.tables_of(n):
            gm = gms[(t.table_no - 1) % len(gms)] if gms else snap.row.director
            game_id = t.game_id
            if game_id is None:
                channel = (channels or {}).get(t.table_no)
                game_id = await self._table_game(snap, t, gm, channel)
                async with self.storage.tx() as tx:
                    await tx.put_table(
                        tournament_id,
                        TableRow(
                            n,
                            t.table_no,
                            t.variant,
                            t.seats_json,
                            game_id,
                            channel,
                            None,
                            None,
                            None,
                        ),
                    )
        for t in (await snapshot(self.storage, tournament_id)).tables_of(n):
            if t.game_id is not None:
                game = await self.svc.status(t.game_id)
                if game.status == "forming":
                    await self.svc.start_game(t.game_id, game.gm)
        return await snapshot(self.storage, tournament_id)

    async def _unstarted(self, snap: Snapshot, n: int) -> bool:
        for t in snap.tables_of(n):
            if t.game_id is None or (await self.svc.status(t.game_id)).status == "forming":
                return True
        return False

    async def _begin(self, snap: Snapshot, n: int, plan: dict[str, Any]) -> None:
        """The round is running: its absences, withdrawals and doublers are recorded."""
        seated = {p for t in snap.tables_of(n) for p, _ in seats(t)}
        now = self.clock.now()
        old = snap.round(n)
        async with self.storage.tx() as tx:
            for e in snap.entries_of(n):
                # D 4: "-15 points (and all bonuses) if registration and absence": not
                # there (standby players and those asked to withdraw were there).
                away = e.user_id not in seated and e.checked_in_at is None
                if away and (e.registered_at is not None or e.preregistered_at is not None):
                    why = "registered" if e.registered_at is not None else "announced"
                    await tx.add_mark(snap.id, MarkRow(e.user_id, "absence", n, None, why, now))
            for p in plan["withdrawn"]:
                await tx.add_mark(snap.id, MarkRow(p, "withdrawal", n, None, "", now))
            for p in plan["two_tables"]:
                await tx.add_mark(snap.id, MarkRow(p, "two_tables", n, None, "", now))
            await tx.put_round(
                snap.id,
                RoundRow(
                    n,
                    old.starts_at if old else None,
                    "running",
                    json.dumps(plan),
                    now,
                    bool(plan.get("final")),
                ),
            )

    async def _table_game(self, snap: Snapshot, t: TableRow, gm: str, channel: str | None) -> int:
        """The table's game, created with its players at their countries."""
        r = snap.round(t.round_no)
        started = r.started_at if r is not None else None
        game = await self.svc.create_game(
            gm,
            name=f"{snap.row.name} R{t.round_no} T{t.table_no}",
            clock=snap.row.clock,
            rules=snap.row.rules,
            lang=snap.row.lang,
            variant=t.variant,
            early_adjudication=False,  # one clock: no table runs ahead
            meta={
                "guild": int(snap.row.guild_id or 0),
                "channel": int(channel or 0),
                "press": [],
                "spectators": [],
                "scoring": snap.row.scoring,
                "tournament": snap.id,
                # The round clock: each movement deadline computed from it when the phase
                # opens, the same at every table, announced once (issue 35).
                "round_start": started,
            },
        )
        for player, power in seats(t):
            await self.svc.assign(game.id, gm, player, power)
        return game.id

    # --- the service's events: phases on the round clock, tables that end ---------------

    async def on_event(self, event: Event) -> None:
        """A failure here never holds a game's events back (its table is still playable,
        and the director can record its result); only a storage outage retries."""
        try:
            if event.kind is EventKind.GAME_OVER:
                await self.table_ended(event.game_id)
            elif event.kind is EventKind.WINDOW_OPENED and event.phase:
                await self.align(event.game_id, event.phase)
        except StoreUnavailableError:
            raise
        except Exception:
            log.exception("tournament: event %s of game %s", event.key, event.game_id)

    async def on_delivered(self, event: Event) -> None:
        """A table's end was posted: once every table of its round has had its end posted,
        the round's listeners are told (the standings come after every "is over")."""
        if event.kind is not EventKind.GAME_OVER:
            return
        try:
            found = await self.storage.table_of_game(event.game_id)
            if found is None:
                return
            self._ends_posted.add(event.game_id)
            async with self._telling:
                snap = await snapshot(self.storage, found[0])
                for t in snap.tables_of(found[1]):
                    if t.game_id is not None and not await self._end_posted(t.game_id):
                        return  # that table's delivery tells the round
                await self._notify_done(snap, found[1])
        except StoreUnavailableError:
            raise
        except Exception:
            log.exception("tournament: event %s of game %s", event.key, event.game_id)

    async def _end_posted(self, game_id: int) -> bool:
        if game_id in self._ends_posted:
            return True
        status = await self.svc.status(game_id)
        if status.status != "over":
            return False
        pending = await self.storage.pending_events_of(game_id)
        return not any(r.kind == EventKind.GAME_OVER.value for r in pending)

    async def align(self, game_id: int, phase: str) -> None:
        """A table's movement phase opened: its deadline becomes the round's."""
        found = await self.storage.table_of_game(game_id)
        if found is None:
            return
        tid, n, _ = found
        snap = await snapshot(self.storage, tid)
        r = snap.round(n)
        if r is None or r.started_at is None:
            return
        clock = load_clock(snap.row.clock)
        target = target_deadline(schedule(clock, r.started_at), phase)
        game = await self.svc.status(game_id)
        if target is None or game.phase != phase or game.deadline is None:
            return
        if game.window != "negotiation" or abs(target - game.deadline) < TOLERANCE:
            return
        writing = clock.times(Phase.parse(phase)).writing
        if target - writing <= self.clock.now():
            return  # behind the round clock (a pause): the director sees it in status
        await self.svc.extend(game_id, game.gm, target - game.deadline)

    async def table_ended(self, game_id: int) -> None:
        """The table's score enters the tournament (once), with its late order sheets."""
        found = await self.storage.table_of_game(game_id)
        if found is None:
            return
        tid, n, number = found
        snap = await snapshot(self.storage, tid)
        table = next(t for t in snap.tables_of(n) if t.table_no == number)
        if table.scores_json is not None:
            return
        points, centers = await self._table_score(game_id, table)
        late = await self._late_sheets(game_id, table)
        # The round is told once this table's end is posted (`on_delivered`), not before.
        await self._enter(snap, table, points, centers, late, notify=False)

    async def record_result(
        self, tournament_id: int, director: str, table_no: int, text: str
    ) -> dict[str, float]:
        """Time is called: the director records a table's centres ("France 7, England 5,
        ..."), the table is scored by the tournament's system and its game ends."""
        snap = await self._director(tournament_id, director)
        r = snap.running()
        table = (
            next((t for t in snap.tables_of(r.round_no) if t.table_no == table_no), None)
            if r
            else None
        )
        if r is None or table is None or table.game_id is None:
            raise TournamentRefusedError.of("no_table", snap.lang, table=table_no)
        if table.scores_json is not None:
            raise TournamentRefusedError.of("table_scored", snap.lang, table=table_no)
        game_map = load_map(table.variant)
        counts = parse_centres(text, game_map, snap.lang)
        game = await self.svc.status(table.game_id)
        year = Phase.parse(game.phase).year if game.phase else FIRST_YEAR
        try:
            scored = score(
                snap.row.scoring,
                counts,
                game_map=game_map,
                # A power with no centre left is taken as eliminated this year (no record).
                eliminated={p: year for p in game_map.powers if not counts.get(p)},
                end_year=year,
            )
        except ScoringError as exc:
            raise TournamentRefusedError.of("cannot_score", snap.lang, why=str(exc)) from None
        by_power = {power: p for p, power in seats(table)}
        points = {by_power[p.value]: float(v) for p, v in scored.items() if p.value in by_power}
        centers = {
            by_power[p.value]: counts.get(p, 0) for p in game_map.powers if p.value in by_power
        }
        late = await self._late_sheets(table.game_id, table)
        await self._enter(snap, table, points, centers, late, notify=False)
        if game.status != "over":
            # Its end is posted in the table's thread; then `on_delivered` tells the round.
            await self.svc.end_game(table.game_id, game.gm, "result recorded by the director")
        else:
            await self._notify_done(snap, table.round_no)
        return points

    async def _enter(
        self,
        snap: Snapshot,
        table: TableRow,
        points: dict[str, float],
        centers: dict[str, int],
        late: list[str],
        *,
        notify: bool = True,
    ) -> None:
        tid, n, number = snap.id, table.round_no, table.table_no
        r = snap.round(n)
        assert r is not None
        now = self.clock.now()
        async with self.storage.tx() as tx:
            if not await tx.record_table_result(
                tid, n, number, json.dumps(points), json.dumps(centers), now
            ):
                return
            for user in late:
                # D 4: "-1 point per delay in submitting order sheets"
                await tx.add_mark(tid, MarkRow(user, "penalty", n, -1.0, "late", now))
            if r.is_final and number == 1:
                await tx.set_final(tid, 1, _final_winner(snap, n, points))
            others = {t.table_no for t in snap.tables_of(n) if t.scores_json is None} - {number}
            if not others:
                await tx.put_round(
                    tid, RoundRow(n, r.starts_at, "done", r.seating_json, r.started_at, r.is_final)
                )
        if notify:
            await self._notify_done(snap, n)

    async def _settled(self, tid: int, n: int) -> RoundRow | None:
        """Round `n` as stored, marked done if every table has its score: two tables that end
        at once (the round clock's last year) are scored side by side, each reading the other
        as unscored, so neither marked it done when it entered its own score."""
        r = next((x for x in await self.storage.rounds(tid) if x.round_no == n), None)
        if r is None or r.status != "running":
            return r
        tables = [t for t in await self.storage.tables(tid) if t.round_no == n]
        if not tables or any(t.scores_json is None for t in tables):
            return r
        r = replace(r, status="done")
        async with self.storage.tx() as tx:
            await tx.put_round(tid, r)
        return r

    async def _notify_done(self, snap: Snapshot, n: int) -> None:
        """Tell the listeners (the bot posts the standings) once the round is over."""
        r = await self._settled(snap.id, n)
        if r is not None and r.status == "done":
            for listener in self.round_done:
                try:
                    await listener(snap.id, n)
                except Exception:
                    log.exception("tournament %s: round %s done, a listener failed", snap.id, n)

    async def _table_score(
        self, game_id: int, table: TableRow
    ) -> tuple[dict[str, float], dict[str, int]]:
        """Each seated player's score and centres, by the game's final standings."""
        by_power = {power: p for p, power in seats(table)}
        points = dict.fromkeys(by_power.values(), 0.0)
        centers = dict.fromkeys(by_power.values(), 0)
        result = final_standings(await game_record(self.svc, game_id))
        for s in result[1] if result else []:
            player = by_power.get(s.power.value)
            if player is not None:
                points[player], centers[player] = float(s.score), s.centers
        return points, centers

    async def _late_sheets(self, game_id: int, table: TableRow) -> list[str]:
        """One entry per order sheet a seated player missed at this table (NMR records)."""
        by_power = {power: p for p, power in seats(table)}
        out: list[str] = []
        for m in await missed_counts(self.svc.table, game_id):
            if by_power.get(m.power.value) == m.user:
                out += [m.user] * m.count
        return out

    async def mark_posted(self, tournament_id: int, round_no: int) -> None:
        """The round's standings were posted (a restart does not post them again)."""
        snap = await snapshot(self.storage, tournament_id)
        r = snap.round(round_no)
        if r is not None and r.status == "done":
            async with self.storage.tx() as tx:
                await tx.put_round(
                    tournament_id,
                    RoundRow(
                        round_no, r.starts_at, "posted", r.seating_json, r.started_at, r.is_final
                    ),
                )

    async def unposted(self) -> list[tuple[int, int]]:
        """(tournament, round) whose standings are still to be posted (after a restart)."""
        out = []
        for tid in await self.storage.tournament_ids(include_over=True):
            for r in await self.storage.rounds(tid):
                settled = await self._settled(tid, r.round_no) if r.status == "running" else r
                if settled is not None and settled.status == "done":
                    out.append((tid, r.round_no))
        return out

    # --- reading ------------------------------------------------------------------------

    async def status(self, tournament_id: int) -> RoundStatus | None:
        """The running round (else the last): each table's phase against the round clock."""
        snap = await snapshot(self.storage, tournament_id)
        r = snap.running() or next(
            (x for x in reversed(snap.rounds) if x.started_at is not None), None
        )
        if r is None or r.started_at is None:
            return None
        slots = schedule(load_clock(snap.row.clock), r.started_at)
        now = self.clock.now()
        due = [s.phase for s in slots if s.opens <= now]
        out = []
        for t in snap.tables_of(r.round_no):
            if t.game_id is None:
                out.append(TableClock(t.table_no, None, None, "forming", None, 0))
                continue
            try:
                g = await self.svc.status(t.game_id)
            except ServiceError:
                out.append(TableClock(t.table_no, t.game_id, None, "broken", None, 0))
                continue
            behind = 0 if g.status == "over" else lag(slots, g.phase, now)
            if g.status == "paused":
                behind = max(behind, 1)
            out.append(TableClock(t.table_no, t.game_id, g.phase, g.status, g.deadline, behind))
        return RoundStatus(r.round_no, r.started_at, due[-1] if due else None, tuple(out))

    async def standings(self, tournament_id: int) -> list[StandingRow]:
        return standings(await snapshot(self.storage, tournament_id))

    # --- helpers ------------------------------------------------------------------------

    def require_director(self, snap: Snapshot, user: str) -> None:
        if user != snap.row.director:
            raise TournamentRefusedError.of("director_only", snap.lang)

    async def _director(self, tournament_id: int, user: str) -> Snapshot:
        snap = await snapshot(self.storage, tournament_id)
        self.require_director(snap, user)
        return snap

    async def _seated(
        self, tournament_id: int, director: str
    ) -> tuple[Snapshot, int, dict[str, Any]]:
        snap = await self._director(tournament_id, director)
        n = snap.next_round()
        r = snap.round(n)
        if r is None or r.status != "seated" or r.seating_json is None:
            raise TournamentRefusedError.of("not_seated_yet", snap.lang, round=n)
        return snap, n, dict(json.loads(r.seating_json))

    async def _final(
        self, tournament_id: int, by: str, user: str
    ) -> tuple[Snapshot, int, dict[str, Any]]:
        snap = await snapshot(self.storage, tournament_id)
        if by != user:
            self.require_director(snap, by)
        n = snap.next_round()
        r = snap.round(n)
        plan = dict(json.loads(r.seating_json)) if r and r.seating_json else {}
        if r is None or r.status != "seated" or not plan.get("final"):
            raise TournamentRefusedError.of("no_final", snap.lang)
        if user not in plan["final"]["players"]:
            raise TournamentRefusedError.of("not_finalist", snap.lang)
        return snap, n, plan

    async def _save_plan(
        self, tx: Any, tournament_id: int, snap: Snapshot, n: int, plan: dict[str, Any]
    ) -> None:
        r = snap.round(n)
        assert r is not None
        await tx.put_round(
            tournament_id,
            RoundRow(n, r.starts_at, r.status, json.dumps(plan), r.started_at, r.is_final),
        )


def _table(n: int, number: int, variant: str, rows: Any) -> TableRow:
    return TableRow(
        n, number, variant, json.dumps([list(s) for s in rows]), None, None, None, None, None
    )


def _final_winner(snap: Snapshot, n: int, points: Mapping[str, float]) -> str:
    """B: "The person winning the final table will win the tournament ... In the event of a
    tie, the person who chose their country last, among the first ties, wins the title"."""
    r = snap.round(n)
    plan = json.loads(r.seating_json) if r and r.seating_json else {}
    slots = (plan.get("final") or {}).get("slots", {})
    best = max(points.values())
    tied = [p for p, s in points.items() if s == best]
    return max(tied, key=lambda p: (slots.get(p, 0), p))


def parse_centres(text: str, game_map: GameMap, lang: str) -> dict[Power, int]:
    """ "France 7, England 5, ..." (any language of the map): the centres of each power named
    (the others hold none). Refused: an unknown power, a power twice, more centres than the
    board has."""
    counts: dict[Power, int] = {}
    for part in text.replace(";", ",").split(","):
        words = part.split()
        if not words:
            continue
        if len(words) < 2 or not words[-1].isdigit():
            raise TournamentRefusedError.of("centres_format", lang, part=part.strip())
        try:
            power = game_map.parse_power(" ".join(words[:-1]))
        except ModelError:
            raise TournamentRefusedError.of("centres_format", lang, part=part.strip()) from None
        if power in counts:
            raise TournamentRefusedError.of("centres_format", lang, part=part.strip())
        counts[power] = int(words[-1])
    if sum(counts.values()) > len(game_map.supply_centers):
        raise TournamentRefusedError.of(
            "centres_total", lang, n=sum(counts.values()), max=len(game_map.supply_centers)
        )
    return counts
