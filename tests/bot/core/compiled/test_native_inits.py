"""The model's hot classes write their own __init__ (dataclass init=False, for mypyc: the native
spike, issue 18). Each must take every field, by its name, with the field's default, and store
it: compared here with the fields dataclasses knows of (compiled or not)."""

import dataclasses
from typing import Any

import pytest

from bot.core import model, orders, outcome
from bot.core.messages import Message

CLASSES = [
    model.Location, model.Unit, model.Phase, model.DislodgedUnit, model.Position,
    orders.UnitRef, orders.Hold, orders.Move, orders.SupportHold, orders.SupportMove,
    orders.Convoy, orders.Retreat, orders.Disband, orders.Build, orders.Waive,
    outcome.OrderResult, outcome.Outcome,
]  # fmt: skip


_FR = model.Power("FRANCE")
_LOC = model.Location("STP", model.Coast.SOUTH)
_REF = orders.UnitRef(model.UnitType.FLEET, _LOC, _FR)
_PHASE = model.Phase(1901, model.Season.FALL, model.PhaseKind.RETREAT)
_UNIT = model.Unit(_FR, model.UnitType.FLEET, _LOC)
_MSG = Message("void", ())
# A value of each field's type that differs from the field's default (compiled classes check
# the types).
_VALUES: dict[str, Any] = {
    "province": "STP", "coast": model.Coast.NORTH, "power": _FR, "type": model.UnitType.FLEET,
    "location": _LOC, "year": 1902, "season": model.Season.FALL,
    "kind": model.PhaseKind.RETREAT, "unit": _REF, "attacker_from": "BOT",
    "retreats": frozenset({"LVN"}), "phase": _PHASE, "units": {"STP": _UNIT},
    "centers": {"STP": _FR}, "dislodged": (), "source": "F STP/SC H",
    "irrelevant_coasts": ("NC",), "dest": model.Location("BOT"), "via_convoy": True,
    "target": _REF, "order": orders.Hold(_FR, _REF), "verdict": outcome.Verdict.FAILS,
    "reason": outcome.Reason.CUT, "note": "n", "implied": True, "message": _MSG,
    "results": (), "removed": (_UNIT,), "position": model.Position(_PHASE),
}  # fmt: skip


def _value(cls: type, name: str) -> Any:
    if cls is model.DislodgedUnit and name == "unit":
        return _UNIT
    return _VALUES[name]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_takes_and_stores_every_field(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = {f.name: _value(cls, f.name) for f in fields}
    obj = cls(**values)
    for f in fields:
        got = getattr(obj, f.name)
        assert got == values[f.name] or dict(got) == values[f.name], f.name
    required = {
        f.name: values[f.name]
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    bare = cls(**required)
    for f in fields:
        if f.name in required:
            continue
        want = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[operator]
        assert getattr(bare, f.name) == want, f.name
    assert dataclasses.replace(obj) == obj
