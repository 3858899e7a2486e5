"""`parley demo --variant stab`: a seeded Stab! game played offline through the same engine as
`parley adjudicate --rules stab`, writing what each viewer may see, phase by phase.

Each power places its units freely in its home spaces (rule 1), then plays seeded random but
plausible orders (demo_orders.py's); retreats are a separate phase (rule 4, the GM note's default);
now and then a power sends nothing (rule 6, NMR). Each phase gets a folder `NN_PHASE/` with
`gm.png`/`gm.txt` (every order and result), `public.png`/`public.txt` (the public report) and,
per power, `POWER.png`/`POWER.txt` (its private report, then the public one).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.cli.demo_orders import can_reach, random_orders, reach
from bot.cli.stab import StabEngine, StabPhase
from bot.core import catalogue
from bot.core.language.notation import notation_lines
from bot.core.language.parser import render_order
from bot.core.map import GameMap
from bot.core.model import Location, Phase, PhaseKind, Position, Power, ProvinceKind
from bot.core.orders import Move, Order, SupportMove, UnitOrder, UnitRef
from bot.core.records.jsonio import position_from_json, position_to_json
from bot.core.stab.placement import home_spaces
from bot.core.stab.report import PhaseReport, PrivateReport, say_place, say_unit
from bot.core.stab.views import GM, PUBLIC, Viewer, sight

ATTACK_CHANCE = 0.7  # of a power attacking a neighbour with all its support, each movement
NMR_CHANCE = 0.08  # of a power sending nothing in a movement phase (rule 6 shows in reports)


def _say(key: str, lang: str, **params: object) -> str:
    return catalogue.text("cli", f"demo.{key}", lang, **params)


def placement(game_map: GameMap, power: Power, rng: random.Random) -> list[str]:
    """Rule 1: one unit per home centre, each in any home space, armies or fleets."""
    n = len(game_map.home_centers(power))
    lines = []
    for pid in rng.sample(sorted(home_spaces(game_map, power)), n):
        kind = game_map.provinces[pid].kind
        fleets = game_map.fleet_locations(pid)
        if kind is ProvinceKind.SEA or (
            fleets and kind is not ProvinceKind.LAND and rng.random() < 0.4
        ):
            lines.append(f"F {rng.choice(fleets)}")
        else:
            lines.append(f"A {pid}")
    return lines


def _placed(game_map: GameMap, start: Position, lines: Mapping[Power, list[str]]) -> Position:
    """The board after placement (to choose Spring 1901's orders for the units placed)."""
    units = {p.value: ls for p, ls in lines.items()}
    return position_from_json({**position_to_json(start), "units": units}, game_map)


def _attack(
    board: Position, power: Power, orders: list[Order], game_map: GameMap, rng: random.Random
) -> list[Order]:
    """Now and then one unit attacks a foreign neighbour with every own support it can get,
    so that reports have dislodgements and retreats to hide."""
    mine = sorted(board.units_of(power), key=lambda u: u.province)
    targets = [
        (u, d)
        for u in mine
        for d in reach(game_map, u.type, u.location)
        if (v := board.units.get(d.province)) is not None and v.power is not power
    ]
    if not targets or rng.random() > ATTACK_CHANCE:
        return orders
    unit, dest = rng.choice(targets)
    by_unit = {o.unit.province: o for o in orders if isinstance(o, UnitOrder)}
    by_unit[unit.province] = Move(power, UnitRef.of(unit), dest)
    for u in mine:
        if u is not unit and can_reach(game_map, u.type, u.location, dest.province):
            by_unit[u.province] = SupportMove(
                power, UnitRef.of(u), UnitRef.of(unit), Location(dest.province)
            )
    return list(by_unit.values())


def orders_doc(
    game_map: GameMap, position: Position, rng: random.Random, lines: Mapping[Power, list[str]]
) -> dict[str, list[str]]:
    board = _placed(game_map, position, lines) if lines else position
    out: dict[str, list[str]] = {}
    may_nmr = not lines and position.phase.kind is PhaseKind.MOVEMENT
    for power in game_map.powers:
        orders = random_orders(board, power, game_map, rng)
        if board.phase.kind is PhaseKind.MOVEMENT:
            orders = _attack(board, power, orders, game_map, rng)
        if may_nmr and orders and rng.random() < NMR_CHANCE:
            continue  # rule 6: "All NMRs are reported as such"
        texts = [render_order(o, "en", game_map) for o in orders]
        out[power.value] = [*lines.get(power, []), *texts]
    return out


def _public_lines(report: PhaseReport, game_map: GameMap, lang: str) -> list[str]:
    head = _say("stab_public", lang, phase=report.phase.describe(lang))
    if report.phase.kind is PhaseKind.ADJUSTMENT:
        totals = ", ".join(
            f"{game_map.power_name(p, lang)} {n}" for p, n in report.centre_totals.items()
        )
        return [head, _say("stab_totals", lang, totals=totals)]
    lines = [head]
    colon = catalogue.meta(lang).colon + ":"  # French typography, as the notation's
    for p in game_map.powers:
        for line in report.public.get(p, ()):
            lines.append(f"{game_map.power_name(p, lang)}{colon} {line}")
    if len(lines) == 1:
        lines.append(_say("stab_nothing", lang))
    return lines


def _private_lines(r: PrivateReport, phase: Phase, game_map: GameMap, lang: str) -> list[str]:
    lines = [
        _say(
            "stab_private",
            lang,
            power=game_map.power_name(r.power, lang),
            phase=phase.describe(lang),
        )
    ]
    if phase.kind is PhaseKind.ADJUSTMENT:
        centres = ", ".join(say_place(c, game_map, lang) for c in r.centres) or "-"
        return [*lines, _say("stab_centres", lang, centres=centres)]
    units = ", ".join(say_unit(u, game_map, lang) for u in r.units) or "-"
    lines.append(_say("stab_units", lang, units=units))
    if r.dislodged:
        waiting = ", ".join(say_unit(u, game_map, lang) for u in r.dislodged)
        lines.append(_say("stab_waiting", lang, units=waiting))
    for c in r.centres_lost:
        lines.append(
            _say(
                "stab_lost",
                lang,
                centre=say_place(c.centre, game_map, lang),
                power=game_map.power_name(c.by, lang),
                unit=say_unit(c.unit, game_map, lang),
            )
        )
    for went in r.retreats_caused:
        to = say_place(went.to, game_map, lang) if went.to else _say("stab_disbanded", lang)
        name = game_map.power_name(went.power, lang)
        lines.append(
            _say("stab_caused", lang, power=name, unit=say_unit(went.unit, game_map, lang), to=to)
        )
    return lines


def write_phase(
    folder: Path, phase: StabPhase, game_map: GameMap, lang: str, renderer: Any
) -> None:
    """The GM's, the public's and each power's picture and text of one phase."""
    folder.mkdir(parents=True, exist_ok=True)
    report = phase.report
    public = _public_lines(report, game_map, lang)
    texts: dict[str, list[str]] = {
        GM: [
            _say("stab_gm", lang, phase=report.phase.describe(lang)),
            "",
            *notation_lines(phase.outcome, lang, game_map),
        ],
        PUBLIC: public,
    }
    for p in game_map.powers:
        private = report.private.get(p)
        mine = _private_lines(private, report.phase, game_map, lang) if private else []
        texts[p.value] = [*mine, "", *public]
    viewers: list[Viewer] = [GM, PUBLIC, *game_map.powers]
    for viewer in viewers:
        name = viewer.value if isinstance(viewer, Power) else viewer
        seen = sight(game_map, phase.position, None, phase.outcome.results, report, viewer)
        png = renderer.render(phase.position, lang=lang, sight=seen)
        (folder / f"{name}.png").write_bytes(png)
        (folder / f"{name}.txt").write_text("\n".join(texts[name]) + "\n", encoding="utf-8")


def hidden_preset(variant: str, rules_name: str) -> str | None:
    """The hidden-movement preset this demo plays, or None: `--rules` with `hidden_movement`,
    or `--variant NAME` naming such a preset rather than a map (`--variant stab`)."""
    from bot.core.map import bundled_maps, is_map_path  # noqa: PLC0415
    from bot.core.presets import list_presets, load_rules  # noqa: PLC0415
    from bot.core.stab import hidden_movement  # noqa: PLC0415

    if hidden_movement(load_rules(rules_name)):
        return rules_name
    if is_map_path(variant) or variant in bundled_maps() or variant not in list_presets():
        return None
    return variant if hidden_movement(load_rules(variant)) else None


def play_stab(
    out: Path, years: int, seed: int, lang: str, rules_name: str
) -> tuple[int, float, list[Path]]:
    """Play `years` years from Spring 1901; (phases played, seconds, phase folders)."""
    from bot.core.map import load_map  # noqa: PLC0415
    from bot.core.presets import load_rules  # noqa: PLC0415
    from renderer import Renderer  # noqa: PLC0415  (Pillow only when drawing)

    game_map = load_map("standard")  # Stab! is played on the standard board (rule 0)
    rng = random.Random(seed)
    engine = StabEngine(load_rules(rules_name), game_map)
    renderer = Renderer(game_map, width=1000)
    start = Position(
        Phase(1901, game_map.start.phase.season, PhaseKind.MOVEMENT),
        {},
        game_map.start.centers,
    )
    position = start
    folders: list[Path] = []
    t0 = time.perf_counter()
    while position.phase.year < 1901 + years:
        first = position.phase == start.phase and not position.units
        lines = {p: placement(game_map, p, rng) for p in game_map.powers} if first else {}
        doc = {
            "position": position_to_json(position),
            "orders": orders_doc(game_map, position, rng, lines),
        }
        phase = engine.phase(doc, lang)
        folder = out / f"{len(folders) + 1:02d}_{phase.position.phase}"
        write_phase(folder, phase, game_map, lang, renderer)
        folders.append(folder)
        position = position_from_json(phase.output["position"], game_map)
    return len(folders), time.perf_counter() - t0, folders


def stab_summary(  # noqa: PLR0917 - the figures the summary prints
    out: Path, n: int, seconds: float, folders: list[Path], rules: str, lang: str
) -> str:
    shown = f"{seconds:.1f}".replace(".", catalogue.meta(lang).decimal)
    lines = [_say("stab_summary", lang, n=n, seconds=shown, rules=rules)]
    if folders:
        lines.append(
            _say(
                "stab_summary_folder",
                lang,
                folder=out,
                first=folders[0].name,
                last=folders[-1].name,
            )
        )
    return "\n".join(lines)
