"""The phase-clock presets of `data/clocks/`.

A clock preset gives, for each of the five phase slots (spring_movement, spring_retreat,
fall_movement, fall_retreat, winter_adjustment), the length of its windows (negotiation,
writing, reading) and the windows in which press (player talk) is open; plus the number of
game years, the reminder offsets before the writing deadline, whether the phase may be
adjudicated early when every player is ready, and whether the Fall retreats and the Winter
adjustments are written in one window (`retreats_with_adjustments`).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.core.model import Phase, PhaseKind, Season
from bot.paths import data_dir
from bot.service.clock.clocks import parse_duration
from bot.service.clock.schedule import Schedule
from bot.service.errors import ConfigError

SLOTS = ("spring_movement", "spring_retreat", "fall_movement", "fall_retreat", "winter_adjustment")
WINDOWS = ("negotiation", "writing", "reading")


def slot_of(phase: Phase) -> str:
    if phase.season is Season.WINTER:
        return "winter_adjustment"
    season = "spring" if phase.season is Season.SPRING else "fall"
    kind = "movement" if phase.kind is PhaseKind.MOVEMENT else "retreat"
    return f"{season}_{kind}"


@dataclass(frozen=True, slots=True)
class SlotTimes:
    negotiation: float = 0.0
    writing: float = 0.0
    reading: float = 0.0
    press: tuple[str, ...] = ("negotiation", "writing", "reading")  # windows with press open


@dataclass(frozen=True, slots=True)
class ClockPreset:
    name: str
    title: str = ""
    years: int | None = None  # game years before the game ends (EDC: 7); None: no limit
    reminders: tuple[float, ...] = ()  # seconds before the writing deadline
    early_adjudication: bool = False
    slots: dict[str, SlotTimes] = field(default_factory=dict)
    # One window for the Fall retreats and the Winter adjustments (edc-2023 B: "Winter
    # (retirement & adjustments): writing 1'"; house II(5) C: "WINTER (W) = a separate order
    # phase for post-fall retreats combined with adjustments"): the adjustment orders are
    # sent in the retreat window, and after a Fall retreat phase the adjustment phase has no
    # window of its own (adjudicated at once). Without Fall retreats [winter_adjustment] is
    # the window.
    retreats_with_adjustments: bool = False
    # Deadlines at a fixed local time (bot.service.clock.schedule), instead of the windows' lengths.
    schedule: Schedule | None = None

    def times(self, phase: Phase) -> SlotTimes:
        return self.slots[slot_of(phase)]

    def shares_window(self, phase: Phase, previous: str | None) -> bool:
        """Whether `phase` (a Winter adjustment after the adjudicated phase `previous`) was
        written in the Fall retreat window: then it opens with no window of its own."""
        return (
            self.retreats_with_adjustments
            and phase.season is Season.WINTER
            and previous == f"F{phase.year}R"
        )

    def year_seconds(self) -> float:
        """A game year with retreats in both seasons and adjustments: every window of every
        slot, the Winter's counted once inside the Fall retreat window when they share it
        (edc-2023 B: "30 minutes per year")."""
        total = sum(t.negotiation + t.writing + t.reading for t in self.slots.values())
        if self.retreats_with_adjustments:
            w = self.slots["winter_adjustment"]
            total -= w.negotiation + w.writing + w.reading
        return total

    def press_open(self, phase: Phase, window: str) -> bool:
        return window in self.times(phase).press

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["reminders"] = list(self.reminders)
        doc["slots"] = {k: {**asdict(v), "press": list(v.press)} for k, v in self.slots.items()}
        doc["schedule"] = self.schedule.to_json() if self.schedule else None
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ClockPreset:
        return _build(str(doc.get("name", "custom")), doc)

    def with_overrides(self, overrides: dict[str, Any]) -> ClockPreset:
        """Custom durations over a preset: `{"fall_movement": {"negotiation": "10m"},
        "years": 3, "reminders": ["5m"], "early_adjudication": true}`."""
        doc = self.to_json()
        for key, value in overrides.items():
            if key in SLOTS:
                if not isinstance(value, dict):
                    raise ConfigError(f"clock override {key}: expected a table")
                doc["slots"][key] = {**doc["slots"][key], **value}
            elif key in (
                "years",
                "reminders",
                "early_adjudication",
                "title",
                "retreats_with_adjustments",
                "schedule",
            ):
                doc[key] = value
            else:
                raise ConfigError.of("unknown_clock_setting", setting=key)
        return replace(_build(self.name, doc), name=f"{self.name}+custom")


def _build(name: str, doc: dict[str, Any]) -> ClockPreset:
    raw_slots = doc.get("slots", doc)
    slots: dict[str, SlotTimes] = {}
    for slot in SLOTS:
        raw = raw_slots.get(slot)
        if not isinstance(raw, dict):
            raise ConfigError(f"clock {name}: missing table [{slot}]")
        unknown = set(raw) - {*WINDOWS, "press"}
        if unknown:
            raise ConfigError(f"clock {name} [{slot}]: unknown keys {sorted(unknown)}")
        press = raw.get("press", list(WINDOWS))
        if not isinstance(press, list) or not set(press) <= set(WINDOWS):
            raise ConfigError(f"clock {name} [{slot}]: press must list windows from {WINDOWS}")
        times = {w: parse_duration(raw.get(w, 0)) for w in WINDOWS}
        if times["negotiation"] + times["writing"] <= 0:
            raise ConfigError(f"clock {name} [{slot}]: no time to write orders")
        slots[slot] = SlotTimes(**times, press=tuple(press))
    years = doc.get("years")
    if years is not None and (not isinstance(years, int) or years < 1):
        raise ConfigError(f"clock {name}: years must be a positive integer")
    reminders = tuple(sorted((parse_duration(r) for r in doc.get("reminders", [])), reverse=True))
    return ClockPreset(
        name=name,
        title=str(doc.get("title", "")),
        years=years,
        reminders=reminders,
        early_adjudication=bool(doc.get("early_adjudication", False)),
        slots=slots,
        retreats_with_adjustments=_flag(name, doc, "retreats_with_adjustments"),
        schedule=_schedule(doc.get("schedule")),
    )


def _schedule(value: object) -> Schedule | None:
    if value is None or isinstance(value, Schedule):
        return value
    if not isinstance(value, dict):
        raise ConfigError("clock schedule: expected a table")
    return Schedule.from_json(value)


def _flag(name: str, doc: dict[str, Any], key: str) -> bool:
    value = doc.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"clock {name}: {key} must be true or false")
    return value


def clocks_dir() -> Path:
    return data_dir() / "clocks"


def load_clock(name: str) -> ClockPreset:
    """Load `data/clocks/NAME.toml`; a missing or broken file is a ConfigError."""
    if not re.fullmatch(r"[a-z0-9_-]+", name):
        raise ConfigError.of("bad_clock_name", name=name)
    path = clocks_dir() / f"{name}.toml"
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        known = ", ".join(clock_names()) or "none"
        raise ConfigError.of("clock_not_found", name=name, path=path, known=known) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"clock preset {path} is not valid TOML: {exc}") from None
    return _build(name, doc)


def clock_names() -> list[str]:
    return sorted(p.stem for p in clocks_dir().glob("*.toml"))
