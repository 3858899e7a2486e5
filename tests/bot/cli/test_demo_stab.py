"""`parley demo --variant stab` (issue 14): each phase's views, and no hidden fact in what the
public gets (checked against the GM's full results, not against the code that hides)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
_UNIT = re.compile(r"^([AF]) ([A-Z]{3})(?:/[A-Z]{2})? (.*)$")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stab") / "demo"
    assert main(["demo", "--variant", "stab", "--out", str(out), "--years", "1"]) == 0
    return out


def _gm_orders(folder: Path) -> list[tuple[str, str, str]]:
    """(unit type, province, rest of the line) of every order in the GM's results."""
    out = []
    for line in (folder / "gm.txt").read_text(encoding="utf-8").splitlines():
        m = _UNIT.match(line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3)))
    return out


def test_every_phase_has_each_view(demo: Path) -> None:
    folders = sorted(p for p in demo.iterdir() if p.is_dir())
    names = [p.name for p in folders]
    assert names[0] == "01_S1901M"
    assert names[-1] == "05_W1901A"
    assert any(n.endswith("R") for n in names)  # a retreat phase, with the seed's default
    for folder in folders:
        for view in ("gm", "public", *POWERS):
            assert (folder / f"{view}.png").read_bytes().startswith(b"\x89PNG")
            assert (folder / f"{view}.txt").read_text(encoding="utf-8").strip()


def test_the_demo_is_deterministic(demo: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert main(["demo", "--variant", "stab", "--out", str(again), "--years", "1"]) == 0
    for folder in sorted(p for p in demo.iterdir() if p.is_dir()):
        for f in folder.glob("*.txt"):
            assert (again / folder.name / f.name).read_text() == f.read_text(), f


def test_no_uncontested_move_is_published(demo: Path) -> None:
    """Rule 2: "Only contested movements are reported": a unit that moved where no other unit
    moved or stood, and that nobody attacked, is named in no public text."""
    checked = 0
    for folder in sorted(demo.glob("*M")):
        orders = _gm_orders(folder)
        public = (folder / "public.txt").read_text(encoding="utf-8")
        for kind, pid, rest in orders:
            m = re.fullmatch(r"- ([A-Z]{3})(?:/[A-Z]{2})?", rest)  # a move, no note: it succeeded
            if m is None:
                continue
            dest = m.group(1)
            rivals = [p for _, p, r in orders if p != pid and re.match(rf"- {dest}\b", r)]
            attacked = [p for _, p, r in orders if re.match(rf"- {pid}\b", r)]
            left = [p for _, p, r in orders if p == dest and r.startswith("- ") and ";" not in r]
            stood = [p for _, p, _ in orders if p == dest and p not in left]
            if not rivals and not attacked and not stood:
                assert not re.search(rf"\b{kind} {pid}\b", public), (folder.name, pid)
                checked += 1
    assert checked > 5


def test_no_retreat_destination_and_no_winter_detail_is_published(demo: Path) -> None:
    retreats = 0
    for folder in demo.glob("*R"):
        retreats += (folder / "gm.txt").read_text(encoding="utf-8").count(" R ")
        assert " R " not in (folder / "public.txt").read_text(encoding="utf-8")
    assert retreats  # some unit retreated: the GM sees where, the public does not
    winter = (demo / "05_W1901A" / "public.txt").read_text(encoding="utf-8").splitlines()
    # Rule 3: "the seven supply centre totals for each power, but will not reveal who owns
    # which supply centre": no province, no unit, no build.
    assert not any(re.search(r"\b[A-Z]{3}\b", line) for line in winter)
    assert "Centre totals: Austria" in winter[1]
    russia = (demo / "05_W1901A" / "RUSSIA.txt").read_text(encoding="utf-8")
    assert "Your centres: " in russia  # rule 5: "which supply centres he owns"
