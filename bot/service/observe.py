"""What the services report for whoever listens: counts and timings for the host's metrics
(`parley run --metrics`, bot/hosting/metrics.py) and the game a log line is about.

Services call `report(name, value, **labels)`; nothing listens unless a sink was added with
`listen`, and then a report costs one call per sink. No Prometheus here: the services do not
know who reads their figures. Names reported:

    orders            outcome="accepted"|"refused"  (a set of orders received)
    results_posted    value: seconds from the phase's deadline to its results delivered
    delivery_retry    a delivery deferred or failed, tried again later
    discord_response  status="429"|"5xx"  (discord.py sends the request again)

`about(game, phase)` marks the work of the current task as about that game (and phase):
`context()` gives them to a log formatter (bot/hosting/logs.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Protocol


class Sink(Protocol):
    def __call__(self, name: str, value: float, labels: dict[str, str]) -> None: ...


_sinks: list[Sink] = []
_about: ContextVar[tuple[int | None, str | None]] = ContextVar("about", default=(None, None))


def listen(sink: Sink) -> Callable[[], None]:
    """Add a sink; returns the function that removes it."""
    _sinks.append(sink)
    return lambda: _sinks.remove(sink) if sink in _sinks else None


def report(name: str, value: float = 1.0, **labels: str) -> None:
    for sink in _sinks:
        sink(name, value, labels)


@contextlib.contextmanager
def about(game: int | None, phase: str | None = None) -> Iterator[None]:
    token = _about.set((game, phase))
    try:
        yield
    finally:
        _about.reset(token)


def context() -> tuple[int | None, str | None]:
    """(game, phase) the current task works on, if it said."""
    return _about.get()
