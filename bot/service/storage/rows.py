"""What the storage returns: plain frozen rows. JSON columns stay text (`*_json`): the service
decodes them, because an unreadable one stops that game only (see `unreadable`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    name: str
    gm: str
    variant: str
    rules: str
    clock_name: str
    clock_json: str
    lang: str
    status: str  # forming, active, paused, over
    options_json: str
    meta_json: str
    created_at: float
    started_at: float | None
    paused_at: float | None
    ended_at: float | None
    end_reason: str | None
    press_open: bool
    current_phase_id: int | None


@dataclass(frozen=True, slots=True)
class NewGame:
    name: str
    gm: str
    variant: str
    rules: str
    clock_name: str
    clock_json: str
    lang: str
    options_json: str
    meta_json: str
    created_at: float


@dataclass(frozen=True, slots=True)
class PhaseRow:
    id: int
    game_id: int
    phase: str  # "S1901M"
    position_json: str
    status: str  # pending, open, adjudicating, done, skipped, rolled_back, final
    window: str  # reading, negotiation, writing, closed
    opens_at: float | None
    writing_at: float | None
    deadline: float | None


@dataclass(frozen=True, slots=True)
class SubmissionRow:
    id: int
    phase_id: int
    power: str
    user_id: str
    kind: str  # submit, clear, gm, carried
    text: str
    accepted: bool
    orders_json: str
    reply_json: str
    submitted_at: float


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A submission with its phase's name and whether that phase is adjudicated."""

    submission: SubmissionRow
    phase: str
    adjudicated: bool


@dataclass(frozen=True, slots=True)
class ResultRow:
    phase_id: int
    phase: str
    outcome_json: str
    orders_json: str
    png: bytes | None
    adjudicated_at: float


@dataclass(frozen=True, slots=True)
class NewResult:
    phase_id: int
    outcome_json: str
    orders_json: str
    png: bytes | None
    adjudicated_at: float
    compute_seconds: float


@dataclass(frozen=True, slots=True)
class PlayedPhase:
    """A phase of the game as played (rolled-back rows left out), with its results if any."""

    id: int
    phase: str
    status: str
    position_json: str
    result: ResultRow | None


@dataclass(frozen=True, slots=True)
class PhaseSummary:
    id: int
    phase: str
    status: str
    adjudicated_at: float | None


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    key: str
    game_id: int
    kind: str
    payload_json: str
    phase_id: int | None
    created_at: float
    attempts: int


@dataclass(frozen=True, slots=True)
class AuditRow:
    id: int
    at: float
    actor: str
    action: str
    detail_json: str


@dataclass(frozen=True, slots=True)
class DeliveryRow:
    """What was posted for one event at one destination (migration 0004)."""

    event_id: int
    dest: str
    after: str | None
    message_ids: tuple[str, ...]  # by part
    delivered: bool


def outbox_row(r: Any) -> OutboxRow:
    """An outbox row as the database returns it (sqlite3.Row or asyncpg.Record)."""
    return OutboxRow(
        int(r["id"]),
        r["key"],
        int(r["game_id"]),
        r["kind"],
        r["payload_json"],
        None if r["phase_id"] is None else int(r["phase_id"]),
        float(r["created_at"]),
        int(r["attempts"]),
    )
