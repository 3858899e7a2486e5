"""A game's settings as a GM gives them from Discord, and as the table reads them back.

`parse_times("negotiation: 10m writing: 2m reading: 3m retreats: 2m")` turns the clock text of
`/game create` into clock overrides (bot.service.clock.presets.ClockPreset.with_overrides): the
three windows of the movement phases, and the writing time of retreat and adjustment phases.
`game_settings` is what a new table is told (variant, rules, clock, years, scoring, language).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.presets import load_rules
from bot.core.scoring import SYSTEMS
from bot.service.clock.clocks import parse_duration
from bot.service.errors import ConfigError
from bot.service.games.palettes import public_palette
from bot.service.hidden.views import hidden_mode
from bot.service.table import Table

MOVEMENT = ("spring_movement", "fall_movement")
RETREATS = ("spring_retreat", "fall_retreat")
# The keys of the clock text, and the (slot, window) pairs each one sets.
KEYS: dict[str, tuple[tuple[str, str], ...]] = {
    "negotiation": tuple((s, "negotiation") for s in MOVEMENT),
    "writing": tuple((s, "writing") for s in MOVEMENT),
    "reading": tuple((s, "reading") for s in MOVEMENT),
    "retreats": tuple((s, "writing") for s in RETREATS),
    "adjustments": (("winter_adjustment", "writing"),),
}
_KEY = re.compile(r"([^\s:=,;]+)\s*[:=]")


def parse_times(text: str) -> dict[str, Any]:
    """Clock overrides from `key: duration` pairs (keys in KEYS; English, or their French
    forms `négociation`, `écriture`, `lecture`, `retraites`, `ajustements`)."""
    overrides: dict[str, dict[str, float]] = {}
    found = list(_KEY.finditer(text))
    if text.strip() and (not found or text[: found[0].start()].strip(" ,;")):
        raise ConfigError.of("clock_text", text=text.strip())
    for i, m in enumerate(found):
        key = _key(m.group(1))
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        seconds = parse_duration(text[m.end() : end].strip(" ,;"))
        for slot, window in KEYS[key]:
            overrides.setdefault(slot, {})[window] = seconds
    return overrides


_FRENCH = {
    "negociation": "negotiation",
    "ecriture": "writing",
    "lecture": "reading",
    "retraites": "retreats",
    "ajustements": "adjustments",
}


def _key(word: str) -> str:
    plain = word.casefold().replace("é", "e").replace("è", "e")
    key = _FRENCH.get(plain, plain)
    if key in KEYS:
        return key
    close = difflib.get_close_matches(key, [*KEYS, *_FRENCH], n=1, cutoff=0.6)
    if close:
        raise ConfigError.of("clock_key_hint", window=word, hint=_FRENCH.get(close[0], close[0]))
    raise ConfigError.of("clock_key", window=word, known=", ".join(KEYS))


def check_scoring(name: str) -> str:
    """A scoring system's name, or ConfigError naming the known ones."""
    if name not in SYSTEMS:
        close = difflib.get_close_matches(name, list(SYSTEMS), n=1, cutoff=0.6)
        known = ", ".join(sorted(SYSTEMS))
        if close:
            raise ConfigError.of("unknown_scoring_hint", value=name, hint=close[0])
        raise ConfigError.of("unknown_scoring", value=name, known=known)
    return name


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What a table is told when its game is created (times in seconds)."""

    name: str
    variant: str
    rules: str
    clock: str
    negotiation: float
    writing: float
    reading: float
    retreats: float
    adjustments: float
    years: int | None
    scoring: str
    lang: str
    early: bool
    palette: str = "default"  # of the public maps (bot.service.games.palettes)
    stab_retreats: str = ""  # Stab! (a hidden-movement preset): "phase" or "conditional"
    # edc-2023 B "Winter (retirement & adjustments): writing 1'": one window for both
    winter_combined: bool = False
    schedule: str = ""  # the fixed-time schedule, described (bot.service.clock.schedule)


async def game_settings(table: Table, game_id: int) -> GameSettings:
    row = await table.game_row(game_id)
    ctx = await table.load_ctx(game_id)
    preset = ctx.clock
    move = preset.slots["spring_movement"]
    return GameSettings(
        name=row.name,
        variant=row.variant,
        rules=row.rules,
        clock=preset.name,
        negotiation=move.negotiation,
        writing=move.writing,
        reading=move.reading,
        retreats=preset.slots["spring_retreat"].writing,
        adjustments=preset.slots["winter_adjustment"].writing,
        years=preset.years,
        scoring=scoring_system(row.rules, json.loads(row.meta_json)),
        lang=ctx.lang,
        early=ctx.early,
        palette=await public_palette(table.storage, row),  # the game's, else the server's
        stab_retreats=await hidden_mode(table, game_id, ctx),
        winter_combined=preset.retreats_with_adjustments,
        schedule=preset.schedule.describe(ctx.lang) if preset.schedule else "",
    )


def scoring_system(rules: str, meta: Mapping[str, Any] | None = None) -> str:
    """The system the standings use: the game's `scoring` meta if set, else the `[scoring]`
    table of its rule preset `rules`."""
    chosen = (meta or {}).get("scoring")
    if chosen:
        return str(chosen)
    return load_rules(rules).scoring.system
