"""Installs like real software: the wheel built from this tree, installed in a fresh venv, runs
`parley parse`, `parley adjudicate` and `parley demo` from an empty folder, reading its maps,
rules, clocks, catalogues, fonts, grammar and migrations from the installed package alone.

The venv is a plain one (no system site-packages, so no editable install of Parley leaks in);
pip fetches the runtime dependencies from its configured index (its cache makes reruns fast)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.install

REPO = Path(__file__).resolve().parents[1]
# Build from a clean copy: a leftover build/ or egg-info in the tree could hide a missing file.
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "tests",
    "demo-out", "out", "*.db*",
)  # fmt: skip
_RUNTIME_FILES = ("bot", "renderer")


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        cmd, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, f"{cmd} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(REPO, src, ignore=_NOT_SOURCE)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp), str(src)], tmp)
    (whl,) = tmp.glob("parley-*.whl")
    return whl


@pytest.fixture(scope="module")
def venv_bin(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    env_dir = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", str(env_dir)], env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    _run([str(bindir / "python"), "-m", "pip", "install", "-q", str(wheel)], env_dir)
    return bindir


def _clean_env() -> dict[str, str]:
    drop = {"PYTHONPATH", "PARLEY_DATA", "PARLEY_DB", "DISCORD_TOKEN"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def test_wheel_carries_every_run_time_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    # data/X ships as parley_data/X; code folders ship as they are (grammar, migrations too).
    shipped = {REPO / "data": "parley_data", **{REPO / top: top for top in _RUNTIME_FILES}}
    missing = [
        f"{where}/{p.relative_to(folder).as_posix()}"
        for folder, where in shipped.items()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
        if f"{where}/{p.relative_to(folder).as_posix()}" not in names
    ]
    assert missing == []
    assert "bot/service/storage/migrations/0001_init.sql" in names
    assert "bot/service/storage/migrations_pg/0001_init.sql" in names
    assert "parley_data/fonts/DejaVuSans-Bold.ttf" in names
    assert not [n for n in names if n.startswith(("tests/", "data/", "bench/", "tools/"))]


def test_installed_wheel_runs_from_an_empty_folder(venv_bin, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    env = _clean_env()
    parley = str(venv_bin / "parley")

    out = _run(
        [parley, "parse", "A Par-Bur", "F Lon to NTH", "army paris supports burgundy"], empty, env
    )
    assert out.splitlines() == ["A PAR - BUR", "F LON - NTH", "A PAR S BUR"]
    out = _run([parley, "parse", "--lang", "fr", "armée Paris soutient Bourgogne"], empty, env)
    assert out.splitlines() == ["A PAR S BOU\tA PAR S BUR"]  # French names, then canonical

    phase = tmp_path / "spring1901.json"
    shutil.copy(REPO / "docs" / "examples" / "spring1901.json", phase)
    for preset in ("datc", "edc2023"):
        doc = json.loads(_run([parley, "adjudicate", "--rules", preset, str(phase)], empty, env))
        verdicts = {r["order"]: r["outcome"] for r in doc["results"]}
        assert verdicts["A BUD - SER"] == "succeeds"
        assert verdicts["A VIE - GAL"] == "fails"  # bounced with Russia's A WAR - GAL

    out = _run([parley, "demo", "--years", "1"], empty, env)
    assert "3 phases played" in out
    made = sorted(p.name for p in (empty / "demo-out").iterdir())
    assert "03_W1901A.png" in made
    assert (empty / "demo-out" / "03_W1901A.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # Everything came from the venv: no source tree, every catalogue and preset readable.
    probe = """
import bot, bot.paths
from bot.core.presets import list_presets, load_rules
from bot.service.clock import clock_names, load_clock
from bot.service.storage.connection import migrations
from bot.i18n import t
from bot.core.messages import catalogue
print(bot.__file__)
print(bot.paths.data_dir())
print(*[load_rules(p).name for p in list_presets()])
print(*[load_clock(c).name for c in clock_names()])
print(len(migrations()))
print(t("game.player_line", "fr", power="F", user="u"), len(catalogue("fr")) > 0)
"""
    lines = _run([str(venv_bin / "python"), "-c", probe], empty, env).splitlines()
    site = str(venv_bin.parent)
    assert lines[0].startswith(site)
    assert lines[1].startswith(site)
    assert lines[1].endswith("parley_data")
    assert lines[2].split() == sorted(p.stem for p in (REPO / "data" / "rules").glob("*.toml"))
    assert lines[3].split() == sorted(p.stem for p in (REPO / "data" / "clocks").glob("*.toml"))
    migrations = REPO / "bot" / "service" / "storage" / "migrations"
    assert int(lines[4]) == len(list(migrations.glob("*.sql")))
    assert lines[5] == "F : u True"  # the French catalogue, with its space before the colon
