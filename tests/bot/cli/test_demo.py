"""`parley demo` plays a short game through the service and writes results and maps."""

from __future__ import annotations

from bot.cli import main


def test_demo_writes_results_and_maps_for_every_phase(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--years", "1", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    assert str(out) in printed
    texts = sorted(p.name for p in out.glob("*.txt"))
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert texts[:2] == ["01_S1901M.txt", "02_F1901M.txt"]
    assert [t.replace(".txt", ".png") for t in texts] == pngs
    assert all((out / p).read_bytes().startswith(b"\x89PNG") for p in pngs)
    log = (out / "events.log").read_text(encoding="utf-8")
    assert log.count("results_ready") == len(texts)
    assert log.count("game_over") == 1
    # Same seed, same game.
    first = (out / "02_F1901M.txt").read_text(encoding="utf-8")
    assert main(["demo", "--out", str(out), "--years", "1", "--seed", "3"]) == 0
    assert (out / "02_F1901M.txt").read_text(encoding="utf-8") == first


def test_demo_refuses_zero_years(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path), "--years", "0"]) == 2
    assert "--years" in capsys.readouterr().err
