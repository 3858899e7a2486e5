"""What an adjudication returns: a result per order, the dislodged units, the next position."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from bot.core.compiled.native import mypyc_attr
from bot.core.compiled.twin import twin
from bot.core.messages import Message, render
from bot.core.model import NATIVE, DislodgedUnit, Phase, Position, Power, Unit
from bot.core.orders import Order

if TYPE_CHECKING:
    from bot.core.map import GameMap


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


@mypyc_attr(acyclic=True)  # frozen values: never in a cycle, so not tracked by the collector
@dataclass(frozen=True, slots=True, init=False)
class OrderResult:
    power: Power | None
    order: Order
    verdict: Verdict
    reason: Reason = Reason.NONE
    # Free text for a result that has no catalogue message (read `detail`, not this).
    note: str = ""
    implied: bool = False  # an order the engine supplied (default hold, civil-disorder removal)
    # Why, as a catalogue message, shown in the game's language (bot.core.messages).
    message: Message | None = None

    def __init__(  # noqa: PLR0917 - the dataclass's own signature
        self,
        power: Power | None,
        order: Order,
        verdict: Verdict,
        reason: Reason = Reason.NONE,
        note: str = "",
        implied: bool = False,
        message: Message | None = None,
    ) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "verdict", verdict)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "note", note)
        object.__setattr__(self, "implied", implied)
        object.__setattr__(self, "message", message)

    @property
    def succeeded(self) -> bool:
        return self.verdict is Verdict.SUCCEEDS

    @property
    def detail(self) -> str:
        """For a player, in English: why illegal, or the order a void support failed to match.

        Rendered when read, not when adjudicated: most results are never shown in English,
        and building ~10 texts per phase cost the adjudicator ~8% of its time."""
        if self.note or self.message is None:
            return self.note
        return render(self.message, "en")


def describe(result: OrderResult, lang: str = "en", game_map: GameMap | None = None) -> str:
    """Why the order failed (or a note on it), in the game's language ("" if nothing to say),
    places and powers named by the game's map.

    A result without a message (read back from an older record) shows its English detail."""
    if result.message is not None:
        return render(result.message, lang, game_map)
    return result.detail


_new: Final = object.__new__
# interpreted only: a native class (compiled: bot.core.model.NATIVE) has no twin
_OrderResultTwin: Final[Any] = None if NATIVE else twin(OrderResult)


def order_result(  # noqa: PLR0917 - the dataclass's own signature
    power: Power | None,
    order: Order,
    verdict: Verdict,
    reason: Reason = Reason.NONE,
    note: str = "",
    implied: bool = False,
    message: Message | None = None,
) -> OrderResult:
    """`OrderResult(...)` for the adjudicator's hot path, ~20 times per phase: the same object
    (same fields, equality and hash) for about a quarter of the dataclass's cost (issue 18);
    compiled, its own __init__ (as cheap)."""
    if NATIVE:
        return OrderResult(power, order, verdict, reason, note, implied, message)
    r = _new(_OrderResultTwin)
    r.power = power
    r.order = order
    r.verdict = verdict
    r.reason = reason
    r.note = note
    r.implied = implied
    r.message = message
    r.__class__ = OrderResult
    return r  # type: ignore[no-any-return]


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        phase: Phase,
        results: tuple[OrderResult, ...],
        dislodged: tuple[DislodgedUnit, ...],
        removed: tuple[Unit, ...],
        position: Position,
    ) -> None:
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "results", results)
        object.__setattr__(self, "dislodged", dislodged)
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "position", position)


_OutcomeTwin: Final[Any] = None if NATIVE else twin(Outcome)


def outcome(
    phase: Phase,
    results: tuple[OrderResult, ...],
    dislodged: tuple[DislodgedUnit, ...],
    removed: tuple[Unit, ...],
    position: Position,
) -> Outcome:
    """`Outcome(...)` for the adjudicator's hot path (once per phase; see `order_result`)."""
    if NATIVE:
        return Outcome(phase, results, dislodged, removed, position)
    o = _new(_OutcomeTwin)
    o.phase = phase
    o.results = results
    o.dislodged = dislodged
    o.removed = removed
    o.position = position
    o.__class__ = Outcome
    return o  # type: ignore[no-any-return]
