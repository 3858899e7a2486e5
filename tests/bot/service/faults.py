"""Kill points for the crash tests, owned by the tests: wrappers around the storage, the
engine and the notifier that call `faults(point)` where the process may die.

Points: `submit.before_commit` / `submit.after_commit` (the transaction that saves a
submission), `adjudicate.after_close` (the one that freezes the orders), `adjudicate.
after_compute` (the adjudication and map computed, nothing saved), `adjudicate.before_commit`
/ `adjudicate.after_commit` (the one that saves the results), `deliver.after_notify` (an event
posted, not yet marked delivered: from the notifier's side) and `deliver.before_mark` (the
same point from the storage's side: the mark is not committed)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.service.storage import Repository, Storage

FaultHook = Callable[[str], None]

# The statement that tells which step a transaction is.
_STEPS = {
    "add_submission": "submit",
    "add_result": "adjudicate",
    "close_phase": "close",
    "mark_delivered": "deliver",
}


class _SpyRepo:
    """A transaction's repository that notes which steps it ran."""

    def __init__(self, inner: Repository) -> None:
        self._inner = inner
        self.steps: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if name in _STEPS:
            self.steps.add(_STEPS[name])
        return getattr(self._inner, name)


class FaultyStorage:
    """A storage whose transactions may die just before or just after their commit."""

    def __init__(self, inner: Storage, faults: FaultHook) -> None:
        self._inner = inner
        self._faults = faults

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    @asynccontextmanager
    async def tx(self, *, durable: bool = True) -> AsyncIterator[Any]:
        async with self._inner.tx(durable=durable) as tx:
            spy = _SpyRepo(tx)
            yield spy
            for step in ("submit", "adjudicate"):
                if step in spy.steps:
                    self._faults(f"{step}.before_commit")
            if "deliver" in spy.steps:
                self._faults("deliver.before_mark")
        if "close" in spy.steps:
            self._faults("adjudicate.after_close")
        for step in ("submit", "adjudicate"):
            if step in spy.steps:
                self._faults(f"{step}.after_commit")


class FaultyEngine:
    """An engine that may die once a phase is computed (the map is its last step)."""

    def __init__(self, inner: Any, faults: FaultHook) -> None:
        self._inner = inner
        self._faults = faults

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def render(self, *args: Any, **kw: Any) -> Any:
        png = self._inner.render(*args, **kw)
        self._faults("adjudicate.after_compute")
        return png


class FaultyNotifier:
    """A notifier that may die after an event went out, before it is marked delivered."""

    def __init__(self, inner: Any, faults: FaultHook) -> None:
        self._inner = inner
        self._faults = faults

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def notify(self, event: Any) -> None:
        await self._inner.notify(event)
        self._faults("deliver.after_notify")


def crash(svc: Any) -> None:
    """Drop the service as a dying process would: the scheduler stops, nothing is closed
    or flushed, and the OS drops the file lock (the caller closes the connection later)."""
    scheduler = svc.scheduler
    scheduler.closed = True
    for task in (scheduler._task, *scheduler._deliveries):
        if task is not None:
            task.cancel()
    scheduler._task = None
    scheduler._deliveries.clear()
    store = svc.storage.store
    if hasattr(store, "release_file_lock"):
        store.release_file_lock()
    else:  # PostgreSQL: the server sees the connection drop, as at a process death
        store.conn.terminate()
