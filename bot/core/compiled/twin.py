"""Fast constructors for the frozen slotted dataclasses built on the batch path (issue 18).

A frozen dataclass's __init__ sets each field through `object.__setattr__` (~700 instructions
a field), and a slot's own setter called by hand costs a call a field. An instance of the
class's twin is filled by plain stores instead, then given the class as its __class__: the
object `cls(...)` makes, for about a third of the cost (tests/bot/core/compiled/test_twin.py)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any


def twin(cls: type) -> Any:
    """A class with the slots `cls` adds to its base, on that same base, whose instances take
    plain stores. CPython lays slots out by sorted name and allows a __class__ assignment
    between classes that add the same slots to the same base (a twin on `object` holds all of
    a base-less class's fields). Object's own __setattr__ and __delattr__, both: a frozen
    base's, or either one alone, would leave every store a Python call."""
    base: type = cls.__mro__[1]
    inherited = {f.name for f in fields(base)} if is_dataclass(base) else set()
    names = tuple(f.name for f in fields(cls) if f.name not in inherited)
    if sorted(cls.__dict__.get("__slots__", ("?",))) != sorted(names):
        raise TypeError(f"{cls.__name__}: its slots are not its fields")
    namespace = {
        "__slots__": names,
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    }
    return type(f"_{cls.__name__}Twin", (base,), namespace)
