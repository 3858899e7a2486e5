"""Time for the service: an injectable clock, and durations as people write them.

Times are UTC epoch seconds (floats). `SystemClock` is real time; `FakeClock` only moves when a
test (or the demo) advances it; `ScaledClock` runs real time faster. The phase-clock presets
of `data/clocks/` are in `presets.py`.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Protocol

from bot.service.errors import ConfigError


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, when: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (delay := when - time.time()) > 0:  # noqa: ASYNC110 - re-check the wall clock
            await asyncio.sleep(min(delay, 60.0))


class ScaledClock:
    """Real time running `factor` times faster from `start` (the demo's tournament clock)."""

    def __init__(self, factor: float, start: float | None = None) -> None:
        self.factor = factor
        self._t0 = time.monotonic()
        self._start = time.time() if start is None else start

    def now(self) -> float:
        return self._start + (time.monotonic() - self._t0) * self.factor

    async def sleep_until(self, when: float) -> None:
        while (delay := when - self.now()) > 0:  # noqa: ASYNC110
            await asyncio.sleep(delay / self.factor)


class FakeClock:
    """A clock that stands still until `advance`/`set`; sleepers wake when their time comes."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((when, fut))
        try:
            await fut
        finally:
            self._sleepers = [(w, f) for w, f in self._sleepers if f is not fut]

    def set(self, when: float) -> None:
        self._now = max(self._now, when)
        for w, fut in list(self._sleepers):
            if w <= self._now and not fut.done():
                fut.set_result(None)

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)


# --- presets ------------------------------------------------------------------------------


_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d)?\s*")
_UNIT = {None: 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


def parse_duration(value: object) -> float:
    """Seconds from a number or a string such as `8m`, `90s`, `48h`, `1d`."""
    if isinstance(value, bool):
        raise ConfigError.of("not_duration", value=value)
    if isinstance(value, int | float):
        if value < 0:
            raise ConfigError.of("negative_duration", value=value)
        return float(value)
    if isinstance(value, str):
        total = 0.0
        pos = 0
        text = value.strip()
        if not text:
            raise ConfigError.of("empty_duration")
        while pos < len(text):
            m = _DURATION.match(text, pos)
            if not m or m.end() == pos:
                raise ConfigError.of("not_duration_hint", value=value)
            total += float(m.group(1)) * _UNIT[m.group(2)]
            pos = m.end()
        return total
    raise ConfigError.of("not_duration", value=value)
