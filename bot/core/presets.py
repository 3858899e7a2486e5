"""Named rule presets: `data/rules/NAME.toml` -> `RuleSet`.

Each preset file lists a value for every `RuleSet` field (see `bot.core.rules`), each with a
comment citing the seed line or OPTIONS.md row it comes from. A missing, unknown or mistyped
key is a `RulesError` naming the file and the key, so presets cannot silently drift when a field
is added to `RuleSet`.
"""

from __future__ import annotations

import tomllib
import types
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

from bot.core.rules import TABLES, RuleSet
from bot.paths import data_dir

DEFAULT_PRESET = "datc"
# `solo_centers = "majority"`: TOML has no null; it stands for None (more than half the centres).
MAJORITY = "majority"


class RulesError(ValueError):
    """A preset that does not exist or whose file is malformed; the message names file and key."""


def rules_dir() -> Path:
    return data_dir() / "rules"


def list_presets() -> list[str]:
    """The names of the presets in `data/rules/`, sorted."""
    return sorted(p.stem for p in rules_dir().glob("*.toml"))


@cache
def _field_types(kind: type = RuleSet) -> dict[str, Any]:
    """The flat fields of a RuleSet (its tables excluded), or of one table's dataclass."""
    hints = get_type_hints(kind)
    return {n: h for n, h in hints.items() if n != "name" and n not in TABLES}


def _from_table(raw: dict[str, Any], kind: type, where: str) -> dict[str, Any]:
    types_ = _field_types(kind)
    unknown = sorted(set(raw) - set(types_))
    if unknown:
        raise RulesError(f"{where}: unknown key {unknown[0]!r}")
    missing = [k for k in types_ if k not in raw]
    if missing:
        raise RulesError(f"{where}: missing key {missing[0]!r} (every key is required)")
    return {k: _convert(raw[k], hint, f"{where}: key {k!r}") for k, hint in types_.items()}


def _convert(value: object, hint: Any, where: str) -> object:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        if value == MAJORITY and type(None) in get_args(hint):
            return None
        if len(args) == 1:
            return _convert(value, args[0], where)
    if isinstance(hint, type) and issubclass(hint, Enum):
        allowed = [str(m.value) for m in hint]
        if not isinstance(value, str) or value not in allowed:
            raise RulesError(f"{where}: {value!r} is not one of {', '.join(allowed)}")
        return hint(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{where}: expected true or false, not {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise RulesError(f"{where}: expected a string, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            extra = f' or "{MAJORITY}"' if origin is not None else ""
            raise RulesError(f"{where}: expected an integer{extra}, not {value!r}")
        return value
    raise RulesError(f"{where}: unsupported field type {hint!r}")  # pragma: no cover


def rules_from_mapping(raw: dict[str, Any], name: str, where: str) -> RuleSet:
    """Build a RuleSet from a preset document; every field must be present exactly once, and
    every table (`[votes]`, `[end]`, `[scoring]`) with all its keys."""
    types_ = _field_types()
    unknown = sorted(set(raw) - set(types_) - set(TABLES))
    if unknown:
        raise RulesError(f"{where}: unknown key {unknown[0]!r} (not a RuleSet field)")
    missing = [k for k in [*types_, *TABLES] if k not in raw]
    if missing:
        raise RulesError(f"{where}: missing key {missing[0]!r} (every RuleSet field is required)")
    values: dict[str, Any] = {
        k: _convert(raw[k], hint, f"{where}: key {k!r}") for k, hint in types_.items()
    }
    for table, kind in TABLES.items():
        sub = raw[table]
        if not isinstance(sub, dict):
            raise RulesError(f"{where}: {table!r} must be a table ([{table}])")
        values[table] = kind(**_from_table(sub, kind, f"{where}: [{table}]"))
    rules = RuleSet(name=name, **values)
    # Imported here: the scoring package is heavier than the rule set and depends on maps.
    from bot.core.scoring import SYSTEMS  # noqa: PLC0415

    if rules.scoring.system not in SYSTEMS:
        known = ", ".join(sorted(SYSTEMS))
        raise RulesError(
            f"{where}: [scoring] system {rules.scoring.system!r} is not one of {known}"
        )
    return rules


def load_rules_file(path: Path) -> RuleSet:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(
            f"unknown rule preset {path.stem!r} ({path} not found); "
            f"presets: {', '.join(list_presets()) or 'none'}"
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulesError(f"{path}: not a valid TOML file ({exc})") from None
    return rules_from_mapping(raw, path.stem, str(path))


@lru_cache(maxsize=16)
def load_rules(name: str = DEFAULT_PRESET) -> RuleSet:
    """The preset `data/rules/NAME.toml` as a RuleSet (cached: rule sets are immutable)."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise RulesError(f"not a preset name: {name!r}")
    return load_rules_file(rules_dir() / f"{name}.toml")
