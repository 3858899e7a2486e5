"""Power ids (split from bot.core.model for the native spike, issue 18: mypyc cannot compile a
str subclass as a native class, nor a non-native class whose body names the class itself, so
this module stays interpreted while bot.core.model may be compiled)."""

from __future__ import annotations

import re
from typing import ClassVar


class ModelError(ValueError):
    """A value that does not describe a legal model object (bad phase text, bad unit text)."""


_POWER_ID_RE = re.compile(r"[A-Z][A-Z0-9_]{0,31}")


class Power(str):
    """A power's id, as its variant names it (`FRANCE`, `NORTH`): an open string id.

    Instances are interned (one object per id), so `is` compares powers as `==` does. The
    names a player may type, in every language, come from the variant (`GameMap.parse_power`).
    The classical seven are constants for convenience (`Power.FRANCE`); production code walks
    `GameMap.powers` instead of any fixed list.
    """

    __slots__ = ()
    _interned: ClassVar[dict[str, Power]] = {}
    AUSTRIA: ClassVar[Power]
    ENGLAND: ClassVar[Power]
    FRANCE: ClassVar[Power]
    GERMANY: ClassVar[Power]
    ITALY: ClassVar[Power]
    RUSSIA: ClassVar[Power]
    TURKEY: ClassVar[Power]

    def __new__(cls, value: str) -> Power:
        known = cls._interned.get(value)
        if known is not None:
            return known
        if not isinstance(value, str) or not _POWER_ID_RE.fullmatch(value):
            raise ModelError(f"not a power id: {value!r} (upper-case letters, digits, _)")
        made = super().__new__(cls, value)
        cls._interned[str(value)] = made
        return made

    @classmethod
    def of(cls, text: str) -> Power:
        """A power id written in any case ("france", " Russia ")."""
        return cls(text.strip().upper())

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def name(self) -> str:
        return str.__str__(self)

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Power({str.__str__(self)!r})"

    def __reduce__(self) -> tuple[type[Power], tuple[str]]:
        return (Power, (str.__str__(self),))

    def __copy__(self) -> Power:
        return self

    def __deepcopy__(self, memo: object) -> Power:
        return self


Power.AUSTRIA = Power("AUSTRIA")
Power.ENGLAND = Power("ENGLAND")
Power.FRANCE = Power("FRANCE")
Power.GERMANY = Power("GERMANY")
Power.ITALY = Power("ITALY")
Power.RUSSIA = Power("RUSSIA")
Power.TURKEY = Power("TURKEY")
