"""Installs like real software: the wheel built from this tree, installed in a fresh venv, runs
`parley parse`, `parley adjudicate` and `parley demo` from an empty folder, reading its maps,
rules, clocks, catalogues, fonts, grammar and migrations from the installed package alone.

The wheel carries the batch path compiled (setup.py, issue 18), and its results are the source's
byte for byte; without a C compiler, or with PARLEY_PURE=1, the wheel is the pure-Python one.

The venv is a plain one (no system site-packages, so no editable install of Parley leaks in);
pip fetches the runtime dependencies from its configured index (its cache makes reruns fast)."""

from __future__ import annotations

import gzip
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.install

REPO = Path(__file__).resolve().parents[1]
# Build from a clean copy: a leftover build/ or egg-info in the tree could hide a missing file.
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", ".venv-*", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
    "tests", "demo-out", "out", "*.db*",
)  # fmt: skip
_RUNTIME_FILES = ("bot", "renderer")
NATIVE_MODULES: list[str] = runpy.run_path(str(REPO / "setup.py"), run_name="t")["NATIVE_MODULES"]
# What setuptools compiles with; without it the wheel is the pure one (setup.py).
_HAS_CC = bool(
    shutil.which((os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0])
)


def _run(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None, stdin: bytes | None = None
) -> str:
    proc = subprocess.run(
        cmd, check=False, cwd=cwd, env=env, input=stdin, capture_output=True, timeout=300
    )
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 0, f"{cmd} -> {proc.returncode}\n{out}\n{err}"
    return out


def _build(bindir: Path, tmp: Path, extra_env: dict[str, str] | None = None) -> tuple[Path, str]:
    """The wheel of a clean copy of the tree (its own build/ folder), built by the pip of the
    venv in `bindir`, and pip's -v log."""
    src = tmp / "src"
    shutil.copytree(REPO, src, ignore=_NOT_SOURCE)
    env = {**os.environ, **(extra_env or {})}
    cmd = [
        str(bindir / "python"),
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "-v",
        "-w",
        str(tmp),
        str(src),
    ]
    proc = subprocess.run(
        cmd, check=False, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    log = proc.stdout.decode()
    assert proc.returncode == 0, log
    (whl,) = tmp.glob("parley-*.whl")
    return whl, log


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv's bin folder: nothing installed, as a user starts (the build must not lean
    on this test's venv, whose lark, for one, mypy would otherwise find)."""
    env_dir = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", str(env_dir)], env_dir)
    return env_dir / ("Scripts" if os.name == "nt" else "bin")


@pytest.fixture(scope="module")
def wheel(fresh_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(fresh_venv, tmp_path_factory.mktemp("wheel"))[0]


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
    _run([str(fresh_venv / "python"), "-m", "pip", "install", "-q", str(wheel)], fresh_venv)
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
    whl, log = _build(fresh_venv, tmp_path, env)
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

    # The compiled batch path, with the source's results byte for byte (the source runs here,
    # in this test's interpreter: pure unless someone built it in place).
    records = gzip.decompress((REPO / "tests/data/droidippy_sample.jsonl.gz").read_bytes())
    source = [sys.executable, "-c", "import bot.cli; bot.cli.main()", "adjudicate", "--jsonl"]
    want = _run(source, REPO, env, records)
    got = _run([parley, "adjudicate", "--jsonl"], empty, env, records)
    assert got.count("\n") == records.count(b"\n") == 5352
    assert got == want
    probe = "import bot.core.model as m; print(m.NATIVE, m.__file__)"
    native, where = _run([str(venv_bin / "python"), "-c", probe], empty, env).split()
    assert native == str(_HAS_CC)
    assert where.startswith(str(venv_bin.parent))
    assert where.endswith(".so") == _HAS_CC
    version = _run([parley, "--version"], empty, env)
    assert version.endswith("(compiled)\n" if _HAS_CC else "(pure Python)\n")

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
