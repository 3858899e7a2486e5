"""The worker processes that adjudicate and draw the maps (issue 18).

Adjudicating, drawing and PNG writing are CPU-bound and pure (`compute.compute_phase`):
a pool of processes runs them on every core while the event loop does the SQL and the
delivery. Each worker loads a variant's map, rules and the renderer's static layers once
(`warm`: at start for the bundled standard map, later on first use, by name); a job carries
only the names, the position and orders as JSON, and returns strings and the PNG bytes.

A pool that breaks (a worker killed, out of memory) must never lose a phase: `PhaseMachine`
runs that job in a thread instead and asks the pool to `restart` for the next ones. A bot that
dies, by any signal, takes its workers with it (`bot.service.phases.lifeline`, issue 36).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from bot.service.phases.lifeline import Lifeline, watch

log = logging.getLogger(__name__)

WARM_VARIANTS = ("standard",)  # loaded in every worker at its start; others on first use


def warm(variants: tuple[str, ...] = WARM_VARIANTS, lifeline: Connection | None = None) -> int:
    """Adjudicate and draw each variant's first phase once: its map, the default rules, the
    renderer's static layers, fonts and sprites are then loaded (the first map drawn would
    pay them: ~0.3 s); returns the worker's pid. With the bot's `lifeline`, this worker
    ends when the bot does (watched from the start, warming included)."""
    if lifeline is not None:
        watch(lifeline)
    from bot.core.records.jsonio import position_to_json  # noqa: PLC0415 - in the worker
    from bot.service.engine import CoreEngine  # noqa: PLC0415
    from bot.service.phases.compute import compute_phase  # noqa: PLC0415

    engine = CoreEngine()
    for name in variants:
        try:
            start = position_to_json(engine.load_map(name).start)
            compute_phase(engine, name, "datc", start, [], "en")
        except Exception:  # a broken variant fails its own games, later
            log.warning("worker %s: variant %r not preloaded", os.getpid(), name, exc_info=True)
    return os.getpid()


def default_workers() -> int:
    """One per CPU but one: the event loop keeps a core for the SQL, the events and the
    delivery (bench/deadline.py on 2 CPUs: one worker finished 200 games' results sooner
    than two, which contend with the loop)."""
    return max(1, (os.cpu_count() or 1) - 1)


class ComputePool(Executor):
    """A process pool whose workers start warm (`warm`), and that can be started again
    after it broke. `workers`: how many jobs run at once (default `default_workers`)."""

    def __init__(self, workers: int | None = None, variants: tuple[str, ...] = WARM_VARIANTS):
        self.workers = max(1, workers or default_workers())
        self._max_workers = self.workers  # (as concurrent.futures' own pools name it)
        self.variants = variants
        self.restarts = 0
        self.lifeline = Lifeline()  # one for every pool started (see `restart`)
        self._pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        # Forked from a fork server, never from the bot itself, whose sockets (Discord,
        # PostgreSQL) a forked copy would keep open. Started now, each warm (`warm`), not at
        # the first deadline.
        # (No preload: the fork server would import `bot` by its own path, not this one's.)
        context = multiprocessing.get_context("forkserver")
        pool = ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=warm,
            initargs=(self.variants, self.lifeline.reader),
        )
        for _ in range(self.workers):
            pool.submit(os.getpid)
        return pool

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._pool.submit(fn, *args, **kwargs)

    def restart(self) -> None:
        """A new pool in place of a broken one (its jobs failed with BrokenProcessPool);
        nothing if the pool in place works (another failed job restarted it already)."""
        if not getattr(self._pool, "_broken", True):
            return
        old, self._pool = self._pool, self._new()
        self.restarts += 1
        old.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The workers' process ids (started on the first job)."""
        return sorted(getattr(self._pool, "_processes", None) or {})

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)
        if wait:  # (not sooner: a worker still finishing its job would end with it)
            self.lifeline.cut()
