"""DATC v3.0: every case under the DATC preferences, every alternative under its RuleSet."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.model import PhaseKind, Power, Unit
from bot.core.outcome import Reason, Verdict
from bot.core.rules import DATC, RuleSet
from tests.bot.core.adjudicator.datc_harness import (
    board_set,
    load_cases,
    prestate,
    result_of,
    rulesets_for,
    run_step,
    unit_set,
)

CASES = load_cases()


def _check_movement(run: Any, step: dict[str, Any], expected: dict[str, Any]) -> None:
    outcome = run.outcome
    assert board_set(outcome.position) == unit_set(expected["units"])
    got = {(d.unit.power, str(d.unit), d.attacker_from) for d in outcome.dislodged}
    want = set()
    for d in expected.get("dislodged", []):
        unit = Unit.parse(Power.of(d["power"]), f"{d['unit']} {d['loc']}")
        want.add((unit.power, str(unit), d["attacker_from"].upper()))
    assert got == want
    by_prov = {d.unit.province: d for d in outcome.dislodged}
    for d in expected.get("dislodged", []):
        # a fleet's options are locations (SPA/SC); the DATC names provinces
        options = {r.split("/")[0] for r in by_prov[d["loc"].split("/")[0].upper()].retreats}
        for p in d.get("retreat_allowed_includes", []):
            assert p.upper() in options, f"{d['loc']} should be able to retreat to {p}"
        for p in d.get("retreat_forbidden", []):
            assert p.upper() not in options, f"{d['loc']} must not retreat to {p}"
        if "retreat_options_exact" in d:
            assert options == {p.upper() for p in d["retreat_options_exact"]}


def _check_expects(run: Any, step: dict[str, Any]) -> None:
    for k, o in enumerate(step["orders"]):
        res = result_of(run, k)
        if res is None:  # the text did not parse: no order (allowed only for failing orders)
            continue
        verdict, reason = res
        if o["expect"] is not None:
            want = Verdict.SUCCEEDS if o["expect"] == "succeeds" else Verdict.FAILS
            assert verdict is want, f"{o['order']}: {verdict} ({reason}), DATC: {o['expect']}"
        if o.get("illegal"):
            assert reason is Reason.ILLEGAL, f"{o['order']} is illegal, got {reason}"


def _run_case(case: dict[str, Any], rules: RuleSet, alt: dict[str, Any] | None) -> None:
    position = prestate(case)
    for s, step in enumerate(case["steps"]):
        run = run_step(position, step, rules)
        expected = step["expected"] if alt is None or s > 0 else alt.get("expected", {})
        if alt is None:
            _check_expects(run, step)
        elif s == 0 and "moves_succeed" in alt:
            for k, o in enumerate(step["orders"]):
                if o["type"] == "move":
                    res = result_of(run, k)
                    ok = res is not None and res[0] is Verdict.SUCCEEDS
                    assert ok == (o["order"] in alt["moves_succeed"]), o["order"]
        kind = step["phase"]
        if kind == "movement":
            _check_movement(run, step, expected)
        elif kind == "retreat":
            assert board_set(run.outcome.position) == unit_set(expected["units"])
            gone = {(u.power, str(u)) for u in run.outcome.removed}
            want = {
                (
                    Power.of(d["power"]),
                    str(Unit.parse(Power.of(d["power"]), f"{d['unit']} {d['loc']}")),
                )
                for d in expected.get("disbanded", [])
            }
            assert gone == want
        else:
            assert board_set(run.outcome.position) == unit_set(expected["units"])
            cd = {
                (r.power, str(r.order))
                for r in run.outcome.results
                if r.reason is Reason.CIVIL_DISORDER
            }
            want_cd = {
                (Power.of(p), f"{Unit.parse(Power.of(p), u)} D")
                for p, us in expected.get("civil_disorder_removals", {}).items()
                for u in us
            }
            assert cd == want_cd
        position = run.outcome.position
        if s + 1 < len(case["steps"]):
            assert position.phase.kind is PhaseKind.RETREAT


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc_case(case: dict[str, Any]) -> None:
    _run_case(case, DATC, None)


def _alternatives() -> list[Any]:
    out = []
    for case in CASES:
        for a, alt in enumerate(case.get("alternatives", [])):
            for label, rules in rulesets_for(alt["options"]):
                out.append(pytest.param(case, alt, rules, id=f"{case['id']}-alt{a}-{label}"))
    return out


@pytest.mark.parametrize(("case", "alt", "rules"), _alternatives())
def test_datc_alternative(case: dict[str, Any], alt: dict[str, Any], rules: RuleSet) -> None:
    if "expected" not in alt:
        # 6.F.21 under the 1982 rule: the DATC gives only "Support of Clyde not cut; English
        # fleet in the North Atlantic Ocean not dislodged."
        assert case["id"] == "6.F.21"
        run = run_step(prestate(case), case["steps"][0], rules)
        k = next(
            i for i, o in enumerate(case["steps"][0]["orders"]) if o["order"] == "F cly S F nao"
        )
        assert result_of(run, k) == (Verdict.SUCCEEDS, Reason.NONE)
        assert "NAO" not in {d.unit.province for d in run.outcome.dislodged}
        return
    _run_case(case, rules, alt)
