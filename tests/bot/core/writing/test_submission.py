"""The pure submission decisions (bot/core/writing/submission.py) and the XXX refusal, by preset."""

from __future__ import annotations

from bot.core.language.interpret import submission_problems
from bot.core.language.parser import parse_order
from bot.core.map import load_map
from bot.core.messages import render
from bot.core.model import Power
from bot.core.presets import load_rules
from bot.core.writing.submission import Combine, accepts_orders, combine_mode, keeps_readable_orders

STD = load_map("standard")


def test_late_orders_until_the_adjudication_starts_under_house_only():
    # house-rules VII(3) Alternative B: "accepted until the start of adjudication".
    house, datc = load_rules("house"), load_rules("datc")
    late = {"now": 200.0, "deadline": 100.0, "paused_at": None}
    assert accepts_orders(house, status="open", **late)
    assert not accepts_orders(datc, status="open", **late)
    assert not accepts_orders(house, status="adjudicating", **late)
    assert accepts_orders(datc, status="open", now=50.0, deadline=100.0, paused_at=None)
    # A paused game's clock stopped at the pause.
    assert accepts_orders(datc, status="open", now=500.0, deadline=100.0, paused_at=90.0)


def test_a_set_sent_before_the_deadline_is_taken_while_read_within_the_grace():
    # Issue 19: judged by when the player sent it, read at most `grace` seconds late.
    datc = load_rules("datc")
    at = {"status": "open", "deadline": 100.0, "paused_at": None, "grace": 2.0}
    assert accepts_orders(datc, now=101.5, sent=99.5, **at)  # sent in time, read late
    assert not accepts_orders(datc, now=101.5, sent=100.0, **at)  # sent at the deadline
    assert not accepts_orders(datc, now=102.0, sent=99.5, **at)  # the grace is over
    assert not accepts_orders(datc, now=101.5, **at)  # no time of sending: read late
    # Adjudication started: nothing more is taken, sent in time or not.
    assert not accepts_orders(datc, **{**at, "status": "adjudicating"}, now=100.5, sent=99.0)
    # Paused after the deadline, within the grace: the clock stands at the pause.
    assert accepts_orders(datc, **{**at, "paused_at": 101.0}, now=500.0, sent=99.0)


def test_order_sets_4d1_by_preset():
    assert combine_mode(load_rules("datc"), merge_requested=False) is Combine.REPLACE
    assert combine_mode(load_rules("datc"), merge_requested=True) is Combine.BY_UNIT
    # stabbeurfou 4.D.1 'SF a': "sets are combined".
    assert combine_mode(load_rules("stabbeurfou"), merge_requested=False) is Combine.APPEND
    # house-rules III(4) Alternative A: previous order sets are disregarded.
    assert combine_mode(load_rules("house"), merge_requested=False) is Combine.REPLACE
    assert combine_mode(load_rules("house"), merge_requested=True) is Combine.REFUSE


def test_unreadable_lines_void_under_edc_only():
    # edc-2023 E: "an unambiguous order must be applied and an order deemed ambiguous not
    # applied".
    assert keeps_readable_orders(load_rules("edc2023"), readable=1)
    assert not keeps_readable_orders(load_rules("edc2023"), readable=0)
    assert not keeps_readable_orders(load_rules("datc"), readable=1)


def test_xxx_refused_under_stabbeurfou_a_hold_under_edc():
    # stabbeurfou 2(h): 'The sequence "XXX" is refused by the system.'
    # edc-2023 G: "Defend: H, T or xxx."
    pos = STD.start
    order = parse_order("A PAR XXX", power=Power.FRANCE, position=pos, game_map=STD)
    assert order.canonical() == "A PAR H"
    sf = submission_problems(pos, [order], load_rules("stabbeurfou"), STD)
    assert [p.key for p in sf] == ["refusal.xxx"]
    assert submission_problems(pos, [order], load_rules("edc2023"), STD) == []
    written_h = parse_order("A PAR H", power=Power.FRANCE, position=pos, game_map=STD)
    assert submission_problems(pos, [written_h], load_rules("stabbeurfou"), STD) == []


def test_gm_order_correction_i5_the_last_order_is_used_even_illegal():
    # gm-order-correction-rules I(5): "In the event that a unit is ordered more than once, the
    # last order reading from top to bottom (left to right) of the order set will be used."
    # I(3): "Any unit adjudged by the GM to have been ordered illegally will be presumed to
    # have been ordered to hold." Read literally (the preset's default, docs/rules.md): the
    # last order, illegal, is the one used, and the unit holds.
    from bot.core.language.interpret import adjudicate_interpreted  # noqa: PLC0415

    pos = STD.start
    orders = [
        parse_order(t, power=Power.FRANCE, position=pos, game_map=STD)
        for t in ("A PAR - BUR", "A PAR - MUN")
    ]
    wm = load_rules("world-masters")
    assert wm.duplicates_count_illegal_orders is True
    out, decisions = adjudicate_interpreted(pos, orders, wm, STD)
    assert "BUR" not in out.position.units
    assert out.position.units["PAR"].power is Power.FRANCE
    # The player is told why, in the game's language.
    from bot.core.messages import render as say  # noqa: PLC0415

    (why,) = [d.message for d in decisions if d.message is not None]
    assert "the last one given is used, even if it is invalid" in say(why, "en", STD)
    assert "le dernier donné est retenu, même invalide" in say(why, "fr", STD)
    # The other reading, kept as a key: the illegal order is disregarded, the last legal used.
    other = wm.with_options(duplicates_count_illegal_orders=False)
    out, _ = adjudicate_interpreted(pos, orders, other, STD)
    assert "BUR" in out.position.units
    assert out.position.units["BUR"].power is Power.FRANCE


def test_irrelevant_coast_refused_under_stabbeurfou_ignored_elsewhere():
    # stabbeurfou 4.B.6 'SF a': "«Stabbeurfou» rejects any coast specification if none is
    # requested." The reading keeps what was written until the rule set has ruled.
    pos = STD.start
    texts = ("A PAR - BUR/NC", "F BRE/NC - MAO")
    orders = [parse_order(t, power=Power.FRANCE, position=pos, game_map=STD) for t in texts]
    assert [o.canonical() for o in orders] == ["A PAR - BUR", "F BRE - MAO"]
    assert [o.irrelevant_coasts for o in orders] == [("BUR",), ("BRE",)]
    sf = submission_problems(pos, orders, load_rules("stabbeurfou"), STD)
    assert [p.key for p in sf] == ["refusal.no_coast_here"] * 2
    assert render(sf[0], "en", STD) == (
        "A PAR - BUR/NC: BUR has no coasts: write none (a coast is refused where none is asked)"
    )
    assert render(sf[1], "fr", STD).startswith("F BRE/NC - MAO : BRE n'a pas de côtes :")
    # Every other preset ignores the coast (4.B.6 b): nothing to refuse.
    for name in ("datc", "edc2023", "house", "world-masters", "stab"):
        assert submission_problems(pos, orders, load_rules(name), STD) == [], name
    # A coast that is asked for is no problem under stabbeurfou either.
    asked = parse_order("F STP/SC - BOT", power=Power.RUSSIA, position=pos, game_map=STD)
    assert asked.irrelevant_coasts == ()
    assert submission_problems(pos, [asked], load_rules("stabbeurfou"), STD) == []


def test_poorly_written_orders_b_reads_the_set_as_a_whole():
    # house-rules III(1) Alternative B: "Order sets and individual orders will be adjudicated
    # with a presumption being made that each player wishes to submit a complete set of
    # valid orders" (poorly_written_orders = "b", DATC 4.E.2 b: judge the orders as a set).
    from bot.core.language.parser import parse_orders  # noqa: PLC0415
    from bot.core.model import Phase, Position, Unit  # noqa: PLC0415
    from bot.service.engine import CoreEngine  # noqa: PLC0415
    from bot.service.orders.intake import read_set  # noqa: PLC0415

    france = Power.FRANCE
    pos = Position.build(Phase.parse("S1901M"), [Unit.parse(france, u) for u in ("F MAO", "F POR")])
    text = "F MAO - SPA\nF POR S F MAO - SPA/NC"
    # b: the support names the coast the move left out (two are reachable from MAO).
    house = read_set(CoreEngine(), text, "en", france, pos, STD, load_rules("house"))
    assert (house.errors, [o.canonical() for o in house.orders]) == (
        [],
        ["F MAO - SPA/NC", "F POR S F MAO - SPA/NC"],
    )
    # a (datc, each order by itself): the move is unreadable and the set refused.
    datc = read_set(CoreEngine(), text, "en", france, pos, STD, load_rules("datc"))
    assert [o.canonical() for o in datc.orders] == ["F POR S F MAO - SPA/NC"]
    assert len(datc.errors) == 1
    assert datc.errors[0].startswith("F MAO - SPA: ")
    # b, but the set names both coasts for that move: it does not say, the line stays unread.
    both = "F MAO - SPA\nF POR S F MAO - SPA/NC\nF POR S F MAO - SPA/SC"
    torn = parse_orders(both, power=france, position=pos, game_map=STD, as_set=True)
    assert [e.text for e in torn.errors] == ["F MAO - SPA"]
    # b reads only the power's own orders: another power's support says nothing.
    sheet = "France:\nF MAO - SPA\nEngland:\nF POR S F MAO - SPA/NC"
    other = parse_orders(sheet, position=pos, game_map=STD, as_set=True)
    assert [e.text for e in other.errors] == ["F MAO - SPA"]
