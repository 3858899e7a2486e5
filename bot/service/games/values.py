"""What the table service returns: frozen public values."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.core.model import (
    Power,
)
from bot.core.outcome import Outcome

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameStatus:
    id: int
    name: str
    gm: str
    variant: str
    rules: str
    clock: str
    lang: str
    status: str  # forming, active, paused, over
    phase: str | None  # "S1901M"
    phase_id: int | None
    phase_status: str | None  # pending, open, adjudicating, done, final
    window: str | None  # reading, negotiation, writing, closed
    opens_at: float | None
    writing_at: float | None
    deadline: float | None
    press_open: bool
    players: dict[Power, str]
    submitted: list[Power]  # powers with standing orders (who, never what)
    ready: list[Power]
    to_order: list[Power]  # powers that have something to order in this phase
    centers: dict[Power, int]
    units: dict[Power, int]
    early_adjudication: bool
    end_reason: str | None
    meta: dict[str, Any]
    broken: str | None = None  # why this game cannot be read, if it cannot
    error: str | None = None  # the last failed clock step (retried every 30 s)
    # Stab! (issue 14): the board is secret until the game ends (units, orders, history).
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class SubmitReply:
    accepted: bool
    game_id: int
    phase: str
    power: Power
    orders: list[str]  # the canonical reading of each order, in the game's language
    errors: list[str]  # "text: reason" for every order that could not be read
    warnings: list[str]  # units without an order, orders for units not yours, ...
    message: str  # one summary line in the game's language
    submitted_at: float
    submission_id: int


@dataclass(frozen=True, slots=True)
class OrdersView:
    game_id: int
    phase: str
    power: Power
    orders: list[str]
    submitted_at: float | None
    warnings: list[str]


@dataclass(frozen=True, slots=True)
class Submission:
    id: int
    phase: str
    power: Power
    user: str
    kind: str
    text: str
    accepted: bool
    orders: list[str]
    reply: dict[str, Any]
    submitted_at: float


@dataclass(frozen=True, slots=True)
class PhaseResults:
    game_id: int
    phase_id: int
    phase: str
    outcome: Outcome
    orders: dict[Power, list[str]]
    lines: list[dict[str, Any]]
    png: bytes | None
    adjudicated_at: float


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    id: int  # phase_id for results(), phase_orders()
    phase: str
    status: str  # pending, open, adjudicating, done, skipped, rolled_back, final
    adjudicated_at: float | None


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    at: float
    actor: str
    action: str
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MissedOrders:
    """A player's missed orders (NMR) for one power: EDC D counts them per player."""

    user: str
    power: Power
    count: int
    phases: tuple[str, ...]  # e.g. ("S1901M", "F1902M"), in order
