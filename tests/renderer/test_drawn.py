"""What a hidden-movement map draws (renderer/drawn.py): exactly the viewer's sight, checked
on the data the drawing gets and on the pixels (issue 14: "no hidden unit, order, arrow,
dislodgement, retreat, legend entry ... leaks")."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageChops

from bot.core.model import Position, Power, Unit
from bot.core.stab.report import movement_report
from bot.core.stab.views import GM, PUBLIC, sight
from renderer import Renderer, render_gif
from renderer.drawn import drawn
from renderer.legend import legend_counts
from tests.bot.core.stab.helpers import MAP, phase
from tests.bot.core.stab.test_report import EXAMPLE_CENTRES, EXAMPLE_ORDERS, EXAMPLE_UNITS
from tests.bot.core.stab.test_views import NEVER_PUBLIC, REVEALED, REVEALED_ORDERS

E = Power("ENGLAND")


@pytest.fixture(scope="module")
def example() -> tuple:
    pos, out = phase("F1902M", EXAMPLE_UNITS, EXAMPLE_ORDERS, EXAMPLE_CENTRES)
    return pos, out, movement_report(pos, out, MAP)


def test_the_public_layers_are_the_public_sight(example: tuple) -> None:
    pos, out, report = example
    s = sight(MAP, pos, None, out.results, report, PUBLIC)
    d = drawn(MAP, pos, None, out.results, sight=s)
    assert set(d.position.units) == REVEALED
    assert not set(d.position.units) & NEVER_PUBLIC
    assert {o.canonical() for o in d.orders} == REVEALED_ORDERS
    assert {o.canonical() for o in d.result_of} == REVEALED_ORDERS
    assert dict(d.position.centers) == {}  # no centre coloured by owner (rule 3)
    assert d.marks == {"PIC"}  # its order hidden, its dislodgement reported
    assert dict(d.obscured) == {"PIC": ("support", True)}  # marked `S ?`, cut
    assert not d.retreat_options
    assert d.counts is not None
    assert all(units is None for _, _, units in d.counts)


def test_a_powers_layers_count_only_its_own_units(example: tuple) -> None:
    pos, out, report = example
    d = drawn(MAP, pos, None, out.results, sight=sight(MAP, pos, None, out.results, report, E))
    assert d.counts is not None
    rows = {p: (c, u) for p, c, u in d.counts}
    assert rows[E] == (0, 4)
    assert all(u is None for p, (_, u) in rows.items() if p is not E)
    assert d.marks == frozenset()  # its own F PIC's order is drawn, dislodged with it
    assert dict(d.obscured) == {}
    assert "ENG" in d.position.units
    assert "RUH" not in d.position.units


def test_legend_row_without_units() -> None:
    assert legend_counts(3, None, "en") == "3 SC"
    assert legend_counts(3, 2, "en") == "3 SC · 2 units"
    assert legend_counts(1, None, "fr") == "1 centre"


def _png(r: Renderer, pos: Position, s: object) -> Image.Image:
    png = r.render(pos, sight=s)  # type: ignore[arg-type]
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_hidden_facts_do_not_change_a_single_pixel(example: tuple) -> None:
    """Units and orders the public may not see, added anywhere, leave its map unchanged; the
    GM's map shows them."""
    pos, out, report = example
    r = Renderer(MAP, width=700)
    public = _png(r, pos, sight(MAP, pos, None, out.results, report, PUBLIC))
    extra = [Unit.parse(Power("RUSSIA"), "A MOS"), Unit.parse(Power("TURKEY"), "F ANK")]
    more = Position(pos.phase, {**pos.units, **{u.province: u for u in extra}}, pos.centers)
    orders = {p: list(v) for p, v in EXAMPLE_ORDERS.items()}
    orders["RUSSIA"] = ["A MOS - UKR"]
    pos2, out2 = phase(
        "F1902M",
        {**EXAMPLE_UNITS, "RUSSIA": ["A MOS"], "TURKEY": ["F ANK"]},
        orders,
        EXAMPLE_CENTRES,
    )
    report2 = movement_report(pos2, out2, MAP)
    public2 = _png(r, pos2, sight(MAP, pos2, None, out2.results, report2, PUBLIC))
    assert ImageChops.difference(public, public2).getbbox() is None
    gm = _png(r, more, sight(MAP, pos2, None, out2.results, report2, GM))
    assert ImageChops.difference(public, gm).getbbox() is not None


def test_a_replay_draws_each_frame_as_its_viewer_sees_it(example: tuple) -> None:
    pos, out, report = example
    public = sight(MAP, pos, None, out.results, report, PUBLIC)
    frame = (pos, None, out.results)
    r = Renderer(MAP, width=500)
    hidden = render_gif([frame], renderer=r, width=500, sights=[public])
    shown = render_gif([frame], renderer=r, width=500)
    assert hidden != shown
    alone = Image.open(io.BytesIO(hidden)).convert("RGB")
    assert ImageChops.difference(alone, _png(r, pos, public).resize(alone.size)).getbbox() is None
    with pytest.raises(ValueError, match="sight"):
        render_gif([frame, frame], renderer=r, sights=[public])


def test_a_hidden_support_is_marked_as_the_report_says(example: tuple) -> None:
    pos, out, report = example
    r = Renderer(MAP, width=700)
    public = sight(MAP, pos, None, out.results, report, PUBLIC)
    unmarked = dataclasses.replace(public, obscured={})
    assert ImageChops.difference(_png(r, pos, public), _png(r, pos, unmarked)).getbbox()
