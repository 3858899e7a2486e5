"""Events the service emits, and the notifier interface the bot and the demo implement.

Every event is first written to the `outbox` table in the same transaction as the change it
announces, then delivered; it is marked delivered only after `Notifier.notify` returns. A
notifier that raises gets the same event again later (same `id` and `key`), so a crash after a
delivery but before its mark is the one case of a repeat: such a repeat has `attempt > 0`,
and notifiers that post somewhere can drop it by `key`, or send with `nonce=event.nonce(...)`
(Discord refuses a second message with the same nonce within minutes).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from bot.core.outcome import Outcome


class EventKind(StrEnum):
    GAME_STARTED = "game_started"  # payload: players {power: user}
    WINDOW_OPENED = "window_opened"  # payload: window, deadline, writing_at, press_open
    REMINDER_DUE = "reminder_due"  # payload: deadline, seconds_left, powers, users (missing)
    RESULTS_READY = "results_ready"  # payload: lines, next_phase, centers; + outcome, png
    PRESS_LOCKED = "press_locked"  # payload: window
    PRESS_UNLOCKED = "press_unlocked"  # payload: window
    GAME_PAUSED = "game_paused"
    GAME_RESUMED = "game_resumed"  # payload: deadline
    DEADLINE_CHANGED = "deadline_changed"  # payload: deadline, writing_at
    PHASE_ROLLED_BACK = "phase_rolled_back"  # payload: phase reopened
    PLAYER_REPLACED = "player_replaced"  # payload: power, old_user, new_user
    VOTE_OPENED = "vote_opened"  # payload: record (public: no author, no voter), text
    VOTE_CLOSED = "vote_closed"  # payload: record (status, counts where published), text
    ABBREVIATIONS_AGREED = "abbreviations_agreed"  # payload power, abbreviations {abbr: loc}
    BOARD_EDITED = "board_edited"  # house VIII(2)/(3): payload edit (the GM's line), phase
    ORDERS_MISSED = "orders_missed"  # for the GM: payload powers, users (NMR, house VII(6))
    # Orders sent early (house II(5)) read when their phase opened; for the player who sent
    # them. Payload: power, user, accepted, orders, errors, message.
    EARLY_ORDERS_READ = "early_orders_read"
    DRAW_AVAILABLE = "draw_available"  # house IX(2): the GM may declare a draw; payload reason
    # A stored row of the game cannot be read: the game is stopped, the others run. For its
    # GM; payload: why (English, for the operator too). Key: one per distinct reason.
    GAME_BROKEN = "game_broken"
    GAME_OVER = "game_over"  # payload: reason (solo, year limit, stalemate, or the GM's),
    # winner, centers {power: n}, explanation


@dataclass(frozen=True, slots=True)
class Event:
    id: int  # outbox row id: increasing, stable across restarts
    key: str  # unique, deterministic: game:phase_row:kind[:extra]
    game_id: int
    kind: EventKind
    phase: str | None  # e.g. "S1901M": the phase the event is about
    payload: dict[str, Any]
    created_at: float
    png: bytes | None = field(default=None, repr=False)  # RESULTS_READY: the map
    outcome: Outcome | None = field(default=None, repr=False)  # RESULTS_READY: typed results
    # Deliveries of this event started before this one: > 0 means an earlier delivery may
    # have gone through just before the process died (drop it if `key` was seen).
    attempt: int = 0

    def nonce(self, *parts: object) -> str:
        """A stable 25-character nonce for one message sent for this event (`parts` tell
        apart the messages of one event, e.g. the channel): Discord drops a second message
        with the same nonce sent within minutes, which makes a redelivery harmless."""
        text = "\x1f".join([self.key, *map(str, parts)])
        return hashlib.sha256(text.encode()).hexdigest()[:25]


class TransientDeliveryError(Exception):
    """Raised by a notifier when the destination is down for now (a 5xx, a timeout): the
    service logs one warning line and delivers the event again later."""


class Notifier(Protocol):
    async def notify(self, event: Event) -> None: ...


class NullNotifier:
    async def notify(self, event: Event) -> None:  # noqa: ARG002 - drops everything
        return None


class MemoryNotifier:
    """Keeps every delivered event (tests, and a handy base for simple notifiers)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    async def notify(self, event: Event) -> None:
        self.events.append(event)

    def kinds(self, game_id: int | None = None) -> list[str]:
        return [e.kind.value for e in self.events if game_id is None or e.game_id == game_id]
