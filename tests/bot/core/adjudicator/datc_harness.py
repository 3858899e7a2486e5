"""Runs one DATC v3.0 case (or one of its alternatives) through the adjudicator.

Orders are fed as TEXT through the parser (`parse_order`); the JSON's parsed fields build a
second, typed copy that must agree with the parser's reading (so a parser slip is caught
here rather than hidden). A text the parser rejects is "no order": allowed only where the DATC
expects the order to fail.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.core.language.parser import OrderSyntaxError
from bot.core.map import load_map
from bot.core.model import Location, Phase, Position, Power, Unit, UnitType
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
    UnitRef,
)
from bot.core.outcome import Outcome, Reason, Verdict
from bot.core.rules import (
    DATC,
    AdjacentConvoy,
    CivilDisorder,
    ConvoyParadox,
    MultiRoute,
    RuleSet,
)
from tests.shared import DATC_CASES as DATC_FILE
from tests.standard import adjudicate, parse_order

GAME_MAP = load_map("standard")


def load_cases() -> list[dict[str, Any]]:
    with DATC_FILE.open(encoding="utf-8") as f:
        cases: list[dict[str, Any]] = json.load(f)["cases"]
    return cases


def _ref(unit: str | None, loc: str) -> UnitRef:
    return UnitRef(UnitType(unit) if unit else None, Location.parse(loc))


def typed_order(o: dict[str, Any]) -> Order:
    """The order built from the JSON's parsed fields (no string splitting)."""
    power = Power.of(o["power"])
    kind = o["type"]
    if kind == "build":
        return Build(power, _ref(o["unit"], o["loc"]), source=o["text"])
    me = _ref(o["unit"], o["loc"])
    if kind == "hold":
        return Hold(power, me, source=o["text"])
    if kind == "move":
        return Move(power, me, Location.parse(o["to"]), bool(o.get("via_convoy")), source=o["text"])
    if kind == "retreat":
        return Retreat(power, me, Location.parse(o["to"]), source=o["text"])
    if kind == "disband":
        return Disband(power, me, source=o["text"])
    t = o["target"]
    target = _ref(t["unit"], t["loc"])
    if kind == "convoy":
        return Convoy(power, me, target, Location.parse(t["to"]), source=o["text"])
    if t.get("to"):
        return SupportMove(power, me, target, Location.parse(t["to"]), source=o["text"])
    return SupportHold(power, me, target, source=o["text"])


def prestate(case: dict[str, Any]) -> Position:
    pre = case["prestate"]
    units = [Unit.parse(Power.of(p), u) for p, us in pre["units"].items() for u in us]
    centers = {
        c.upper(): Power.of(p) for p, cs in pre.get("supply_centers", {}).items() for c in cs
    }
    return Position.build(Phase.parse(pre["phase"]), units, centers)


# DATC option text (OPTIONS.md / the JSON's `alternatives[].options`) -> RuleSet changes.
def rulesets_for(options: dict[str, str]) -> list[tuple[str, RuleSet]]:
    """Every RuleSet the alternative's option text names ("a or b" gives two)."""
    variants: list[dict[str, Any]] = [{}]
    for issue, text in options.items():
        choices = _choices(issue, text)
        variants = [{**v, **c} for v in variants for c in choices]
    out = []
    for v in variants:
        label = "+".join(f"{k}={getattr(val, 'value', val)}" for k, val in sorted(v.items()))
        out.append((label, DATC.with_options(name="alternative", **v)))
    return out


def _choices(issue: str, text: str) -> list[dict[str, Any]]:
    t = text.lower()
    if issue == "4.A.1" and t.startswith("a"):
        return [{"multi_route": MultiRoute.ANY_ROUTE_DISRUPTED}]
    if issue == "4.A.2":
        letters = [x for x in ("a", "b", "c") if x in t.split("(")[0].replace(",", " ").split()]
        rule = {"a": ConvoyParadox.RULE_1971, "b": ConvoyParadox.RULE_1982}
        rule["c"] = ConvoyParadox.RULE_2000
        return [{"convoy_paradox": rule[x]} for x in letters]
    if issue == "4.A.3":
        if "dptg" in t:
            return [{"adjacent_convoy": AdjacentConvoy.EXPLICIT_ONLY}]
        if "fallback" in t:
            return [{"adjacent_convoy": AdjacentConvoy.RULE_2000_FALLBACK}]
        if t.startswith("a"):
            return [{"adjacent_convoy": AdjacentConvoy.RULE_1971}]
    if issue == "4.A.4" and t == "b":
        return [{"convoyed_attack_cuts_support_on_itself": True}]
    if issue == "4.A.5" and t == "a":
        return [{"retreat_to_convoyed_attacker_origin": False}]
    if issue == "4.A.7" and t == "a":
        return [{"dislodged_bounces_convoyed_attacker_origin": False}]
    if issue == "4.B.2" and t == "b":
        return [{"default_single_coast": False}]
    if issue == "4.B.3" and t == "a":
        return [{"unreachable_coast_illegal": False}]
    if issue == "4.B.4" and "required" in t:
        return [{"support_requires_coast": True}]
    if issue == "4.B.5" and t == "a":
        return [{"wrong_unit_coast_ignored": False}]
    if issue == "4.B.6" and t == "a":
        return [{"irrelevant_coast_ignored": False}]
    if issue == "4.D.8" and "pre-2023" in t:
        return [{"civil_disorder": CivilDisorder.HOME_ANY_TERRAIN}]
    raise AssertionError(f"no RuleSet mapping for {issue} = {text!r}")


@dataclass
class StepRun:
    outcome: Outcome
    fed: list[Order | None]  # per DATC order: what was fed (None: the text did not parse)


def feed(step: dict[str, Any], position: Position, rules: RuleSet = DATC) -> list[Order | None]:
    out: list[Order | None] = []
    for o in step["orders"]:
        power = Power.of(o["power"])
        if not rules.default_single_coast:
            # The parser always completes a fleet's only reachable coast (the 4.B.2 a policy);
            # under 4.B.2 b the order must stay as written, so the typed fields are fed.
            out.append(typed_order(o))
            continue
        try:
            parsed = parse_order(o["text"], power=power, position=position, game_map=GAME_MAP)
        except OrderSyntaxError:
            assert o["expect"] == "fails", f"{o['text']!r} must parse: the DATC expects it to work"
            out.append(None)
            continue
        typed = typed_order(o)
        assert _same(parsed, typed), f"parser read {o['text']!r} as {parsed}, DATC says {typed}"
        out.append(parsed)
    return out


def _same(parsed: Order, typed: Order) -> bool:
    """The parser may fill what the text left out (a unit type, the only reachable coast)."""
    if parsed == typed:
        return True
    a, b = parsed.canonical(), typed.canonical()
    return a.replace("/NC", "").replace("/SC", "") == b or a.replace(" VIA", "") == b


def run_step(position: Position, step: dict[str, Any], rules: RuleSet) -> StepRun:
    fed = feed(step, position, rules)
    outcome = adjudicate(position, [o for o in fed if o is not None], rules, GAME_MAP)
    return StepRun(outcome, fed)


def result_of(run: StepRun, k: int) -> tuple[Verdict, Reason] | None:
    """The verdict of the k-th DATC order (None if its text was not an order)."""
    if run.fed[k] is None:
        return None
    pos = sum(1 for o in run.fed[:k] if o is not None)
    r = run.outcome.results[pos]
    assert r.order is run.fed[k]
    return r.verdict, r.reason


def unit_set(units: dict[str, list[str]]) -> set[tuple[Power, str]]:
    return {(Power.of(p), str(Unit.parse(Power.of(p), u))) for p, us in units.items() for u in us}


def board_set(position: Position) -> set[tuple[Power, str]]:
    return {(u.power, str(u)) for u in position.units.values()}
