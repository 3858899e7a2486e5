"""Stab! (issue 14, seeds/stab-hidden-movement-variant.txt) through the table service: free
placement in Spring 1901 (rule 1), reports instead of results (rules 2, 3, 5, 6), the retreat
mode chosen at creation (rule 4), and nothing of the hidden board anywhere a player or the
public can read it. The maps are checked by what the renderer is GIVEN (a recording engine
here, in the tests): what it is not given it cannot draw."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.model import Position, Power
from bot.service import EventKind, MemoryNotifier, ServiceError
from tests.bot.service.conftest import SEVEN, run_until
from tests.bot.service.recording import PNG, RecordingEngine
from tests.standard import STANDARD

USER = dict(zip(STANDARD.powers, SEVEN, strict=True))


PLACE = {
    Power.ENGLAND: "A YOR\nA WAL\nF CLY",
    Power.FRANCE: "A PIC\nA PAR\nF BRE",
    Power.GERMANY: "A RUH\nA MUN\nF KIE",
    Power.ITALY: "A VEN\nA ROM\nF NAP",
    Power.AUSTRIA: "A VIE\nA BUD\nF TRI",
    Power.RUSSIA: "A MOS\nA WAR\nF SEV\nF STP/SC",
    Power.TURKEY: "A CON\nA SMY\nF ANK",
}


async def stab_game(svc: Any, **kw: Any) -> int:
    status = await svc.create_game("gm", name="stab", rules="stab", clock="edc2023", **kw)
    for power, user in USER.items():
        await svc.join(status.id, user, power)
    await svc.start_game(status.id, "gm")
    await svc.run_due()
    return status.id


async def adjudicate(svc: Any, clock: Any, gid: int) -> None:
    before = (await svc.status(gid)).phase
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()

    async def moved() -> bool:
        st = await svc.status(gid)
        return st.phase != before and st.phase_status == "open"

    await run_until(svc, clock, gid, moved)


async def test_spring_1901_is_a_free_placement_sent_with_the_orders(opener):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    assert (await svc.position(gid)).units == {}
    status = await svc.status(gid)
    assert status.hidden
    assert set(status.to_order) == set(STANDARD.powers)  # everyone places
    ok = await svc.submit(gid, USER[Power.ENGLAND], "A YOR\nA WAL\nF CLY\nA YOR - LON")
    assert ok.accepted, ok.errors
    assert sorted(ok.warnings) == [
        "A WAL: no order (it will hold)",
        "F CLY: no order (it will hold)",
    ]
    bad = await svc.submit(gid, USER[Power.FRANCE], "A PIC\nF BUR\nA PAR")
    assert not bad.accepted
    assert bad.errors == ["France: F BUR: a fleet cannot stand in BUR, an inland space"]
    foreign = await svc.submit(gid, USER[Power.FRANCE], "A YOR")
    assert not foreign.accepted
    assert "is not in a home space of France" in foreign.errors[0]
    none = await svc.submit(gid, USER[Power.FRANCE], "A PAR - BUR")
    assert not none.accepted
    assert none.errors[0].startswith("Spring 1901 of Stab!: start your orders with")


async def test_placement_errors_are_in_the_games_language(opener):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, lang="fr")
    bad = await svc.submit(gid, USER[Power.FRANCE], "A PIC\nA PAR\nF BRE\nA MAR")
    assert not bad.accepted
    assert "centres d'origine" in bad.errors[0] or "centre" in bad.errors[0]
    none = await svc.submit(gid, USER[Power.FRANCE], "A PAR - BOU")
    assert none.errors[0].startswith("Printemps 1901 de Stab!")


async def test_retreat_mode_is_chosen_at_creation(opener):
    svc = await opener(engine=RecordingEngine())
    with pytest.raises(ServiceError, match="unknown Stab! retreat mode"):
        await svc.create_game("gm", rules="stab", stab_retreats="later")
    gid = await stab_game(svc, stab_retreats="conditional")
    assert (await svc.game_settings(gid)).stab_retreats == "conditional"
    plain = await svc.create_game("gm", rules="stab")
    assert (await svc.game_settings(plain.id)).stab_retreats == "phase"  # rule 4's GM note
    standard = await svc.create_game("gm", rules="datc")
    assert (await svc.game_settings(standard.id)).stab_retreats == ""


def _hidden_units(position: Position, revealed: frozenset[str], viewer: Power | None) -> set[str]:
    return {
        f"{u.type.value} {p}"
        for p, u in position.units.items()
        if p not in revealed and u.power is not viewer
    }


async def test_a_stab_year_leaks_nothing(opener, clock):
    """Spring 1901 placed, then a bounce (PIC/RUH -> BEL... ) and the reports: each viewer
    is told and shown only their own units and what the public report revealed."""
    notes = MemoryNotifier()
    engine = RecordingEngine()
    svc = await opener(engine=engine, notifier=notes)
    gid = await stab_game(svc)
    for power, lines in PLACE.items():
        orders = {
            Power.FRANCE: "\nA PIC - BEL",
            Power.GERMANY: "\nA RUH - BEL",  # a bounce: both revealed (rule 2)
            Power.ENGLAND: "\nA YOR - LON",  # unopposed: hidden
        }.get(power, "")
        reply = await svc.submit(gid, USER[power], lines + orders)
        assert reply.accepted, (power, reply.errors)
    engine.drawn.clear()
    await adjudicate(svc, clock, gid)
    [results] = [e for e in notes.events if e.kind is EventKind.RESULTS_READY]
    assert results.payload["lines"] == []  # nothing of the board in the event
    phase_id = results.payload["stab"]["phase_id"]
    # The public map (the results row's) was given the revealed units only.
    [public] = engine.drawn
    assert public.units == {"PIC": "FRANCE", "RUH": "GERMANY"}
    assert public.centres == {}
    assert sorted(public.orders) == sorted(["A PIC - BEL", "A RUH - BEL"] * 2)
    # The public report, and nothing of YOR - LON.
    view = await svc.hidden_view(gid, "a stranger", phase_id)
    text = "\n".join(view.lines)
    assert "A PIC - BEL" in text
    assert "A RUH - BEL" in text
    assert "LON" not in text
    assert "YOR" not in text
    # England's view: its private report (where its units are), its own units on the map.
    engine.drawn.clear()
    view = await svc.hidden_view(gid, USER[Power.ENGLAND], phase_id)
    text = "\n".join(view.lines)
    assert "Your units: A LON, A WAL, F CLY" in text
    assert "MUN" not in text
    [drawn] = engine.drawn
    assert set(drawn.units) == {"YOR", "WAL", "CLY", "PIC", "RUH"}
    assert drawn.sight == {"YOR", "WAL", "CLY", "PIC", "RUH"}  # the core's sight says the same
    assert "A YOR - LON" in drawn.orders
    assert not any("MUN" in o or "VEN" in o for o in drawn.orders)
    assert set(drawn.centres) == {"LON", "EDI", "LVP"}
    # The GM sees everything.
    engine.drawn.clear()
    view = await svc.hidden_view(gid, "gm", phase_id)
    assert "A YOR - LON" in "\n".join(view.lines)
    assert len(engine.drawn[0].units) == 22
    # Public queries: nothing of the board while the game runs.
    res = await svc.results(gid)
    assert res.outcome.results == ()
    assert res.orders == {}
    assert res.png == PNG
    assert (await svc.position(gid)).units == {}
    assert len((await svc.position(gid, viewer="gm")).units) == 22
    england = await svc.position(gid, viewer=USER[Power.ENGLAND])
    assert set(england.units) == {"LON", "WAL", "CLY"}
    assert set(england.centers) == {"LON", "EDI", "LVP"}
    assert (await svc.status(gid)).units == {}
    # Only one's own orders of a phase, even once adjudicated (the placement reads as builds).
    mine = await svc.phase_orders(gid, USER[Power.ITALY], phase_id)
    assert mine == {Power.ITALY: ["A VEN B", "A ROM B", "F NAP B"]}


async def test_warnings_speak_only_of_the_players_own_units(opener, clock):
    """Today a submission warns "no unit in BUR": under Stab! that would reveal the board."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    for power, lines in PLACE.items():
        await svc.submit(gid, USER[power], lines)
    await adjudicate(svc, clock, gid)
    # France orders Germany's army in MUN, and one in BUR where there is none: the same
    # answer either way, and never "A MUN is German".
    reply = await svc.submit(
        gid, USER[Power.FRANCE], "A MUN - RUH\nA BUR - RUH\nA PIC H\nA PAR H\nF BRE H"
    )
    assert reply.accepted
    assert reply.warnings == [
        "A MUN - RUH: you have no unit in MUN",
        "A BUR - RUH: you have no unit in BUR",
    ]
    assert not any("German" in w for w in reply.warnings)


DISLODGE = {  # Spring 1901: Germany dislodges France's army in Burgundy
    Power.FRANCE: "A BUR\nA PAR\nF BRE",
    Power.GERMANY: "A MUN\nA RUH\nF KIE\nA MUN - BUR\nA RUH S A MUN - BUR",
    Power.ENGLAND: "A YOR\nA WAL\nF CLY",
    # Italy sends nothing: NMR (rule 6), and no unit placed.
}


async def _dislodge(svc: Any, clock: Any, gid: int, france_extra: str = "") -> dict[str, Any]:
    for power, text in DISLODGE.items():
        extra = france_extra if power is Power.FRANCE else ""
        reply = await svc.submit(gid, USER[power], text + extra)
        assert reply.accepted, (power, reply.errors)
    await adjudicate(svc, clock, gid)
    return {
        who: await svc.hidden_view(gid, user)
        for who, user in [("public", "nobody"), ("gm", "gm")]
        + [(p.value, USER[p]) for p in (Power.FRANCE, Power.GERMANY, Power.ITALY)]
    }


async def test_conditional_retreats_are_settled_with_the_moves(opener, clock):
    """Rule 4: `A BUR R PIC` written with the Spring orders; the public report says the unit
    was dislodged, never where it went; the attacker is told (rule 5)."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, stab_retreats="conditional")
    views = await _dislodge(svc, clock, gid, "\nA BUR R PIC\nA BUR R GAS")
    public = "\n".join(views["public"].lines)
    assert "A MUN - BUR" in public  # it dislodged a unit (rule 2)
    assert "A RUH S A MUN - BUR" in public
    assert "A BUR H; (dislodged)" in public
    assert "PIC" not in public
    assert "GAS" not in public
    germany = "\n".join(views["GERMANY"].lines)
    assert "A BUR (France), dislodged by your attack, retreated to PIC" in germany
    france = "\n".join(views["FRANCE"].lines)
    assert "Your units: A PAR, A PIC, F BRE" in france
    assert (await svc.status(gid)).phase == "F1901M"  # no separate retreat phase


async def test_a_separate_retreat_phase_by_default(opener, clock):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    views = await _dislodge(svc, clock, gid)
    assert "Dislodged, to retreat: A BUR" in "\n".join(views["FRANCE"].lines)
    assert (await svc.status(gid)).phase == "S1901R"
    assert (await svc.submit(gid, USER[Power.FRANCE], "A BUR R GAS")).accepted
    await adjudicate(svc, clock, gid)
    germany = "\n".join((await svc.hidden_view(gid, USER[Power.GERMANY])).lines)
    assert "retreated to GAS" in germany
    assert "GAS" not in "\n".join((await svc.hidden_view(gid, "nobody")).lines)


async def test_nmrs_are_reported_as_such(opener, clock):
    """Rule 6: "All NMRs are reported as such, but the position of the units concerned is
    only revealed in accordance with the general rules"."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    views = await _dislodge(svc, clock, gid)
    public = views["public"].lines
    assert "NMR" in public[public.index("__Italy__") + 1]
    assert "__England__" not in public  # England's placement and holds stay hidden


async def test_the_end_of_the_game_opens_the_history(opener, clock):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    await _dislodge(svc, clock, gid)
    await svc.end_game(gid, "gm", "enough")
    assert not (await svc.status(gid)).hidden
    view = await svc.hidden_view(gid, "a stranger")
    assert view.viewer == "gm"
    assert "Dislodged, to retreat: A BUR" in "\n".join(view.lines)  # France's own report
    assert (await svc.results(gid)).outcome.results != ()


async def test_the_order_map_shows_only_the_players_own_units(opener, clock, monkeypatch):
    from bot.service.orders import order_map  # noqa: PLC0415

    given: list[set[str]] = []

    def recording(position: Position, *args: Any, **kw: Any) -> bytes | None:
        given.append(set(position.units))
        return PNG

    monkeypatch.setattr(order_map, "draw", recording)
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    await svc.submit(gid, USER[Power.GERMANY], "A MUN\nA RUH\nF KIE")
    await svc.submit(gid, USER[Power.FRANCE], "A BUR\nA PAR\nF BRE\nA BUR - MUN")
    assert await svc.orders_map(gid, USER[Power.FRANCE]) == PNG
    assert given == [{"BUR", "PAR", "BRE"}]  # not Germany's MUN, which France ordered into


async def test_a_centre_lost_and_the_winter_totals(opener, clock):
    """Rule 5: France is told privately that it lost Paris, to whom and with what, though the
    unopposed move stays out of the public report; rule 3: in the Winter the public learns
    only each power's number of centres, each player privately which centres it owns."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    await svc.submit(gid, USER[Power.FRANCE], "A PIC\nA GAS\nF BRE")
    await svc.submit(gid, USER[Power.GERMANY], "A MUN\nA RUH\nF KIE\nA MUN - BUR")
    await adjudicate(svc, clock, gid)
    await svc.submit(gid, USER[Power.GERMANY], "A BUR - PAR")
    await adjudicate(svc, clock, gid)
    fall = {
        w: await svc.hidden_view(gid, u) for w, u in (("public", "x"), ("fr", USER[Power.FRANCE]))
    }
    assert fall["public"].phase == "F1901M"
    assert "PAR" not in "\n".join(fall["public"].lines)
    assert "You lost PAR to Germany (A PAR)" in fall["fr"].lines
    assert (await svc.status(gid)).phase == "W1901A"
    assert (await svc.submit(gid, USER[Power.GERMANY], "A MUN B")).accepted
    await adjudicate(svc, clock, gid)
    public = await svc.hidden_view(gid, "x")
    assert public.phase == "W1901A"
    [head, totals] = public.lines
    assert head == "**Public report**"
    assert totals.startswith("Supply centre totals: ")
    assert "Germany 4" in totals
    assert "France 2" in totals
    assert "MUN" not in totals
    france = await svc.hidden_view(gid, USER[Power.FRANCE])
    assert "Your supply centres: BRE, MAR" in france.lines
    assert "MUN" not in "\n".join(france.lines)  # Germany's build stays hidden


@pytest.mark.parametrize(
    ("reveal", "shown", "kept"),
    [("", "A BER S A MUN", "RUH"), ("\nREVEAL RUH", "A RUH S A MUN", "BER")],
)
async def test_surplus_hold_supports_by_the_players_stated_order(
    opener, clock, reveal, shown, kept
):
    """Rule 2: of a held unit's supports only those needed are revealed, "in the absence of
    specific instructions ... alphabetically"; `REVEAL RUH` is the player's instruction."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    sets = {
        Power.FRANCE: "A BUR\nA PAR\nF BRE\nA BUR - MUN",
        Power.AUSTRIA: "A TYR\nA VIE\nF TRI\nA TYR S A BUR - MUN",
        Power.GERMANY: "A MUN\nA RUH\nA BER\nA RUH S A MUN\nA BER S A MUN" + reveal,
    }
    for power, text in sets.items():
        reply = await svc.submit(gid, USER[power], text)
        assert reply.accepted, reply.errors
    await adjudicate(svc, clock, gid)
    public = (await svc.hidden_view(gid, "x")).lines
    assert "A BUR - MUN; (failed)" in public
    assert shown in public
    assert kept not in "\n".join(public)


async def test_a_reveal_line_naming_no_province_is_refused(opener):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    reply = await svc.submit(gid, USER[Power.GERMANY], "A MUN\nA RUH\nREVEAL XYZ")
    assert not reply.accepted
    assert reply.errors[0].startswith("REVEAL XYZ: write REVEAL and the provinces")


async def test_the_seeds_worked_example_through_the_service(opener, clock):
    """The seed's Autumn example, played at a table whose retreats are conditional (rule 4):
    "ENGLAND: F(NTH) C A(Edi)-Hol; F(Pic) S F(ENG)-Bre. If necessary F(Pic) retreats to Bel,
    ENG. FRANCE: A(Par) S F(Bre)-Pic; A(Mar) S A(Gas)-Bur; F(MAO)-NAO; GERMANY: A(Mun) &
    A(Ruh) S A(Bur); A(Bur) S A(Bel)-Pic; A(Kie)-Den; F(Swe)-Den" (with the moves the GM's
    note adds). The board is set by the GM's edits in the Fall of 1901 (the season matters,
    not the year)."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, stab_retreats="conditional")
    await svc.submit(gid, USER[Power.ENGLAND], "A EDI")
    await svc.submit(gid, USER[Power.FRANCE], "A PAR\nA MAR\nF BRE")
    await svc.submit(gid, USER[Power.GERMANY], "A MUN\nA RUH\nA KIE")
    await adjudicate(svc, clock, gid)
    for edit in (
        "place F NTH England",
        "place F PIC England",
        "place F ENG England",
        "place A GAS France",
        "place F MAO France",
        "place A BUR Germany",
        "place A BEL Germany",
        "place F SWE Germany",
        "centre HOL Germany",  # "Assuming that Germany owned Holland"
    ):
        await svc.edit_board(gid, "gm", edit)
    sets = {
        Power.ENGLAND: "F NTH C A EDI - HOL\nA EDI - HOL\nF PIC S F ENG - BRE\nF ENG - BRE\n"
        "F PIC R BEL\nF PIC R ENG",
        Power.FRANCE: "A PAR S F BRE - PIC\nA MAR S A GAS - BUR\nF MAO - NAO\nF BRE - PIC\n"
        "A GAS - BUR",
        Power.GERMANY: "A MUN S A BUR\nA RUH S A BUR\nA BUR S A BEL - PIC\nA KIE - DEN\n"
        "F SWE - DEN\nA BEL - PIC",
    }
    for power, text in sets.items():
        reply = await svc.submit(gid, USER[power], text)
        assert reply.accepted, reply.errors
    await adjudicate(svc, clock, gid)
    views = {p: await svc.hidden_view(gid, USER[p]) for p in sets}
    public = (await svc.hidden_view(gid, "x")).lines
    assert public[public.index("__England__") + 1] == "F PIC S ?; (cut) (dislodged)"
    assert "A PAR S F BRE - PIC" in public  # "FRANCE: A(Par) S F(Bre)-Pic; A(Mar) S A(Gas)-Bur"
    assert "A MAR S A GAS - BUR" in public
    assert "A MUN S A BUR" in public  # "GERMANY: A(Mun) S A(Bur); A(Bur) S A(Bel)-Pic"
    text = "\n".join(public)
    for hidden in ("RUH", "SWE", "KIE", "DEN", "NAO", "MAO", "ENG -", "NTH", "EDI", "HOL"):
        assert hidden not in text, hidden
    # "The GM would inform France privately that it had lost Brest and that the English
    # F(Pic) had retreated to ENG. England would be informed that F(Pic) had retreated to
    # ENG. Assuming that Germany owned Holland, he would be informed privately that he had
    # lost it."
    assert "You lost BRE to England (F BRE)" in views[Power.FRANCE].lines
    assert (
        "F PIC (England), dislodged by your attack, retreated to ENG" in views[Power.FRANCE].lines
    )
    assert "F ENG" in next(x for x in views[Power.ENGLAND].lines if x.startswith("Your units"))
    assert "You lost HOL to England (A HOL)" in views[Power.GERMANY].lines
    assert (await svc.status(gid)).phase == "W1901A"  # the retreat was settled with the moves
