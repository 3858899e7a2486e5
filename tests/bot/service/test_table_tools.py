"""GM table tools the seeds expect: rollback limits, missed orders, the GM's draw, board edits,
a new deadline. Each test quotes its seed line."""

from __future__ import annotations

import pytest

from bot.core.model import Phase, Power
from bot.service import EventKind, InvalidStateError, MemoryNotifier, PermissionDeniedError
from bot.service.engine import CoreEngine
from bot.service.orders.labels import strip_labels
from tests.bot.service.conftest import SEVEN, seven_player_game
from tests.standard import STANDARD


async def _open_next(svc, clock, gid):
    clock.set((await svc.status(gid)).opens_at)
    await svc.run_due()
    assert (await svc.status(gid)).phase_status == "open"


async def _adjudicate_pending(svc, gid):
    await svc.adjudicate_now(gid, "gm")  # opens the pending phase now
    await svc.adjudicate_now(gid, "gm")  # and adjudicates it


async def test_rollback_only_before_the_next_phases_first_order(opener, clock):
    # EDC E: "If the next phase is well underway, in particular if the following orders have
    # already been issued, a adjudiction error cannot and must not be corrected"
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.adjudicate_now(gid, "gm")
    await _open_next(svc, clock, gid)
    await svc.submit(gid, "user-france", "A PAR H")  # the first order of F1901M
    with pytest.raises(InvalidStateError, match="orders were already given"):
        await svc.rollback(gid, "gm")
    st = await svc.status(gid)
    assert (st.phase, st.phase_status) == ("F1901M", "open")  # nothing changed
    assert [p.status for p in await svc.phases(gid)] == ["done", "open"]


async def test_a_cleared_order_also_counts_as_an_order_given(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.adjudicate_now(gid, "gm")
    await _open_next(svc, clock, gid)
    await svc.submit(gid, "user-france", "A PAR H")
    await svc.clear_orders(gid, "user-france")
    with pytest.raises(InvalidStateError, match="orders were already given"):
        await svc.rollback(gid, "gm")


async def test_rollback_undoes_only_the_last_adjudication(opener):
    # stabbeurfou 4.E.6: "Only last adjudication result may be fixed."
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.adjudicate_now(gid, "gm")  # S1901M
    await _adjudicate_pending(svc, gid)  # F1901M
    assert await svc.rollback(gid, "gm") == "F1901M"
    with pytest.raises(InvalidStateError, match="already rolled back"):
        await svc.rollback(gid, "gm")
    st = await svc.status(gid)
    assert (st.phase, st.phase_status) == ("F1901M", "pending")
    # Once adjudicated again, that new adjudication is the last one and may be undone.
    await _adjudicate_pending(svc, gid)
    assert await svc.rollback(gid, "gm") == "F1901M"


async def test_rollback_refusals_in_french(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc, lang="fr")
    await svc.adjudicate_now(gid, "gm")
    await _open_next(svc, clock, gid)
    await svc.submit(gid, "user-france", "A PAR H")
    with pytest.raises(InvalidStateError) as info:
        await svc.rollback(gid, "gm")
    assert "des ordres ont déjà été donnés" in info.value.message


async def test_each_missed_order_is_recorded_told_to_the_gm_and_counted_per_player(opener):
    # house VII(6): "The GM will adjudicate with orders missing from one or more powers.
    # Players failing to submit orders must contact the GM within [24] hours"
    # EDC D: "-1 point per delay in submitting order sheets"
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    for user in SEVEN:
        if user != "user-england":
            await svc.submit(gid, user, _hold(user))
    await svc.adjudicate_now(gid, "gm")  # S1901M: England missed
    missed = [e for e in notes.events if e.kind is EventKind.ORDERS_MISSED]
    assert [(e.phase, e.payload["powers"], e.payload["users"]) for e in missed] == [
        ("S1901M", [Power.ENGLAND.value], ["user-england"])
    ]
    await _adjudicate_pending(svc, gid)  # F1901M: nobody wrote
    counts = await svc.missed_orders(gid, "gm")
    assert (counts[0].user, counts[0].power, counts[0].count, counts[0].phases) == (
        "user-england",
        Power.ENGLAND,
        2,
        ("S1901M", "F1901M"),
    )
    others = [(u, 1) for u in sorted(SEVEN) if u != "user-england"]
    assert sorted((m.user, m.count) for m in counts[1:]) == others
    nmrs = [a for a in await svc.audit_log(gid, "gm") if a.action == "nmr"]
    assert len(nmrs) == 8


async def test_a_rolled_back_phases_missed_orders_do_not_count(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.adjudicate_now(gid, "gm")
    assert len(await svc.missed_orders(gid, "gm")) == 7
    await svc.rollback(gid, "gm")  # S1901M is played again
    assert await svc.missed_orders(gid, "gm") == []
    with pytest.raises(PermissionDeniedError):
        await svc.missed_orders(gid, "user-france")


def _hold(user):
    power = dict(zip(SEVEN, STANDARD.powers, strict=True))[user]
    unit = next(u for u in STANDARD.start.units.values() if u.power is power)
    return f"{unit} H"


async def test_the_gm_declares_a_draw_of_all_survivors_after_the_warning(opener):
    # house IX(2) Alternative A: "If, after a period of [2] game years, no Supply Centers have
    # changed ownership, the GM reserves the right, after a warning is given, to declare a
    # draw including all survivors"
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, rules="house", clock="casual")
    with pytest.raises(InvalidStateError, match="only after the warning"):
        await svc.declare_draw(gid, "gm")
    for _ in range(12):
        if "draw_available" in notes.kinds():
            break
        await svc.adjudicate_now(gid, "gm")  # opens a pending phase, or adjudicates an open one
    assert (await svc.status(gid)).phase == "S1903M"
    assert sorted(await svc.declare_draw(gid, "gm")) == sorted(p.value for p in STANDARD.powers)
    st = await svc.status(gid)
    assert (st.status, st.end_reason) == ("over", "draw")
    over = [e for e in notes.events if e.kind is EventKind.GAME_OVER]
    assert over[0].payload["reason"] == "draw"
    assert "declare_draw" in [a.action for a in await svc.audit_log(gid, "gm")]


async def test_no_gm_draw_where_the_rules_have_none(opener):
    svc = await opener()
    gid = await seven_player_game(svc, rules="datc")
    for _ in range(3):
        await svc.adjudicate_now(gid, "gm")
        await _adjudicate_pending(svc, gid)
    with pytest.raises(InvalidStateError, match="only after the warning"):
        await svc.declare_draw(gid, "gm")
    assert (await svc.status(gid)).status == "active"


async def test_gm_sets_a_new_deadline_earlier_or_later(opener, clock):
    # issue 16: "`/gm` can set a new deadline (earlier or later), not only extend."
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, clock="casual")
    st = await svc.status(gid)
    now = clock.now()
    later = st.deadline + 3600
    assert await svc.set_deadline(gid, "gm", later) == later
    earlier = now + 600
    assert st.window == "writing"
    new = await svc.set_deadline(gid, "gm", earlier)
    assert new == earlier
    assert (await svc.status(gid)).deadline == new
    with pytest.raises(InvalidStateError, match="in the future"):
        await svc.set_deadline(gid, "gm", now - 1)
    assert (await svc.status(gid)).deadline == new
    assert notes.kinds().count("deadline_changed") == 2


async def test_a_deadline_set_in_negotiation_keeps_the_writing_window(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc)  # edc2023: negotiation, then writing
    st = await svc.status(gid)
    assert st.window == "negotiation"
    writing = st.deadline - st.writing_at
    new = await svc.set_deadline(gid, "gm", clock.now() + 1)
    assert new == pytest.approx(clock.now() + writing)
    after = await svc.status(gid)
    assert after.writing_at == pytest.approx(clock.now())


async def test_gm_board_edit_removes_places_and_sets_a_centre_audited_and_announced(opener):
    # house VIII(2) B: "the extra unit will be removed immediately upon recognition that such
    # a unit exists, if the unit was added to the board ... through an error of the GM."
    # house VIII(3): a unit "relocated in the province in which it should have been located"
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    await svc.edit_board(gid, "gm", "remove A PAR")
    await svc.edit_board(gid, "gm", "place A PIC France")
    await svc.edit_board(gid, "gm", "centre BEL Germany")
    await svc.edit_board(gid, "gm", "centre MUN none")
    position = await svc.position(gid)
    assert "PAR" not in position.units
    assert str(position.units["PIC"]) == "A PIC"
    assert position.units["PIC"].power is Power.FRANCE
    assert position.centers["BEL"] is Power.GERMANY
    assert "MUN" not in position.centers
    edits = [e.payload["edit"] for e in notes.events if e.kind is EventKind.BOARD_EDITED]
    assert edits == ["remove A PAR", "place A PIC France", "centre BEL Germany", "centre MUN none"]
    audited = [a.detail for a in await svc.audit_log(gid, "gm") if a.action == "board_edit"]
    assert len(audited) == 4


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("remove F PAR", "there is no F PAR"),
        ("remove A BUR", "there is no A BUR"),
        ("place F PAR France", "cannot stand there"),
        ("place A MAR France", "already has a unit"),
        ("place A XYZ France", "cannot stand there"),
        ("centre BUR France", "not a supply centre"),
        ("teleport A PAR", "cannot read the edit"),
        ("place A PIC", "cannot read the edit"),
    ],
)
async def test_a_bad_board_edit_is_refused_and_changes_nothing(opener, text, why):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    before = await svc.position(gid)
    with pytest.raises(InvalidStateError, match=why):
        await svc.edit_board(gid, "gm", text)
    assert await svc.position(gid) == before
    assert EventKind.BOARD_EDITED not in [e.kind for e in notes.events]


async def test_a_board_edit_in_french_and_only_by_the_gm(opener):
    svc = await opener()
    gid = await seven_player_game(svc, lang="fr")
    await svc.edit_board(gid, "gm", "retirer A PAR")
    assert "PAR" not in (await svc.position(gid)).units
    with pytest.raises(InvalidStateError) as info:
        await svc.edit_board(gid, "gm", "retirer A PAR")
    assert info.value.message == "il n'y a pas de A PAR sur la carte"
    with pytest.raises(PermissionDeniedError):
        await svc.edit_board(gid, "user-france", "retirer A MAR")


@pytest.mark.parametrize(
    "text",
    [
        # house II(2): '"SED 01SA" = 1901 SPRING MOVE AUSTRIA' (here France)
        "SED 01SF\nA PAR - BUR\nF BRE - MAO",
        "S1901M\nA PAR - BUR\nF BRE - MAO",
        # house II(1) B: 'All orders will be considered preliminary unless marked "Final"'
        "A PAR - BUR\nF BRE - MAO\nFinal",
        "SED 01SF; A PAR - BUR; F BRE - MAO; FINAL",
    ],
)
async def test_a_phase_label_and_a_final_marker_are_understood(opener, text):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules="house")
    reply = await svc.submit(gid, "user-france", text)
    assert reply.accepted, reply.errors
    assert reply.orders == ["A PAR - BUR", "F BRE - MAO"]


@pytest.mark.parametrize(
    ("rules", "label"),
    [("house", "SED 01FF"), ("house", "F1902M"), ("datc", "SED 02UE"), ("datc", "W1901A")],
)
async def test_a_set_labelled_for_another_phase_is_refused(opener, rules, label):
    # house II(2): "The GM is not required to accept order sets that do not meet these
    # requirements" - a set for another phase is refused, not moved to that phase. (A later
    # retreat or adjustment phase is the exception where contingent orders are taken, house
    # II(5): tests/bot/service/orders/test_early_orders.py.)
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules=rules)
    await svc.submit(gid, "user-france", "A PAR H")
    reply = await svc.submit(gid, "user-france", f"{label}\nA PAR - BUR")
    assert not reply.accepted
    assert label in reply.errors[0]
    assert "another phase" in reply.errors[0]
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR H"]  # the old set stands


def test_winter_and_summer_labels_name_the_retreats_and_adjustments():
    # house II(2): '"SED 02UE" = 1902 SUMMER RETREAT ENGLAND', '"SED 04WG" = 1904 WINTER
    # RETREAT & ADJUSTMENT GERMANY'
    assert strip_labels("SED 02UE\nA PAR H", Phase.parse("S1902R")) == ("A PAR H", None)
    assert strip_labels("SED 04WG\nA PAR H", Phase.parse("F1904R")) == ("A PAR H", None)
    assert strip_labels("SED 04WG\nA PAR H", Phase.parse("W1904A")) == ("A PAR H", None)
    assert strip_labels("SED 04WG\nA PAR H", Phase.parse("F1904M"))[1] == "SED 04WG"
    assert strip_labels("A PAR H; F BRE H", Phase.parse("S1901M")) == ("A PAR H; F BRE H", None)


async def test_a_players_own_abbreviations_agreed_with_the_gm_are_read_and_published(opener):
    # gm-order-correction I(1): "a player may submit an individual list of preferred
    # abbreviations with the GM ... Once any additional abbreviations list is agreed between
    # the player and the GM it will be made public to all players at the outset of the game."
    notes = MemoryNotifier()
    svc = await opener(notifier=notes, engine=CoreEngine())
    gid = await seven_player_game(svc, rules="world-masters")
    agreed = await svc.set_abbreviations(gid, "gm", "france", "ch = ENG; pic.y = PIC")
    assert agreed == {"CH": "ENG", "PIC.Y": "PIC"}
    published = [e.payload for e in notes.events if e.kind is EventKind.ABBREVIATIONS_AGREED]
    assert published == [{"power": Power.FRANCE.value, "abbreviations": agreed}]
    reply = await svc.submit(gid, "user-france", "F BRE - ch; A PAR - Pic.y")
    assert reply.accepted, reply.errors
    assert reply.orders == ["F BRE - ENG", "A PAR - PIC"]
    # another player's list is theirs only
    other = await svc.submit(gid, "user-england", "F LON - ch")
    assert not other.accepted


@pytest.mark.parametrize(
    ("entries", "why"),
    [("lon = LON", "cannot be an abbreviation"), ("s = PAR", "cannot read"),
     ("zz = XYZ", "names no province"), ("wmed WES", "cannot read")],
)  # fmt: skip
async def test_a_bad_abbreviation_list_is_refused_whole(opener, entries, why):
    svc = await opener()
    gid = await seven_player_game(svc)
    with pytest.raises(InvalidStateError, match=why):
        await svc.set_abbreviations(gid, "gm", "france", f"wmed = WES; {entries}")
    row = await svc.table.storage.game(gid)
    assert "abbreviations" not in row.meta_json


async def test_abbreviations_are_agreed_at_the_outset_or_before_a_replacements_first_orders(
    opener,
):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR H")
    await svc.adjudicate_now(gid, "gm")
    with pytest.raises(InvalidStateError, match="can no longer change"):
        await svc.set_abbreviations(gid, "gm", "france", "wmed = WES")
    await svc.replace_player(gid, "gm", Power.FRANCE, "newcomer")
    assert await svc.set_abbreviations(gid, "gm", "france", "wmed = WES") == {"WMED": "WES"}
