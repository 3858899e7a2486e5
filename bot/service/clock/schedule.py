"""A schedule that fits people's week: deadlines at a fixed local time in a named time zone.

`parse_schedule("at: 21:00 zone: Europe/Paris every: 2 skip: sun retreats: 1")` reads the
`schedule` text of `/game create` (French keys: heure, fuseau, tous, sauf, retraites; days in
English or French, three letters). The schedule lives in the game's clock (`ClockPreset.
schedule`, stored with it); the phase machine asks it for each phase's deadline, which is stored
as a UTC timestamp like every other deadline.

A movement phase's deadline is the first scheduled time (`at`, local, on a day not skipped) at
least `every` days minus 12 hours after the phase opened: a phase adjudicated at 21:00 gives the
next one 21:00 `every` days later, and one adjudicated early (everyone ready) keeps the rhythm
instead of moving every later deadline. Retreats and adjustments take `retreats` days the same
way, or a plain duration (`retreats: 12h`), not aligned to `at`. Daylight-saving changes are the
zone's (zoneinfo): 21:00 stays 21:00 local across them; a local time that does not exist on the
day clocks go forward is read with the offset before the change (PEP 495, fold=0).

The zone database is the system's (/usr/share/zoneinfo) or, where a machine has none (Windows,
slim containers), the `tzdata` package (a dependency for that reason).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core import catalogue
from bot.service.clock.clocks import parse_duration
from bot.service.errors import ConfigError

DAY = 86400.0
SLACK = DAY / 2  # "every N days" means at least N days less half a day (see the docstring)
_KEYS = {
    "at": "at",
    "heure": "at",
    "zone": "zone",
    "fuseau": "zone",
    "every": "every",
    "tous": "every",
    "skip": "skip",
    "sauf": "skip",
    "retreats": "retreats",
    "retraites": "retreats",
}
_KEY = re.compile(r"(?<![\w/])(" + "|".join(_KEYS) + r")\s*[:=]", re.IGNORECASE)
_HHMM = re.compile(r"([01]?\d|2[0-3])[:hH]([0-5]\d)")


def ct(key: str, lang: str, **fields: Any) -> str:
    """A sentence of the casual-server catalogue (`data/messages/casual.<lang>.toml`)."""
    return catalogue.text("casual", key, catalogue.normalise(lang), **fields)


class ScheduleError(ConfigError):
    """A schedule text that cannot be read; its message comes from the casual catalogue."""

    _text = staticmethod(ct)  # the casual catalogue


@dataclass(frozen=True, slots=True)
class Schedule:
    zone: str  # IANA, e.g. "Europe/Paris"
    at: str  # "HH:MM", local
    every: int = 1  # days, movement phases
    skip: tuple[int, ...] = ()  # weekdays with no deadline (0 Monday ... 6 Sunday)
    retreats: float = 1.0  # retreat and adjustment phases: days (retreats_days) or seconds
    retreats_days: bool = True

    def deadline(self, start: float, *, movement: bool) -> float:
        """The deadline of a phase opened at `start` (UTC epoch seconds)."""
        if not movement and not self.retreats_days:
            return start + self.retreats
        days = self.every if movement else self.retreats
        return self.next_slot(start + days * DAY - SLACK)

    def next_slot(self, after: float) -> float:
        """The first scheduled time at or after `after`, on a day not skipped."""
        tz = ZoneInfo(self.zone)
        hour, minute = (int(x) for x in self.at.split(":"))
        day: date = datetime.fromtimestamp(after, tz).date()
        for _ in range(15):  # at most one week of skipped days, and the day itself
            if day.weekday() not in self.skip:
                when = datetime.combine(day, time(hour, minute), tzinfo=tz).timestamp()
                if when >= after:
                    return when
            day += timedelta(days=1)
        raise ScheduleError.of("schedule_no_day")  # (parse_schedule refuses this)

    def to_json(self) -> dict[str, Any]:
        return {
            "zone": self.zone,
            "at": self.at,
            "every": self.every,
            "skip": list(self.skip),
            "retreats": self.retreats,
            "retreats_days": self.retreats_days,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Schedule:
        return checked(
            cls(
                zone=str(doc["zone"]),
                at=str(doc["at"]),
                every=int(doc.get("every", 1)),
                skip=_skip(doc.get("skip", ())),
                retreats=float(doc.get("retreats", 1)),
                retreats_days=bool(doc.get("retreats_days", True)),
            )
        )

    def describe(self, lang: str) -> str:
        names = weekdays(lang)
        skip = ", ".join(names[d] for d in self.skip) or "-"
        retreats = (
            ct("schedule_days", lang, n=int(self.retreats))
            if self.retreats_days
            else f"{self.retreats / 3600:g} h"
        )
        return ct(
            "schedule_line",
            lang,
            at=self.at,
            zone=self.zone,
            every=ct("schedule_days", lang, n=self.every),
            skip=skip,
            retreats=retreats,
        )


def weekdays(lang: str) -> list[str]:
    """Monday to Sunday, three letters, in `lang` (the catalogue's `weekdays`)."""
    return ct("weekdays", lang).split()


def checked(s: Schedule) -> Schedule:
    try:
        ZoneInfo(s.zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError.of("schedule_zone", zone=s.zone) from None
    if not _HHMM.fullmatch(s.at):
        raise ScheduleError.of("schedule_time", value=s.at)
    if not 1 <= s.every <= 14:
        raise ScheduleError.of("schedule_every", value=s.every)
    if len(set(s.skip)) >= 7 or any(not 0 <= d <= 6 for d in s.skip):
        raise ScheduleError.of("schedule_no_day")
    if s.retreats <= 0 or (s.retreats_days and s.retreats != int(s.retreats)):
        raise ScheduleError.of("schedule_retreats", value=s.retreats)
    return s


def parse_schedule(text: str) -> Schedule:
    """A schedule from its text (see the module docstring); ScheduleError if unreadable."""
    found = list(_KEY.finditer(text))
    if not found or text[: found[0].start()].strip(" ,;"):
        raise ScheduleError.of("schedule_text", text=text.strip())
    values: dict[str, str] = {}
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        values[_KEYS[m.group(1).casefold()]] = text[m.end() : end].strip(" ,;")
    if "at" not in values or "zone" not in values:
        raise ScheduleError.of("schedule_text", text=text.strip())
    at = _HHMM.fullmatch(values["at"])
    if at is None:
        raise ScheduleError.of("schedule_time", value=values["at"])
    every = values.get("every", "1").casefold().removesuffix("d").removesuffix("j").strip()
    if not every.isdigit():
        raise ScheduleError.of("schedule_every", value=values.get("every"))
    retreats, in_days = _retreats(values.get("retreats", "1"))
    return checked(
        Schedule(
            zone=values["zone"],
            at=f"{int(at.group(1)):02d}:{at.group(2)}",
            every=int(every),
            skip=_days(values.get("skip", "")),
            retreats=retreats,
            retreats_days=in_days,
        )
    )


def _skip(raw: Any) -> tuple[int, ...]:
    """Weekdays as stored (0 Monday ... 6 Sunday) or named (a clock file: ["sat", "sun"])."""
    if isinstance(raw, str):
        return _days(raw)
    return tuple(sorted({d if isinstance(d, int) else _days(str(d))[0] for d in raw}))


def _days(text: str) -> tuple[int, ...]:
    out: set[int] = set()
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        key = word.casefold()[:3]
        found = [names.index(key) for names in map(weekdays, catalogue.languages()) if key in names]
        if not found:
            raise ScheduleError.of("schedule_day", value=word)
        out.add(found[0])
    return tuple(sorted(out))


def _retreats(text: str) -> tuple[float, bool]:
    plain = text.casefold().strip()
    if plain.isdigit():
        return float(plain), True
    if plain[:-1].strip().isdigit() and plain[-1] in "dj":
        return float(plain[:-1]), True
    return parse_duration(plain), False
