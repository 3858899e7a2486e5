"""The batch path's makers have two implementations, chosen once by `bot.core.model.NATIVE`:
through twins (interpreted) and by the constructors (compiled: a native class takes no twin).
Interpreted, both run here and must make the same objects (type, fields, hash, repr); the
compiled build runs the constructors' only (its flag is a C constant: not patched here)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core import model, outcome
from bot.core.language import fastparse
from bot.core.language.bulk import BulkReader
from bot.core.messages import msg
from bot.core.model import NATIVE, Location, Phase, PhaseKind, Position, Power, Season, Unit
from bot.core.orders import Hold, UnitRef, UnitType
from tests.bot.core.language.test_fastparse import PLAN_TEXTS
from tests.standard import STANDARD

pytestmark = pytest.mark.skipif(NATIVE, reason="compiled: the constructors' makers only")

_FR = Power("FRANCE")
_PAR = Location("PAR")
_UNIT = Unit(_FR, UnitType.ARMY, _PAR)
_HOLD = Hold(_FR, UnitRef(UnitType.ARMY, _PAR, _FR))
_PHASE = Phase(1901, Season.FALL, PhaseKind.RETREAT)


def _hash(obj: Any) -> int | None:
    try:
        return hash(obj)
    except TypeError:  # a Position: its mappings are not hashable
        return None


def _same(a: Any, b: Any) -> None:
    assert type(a) is type(b)
    assert (a, _hash(a), repr(a)) == (b, _hash(b), repr(b))
    slots = [s for c in type(a).__mro__ for s in c.__dict__.get("__slots__", ())]
    assert [getattr(a, s) for s in slots] == [getattr(b, s) for s in slots]


def _both(monkeypatch: pytest.MonkeyPatch, make: Any) -> tuple[Any, Any]:
    """`make()` through the twins, then by the constructors (NATIVE patched: interpreted, the
    makers read it when called)."""
    twin_made = make()
    with monkeypatch.context() as m:
        for module in (model, outcome, fastparse):
            m.setattr(module, "NATIVE", True)
        return twin_made, make()


def test_model_and_outcome_makers_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    why = msg("result.not_used")
    for make in [
        lambda: outcome.order_result(_FR, _HOLD, outcome.Verdict.FAILS, outcome.Reason.CUT),
        lambda: outcome.order_result(None, _HOLD, outcome.Verdict.SUCCEEDS, message=why),
        lambda: model.dislodged_unit(_UNIT, "BUR", frozenset({"PIC", "GAS"})),
        lambda: Position.adopt(_PHASE, {"PAR": _UNIT}, {"PAR": _FR}),
        lambda: Position.adopt(_PHASE, {}, {}, (model.DislodgedUnit(_UNIT, "BUR", frozenset()),)),
        lambda: outcome.outcome(_PHASE, (), (), (_UNIT,), Position(_PHASE)),
        lambda: fastparse._unit_ref(UnitType.FLEET, _PAR, None),
    ]:
        _same(*_both(monkeypatch, make))


def test_plans_makers_agree() -> None:
    reader = BulkReader(STANDARD)
    makers = set()
    for kind, text in PLAN_TEXTS:
        plan = reader._plan(text, kind)
        assert plan is not None, text
        name = plan.make.__name__
        native = getattr(fastparse, f"_new{name}")
        makers.add(name)
        for power, owner in [(_FR, _FR), (None, Power("ITALY"))]:
            twin_made = plan.make(plan, power, owner)
            made = native(plan, power, owner)
            _same(twin_made, made)
            assert twin_made.unit is made.unit  # type: ignore[attr-defined]  # the plan's
    assert len(makers) == 8
