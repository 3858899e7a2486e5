"""Tournaments on the table service (issue 15; seed edc-2023 B, D, E, G): the tournament and
its players' entries. Rounds (seating, the round clock, tables, results) are in
`rounds.py`, exports in `export.py`; this class is their facade.

    t = Tournaments(svc)        (hooks itself on the service's events: table ends, phases)
    await t.create(director, name=..., rules=, clock=, scoring=, aggregation=, lang=, gms=)
    await t.schedule(tid, director, round_no, starts_at)   the round's start (seed G windows)
    await t.preregister(tid, user, rounds)   seed G: "no later than the day before the round"
    await t.register(tid, user)              seed G: "at the earliest one hour before the start
                                             of the round and at the latest 30 minutes before"
    await t.check_in(tid, user, by=user)     present for the next round (the director may
                                             check anyone in)
    await t.request(tid, user, "withdraw"|"two_tables"|"none")   seed B volunteers
    await t.keep_apart(tid, director, a, b), t.penalty(tid, director, user, reason, points)
    await t.choose_count(tid, user, round_no, table_no)   D: a doubler's table that counts
    + the rounds' methods (seat, swap, final_slot, final_country, start_round, latecomer,
      status, standings) and the exports.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.core.presets import list_presets
from bot.core.tournament import aggregation as core_aggregation
from bot.core.tournament import edc2023
from bot.core.tournament.model import TournamentError
from bot.service.clock.presets import load_clock
from bot.service.games.settings import check_scoring
from bot.service.storage.tournaments import MarkRow, NewTournament, RoundRow, TournamentRow
from bot.service.tournaments.rounds import Rounds
from bot.service.tournaments.state import seats, snapshot
from bot.service.tournaments.texts import TournamentRefusedError

if TYPE_CHECKING:
    pass

HOUR = 3600.0
REQUESTS = ("withdraw", "two_tables")
NAME_MAX = 64  # characters of an entrant's name (Discord's display names have at most 32)


class Tournaments(Rounds):
    """The tournaments of one table service (see the module docstring)."""

    # --- the tournament -----------------------------------------------------------------

    async def create(
        self,
        director: str,
        *,
        name: str,
        guild_id: str = "",
        channel_id: str = "",
        rules: str = "edc2023",
        clock: str = "edc2023",
        scoring: str = "edc2023",
        aggregation: str = "edc2023",
        lang: str = "en",
        gms: Sequence[str] = (),
    ) -> TournamentRow:
        """A new tournament; its creator is the tournament referee (the director)."""
        if rules not in list_presets():
            raise TournamentRefusedError.of(
                "unknown_rules", lang, value=rules, known=", ".join(list_presets())
            )
        load_clock(clock)  # ConfigError names the known clocks
        check_scoring(scoring)
        if aggregation != "edc2023":
            try:
                core_aggregation.aggregator(aggregation)
            except TournamentError:
                known = ", ".join(["edc2023", *core_aggregation.NAMES])
                raise TournamentRefusedError.of(
                    "unknown_aggregation", lang, value=aggregation, known=known
                ) from None
        new = NewTournament(
            name.strip() or "tournament",
            director,
            guild_id,
            channel_id,
            rules,
            clock,
            scoring,
            aggregation,
            lang,
            json.dumps(list(dict.fromkeys(gms))),
            "[]",
            self.clock.now(),
        )
        async with self.storage.tx() as tx:
            tid = await tx.add_tournament(new)
            row = await tx.tournament(tid)
        assert row is not None
        return row

    async def get(self, tournament_id: int) -> TournamentRow:
        return (await snapshot(self.storage, tournament_id)).row

    async def here(self, channel_id: str) -> list[TournamentRow]:
        """The running tournaments of a channel, newest first."""
        out = []
        for tid in reversed(await self.storage.tournament_ids(include_over=False)):
            row = await self.storage.tournament(tid)
            if row is not None and row.channel_id == channel_id:
                out.append(row)
        return out

    async def schedule(
        self, tournament_id: int, director: str, round_no: int, starts_at: float
    ) -> None:
        snap = await self._director(tournament_id, director)
        found = snap.round(round_no)
        if found is not None and found.status not in ("planned", "seated"):
            raise TournamentRefusedError.of("round_started", snap.lang, round=round_no)
        async with self.storage.tx() as tx:
            if found is None:
                await tx.put_round(
                    tournament_id, RoundRow(round_no, starts_at, "planned", None, None, False)
                )
            else:
                await tx.put_round(
                    tournament_id,
                    RoundRow(
                        round_no,
                        starts_at,
                        found.status,
                        found.seating_json,
                        found.started_at,
                        found.is_final,
                    ),
                )

    # --- entries (seed G) ---------------------------------------------------------------

    async def preregister(self, tournament_id: int, user: str, rounds: Sequence[int]) -> list[int]:
        """Announce rounds: G "no later than the day before the round" (UTC days)."""
        snap = await snapshot(self.storage, tournament_id)
        now = self.clock.now()
        wanted = sorted(set(rounds))
        for n in wanted:
            if n < snap.next_round():
                raise TournamentRefusedError.of("round_started", snap.lang, round=n)
            starts = (r := snap.round(n)) and r.starts_at
            if starts and now >= _midnight(starts):
                raise TournamentRefusedError.of("preregister_late", snap.lang, round=n)
        async with self.storage.tx() as tx:
            for n in wanted:
                await tx.mark_entry(tournament_id, n, user, "preregistered_at", now)
        return wanted

    async def register(self, tournament_id: int, user: str) -> int:
        """Confirm for the next round, inside seed G's window (1 h to 30 min before)."""
        snap = await snapshot(self.storage, tournament_id)
        n = snap.next_round()
        r = snap.round(n)
        if r is None or r.starts_at is None:
            raise TournamentRefusedError.of("no_start_time", snap.lang, round=n)
        now = self.clock.now()
        if not r.starts_at - HOUR <= now <= r.starts_at - HOUR / 2:
            raise TournamentRefusedError.of(
                "register_window",
                snap.lang,
                round=n,
                opens=_hhmm(r.starts_at - HOUR),
                closes=_hhmm(r.starts_at - HOUR / 2),
            )
        async with self.storage.tx() as tx:
            await tx.mark_entry(tournament_id, n, user, "registered_at", now)
        return n

    async def check_in(self, tournament_id: int, user: str, *, by: str) -> int:
        """Present for the next round (before it is seated again or started)."""
        snap = await snapshot(self.storage, tournament_id)
        if by != user:
            self.require_director(snap, by)
        n = snap.next_round()
        async with self.storage.tx() as tx:
            await tx.mark_entry(tournament_id, n, user, "checked_in_at", self.clock.now())
        return n

    async def check_out(self, tournament_id: int, user: str, *, by: str) -> int:
        snap = await snapshot(self.storage, tournament_id)
        if by != user:
            self.require_director(snap, by)
        n = snap.next_round()
        async with self.storage.tx() as tx:
            await tx.mark_entry(tournament_id, n, user, "checked_in_at", None)
        return n

    async def request(self, tournament_id: int, user: str, kind: str) -> int:
        """Volunteer to withdraw or to play two tables next round (seed B), or cancel ("none").
        D: each "authorized only once per player", and "mutually exclusive"."""
        snap = await snapshot(self.storage, tournament_id)
        if kind not in (*REQUESTS, "none"):
            raise TournamentRefusedError.of("unknown_request", snap.lang, value=kind)
        used = {m.kind for m in snap.marks if m.user_id == user}
        if kind != "none" and used & {"withdrawal", "two_tables"}:
            raise TournamentRefusedError.of("request_used", snap.lang)
        n = snap.next_round()
        async with self.storage.tx() as tx:
            await tx.set_request(tournament_id, n, user, None if kind == "none" else kind)
        return n

    async def choose_count(
        self, tournament_id: int, user: str, round_no: int, table_no: int
    ) -> None:
        """D: a doubler chooses which of the two tables counts."""
        snap = await snapshot(self.storage, tournament_id)
        mark = next(
            (m for m in snap.marks_of("two_tables") if m.user_id == user),
            None,
        )
        mine = [t.table_no for t in snap.tables_of(round_no) if any(p == user for p, _ in seats(t))]
        if mark is None or mark.round_no != round_no or table_no not in mine:
            raise TournamentRefusedError.of("not_two_tables", snap.lang, round=round_no)
        async with self.storage.tx() as tx:
            await tx.delete_marks(tournament_id, "two_tables", user)
            await tx.add_mark(
                tournament_id,
                MarkRow(user, "two_tables", round_no, None, str(table_no), self.clock.now()),
            )

    # --- names (issue 35) -----------------------------------------------------------------

    async def remember_name(self, tournament_id: int, user: str, name: str) -> None:
        """The display name an entrant had when they entered (registration, check-in): the
        bot has no members intent, so it cannot look it up when it posts the standings."""
        clean = " ".join(name.split())[:NAME_MAX]
        if clean:
            async with self.storage.tx() as tx:
                await tx.set_display_name(tournament_id, user, clean)

    async def set_name(self, tournament_id: int, director: str, user: str, name: str) -> str:
        """The name the director gives an entrant in the standings and exports ("" gives
        them back their display name); the name shown is returned."""
        snap = await self._director(tournament_id, director)
        clean = " ".join(name.split())
        if len(clean) > NAME_MAX:
            raise TournamentRefusedError.of("name_invalid", snap.lang, max=NAME_MAX)
        async with self.storage.tx() as tx:
            await tx.set_director_name(tournament_id, user, clean or None)
            return (await tx.entrant_names(tournament_id)).get(user, "")

    # --- the director's marks -----------------------------------------------------------

    async def keep_apart(self, tournament_id: int, director: str, a: str, b: str) -> None:
        """Two players never seated at the same table (the director tools' keep-apart)."""
        snap = await self._director(tournament_id, director)
        if a == b:
            raise TournamentRefusedError.of("same_player", snap.lang)
        pairs = [p for p in snap.keep_apart() if {a, b} != set(p)]
        pairs.append((a, b))
        async with self.storage.tx() as tx:
            await tx.set_keep_apart(tournament_id, json.dumps(pairs))

    async def penalty(
        self,
        tournament_id: int,
        director: str,
        user: str,
        reason: str,
        points: float | None = None,
    ) -> float | None:
        """EDC D 4: refusal -15 (bonuses lost), contest -5, late -1, misconduct (all positive
        points lost), or another reason with its negative points."""
        snap = await self._director(tournament_id, director)
        fixed = edc2023.FIXED_PENALTIES.get(reason)
        if fixed is not None:
            points = fixed
        elif reason != edc2023.MISCONDUCT and (points is None or points >= 0):
            known = ", ".join([*edc2023.FIXED_PENALTIES, edc2023.MISCONDUCT])
            raise TournamentRefusedError.of("penalty_points", snap.lang, known=known)
        async with self.storage.tx() as tx:
            await tx.add_mark(
                tournament_id,
                MarkRow(user, "penalty", snap.next_round(), points, reason, self.clock.now()),
            )
        return points


def _midnight(at: float) -> float:
    """The start (UTC) of the day of `at`: pre-registration closes then."""
    day = dt.datetime.fromtimestamp(at, dt.UTC).date()
    return dt.datetime.combine(day, dt.time(0, 0), dt.UTC).timestamp()


def _hhmm(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
