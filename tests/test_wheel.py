"""Installs like real software: the wheel built from this tree, installed in a fresh venv, runs
`parley parse`, `parley adjudicate` and `parley demo` from an empty folder, reading its maps,
rules, clocks, catalogues, fonts, grammar and migrations from the installed package alone.

The wheel carries the batch path compiled (setup.py, issue 18), and its results are the source's
byte for byte; without a C compiler, or with PARLEY_PURE=1, the wheel is the pure-Python one.

The venv is a plain one (no system site-packages, so no editable install of Parley leaks in);
pip fetches the runtime dependencies from its configured index (its cache makes reruns fast).
The compiled wheel is built once a run by tests/run.sh (tests/build_wheel.py), which also runs
the game core's and CLI's tests with it installed; alone, this module builds its own."""

from __future__ import annotations

import gzip
import json
import os
import re
import runpy
import shutil
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

from tests.build_wheel import REPO, build, run
from tests.build_wheel import fresh_venv as fresh_venv_in

pytestmark = pytest.mark.install

_RUNTIME_FILES = ("bot", "renderer")
NATIVE_MODULES: list[str] = runpy.run_path(str(REPO / "setup.py"), run_name="t")["NATIVE_MODULES"]
# What setuptools compiles with; without it the wheel is the pure one (setup.py).
_HAS_CC = bool(
    shutil.which((os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0])
)


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv's bin folder: nothing installed, as a user starts."""
    return fresh_venv_in(tmp_path_factory.mktemp("venv") / "venv")


@pytest.fixture(scope="module")
def wheel(fresh_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled wheel. tests/run.sh builds it once a run, beside the other tests, and names
    the file that will say where it is (PARLEY_TEST_WHEEL, tests/build_wheel.py); alone, this
    module builds its own."""
    if promise := os.environ.get("PARLEY_TEST_WHEEL"):
        return _awaited(Path(promise))
    return build(fresh_venv, tmp_path_factory.mktemp("wheel"))[0]


def _awaited(promise: Path, minutes: int = 20) -> Path:
    failed = promise.with_suffix(".failed")
    for _ in range(minutes * 60 * 4):
        if promise.exists():
            return Path(promise.read_text(encoding="utf-8"))
        if failed.exists():
            pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
        time.sleep(0.25)
    pytest.fail(f"no wheel after {minutes} minutes ({promise})", pytrace=False)


def _compiled(names: set[str]) -> list[str]:
    return sorted(n for n in names if n.endswith((".so", ".pyd")))


def _installed_path(name: str) -> str:
    """A wheel member's path once installed: a `NAME.data/purelib/` or `platlib/` prefix taken
    off (a wheel tagged for a platform keeps its pure files there, and the other way round)."""
    return re.sub(r"^[^/]+\.data/(?:pure|plat)lib/", "", name)


def _module(name: str) -> str:
    """The module a wheel member is, from its installed path: `bot/core/model` for its .so."""
    return _installed_path(name).split(".", 1)[0]


@pytest.fixture(scope="module")
def venv_bin(wheel: Path, fresh_venv: Path) -> Path:
    run([str(fresh_venv / "python"), "-m", "pip", "install", "-q", str(wheel)], fresh_venv)
    return fresh_venv


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


def test_wheel_is_this_trees(wheel):
    """Each file it ships is the tree's, byte for byte: a wheel handed in by tests/run.sh is
    this run's, not a stale one."""
    differ = []
    with zipfile.ZipFile(wheel) as whl:
        for name in whl.namelist():
            path = _installed_path(name)
            top, _, rest = path.partition("/")
            if top == "parley_data":
                source = REPO / "data" / rest
            elif top in (*_RUNTIME_FILES, "cogs") and not path.endswith((".so", ".pyd")):
                source = REPO / path
            else:  # the metadata, the compiled modules
                continue
            if not source.is_file() or source.read_bytes() != whl.read(name):
                differ.append(path)
    assert differ == []


def test_wheel_carries_the_compiled_batch_path(wheel):
    if not _HAS_CC:
        pytest.skip("no C compiler: this machine builds the pure wheel (tested below)")
    compiled = _compiled(set(zipfile.ZipFile(wheel).namelist()))
    # One small module per source, and the one shared library they all import.
    assert sorted(map(_module, compiled)) == sorted(
        [m.removesuffix(".py") for m in NATIVE_MODULES] + ["parley__mypyc"]
    )
    assert "-py3-none-any" not in wheel.name  # a compiled wheel is for this platform only


@pytest.mark.parametrize(
    "env",
    [{"CC": "false"}, {"PARLEY_PURE": "1"}],
    ids=["no-compiler", "PARLEY_PURE"],
)
def test_the_wheel_falls_back_to_pure_python(env, fresh_venv, tmp_path):
    whl, log = build(fresh_venv, tmp_path, env)
    names = set(zipfile.ZipFile(whl).namelist())
    assert _compiled(names) == []
    # Every compiled module's source is there.
    py = set(map(_installed_path, names))
    assert not [m for m in NATIVE_MODULES if m not in py]
    if "CC" in env:  # the user is told why it is slower
        assert "parley: the compiled batch path could not be built" in log


def test_installed_wheel_runs_from_an_empty_folder(venv_bin, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    env = _clean_env()
    parley = str(venv_bin / "parley")

    out = run(
        [parley, "parse", "A Par-Bur", "F Lon to NTH", "army paris supports burgundy"], empty, env
    )
    assert out.splitlines() == ["A PAR - BUR", "F LON - NTH", "A PAR S BUR"]
    out = run([parley, "parse", "--lang", "fr", "armée Paris soutient Bourgogne"], empty, env)
    assert out.splitlines() == ["A PAR S BOU\tA PAR S BUR"]  # French names, then canonical

    phase = tmp_path / "spring1901.json"
    shutil.copy(REPO / "docs" / "examples" / "spring1901.json", phase)
    for preset in ("datc", "edc2023"):
        doc = json.loads(run([parley, "adjudicate", "--rules", preset, str(phase)], empty, env))
        verdicts = {r["order"]: r["outcome"] for r in doc["results"]}
        assert verdicts["A BUD - SER"] == "succeeds"
        assert verdicts["A VIE - GAL"] == "fails"  # bounced with Russia's A WAR - GAL

    # The compiled batch path, with the source's results byte for byte (the source runs here,
    # in this test's interpreter: pure unless someone built it in place).
    records = gzip.decompress((REPO / "tests/data/droidippy_sample.jsonl.gz").read_bytes())
    source = [sys.executable, "-c", "import bot.cli; bot.cli.main()", "adjudicate", "--jsonl"]
    want = run(source, REPO, env, records)
    got = run([parley, "adjudicate", "--jsonl"], empty, env, records)
    assert got.count("\n") == records.count(b"\n") == 5352
    assert got == want
    probe = "import bot.core.model as m; print(m.NATIVE, m.__file__)"
    native, where = run([str(venv_bin / "python"), "-c", probe], empty, env).split()
    assert native == str(_HAS_CC)
    assert where.startswith(str(venv_bin.parent))
    assert where.endswith(".so") == _HAS_CC
    version = run([parley, "--version"], empty, env)
    assert version.endswith("(compiled)\n" if _HAS_CC else "(pure Python)\n")

    out = run([parley, "demo", "--years", "1"], empty, env)
    assert "3 phases played" in out
    made = sorted(p.name for p in (empty / "demo-out").iterdir())
    assert "03_W1901A.png" in made
    assert (empty / "demo-out" / "03_W1901A.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # Everything came from the venv: no source tree, every catalogue and preset readable.
    probe = """
import bot, bot.paths
from bot.core.presets import list_presets, load_rules
from bot.service.clock.presets import clock_names, load_clock
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
    lines = run([str(venv_bin / "python"), "-c", probe], empty, env).splitlines()
    site = str(venv_bin.parent)
    assert lines[0].startswith(site)
    assert lines[1].startswith(site)
    assert lines[1].endswith("parley_data")
    assert lines[2].split() == sorted(p.stem for p in (REPO / "data" / "rules").glob("*.toml"))
    assert lines[3].split() == sorted(p.stem for p in (REPO / "data" / "clocks").glob("*.toml"))
    migrations = REPO / "bot" / "service" / "storage" / "migrations"
    assert int(lines[4]) == len(list(migrations.glob("*.sql")))
    assert lines[5] == "F : u True"  # the French catalogue, with its space before the colon
