"""Stab!, the hidden-movement variant (issue 14; seeds/stab-hidden-movement-variant.txt), on
the table service: what each viewer of a game under a `hidden_movement` preset may know.

Pure, like the core it calls (`bot.core.stab`): reading a player's set against what that
player knows (their own units only: a warning or a refusal must never tell them of another
power's unit), the Spring 1901 placement (rule 1, kept as `Build` orders of the movement
phase), conditional retreats (rule 4, kept as `Retreat` orders of the movement phase),
adjudication with the reports, the report texts and the maps of one viewer. The async views
over the stored game are in `views.py`; a player's set is read against what they know by
`bot.service.orders.stab_sets`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.core.language.notation import notation_lines
from bot.core.map import GameMap
from bot.core.model import PhaseKind, Position, Power, Unit
from bot.core.orders import Build, Order, Retreat
from bot.core.outcome import Outcome
from bot.core.rules import RuleSet
from bot.core.stab.report import (
    PhaseReport,
    PrivateReport,
    adjustment_report,
    movement_report,
    retreat_report,
    say_place,
    say_unit,
)
from bot.core.stab.retreats import conditional_retreats
from bot.core.stab.views import GM, PUBLIC, Sight, sight
from bot.core.writing.advice import to_order_powers
from bot.service.engine import Engine
from bot.service.texts import t

# Rule 4: "At the beginning of the game the GM will determine whether or not the players will
# submit conditional retreats with their orders"; the GM note's default: "[Separate retreats
# phases will be allowed, unless conditional retreats have been submitted]".
PHASE = "phase"
CONDITIONAL = "conditional"
RETREAT_MODES = (PHASE, CONDITIONAL)
OPTION = "stab_retreats"  # the key in a game's options (fixed at creation)


LINES = re.compile(r"[\n;]")
# Rule 2: "the player may elect only to reveal those supports necessary ... [include the
# order in which you want them to be revealed]": `REVEAL MUN RUH` (the supporting units'
# provinces, first revealed first), a line of the set.
REVEAL = re.compile(r"^\s*(?:REVEAL|R[EÉ]V[EÉ]LER)\b[\s:]*(.*)$", re.IGNORECASE)


def retreat_mode(options: dict[str, Any]) -> str:
    """The game's retreat mode (rule 4), `phase` unless chosen otherwise at creation."""
    mode = str(options.get(OPTION) or PHASE)
    return mode if mode in RETREAT_MODES else PHASE


def placing(position: Position) -> bool:
    """Spring 1901 of a Stab! game: no unit is on the board yet (rule 1, free placement)."""
    return position.phase.kind is PhaseKind.MOVEMENT and not position.units


def own_view(position: Position, power: Power) -> Position:
    """The board as `power` knows it: its own units, dislodged units and centres only."""
    return Position(
        position.phase,
        {p: u for p, u in position.units.items() if u.power is power},
        {c: o for c, o in position.centers.items() if o is power},
        tuple(d for d in position.dislodged if d.unit.power is power),
    )


def public_view(position: Position, provinces: Iterable[str]) -> Position:
    """The units (and units awaiting retreat) of `provinces` only, no centre's owner (a
    viewer's map colours its own centres from its sight, rule 3)."""
    seen = frozenset(provinces)
    return Position(
        position.phase,
        {p: u for p, u in position.units.items() if p in seen},
        {},
        tuple(d for d in position.dislodged if d.unit.province in seen),
    )


def reveal_order(text: str, game_map: GameMap | None = None, lang: str = "en") -> list[str]:
    """The provinces of a set's `REVEAL` lines, in order (rule 2's stated preference), read
    in the game's nomenclature first (`RÉVÉLER RHE` is the Ruhr in French)."""
    names = game_map.names() if game_map is not None else None
    out: list[str] = []
    for line in LINES.split(text):
        m = REVEAL.match(line)
        if m is not None:
            words = [w for w in re.split(r"[\s,]+", m.group(1)) if w]
            out += [(names.lookup(w, lang) if names else None) or w.upper() for w in words]
    return out


@dataclass(frozen=True, slots=True)
class Prepared:
    """One phase's stored orders taken apart: the board with the Spring 1901 placement on it,
    the orders to adjudicate, the conditional retreats written with them."""

    position: Position
    orders: list[Order] = field(default_factory=list)
    retreats: list[Retreat] = field(default_factory=list)


def prepare(position: Position, orders: Sequence[Order]) -> Prepared:
    movement = position.phase.kind is PhaseKind.MOVEMENT
    placed = [o for o in orders if movement and isinstance(o, Build)] if placing(position) else []
    retreats = [o for o in orders if movement and isinstance(o, Retreat)]
    rest = [o for o in orders if o not in placed and o not in retreats]
    if placed:
        units = [
            Unit(o.power, o.unit.type, o.unit.location)
            for o in placed
            if o.unit.type is not None and o.power is not None
        ]
        position = Position.build(position.phase, units, position.centers)
    return Prepared(position, rest, retreats)


def nmr_powers(position: Position, orders: Sequence[Order], game_map: GameMap) -> list[Power]:
    """Rule 6: a power that had something to order and sent nothing."""
    given = {o.power for o in orders}
    return [p for p in to_order_powers(position, game_map) if p not in given]


@dataclass(frozen=True, slots=True)
class Played:
    """A hidden phase as adjudicated: the board ordered in (placement made), the orders, the
    outcome, the conditional retreats settled with it (rule 4), and the reports."""

    position: Position
    orders: list[Order]  # as adjudicated (without the placement and conditional retreats)
    outcome: Outcome
    settled: Outcome | None
    report: PhaseReport


def report_of(  # noqa: PLR0917 - the facts of one phase
    prepared: Prepared,
    outcome: Outcome,
    settled: Outcome | None,
    nmr: Sequence[Power],
    game_map: GameMap,
    lang: str,
    preferences: Mapping[Power, Sequence[str]] | None = None,
) -> PhaseReport:
    position = prepared.position
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return movement_report(
            position,
            outcome,
            game_map,
            nmr=nmr,
            preferences=preferences,
            retreats=settled,
            lang=lang,
        )
    if kind is PhaseKind.RETREAT:
        return retreat_report(position, outcome, game_map, nmr=nmr, lang=lang)
    return adjustment_report(position, game_map)


def adjudicate(  # noqa: PLR0917 - pure inputs, run in a thread or a process
    engine: Engine,
    game_map: GameMap,
    rules: RuleSet,
    position: Position,
    orders: Sequence[Order],
    mode: str,
    lang: str,
    preferences: Mapping[Power, Sequence[str]] | None = None,
) -> Played:
    prepared = prepare(position, orders)
    outcome = engine.adjudicate(prepared.position, prepared.orders, rules, game_map)
    settled = None
    retreating = outcome.position.phase.kind is PhaseKind.RETREAT
    if mode == CONDITIONAL and retreating and position.phase.kind is PhaseKind.MOVEMENT:
        settled = conditional_retreats(outcome, prepared.retreats, rules, game_map)
    nmr = nmr_powers(position, orders, game_map)
    report = report_of(prepared, outcome, settled, nmr, game_map, lang, preferences)
    return Played(prepared.position, prepared.orders, outcome, settled, report)


def draw(  # noqa: PLR0917 - pure inputs, run in a thread
    engine: Engine,
    game_map: GameMap,
    played: Played,
    viewer: Power | str | None,
    lang: str,
    palette: str = "default",
) -> bytes | None:
    """The map of one viewer (a power, None for the public, GM for everything), as the core
    decides it (`bot.core.stab.views.sight`: rules 2-5). The renderer draws the sight; the
    board it is given is cut to the sight's units too: what it is not given it cannot draw."""
    position, seen = seen_board(game_map, played, viewer)
    outcome = replace(played.outcome, results=seen.results)
    return engine.render(
        game_map, position, list(seen.orders), outcome, lang, palette=palette, sight=seen
    )


def seen_board(
    game_map: GameMap, played: Played, viewer: Power | str | None
) -> tuple[Position, Sight]:
    """What `viewer` may see of a played phase (rules 2-5) and the board cut to it."""
    seen = sight(
        game_map,
        played.position,
        played.orders,
        played.outcome.results,
        played.report,
        PUBLIC if viewer is None else viewer,
    )
    position = played.position if seen.everything else public_view(played.position, seen.units)
    return position, seen


def compute(  # noqa: PLR0917 - pure inputs, run in a thread or a process
    engine: Engine,
    game_map: GameMap,
    rules: RuleSet,
    position: Position,
    orders: Sequence[Order],
    mode: str,
    lang: str,
    render: bool,
    palette: str,
    preferences: Mapping[Power, Sequence[str]] | None = None,
) -> tuple[Played, bytes | None, str, float]:
    """A hidden phase adjudicated, with its PUBLIC map (the one the results row keeps):
    (played, png, map error, seconds spent drawing)."""
    played = adjudicate(engine, game_map, rules, position, orders, mode, lang, preferences)
    t0 = time.perf_counter()
    png, error = None, ""
    if render:
        try:
            png = draw(engine, game_map, played, None, lang, palette)
        except Exception as exc:  # noqa: BLE001 - a map never holds back the results
            error = f"{type(exc).__name__}: {exc}"
    return played, png, error, time.perf_counter() - t0


# --- texts ---------------------------------------------------------------------------------


def public_lines(report: PhaseReport, game_map: GameMap, lang: str) -> list[str]:
    """Rule 2 (movement, retreats) or rule 3 (Winter: the centre totals only)."""
    if report.phase.kind is PhaseKind.ADJUSTMENT:
        totals = sorted(report.centre_totals.items(), key=lambda kv: (-kv[1], kv[0].value))
        listed = ", ".join(f"{game_map.power_name(p, lang)} {n}" for p, n in totals)
        return [t("stab_totals", lang, totals=listed)]
    out: list[str] = []
    for p in game_map.powers:
        if report.public.get(p):
            out.append(f"__{game_map.power_name(p, lang)}__")
            out.extend(report.public[p])
    return out or [t("stab_quiet", lang)]


def private_lines(report: PhaseReport, power: Power, game_map: GameMap, lang: str) -> list[str]:
    """Rule 5: the player's units, the centres it lost (to whom, with what), where the units
    its attacks dislodged went; in the Winter the centres it owns. Places in the game's
    nomenclature (listed in its alphabetical order) and powers by their names, as the public
    report."""

    def unit(kept: str) -> str:
        return say_unit(kept, game_map, lang)

    def place(kept: str) -> str:
        return say_place(kept, game_map, lang)

    def name(p: Power) -> str:
        return game_map.power_name(p, lang)

    mine: PrivateReport | None = report.private.get(power)
    out = [t("stab_private_head", lang, power=name(power))]
    if mine is None:
        return out
    if report.phase.kind is PhaseKind.ADJUSTMENT:
        centres = ", ".join(sorted(place(c) for c in mine.centres)) or "—"
        return [*out, t("stab_centres", lang, centres=centres)]
    out.append(t("stab_units", lang, units=", ".join(sorted(map(unit, mine.units))) or "—"))
    if mine.dislodged:
        out.append(t("stab_dislodged", lang, units=", ".join(sorted(map(unit, mine.dislodged)))))
    for lost in mine.centres_lost:
        out.append(
            t("stab_lost", lang, centre=place(lost.centre), by=name(lost.by), unit=unit(lost.unit))
        )
    for c in mine.retreats_caused:
        key = "stab_caused_disbanded" if c.to is None else "stab_caused"
        to = place(c.to) if c.to else ""
        out.append(t(key, lang, unit=unit(c.unit), power=name(c.power), to=to))
    return out


def view_lines(
    played: Played, viewer: Power | str | None, game_map: GameMap, lang: str
) -> list[str]:
    """Everything one viewer is told of a phase: the public report, and the private report
    of a player; the GM everything (every result, every private report)."""
    report = played.report
    out = [t("stab_public_head", lang), *public_lines(report, game_map, lang)]
    if isinstance(viewer, Power):
        out.extend(private_lines(report, viewer, game_map, lang))
    elif viewer == GM:
        out.append(t("stab_gm_head", lang))
        out.extend(notation_lines(played.outcome, lang, game_map))
        if played.settled is not None:
            out.extend(notation_lines(played.settled, lang, game_map))
        for p in game_map.powers:
            out.extend(private_lines(report, p, game_map, lang))
    return out


def known(
    position: Position, power: Power, orders: Sequence[Order]
) -> tuple[Position, list[Order]]:
    """The board as `power` knows it (its placement made) and its orders without the
    placement and conditional retreat lines: what its warnings and order map are about."""
    prepared = prepare(position, orders)
    return own_view(prepared.position, power), prepared.orders


def sealed(outcome: Outcome) -> Outcome:
    """An outcome with nothing of the board in it: what a public query of a Stab! phase gets
    while the game runs (its map is the public one)."""
    return replace(
        outcome, results=(), dislodged=(), removed=(), position=Position(outcome.position.phase)
    )
