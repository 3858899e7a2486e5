"""The round clock (bot/service/clock/rounds.py): edc-2023 B's minutes for every phase of
every year, retreats and adjustments kept for every table."""

from __future__ import annotations

from bot.service.clock.presets import load_clock
from bot.service.clock.rounds import due_phase, lag, schedule, target_deadline

START = 1_000_000.0
MIN = 60.0


def test_the_edc_round_clock_plays_seven_years_of_five_phases() -> None:
    slots = schedule(load_clock("edc2023"), START)
    assert len(slots) == 7 * 5  # B: "All rounds and all tables will be played in 7 years"
    first = {s.phase: (s.opens - START, s.deadline - START) for s in slots[:6]}
    # B: spring negotiations 8', writing 1', reading 4'; summer 1'; fall 8' + 1', reading 6';
    # winter 1' (Parley plays fall retreats and winter adjustments as two 1' phases).
    assert first == {
        "S1901M": (0, 9 * MIN),
        "S1901R": (13 * MIN, 14 * MIN),
        "F1901M": (14 * MIN, 23 * MIN),
        "F1901R": (29 * MIN, 30 * MIN),
        "W1901A": (30 * MIN, 31 * MIN),
        "S1902M": (31 * MIN, 40 * MIN),
    }
    assert slots[-1].phase == "W1907A"
    assert target_deadline(slots, "F1901M") == START + 23 * MIN
    assert target_deadline(slots, "S1901R") is None  # retreats run as they come


def test_a_table_is_behind_when_the_clock_has_opened_later_phases() -> None:
    slots = schedule(load_clock("edc2023"), START)
    assert due_phase(slots, START - 1) == -1
    now = START + 15 * MIN  # the clock is in fall 1901
    assert lag(slots, "F1901M", now) == 0
    assert lag(slots, "S1901M", now) == 2  # still in spring: summer and fall have opened
    assert lag(slots, "W1901A", now) == 0  # ahead is not behind
    assert lag(slots, None, now) == 0
