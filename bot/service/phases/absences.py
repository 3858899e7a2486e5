"""Absences: a player asks to be away from `start` to `end`; the GM approves or refuses.

Kept in the game's meta "absences" (a list of `Absence.to_json()`), with the game's policy in
meta "absence_policy": {"days": the most days one player may be away in the game (default
DAYS), "mode": "move" (a deadline that falls in an approved absence moves to its end) or
"hold" (the deadline stands: the absent power's units hold, as with any missed orders)}.

A deadline moves twice over: at approval, the open phase's deadline if it falls in the
absence (GmTools.extend: a deadline_changed event, as any GM extension); and at each phase's
opening (`moved_deadline`, called by the phase machine), whose window_opened payload then
says why (`"absence": {"user", "power", "end"}`). Deadlines stay UTC timestamps; with a
schedule, a moved deadline lands on the schedule's next time after the absence.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.service.clock.schedule import DAY, Schedule, ct
from bot.service.errors import InvalidStateError, PermissionDeniedError
from bot.service.games.access import BOT

if TYPE_CHECKING:
    from bot.service.games.values import GameStatus
    from bot.service.table import Table

DAYS = 14  # the default limit per player and game
MODES = ("move", "hold")


class AbsenceError(InvalidStateError):
    """An absence refused; nothing changed. The message comes from the casual catalogue."""

    _text = staticmethod(ct)  # the casual catalogue


@dataclass(frozen=True, slots=True)
class Absence:
    id: int
    user: str
    power: str
    start: float
    end: float
    status: str = "pending"  # pending, approved, refused

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def covers(self, when: float) -> bool:
        return self.status == "approved" and self.start <= when < self.end


def policy(meta: dict[str, Any]) -> tuple[int, str]:
    raw = meta.get("absence_policy") or {}
    return int(raw.get("days", DAYS)), str(raw.get("mode", "move"))


def absences(meta: dict[str, Any]) -> list[Absence]:
    return [Absence(**a) for a in meta.get("absences") or []]


def moved(
    meta: dict[str, Any], deadline: float, schedule: Schedule | None
) -> tuple[float, Absence | None]:
    """The deadline after the approved absences it falls in (policy "move"), and the last one
    that moved it."""
    if policy(meta)[1] != "move":
        return deadline, None
    why = None
    for _ in range(10):  # absences back to back: each moves it on
        found = [a for a in absences(meta) if a.covers(deadline)]
        if not found:
            break
        why = max(found, key=lambda a: a.end)
        deadline = schedule.next_slot(why.end) if schedule else why.end
    return deadline, why


async def moved_deadline(
    table: Table, game_id: int, deadline: float, schedule: Schedule | None
) -> tuple[float, dict[str, Any] | None]:
    """For the phase machine: the deadline of an opening phase, and the absence that moved it
    (for the window_opened payload), if any."""
    row = await table.game_row(game_id)
    meta = json.loads(row.meta_json or "{}")
    if not meta.get("absences"):
        return deadline, None
    new, why = moved(meta, deadline, schedule)
    if why is None:
        return deadline, None
    return new, {"user": why.user, "power": why.power, "end": why.end}


class _Extends(Protocol):
    async def extend(self, game_id: int, gm: str, seconds: float) -> float | None: ...


class Service(Protocol):
    """What the requests need of the table service (`TableService`, which the phase machine
    below it cannot import: this module is read by both)."""

    @property
    def table(self) -> Table: ...

    @property
    def gm(self) -> _Extends: ...

    async def status(self, game_id: int) -> GameStatus: ...

    async def set_meta(self, game_id: int, key: str, value: Any, *, by: str) -> None: ...


class Absences:
    """The requests and the GM's decisions (a thin room over the service)."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc

    async def _meta(self, game_id: int) -> tuple[str, dict[str, Any]]:
        row = await self.svc.table.game_row(game_id)
        return row.lang, json.loads(row.meta_json or "{}")

    async def request(self, game_id: int, user: str, start: float, end: float) -> Absence:
        status = await self.svc.status(game_id)
        lang = status.lang
        power = next((p for p, u in status.players.items() if u == user), None)
        if power is None or status.status not in ("active", "paused", "forming"):
            raise PermissionDeniedError.of("players_only", lang, game=game_id)
        if end <= start or end <= self.svc.table.clock.now():
            raise AbsenceError.of("absence_dates", lang)
        async with self.svc.table.lock(game_id):  # two requests at once: both kept
            _, meta = await self._meta(game_id)
            days, _mode = policy(meta)
            listed = absences(meta)
            taken = sum(a.end - a.start for a in listed if a.user == user and a.status != "refused")
            if taken + (end - start) > days * DAY:
                raise AbsenceError.of("absence_limit", lang, days=days)
            absence = Absence(len(listed) + 1, user, power.value, start, end)
            await self._save(game_id, [*listed, absence])
        return absence

    async def decide(
        self, game_id: int, gm: str, absence_id: int, *, approve: bool
    ) -> tuple[Absence, float | None]:
        """The GM approves (or refuses) an absence; the open phase's deadline, if it moved."""
        row = await self.svc.table.require_gm(game_id, gm)
        async with self.svc.table.lock(game_id):
            _, meta = await self._meta(game_id)
            listed = absences(meta)
            found = next((a for a in listed if a.id == absence_id), None)
            if found is None:
                raise AbsenceError.of("no_absence", row.lang, id=absence_id)
            if found.status != "pending":
                raise AbsenceError.of("absence_decided", row.lang, id=absence_id)
            verdict = "approved" if approve else "refused"
            decided = Absence(**{**found.to_json(), "status": verdict})
            listed = [decided if a.id == absence_id else a for a in listed]
            await self._save(game_id, listed)
        if not approve:
            return decided, None
        status = await self.svc.status(game_id)
        if status.deadline is None or status.phase_status != "open":
            return decided, None
        ctx = await self.svc.table.load_ctx(game_id)
        new, why = moved(
            {**meta, "absences": [a.to_json() for a in listed]}, status.deadline, ctx.clock.schedule
        )
        if why is None or new <= status.deadline:
            return decided, None
        return decided, await self.svc.gm.extend(game_id, gm, new - status.deadline)

    async def set_policy(self, game_id: int, gm: str, days: int, mode: str) -> None:
        row = await self.svc.table.require_gm(game_id, gm)
        if mode not in MODES or not 0 <= days <= 365:
            raise AbsenceError.of("absence_policy", row.lang)
        await self.svc.set_meta(game_id, "absence_policy", {"days": days, "mode": mode}, by=gm)

    async def of_game(self, game_id: int) -> list[Absence]:
        _, meta = await self._meta(game_id)
        return absences(meta)

    async def _save(self, game_id: int, listed: list[Absence]) -> None:
        await self.svc.set_meta(game_id, "absences", [a.to_json() for a in listed], by=BOT)
