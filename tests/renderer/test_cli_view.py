"""`parley render --view POWER|public|gm` (issue 14: "draws what that viewer may see")."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.cli import main
from tests.bot.core.stab.test_report import EXAMPLE_ORDERS, EXAMPLE_UNITS

DOC = {
    "position": {
        "phase": "F1902M",
        "units": EXAMPLE_UNITS,
        "centers": {"FRANCE": ["BRE"], "GERMANY": ["HOL"]},
    },
    "orders": EXAMPLE_ORDERS,
}


def _render(tmp_path: Path, name: str, *args: str) -> Image.Image:
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(DOC), encoding="utf-8")
    out = tmp_path / f"{name}.png"
    assert main(["render", str(doc), "--width", "600", "-o", str(out), *args]) == 0
    return Image.open(io.BytesIO(out.read_bytes())).convert("RGB")


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def test_each_view_draws_something_else(tmp_path: Path) -> None:
    gm = _render(tmp_path, "gm", "--rules", "stab", "--view", "gm")
    public = _render(tmp_path, "public", "--rules", "stab", "--view", "public")
    england = _render(tmp_path, "england", "--rules", "stab", "--view", "England")
    assert not _same(gm, public)
    assert not _same(england, public)
    assert not _same(england, gm)
    assert _same(_render(tmp_path, "none", "--rules", "stab"), gm)  # no --view: the GM's


def test_hidden_units_leave_the_public_map_unchanged(tmp_path: Path) -> None:
    public = _render(tmp_path, "public", "--rules", "stab", "--view", "public")
    DOC["position"]["units"] = {**EXAMPLE_UNITS, "RUSSIA": ["A MOS", "F SEV"]}  # type: ignore[index]
    try:
        more = _render(tmp_path, "more", "--rules", "stab", "--view", "public")
        gm = _render(tmp_path, "more_gm", "--rules", "stab", "--view", "gm")
    finally:
        DOC["position"]["units"] = EXAMPLE_UNITS  # type: ignore[index]
    assert _same(public, more)
    assert not _same(public, gm)


def test_a_stab_results_file_makes_the_game_hidden(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"results": [], "reports": {"public": {}}}))
    by_file = _render(tmp_path, "file", "--results", str(results), "--view", "public")
    assert _same(by_file, _render(tmp_path, "rules", "--rules", "stab", "--view", "public"))


def test_an_ordinary_game_takes_gm(tmp_path: Path) -> None:
    gm = _render(tmp_path, "gm", "--view", "gm")
    assert _same(gm, _render(tmp_path, "all"))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--view", "narnia", "--rules", "stab"], "narnia"),
        (["--rules", "nosuchpreset"], "nosuchpreset"),
    ],
)
def test_bad_view_or_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str], args, said) -> None:
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(DOC), encoding="utf-8")
    out = tmp_path / "x.png"
    assert main(["render", str(doc), "-o", str(out), *args]) == 2
    assert said in capsys.readouterr().err
    assert not out.exists()
