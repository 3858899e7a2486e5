"""What an adjudication returns: a result per order, the dislodged units, the next position."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.core.model import DislodgedUnit, Phase, Position, Power, Unit
from bot.core.orders import Order


class Verdict(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"


class Reason(StrEnum):
    """Why an order failed (or a note on a success); the bot and the notation show these."""

    NONE = ""
    BOUNCED = "bounced"  # a move or retreat that stood off
    CUT = "cut"  # a support cut by an attack
    DISLODGED = "dislodged"  # the ordered unit was dislodged (support, convoy, hold, move)
    NO_CONVOY = "no convoy"  # a move that needed a convoy and no convoy order matched
    CONVOY_BROKEN = "convoy broken"  # the convoy was disrupted (a convoying fleet dislodged)
    VOID = "void"  # a support or convoy that matched no order; `detail` names that order
    ILLEGAL = "illegal"  # ignored: the unit holds; `detail` says why
    PARADOX = "paradox"  # failed by the convoy-paradox rule in force
    DESTROYED = "destroyed"  # a dislodged unit with nowhere to go, or a failed retreat
    CIVIL_DISORDER = "civil disorder"  # a removal or other order the engine made for a power
    NOT_ALLOWED = "not allowed"  # a build or removal the adjustment counts do not allow


@dataclass(frozen=True, slots=True)
class OrderResult:
    power: Power | None
    order: Order
    verdict: Verdict
    reason: Reason = Reason.NONE
    detail: str = ""  # for a player: why illegal, or the order a void support failed to match
    implied: bool = False  # an order the engine supplied (default hold, civil-disorder removal)

    @property
    def succeeded(self) -> bool:
        return self.verdict is Verdict.SUCCEEDS


@dataclass(frozen=True, slots=True)
class Outcome:
    phase: Phase  # the phase that was adjudicated
    results: tuple[OrderResult, ...]
    # Every unit dislodged in this (movement) phase, including those destroyed at once
    # because they have no retreat (their `retreats` is empty).
    dislodged: tuple[DislodgedUnit, ...]
    # Units removed from the board by this phase: destroyed, disbanded, removed.
    removed: tuple[Unit, ...]
    # The position the next phase starts from, after skipping empty retreat/adjustment phases.
    position: Position
