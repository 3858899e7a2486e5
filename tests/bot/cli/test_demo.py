"""`parley demo` plays a short game through the service and writes results and maps."""

from __future__ import annotations

import re

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


def test_demo_files_read_well_for_a_new_user(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--years", "1", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    # The console ends with what the game came to and where every file is.
    assert "Game over, no winner: the last game year, 1901, has been played." in printed
    assert re.search(r"^Centres: [A-Z][a-z]+ \d+, ", printed, re.MULTILINE)
    assert "01_S1901M.png … " in printed
    assert "events.log" in printed
    # events.log: readable UTC times, no epoch floats.
    log = (out / "events.log").read_text(encoding="utf-8")
    assert not re.search(r"\d{10}\.\d+", log)
    assert re.search(r"deadline=\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ", log)
    assert "map_error=," not in log  # empty values are left out
    assert "skipped=[]" not in log
    # Results: the phase described, powers named as in the game's language, results notation.
    first = (out / "01_S1901M.txt").read_text(encoding="utf-8").splitlines()
    assert first[0] == "Results: Spring 1901 Movement"
    assert "Austria:" in first
    centres = next(x for x in first if x.startswith("Centres:"))
    assert "AUSTRIA" not in centres
    assert "Austria 3" in centres
    assert first[-1] == "Next: Fall 1901 Movement"
    last = sorted(out.glob("*.txt"))[-1].read_text(encoding="utf-8").splitlines()
    assert last[-1] == "Game over: the last game year, 1901, has been played"


def test_demo_in_french_names_powers_and_phases_in_french(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--years", "1", "--lang", "fr"]) == 0
    printed = capsys.readouterr().out
    assert "Autriche" in printed
    # The console summary too is wholly in French.
    assert printed.startswith("Démo Parley : 3 phases jouées et résolues hors ligne en ")
    assert (
        "Fin de la partie, sans vainqueur : la dernière année de jeu, 1901, a été jouée." in printed
    )
    assert "résultats de chaque phase" in printed
    for english in ("phases played", "Winner", "Files in", "every announcement", "map of each"):
        assert english not in printed
    first = (out / "01_S1901M.txt").read_text(encoding="utf-8").splitlines()
    assert first[0] == "Résultats : Printemps 1901 Mouvements"
    assert "Autriche :" in first
    assert any(x.startswith("Centres : ") and "Autriche" in x for x in first)
    assert first[-1] == "Phase suivante : Automne 1901 Mouvements"
    last = sorted(out.glob("*.txt"))[-1].read_text(encoding="utf-8").splitlines()
    assert last[-1] == "Fin de la partie : la dernière année de jeu, 1901, a été jouée"
