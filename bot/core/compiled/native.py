"""`mypyc_attr` for the classes mypyc compiles (the native spike, issue 18): mypy_extensions's
when type checking (mypyc reads it from the source), a no-op at run time, so that an
interpreted run does not need mypy_extensions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr  # noqa: PLC0414 - re-exported
else:

    def mypyc_attr(*_: Any, **__: Any) -> Any:
        return lambda cls: cls
