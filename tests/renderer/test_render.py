"""The renderer: languages, views, palettes, failed orders, GIF; and that it needs only the JSON."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from PIL import Image, ImageChops

from bot.core.map import load_map
from bot.core.model import Location, Position, Power, Unit, UnitType
from bot.core.orders import Move, UnitRef
from bot.core.outcome import OrderResult, Reason, Verdict
from renderer import PUBLIC, Renderer, render, render_gif
from renderer.render import DISLODGED, FAIL, KEY_LABELS
from tests.renderer import scenes

GM = load_map("standard")


@pytest.fixture(scope="module")
def rend() -> Renderer:
    return Renderer(GM, width=900)


def _img(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _differs(a: bytes, b: bytes) -> bool:
    return ImageChops.difference(_img(a), _img(b)).getbbox() is not None


def test_start_position_renders_as_png_at_full_width() -> None:
    png = render(GM, None, GM.start)
    assert png.startswith(b"\x89PNG")
    assert _img(png).size[0] == 1600


def test_languages_differ_in_labels_and_title(rend: Renderer) -> None:
    en = _img(rend.render(GM.start, lang="en"))
    fr = _img(rend.render(GM.start, lang="fr"))
    assert en.size == fr.size

    def around(img: Image.Image, pid: str) -> Image.Image:
        x, y = rend.geometry.provinces[pid].label
        s = img.size[0] / rend.geometry.width
        return img.crop(
            (round((x - 14) * s), round((y - 7) * s), round((x + 14) * s), round((y + 7) * s))
        )

    def change(pid: str) -> int:
        return max(
            hi for _, hi in ImageChops.difference(around(en, pid), around(fr, pid)).getextrema()
        )

    # North Africa is MAR in the French nomenclature; Paris is PAR in both (up to the shades
    # the label quantisation picks).
    assert rend.label("NAF", "fr") == "MAR"
    assert change("NAF") > 100
    assert change("PAR") < 40


def test_public_view_hides_pending_orders_and_a_power_sees_its_own(rend: Renderer) -> None:
    pos, orders, _ = scenes.movement()
    bare = rend.render(pos)
    assert not _differs(rend.render(pos, orders, view=PUBLIC), bare)
    french = [o for o in orders if o.power is Power.FRANCE]
    assert not _differs(rend.render(pos, orders, view=Power.FRANCE), rend.render(pos, french))
    assert _differs(rend.render(pos, orders, view=Power.FRANCE), bare)


def test_after_adjudication_every_view_shows_every_order(rend: Renderer) -> None:
    pos, orders, results = scenes.movement()
    assert not _differs(
        rend.render(pos, orders, results, view=PUBLIC), rend.render(pos, orders, results)
    )


def test_a_failed_order_is_drawn_differently(rend: Renderer) -> None:
    pos, orders, _ = scenes.movement()
    move = next(o for o in orders if o.canonical() == "A PAR - BUR")
    ok = [OrderResult(move.power, move, Verdict.SUCCEEDS)]
    bad = [OrderResult(move.power, move, Verdict.FAILS, Reason.BOUNCED)]
    assert _differs(rend.render(pos, [move], ok), rend.render(pos, [move], bad))


def test_colour_blind_palette_changes_the_colours(rend: Renderer) -> None:
    assert _differs(rend.render(GM.start), rend.render(GM.start, palette="colorblind"))


def test_static_layers_are_built_once_per_language_and_width(rend: Renderer) -> None:
    rend.render(GM.start, lang="en")
    first = rend.static("en", 900)
    rend.render(GM.start, lang="en")
    assert rend.static("en", 900) is first
    assert rend.static("fr", 900) is not first


def test_gif_of_a_game(rend: Renderer) -> None:
    mv, orders, results = scenes.movement()
    gif = render_gif(
        [GM.start, (mv, orders, results), scenes.adjustment()], width=400, renderer=rend
    )
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF"
    assert img.n_frames == 3
    assert img.size[0] == 400


def test_renderer_needs_no_geographic_library() -> None:
    # The generator's libraries are blocked: rendering must read only the committed JSON.
    code = (
        "import sys\n"
        "for m in ('shapely', 'numpy', 'shapefile'): sys.modules[m] = None\n"
        "from bot.core.map import load_map\n"
        "from renderer import render\n"
        "png = render(load_map('standard'), None, load_map('standard').start, width=300)\n"
        "assert png.startswith(b'\\x89PNG')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_hidden_units_are_not_drawn(rend: Renderer) -> None:
    pos, orders, results = scenes.movement()
    everywhere = set(GM.provinces)
    assert not _differs(
        rend.render(pos, orders, results, visible=everywhere), rend.render(pos, orders, results)
    )
    # Without Paris in sight, France's army there and its move are gone from the picture.
    no_paris = rend.render(pos, orders, results, visible=everywhere - {"PAR"})
    assert _differs(no_paris, rend.render(pos, orders, results))
    others = [o for o in orders if o.canonical() != "A PAR - BUR"]
    units = {p: u for p, u in pos.units.items() if p != "PAR"}
    bare = Position(pos.phase, units, pos.centers)
    assert not _differs(no_paris, rend.render(bare, others, results))


def test_a_variant_on_the_standard_board_uses_the_standard_geometry() -> None:
    six = load_map("sandard")
    png = render(six, None, six.start, width=500)
    assert _img(png).size[0] == 500
    assert Power.TURKEY not in six.powers


@pytest.mark.parametrize(
    ("centres", "units", "lang", "expected"),
    [
        (2, 1, "en", "2 SC · 1 unit"),
        (1, 0, "en", "1 SC · 0 units"),
        (10, 10, "en", "10 SC · 10 units"),
        (2, 1, "fr", "2 centres · 1 unité"),
        (1, 0, "fr", "1 centre · 0 unité"),
        (10, 10, "fr", "10 centres · 10 unités"),
    ],
)
def test_legend_counts_agree_in_number(centres: int, units: int, lang: str, expected: str) -> None:
    from renderer.render import legend_counts  # noqa: PLC0415

    assert legend_counts(centres, units, lang) == expected


def _label_pixels(rend: Renderer, img: Image.Image, pid: str) -> list[object]:
    """The opaque pixels of a province's label (text and halo) in a picture."""
    st = rend.static("en", 900)
    box = st.label_boxes[pid]
    mask = st.label_mask.crop(box)
    crop = img.crop(box)
    return [
        crop.getpixel((x, y))
        for y in range(crop.size[1])
        for x in range(crop.size[0])
        if mask.getpixel((x, y))
    ]


def test_arrows_leave_destination_labels_readable(rend: Renderer) -> None:
    # F EDI - NWG, F SEV/ANK - BLA, F STP - BOT...: every label of an empty destination (an
    # arrow into an occupied one stops at the unit) is drawn exactly as on the bare map.
    pos, orders, results = scenes.movement()
    bare = _img(rend.render(pos))
    drawn = _img(rend.render(pos, orders, results))
    dests = {o.dest.province for o in orders if isinstance(o, Move)} - set(pos.units)
    assert {"NWG", "BLA", "BOT"} <= dests
    for pid in sorted(dests):
        assert _label_pixels(rend, drawn, pid) == _label_pixels(rend, bare, pid), pid


def _count(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> int:
    crop = img.crop(box)
    return sum(
        1
        for y in range(crop.size[1])
        for x in range(crop.size[0])
        if crop.getpixel((x, y)) == colour
    )


def test_a_failed_move_is_crossed_in_red_and_a_support_is_not(rend: Renderer) -> None:
    pos, orders, _ = scenes.movement()
    move = next(o for o in orders if o.canonical() == "A MUN - BUR")
    support = next(o for o in orders if o.canonical() == "A MAR S A PAR - BUR")
    failed = _img(
        rend.render(pos, [move], [OrderResult(move.power, move, Verdict.FAILS, Reason.BOUNCED)])
    )
    ok = [OrderResult(support.power, support, Verdict.SUCCEEDS)]
    supported = _img(rend.render(pos, [support], ok))
    whole = (0, 0, failed.size[0], failed.size[1])
    assert _count(failed, FAIL, whole) > _count(supported, FAIL, whole) + 10


def test_a_dislodged_unit_is_ringed_and_named(rend: Renderer) -> None:
    pos, _, _ = scenes.retreat()
    bare = Position(pos.phase, pos.units, pos.centers)
    s = 900 / rend.geometry.width
    x, y = rend.geometry.provinces["BUR"].anchor
    # The word sits above the unit, which sits up and to the right of the anchor.
    box = (round((x - 10) * s), round((y - 45) * s), round((x + 40) * s), round((y + 5) * s))
    fr = _img(rend.render(pos, lang="fr"))
    assert _count(fr, FAIL, box) > 40
    assert _count(_img(rend.render(bare, lang="fr")), FAIL, box) == 0
    assert _differs(rend.render(pos, lang="fr"), rend.render(pos, lang="en"))


def test_the_legend_keys_every_style_in_each_language() -> None:
    assert set(KEY_LABELS) == {"en", "fr"}
    for lang, labels in KEY_LABELS.items():
        assert len(labels) == 9, lang
        assert len(set(labels)) == 9, lang
    assert KEY_LABELS["fr"][1] == "soutien"
    assert DISLODGED["fr"] == "délogée"


def test_the_legend_key_is_drawn(rend: Renderer) -> None:
    # The key's samples are in the legend box, under the powers: the failed sample's red cross.
    img = _img(rend.render(GM.start))
    s = 900 / rend.geometry.width
    legend = (0, round(130 * s), round(300 * s), round(260 * s))
    assert _count(img, FAIL, legend) > 10


def test_a_hidden_unit_does_not_tint_its_province(rend: Renderer) -> None:
    # Burgundy is no supply centre: a unit there tints it in its power's colour when seen.
    hidden = Unit(Power.GERMANY, UnitType.ARMY, Location("BUR"))
    pos = Position(GM.start.phase, {**GM.start.units, "BUR": hidden}, GM.start.centers)
    sight = set(GM.provinces) - {"BUR"}
    assert _differs(rend.render(pos), rend.render(GM.start))
    assert not _differs(rend.render(pos, visible=sight), rend.render(GM.start, visible=sight))


@pytest.mark.parametrize(("width", "lang"), [(550, "en"), (1600, "en"), (1600, "fr")])
def test_the_legend_never_hides_a_unit(width: int, lang: str) -> None:
    # The legend sits over the North Atlantic: it shrinks rather than cover NAO's fleet.
    r = Renderer(GM, width=width)
    fleet = Unit(Power.ENGLAND, UnitType.FLEET, Location("NAO"))
    empty = Position(GM.start.phase, {}, {})
    with_fleet = Position(GM.start.phase, {"NAO": fleet}, {})
    diff = ImageChops.difference(
        _img(r.render(with_fleet, lang=lang)), _img(r.render(empty, lang=lang))
    )
    x, y = r.geometry.provinces["NAO"].anchor
    s = width / r.geometry.width
    around = diff.crop(
        (round((x - 8) * s), round((y - 8) * s), round((x + 8) * s), round((y + 8) * s))
    )
    assert around.getbbox() is not None  # the fleet is drawn where it stands


@pytest.mark.parametrize("width", [550, 900, 1600])
def test_a_short_move_has_its_head_clear_of_the_destination_label(width: int) -> None:
    # issue 16: "a successful short move (VIE→BOH) is a 25 px stub with its head hidden"
    # under BOH's label (pasted back over the line). The arrow stops before the label: no
    # pixel of the label's box changes, and the arrow is drawn between the two units.
    r = Renderer(GM, width=width)
    pos = GM.start
    move = Move(Power.AUSTRIA, UnitRef.of(pos.units["VIE"]), Location("BOH"))
    bare = _img(r.render(pos))
    drawn = _img(r.render(pos, [move], [OrderResult(Power.AUSTRIA, move, Verdict.SUCCEEDS)]))
    changed = ImageChops.difference(bare, drawn).convert("L").point(lambda v: 255 if v else 0)
    x0, y0, x1, y1 = r.static("en", width).label_boxes["BOH"]
    assert changed.crop((x0 + 1, y0 + 1, x1 - 1, y1 - 1)).getbbox() is None
    s = width / r.geometry.width
    (vx, vy), (bx, by) = r.geometry.provinces["VIE"].anchor, r.geometry.provinces["BOH"].anchor
    between = (round(bx * s), round(by * s), round(vx * s), round(vy * s))
    assert changed.crop(between).histogram()[255] > 20 * s * s  # the arrow is there
