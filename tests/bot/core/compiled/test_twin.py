"""`twin`: a class whose instances, filled by plain stores and given the dataclass as their
__class__, are the objects the dataclass's own construction makes."""

from dataclasses import dataclass, fields
from typing import Any

import pytest

from bot.core.compiled.twin import twin
from bot.core.model import NATIVE, Location, Power, UnitType
from bot.core.orders import Hold, Move, SupportMove, UnitOrder, UnitRef


@dataclass(frozen=True, slots=True)
class _Base:
    a: int
    b: str = "b"


@dataclass(frozen=True, slots=True)
class _Child(_Base):
    c: int = 0
    d: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _Bare(_Base):  # no slots of its own
    pass


# the model's classes have twins when interpreted only (compiled, they are native classes)
_MODEL = pytest.mark.skipif(NATIVE, reason="compiled: native classes take no twin")


def _made(cls: type, **values: Any) -> Any:
    """`cls(**values)` through its twin."""
    obj = object.__new__(twin(cls))
    for name, value in values.items():
        setattr(obj, name, value)
    obj.__class__ = cls
    return obj


@pytest.mark.parametrize(
    ("cls", "values"),
    [
        (_Base, {"a": 1, "b": "x"}),
        (_Child, {"a": 1, "b": "x", "c": 3, "d": (4,)}),
        (_Bare, {"a": 1, "b": "x"}),
        pytest.param(
            UnitRef,
            {"type": UnitType.FLEET, "location": Location("STP", None), "power": None},
            marks=_MODEL,
        ),
    ],
)
def test_each_field_lands_in_its_slot(cls: type, values: dict[str, Any]) -> None:
    fast = _made(cls, **values)
    slow = cls(**values)
    assert type(fast) is cls
    assert {f.name: getattr(fast, f.name) for f in fields(cls)} == values
    assert (fast, hash(fast), repr(fast)) == (slow, hash(slow), repr(slow))
    with pytest.raises(AttributeError):  # still frozen
        setattr(fast, next(iter(values)), 2)


@_MODEL
def test_an_order_through_its_twin_is_the_orders_construction() -> None:
    ref = UnitRef(UnitType.ARMY, Location("PAR"), Power("FRANCE"))
    target = UnitRef(UnitType.ARMY, Location("MAR"))
    values = {"power": Power("FRANCE"), "unit": ref, "dest": Location("BUR")}
    move = _made(Move, **values, via_convoy=True, source="A PAR - BUR VIA", irrelevant_coasts=())
    slow = Move(**values, via_convoy=True, source="A PAR - BUR VIA")
    assert (move, hash(move), repr(move)) == (slow, hash(slow), repr(slow))
    assert move.source == "A PAR - BUR VIA"
    support = _made(SupportMove, **values, target=target, source="", irrelevant_coasts=("x",))
    assert support == SupportMove(**values, target=target, irrelevant_coasts=("x",))
    assert support.irrelevant_coasts == ("x",)
    hold = _made(Hold, power=None, unit=ref, source="", irrelevant_coasts=())
    assert (hold, repr(hold)) == (Hold(None, ref), repr(Hold(None, ref)))


@_MODEL
def test_a_twin_is_on_the_classs_base_with_its_own_slots_only() -> None:
    assert twin(Move).__mro__[1] is UnitOrder
    assert sorted(twin(Move).__slots__) == ["dest", "via_convoy"]
    assert twin(Hold).__slots__ == ()
    assert twin(UnitRef).__mro__[1] is object


def test_a_class_whose_slots_are_not_its_fields_has_no_twin() -> None:
    @dataclass(frozen=True)
    class Unslotted:
        x: int

    @dataclass(frozen=True)
    class UnslottedChild(_Base):  # a __dict__, no slots of its own
        y: int = 0

    class Extra(_Base):  # a slot that is no field
        __slots__ = ("z",)

    for cls in (Unslotted, UnslottedChild, Extra):
        with pytest.raises(TypeError, match="not its fields"):
            twin(cls)


def test_a_twin_with_other_slots_is_refused_its_class() -> None:
    """Why `twin` checks: CPython refuses the __class__ of a class laid out otherwise."""
    other = type("Other", (_Base,), {"__slots__": ("x",)})
    obj = object.__new__(other)
    with pytest.raises(TypeError, match="layout differs"):
        object.__setattr__(obj, "__class__", _Child)
