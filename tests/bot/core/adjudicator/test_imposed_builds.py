"""edc-2023 E, first_year_imposed_builds: the referee imposes up to two first-year builds."""

from __future__ import annotations

from bot.core.adjudicator import adjudicate
from bot.core.language.parser import parse_order
from bot.core.map import load_map
from bot.core.model import Phase, Position, Power, Unit
from bot.core.presets import load_rules

STD = load_map("standard")
FR = Power.FRANCE
CENTRES = ["PAR", "MAR", "BRE", "SPA", "POR", "BEL"]


def _winter(year: int, rules: str, orders: list[str] = ()):  # type: ignore[assignment]
    pos = Position.build(
        Phase.parse(f"W{year}A"),
        [Unit.parse(FR, u) for u in ("A SPA", "F POR", "A BEL")],
        dict.fromkeys(CENTRES, FR),
    )
    typed = [parse_order(o, power=FR, position=pos, game_map=STD) for o in orders]
    return adjudicate(pos, typed, load_rules(rules), STD)


def _built(out) -> list[str]:
    return sorted(
        str(u) for u in out.position.units.values() if u.province in ("PAR", "MAR", "BRE")
    )


def test_edc_imposes_two_builds_in_the_first_year_only():
    # edc-2023 E: "In the event of a missing or invalid build order, there will be no build
    # (except in the first year, when the referee will impose up to two builds – no third
    # build – to maintain a balance in the game)."
    out = _winter(1901, "edc2023")  # three builds due, none written
    built = [r for r in out.results if r.implied and r.verdict.value == "succeeds"]
    # No third build; free home centres in province order, a fleet while the power has
    # fewer fleets than armies (A SPA, A BEL, F POR: F BRE, then A MAR).
    assert _built(out) == ["A MAR", "F BRE"]
    keys = [r.message.key for r in built if r.message is not None]
    assert keys == ["build.imposed", "build.imposed", "build.none_ordered"]  # third: waived
    assert _built(_winter(1902, "edc2023")) == []  # later years: no build
    assert _built(_winter(1901, "datc")) == []  # datc: the power waives
    # One build written: it counts towards the two.
    assert _built(_winter(1901, "edc2023", ["A PAR B"])) == ["A PAR", "F BRE"]
