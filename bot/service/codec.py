"""JSON for typed orders and adjudication outcomes, as the store keeps them.

Orders are stored typed (not as text) so that re-reading never depends on the parser; the
codec is exact: `order_from_json(order_to_json(o)) == o`.
"""

from __future__ import annotations

from typing import Any

from bot.core.jsonio import position_from_json, position_to_json
from bot.core.model import DislodgedUnit, Location, Phase, Power, Unit, UnitType
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
    UnitRef,
    Waive,
)
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict

_KINDS: dict[type[Order], str] = {
    Hold: "hold",
    Move: "move",
    SupportHold: "support_hold",
    SupportMove: "support_move",
    Convoy: "convoy",
    Retreat: "retreat",
    Disband: "disband",
    Build: "build",
    Waive: "waive",
}
_BY_KIND = {v: k for k, v in _KINDS.items()}


def _ref_to(ref: UnitRef) -> dict[str, Any]:
    return {
        "type": ref.type.value if ref.type else None,
        "loc": str(ref.location),
        "power": ref.power.value if ref.power else None,
    }


def _ref_from(d: dict[str, Any]) -> UnitRef:
    return UnitRef(
        UnitType(d["type"]) if d.get("type") else None,
        Location.parse(d["loc"]),
        Power(d["power"]) if d.get("power") else None,
    )


def order_to_json(order: Order) -> dict[str, Any]:
    kind = _KINDS.get(type(order))
    if kind is None:
        raise TypeError(f"cannot store order {order!r}")
    doc: dict[str, Any] = {
        "kind": kind,
        "power": order.power.value if order.power else None,
        "source": order.source,
    }
    if isinstance(order, UnitOrder):
        doc["unit"] = _ref_to(order.unit)
    if isinstance(order, Move | SupportMove | Convoy | Retreat):
        doc["dest"] = str(order.dest)
    if isinstance(order, Move):
        doc["via"] = order.via_convoy
    if isinstance(order, SupportHold | SupportMove | Convoy):
        doc["target"] = _ref_to(order.target)
    return doc


def order_from_json(doc: dict[str, Any]) -> Order:
    cls = _BY_KIND[doc["kind"]]
    power = Power(doc["power"]) if doc.get("power") else None
    src = str(doc.get("source", ""))
    if cls is Waive:
        return Waive(power, source=src)
    unit = _ref_from(doc["unit"])
    if cls is Move:
        return Move(power, unit, Location.parse(doc["dest"]), bool(doc.get("via")), source=src)
    if cls is SupportMove:
        return SupportMove(
            power, unit, _ref_from(doc["target"]), Location.parse(doc["dest"]), source=src
        )
    if cls is Convoy:
        return Convoy(
            power, unit, _ref_from(doc["target"]), Location.parse(doc["dest"]), source=src
        )
    if cls is SupportHold:
        return SupportHold(power, unit, _ref_from(doc["target"]), source=src)
    if cls is Retreat:
        return Retreat(power, unit, Location.parse(doc["dest"]), source=src)
    simple: type[Hold | Disband | Build] = cls  # type: ignore[assignment]
    return simple(power, unit, source=src)


def orders_to_json(orders: list[Order]) -> list[dict[str, Any]]:
    return [order_to_json(o) for o in orders]


def orders_from_json(docs: list[dict[str, Any]]) -> list[Order]:
    return [order_from_json(d) for d in docs]


def _unit_to(u: Unit) -> dict[str, str]:
    return {"power": u.power.value, "unit": str(u)}


def _unit_from(d: dict[str, str]) -> Unit:
    return Unit.parse(Power(d["power"]), d["unit"])


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "phase": str(outcome.phase),
        "results": [
            {
                "power": r.power.value if r.power else None,
                "order": order_to_json(r.order),
                "verdict": r.verdict.value,
                "reason": r.reason.value,
                "detail": r.detail,
                "implied": r.implied,
            }
            for r in outcome.results
        ],
        "dislodged": [
            {
                **_unit_to(d.unit),
                "attacker_from": d.attacker_from,
                "retreats": sorted(d.retreats),
            }
            for d in outcome.dislodged
        ],
        "removed": [_unit_to(u) for u in outcome.removed],
        "position": position_to_json(outcome.position),
    }


def outcome_from_json(doc: dict[str, Any]) -> Outcome:
    return Outcome(
        phase=Phase.parse(doc["phase"]),
        results=tuple(
            OrderResult(
                Power(r["power"]) if r.get("power") else None,
                order_from_json(r["order"]),
                Verdict(r["verdict"]),
                Reason(r.get("reason", "")),
                str(r.get("detail", "")),
                bool(r.get("implied", False)),
            )
            for r in doc["results"]
        ),
        dislodged=tuple(
            DislodgedUnit(_unit_from(d), d["attacker_from"], frozenset(d["retreats"]))
            for d in doc["dislodged"]
        ),
        removed=tuple(_unit_from(u) for u in doc["removed"]),
        position=position_from_json(doc["position"]),
    )
