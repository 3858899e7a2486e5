"""`parley adjudicate --rules stab`: the Stab! document (docs/formats.md, "Stab!").

Spring 1901: a power with no unit on the board starts its orders with its placement lines
(`A YOR`, `F CLY`; rule 1). Movement phases: `F PIC R ENG` lines are conditional retreats
(rule 4), settled at once. The output adds `"reports"` (rules 2, 3, 5, 6).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.cli.adjudicate_engine import Engine, InputError
from bot.core.model import Phase, PhaseKind, Position, Power, Season
from bot.core.orders import Order, Retreat
from bot.core.outcome import Outcome
from bot.core.records.jsonio import outcome_to_json, position_to_json
from bot.core.stab.placement import PlacementError, place, split_placement
from bot.core.stab.report import (
    PhaseReport,
    adjustment_report,
    movement_report,
    retreat_report,
)
from bot.core.stab.retreats import conditional_retreats, split_retreats

_FIRST = Phase(1901, Season.SPRING, PhaseKind.MOVEMENT)


@dataclass(frozen=True, slots=True)
class StabPhase:
    """One adjudicated Stab! phase: the board it was played from (placement done), the
    orders read, the results (with the engine's), the conditional retreats settled with a
    movement phase (rule 4), and the reports."""

    position: Position
    orders: tuple[Order, ...]
    outcome: Outcome
    settled: Outcome | None
    report: PhaseReport
    output: dict[str, Any]


class StabEngine(Engine):
    def run(self, doc: object) -> dict[str, Any]:
        if not isinstance(doc, Mapping) or not isinstance(doc.get("orders", {}), Mapping):
            return super().run(doc)  # its errors
        return self.phase(doc).output

    def phase(self, doc: Mapping[str, Any], lang: str = "en") -> StabPhase:
        """Adjudicate one Stab! document (docs/formats.md) and report on it (in `lang`)."""
        doc = self._placed(doc)
        raw: Mapping[str, Any] = doc.get("orders", {})
        written: dict[str, list[str]] = {}
        kept: dict[str, Any] = {}
        # Rule 4: `F PIC R ENG` written with movement orders is a conditional retreat; in a
        # retreat phase it is the retreat itself.
        moving = self.read({"position": doc.get("position")})[0].phase.kind is PhaseKind.MOVEMENT
        for pname, texts in raw.items():
            split = moving and isinstance(texts, list)
            orders, retreats = split_retreats(texts) if split else (texts, [])
            kept[pname] = orders
            written[pname] = retreats
        kept_doc = {**doc, "orders": kept}
        out, position, outcome = self.run_phase(kept_doc)
        read = tuple(self.read(kept_doc)[1])
        nmr = self._nmr(position, raw)
        prefs = self._preferences(doc)
        kind = position.phase.kind
        settled = None
        if kind is PhaseKind.MOVEMENT:
            settled = self._settle(outcome, written)
            if settled is not None:
                out["retreat_results"] = outcome_to_json(settled, self.game_map)["results"]
                out["position"] = position_to_json(settled.position)
            report = movement_report(
                position,
                outcome,
                self.game_map,
                nmr=nmr,
                preferences=prefs,
                retreats=settled,
                lang=lang,
            )
        elif kind is PhaseKind.RETREAT:
            report = retreat_report(position, outcome, self.game_map, nmr=nmr, lang=lang)
        else:
            report = adjustment_report(position, self.game_map)
        out["reports"] = reports_to_json(report)
        return StabPhase(position, read, outcome, settled, report, out)

    def _placed(self, doc: Mapping[str, Any]) -> Mapping[str, Any]:
        """Rule 1: in Spring 1901, each unit-less power's leading placement lines become its
        units (checked: count, home spaces, terrain, coasts)."""
        position = self.read({"position": doc.get("position")})[0]
        if position.phase != _FIRST:
            return doc
        pos_doc = copy.deepcopy(doc["position"])
        units = pos_doc.setdefault("units", {})
        orders: dict[str, Any] = {}
        taken = set(position.units)
        for pname, texts in doc["orders"].items():
            power = self._power(pname, "orders")
            if not isinstance(texts, list) or position.units_of(power):
                orders[pname] = texts
                continue
            lines, rest = split_placement([t for t in texts if isinstance(t, str)])
            try:
                placed = place(power, lines, self.game_map)
            except PlacementError as exc:
                raise InputError(str(exc)) from None
            for u in placed.units:
                if u.province in taken:
                    raise InputError(f"{power.value}: {u.province} is already occupied")
                taken.add(u.province)
            units[power.value] = [f"{u.type.value} {u.location}" for u in placed.units]
            orders[pname] = rest
        return {**doc, "position": pos_doc, "orders": orders}

    def _settle(self, outcome: Outcome, written: Mapping[str, list[str]]) -> Outcome | None:
        lines = [(self._power(p, "orders"), t) for p, ts in written.items() for t in ts]
        if not lines or outcome.position.phase.kind is not PhaseKind.RETREAT:
            return None
        at = outcome.position
        retreats = []
        for power, t in lines:
            try:
                order = self.parse(t, power, at)
            except self._syntax_error:
                continue  # a refused retreat is not explained (rule 4)
            if isinstance(order, Retreat) and order.unit.power in (None, power):
                retreats.append(order)
        return conditional_retreats(outcome, retreats, self.rules, self.game_map)

    def _nmr(self, position: Position, raw: Mapping[str, Any]) -> list[Power]:
        """Rule 6: a power that had something to order and sent nothing."""
        given = {self._power(p, "orders") for p, ts in raw.items() if ts}
        if position.phase.kind is PhaseKind.RETREAT:
            due = {d.unit.power for d in position.dislodged}
        elif position.phase.kind is PhaseKind.MOVEMENT:
            due = {u.power for u in position.units.values()}
        else:
            return []
        return [p for p in self.game_map.powers if p in due and p not in given]

    def _preferences(self, doc: Mapping[str, Any]) -> dict[Power, list[str]]:
        """`"reveal_order": {power: [provinces]}`: the order a player wants its surplus hold
        supports revealed in (rule 2)."""
        raw = doc.get("reveal_order", {})
        if not isinstance(raw, Mapping):
            raise InputError('"reveal_order": expected an object of power -> list of provinces')
        out: dict[Power, list[str]] = {}
        for pname, pids in raw.items():
            if not isinstance(pids, list) or not all(isinstance(p, str) for p in pids):
                raise InputError(f"reveal_order.{pname}: expected a list of provinces")
            out[self._power(pname, "reveal_order")] = [p.upper() for p in pids]
        return out


def reports_to_json(report: PhaseReport) -> dict[str, Any]:
    """`"reports"` of docs/formats.md: public lines or centre totals, and private reports."""
    if report.phase.kind is PhaseKind.ADJUSTMENT:
        return {
            "public": {"centre_totals": {p.value: n for p, n in report.centre_totals.items()}},
            "private": {p.value: {"centres": list(r.centres)} for p, r in report.private.items()},
        }
    public = {p.value: list(report.public.get(p, ())) for p in report.private}
    private = {}
    for p, r in report.private.items():
        private[p.value] = {
            "units": list(r.units),
            "dislodged": list(r.dislodged),
            "centres_lost": [
                {"centre": c.centre, "by": c.by.value, "unit": c.unit} for c in r.centres_lost
            ],
            "retreats_caused": [
                {"power": c.power.value, "unit": c.unit, "to": c.to} for c in r.retreats_caused
            ],
        }
    return {"public": public, "private": private}
