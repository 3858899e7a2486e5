"""The round clock: one schedule for every table of a round (face-to-face tournaments call
time centrally; edc-2023 B gives each phase's minutes, "All rounds and all tables will be
played in 7 years").

The schedule plays every phase of every year in full, retreats and adjustments included, from
the round's start: a table that had no retreat to play waits for the others (its negotiation
is lengthened to the common deadline), so every table writes its orders to the same deadline.
A table whose phase is behind the schedule (a GM's pause) is shown to the director.

A table's movement phase opens with the round's times (`round_times`, from the round's start
and the clock alone): every table announces the same writing start and deadline once, none
corrected after it opened (issue 35).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.model import Phase, PhaseKind, Season
from bot.service.clock.presets import ClockPreset

SEQUENCE = (
    (Season.SPRING, PhaseKind.MOVEMENT),
    (Season.SPRING, PhaseKind.RETREAT),
    (Season.FALL, PhaseKind.MOVEMENT),
    (Season.FALL, PhaseKind.RETREAT),
    (Season.WINTER, PhaseKind.ADJUSTMENT),
)
DEFAULT_YEARS = 7  # edc-2023 B; a clock with no year limit is scheduled this far
TOLERANCE = 1.0  # seconds: smaller gaps (the time an adjudication takes) are left alone


@dataclass(frozen=True, slots=True)
class Slot:
    phase: str  # "S1901M"
    opens: float
    deadline: float


def schedule(clock: ClockPreset, start: float, first_year: int = 1901) -> list[Slot]:
    """Every phase of the round in order, with its opening and writing deadline."""
    out: list[Slot] = []
    t = start
    for year in range(first_year, first_year + (clock.years or DEFAULT_YEARS)):
        for season, kind in SEQUENCE:
            phase = Phase(year, season, kind)
            times = clock.times(phase)
            deadline = t + times.negotiation + times.writing
            out.append(Slot(phase_id(phase), t, deadline))
            t = deadline + times.reading
    return out


def phase_id(phase: Phase) -> str:
    return f"{phase.season.name[0]}{phase.year}{phase.kind.name[0]}"


def target_deadline(slots: list[Slot], phase: str) -> float | None:
    """The common deadline of a movement phase (None for other phases: they run as they come)."""
    if not phase.endswith("M"):
        return None
    for s in slots:
        if s.phase == phase:
            return s.deadline
    return None


def due_phase(slots: list[Slot], now: float) -> int:
    """The index of the phase the schedule is at now (-1 before the start)."""
    due = -1
    for i, s in enumerate(slots):
        if s.opens <= now:
            due = i
    return due


def lag(slots: list[Slot], phase: str | None, now: float) -> int:
    """How many phases a table playing `phase` is behind the schedule (0: on time)."""
    if phase is None:
        return 0
    index = next((i for i, s in enumerate(slots) if s.phase == phase), None)
    if index is None:
        return 0
    return max(0, due_phase(slots, now) - index)


def round_times(  # noqa: PLR0917 - the round, the phase, and the clock's own times
    clock: ClockPreset,
    round_start: float,
    first_year: int,
    phase: Phase,
    opens: float,
    writing: float,
) -> tuple[float, float] | None:
    """(writing starts, deadline) of a table's movement phase opening at `opens`: the
    round's deadline, the clock's writing minutes before it; None for the other phases
    (they run as they come) and for a table behind the round clock (a GM's pause: it keeps
    its own times, and the director sees it in the status)."""
    target = target_deadline(schedule(clock, round_start, first_year), phase_id(phase))
    if target is None or target - writing < opens - TOLERANCE:
        return None
    return max(opens, target - writing), target
