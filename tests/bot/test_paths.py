"""Where the data files are found: PARLEY_DATA, else the source tree's data/, else the
installed package parley_data."""

from __future__ import annotations

import sys
from pathlib import Path

import bot.paths as paths
from bot.paths import data_dir, installed_data_dir

REPO = Path(__file__).resolve().parents[2]


def test_override_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("PARLEY_DATA", str(tmp_path))
    assert data_dir() == tmp_path


def test_source_tree_uses_its_own_data(monkeypatch):
    monkeypatch.delenv("PARLEY_DATA", raising=False)
    assert data_dir() == REPO / "data"
    assert (data_dir() / "maps" / "standard.json").is_file()


def test_outside_a_source_tree_the_installed_package_is_read(monkeypatch, tmp_path):
    # bot/ as it sits in site-packages: no pyproject.toml beside it, maybe an unrelated data/.
    fake = tmp_path / "site-packages" / "bot" / "paths.py"
    fake.parent.mkdir(parents=True)
    (tmp_path / "site-packages" / "data").mkdir()
    monkeypatch.setattr(paths, "__file__", str(fake))
    monkeypatch.delenv("PARLEY_DATA", raising=False)
    shipped = tmp_path / "parley_data"
    monkeypatch.setattr(paths, "installed_data_dir", lambda: shipped)
    assert data_dir() == shipped


def test_installed_data_is_the_parley_data_package_folder(monkeypatch, tmp_path):
    pkg = tmp_path / "parley_data"
    (pkg / "maps").mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "parley_data", raising=False)
    assert installed_data_dir() == pkg
