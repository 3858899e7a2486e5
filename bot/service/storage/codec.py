"""JSON for typed orders and adjudication outcomes, as the store keeps them.

Orders are stored typed (not as text) so that re-reading never depends on the parser; the
codec is exact: `order_from_json(order_to_json(o)) == o`.
"""

from __future__ import annotations

from typing import Any

from bot.core.messages import Items, Message, Name, OneOf, Param, Prov
from bot.core.model import Coast, DislodgedUnit, Location, Phase, Power, Unit, UnitType
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
from bot.core.records.jsonio import position_from_json, position_to_json

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


def order_from_json(doc: dict[str, Any]) -> Order:  # noqa: PLR0911 - one return per order kind
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


def message_to_json(m: Message) -> dict[str, Any]:
    """A core message as JSON: its key and typed parameters (shown later in any language)."""
    return {"key": m.key, "params": {k: _param_to(v) for k, v in m.params}}


def message_from_json(doc: dict[str, Any]) -> Message:
    return Message(str(doc["key"]), tuple((k, _param_from(v)) for k, v in doc["params"].items()))


def _param_to(v: Param) -> dict[str, Any]:  # noqa: C901, PLR0911 - one branch per type
    if isinstance(v, Message):
        return {"msg": message_to_json(v)}
    if isinstance(v, Power):
        return {"power": v.value}
    if isinstance(v, UnitType):
        return {"type": v.value}
    if isinstance(v, Coast):
        return {"coast": v.value}
    if isinstance(v, bool | int):
        return {"int": int(v)}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, Prov):
        return {"prov": v.pid}
    if isinstance(v, Name):
        return {"name": v.pid, **({"shown": v.shown} if v.shown else {})}
    if isinstance(v, OneOf):
        return {"or": [_param_to(i) for i in v.items]}
    if isinstance(v, Items):
        return {"items": [_param_to(i) for i in v.items], "sep": v.sep}
    if isinstance(v, Location):
        return {"loc": str(v)}
    if isinstance(v, Unit):
        return {"unit": _unit_to(v)}
    return {"order": order_to_json(v)}


def _param_from(d: dict[str, Any]) -> Param:  # noqa: PLR0911 - one return per tag
    (tag, value), *_ = d.items()
    simple: dict[str, Any] = {
        "power": Power,
        "type": UnitType,
        "coast": Coast,
        "int": int,
        "str": str,
        "prov": Prov,
        "loc": Location.parse,
    }
    if tag in simple:
        return simple[tag](value)  # type: ignore[no-any-return]
    if tag == "name":
        return Name(value, str(d.get("shown", "")))
    if tag == "msg":
        return message_from_json(value)
    if tag == "or":
        return OneOf(tuple(_param_from(i) for i in value))
    if tag == "items":
        return Items(tuple(_param_from(i) for i in value), str(d.get("sep", ", ")))
    if tag == "unit":
        return _unit_from(value)
    return order_from_json(value)


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "phase": str(outcome.phase),
        "results": [
            {
                "power": r.power.value if r.power else None,
                "order": order_to_json(r.order),
                "verdict": r.verdict.value,
                "reason": r.reason.value,
                # The English text too, for anyone reading the database by hand.
                "detail": r.detail,
                "note": r.note,
                "implied": r.implied,
                **({"message": message_to_json(r.message)} if r.message is not None else {}),
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
                # Rows written before "note" existed kept the text only as "detail".
                str(r["note"] if "note" in r else "" if r.get("message") else r.get("detail", "")),
                bool(r.get("implied", False)),
                message_from_json(r["message"]) if r.get("message") else None,
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
