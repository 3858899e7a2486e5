"""The house rules of the layout: SQL only in the storage package, no test hooks in the
service, the Discord adapter free of cycles (sizes and import circles: tests/test_rooms.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STORAGE = ROOT / "bot" / "service" / "storage"
SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b|PRAGMA\s",
    re.S,
)


def _sources() -> list[Path]:
    return sorted(
        p for folder in ("bot", "cogs", "renderer") for p in (ROOT / folder).rglob("*.py")
    )


def _strings(tree: ast.AST) -> list[str]:
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _imports(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            out |= {a.name for a in n.names}
        elif isinstance(n, ast.ImportFrom) and n.module:
            out.add(n.module)
    return out


def test_the_rule_finds_sql() -> None:
    assert SQL.search("SELECT id FROM games WHERE x = ?")
    assert SQL.search("INSERT OR IGNORE INTO outbox (key) VALUES (?)")
    assert not SQL.search("select a game from the menu")


def test_sql_and_sqlite_only_in_the_storage_package() -> None:
    found = []
    for path in _sources():
        if STORAGE in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}: {s[:60]!r}" for s in _strings(tree) if SQL.search(s)]
        found += [f"{rel}: imports {m}" for m in _imports(tree) if m in ("sqlite3", "aiosqlite")]
    assert found == []


def test_no_test_hooks_in_production_code() -> None:
    hooks = re.compile(r"\b(_fault|faults|abandon)\b")
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        names |= {
            a.arg
            for n in ast.walk(tree)
            if isinstance(n, ast.arguments)
            for a in n.args + n.kwonlyargs
        }
        names |= {
            n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        found += [f"{path.relative_to(ROOT)}: {n}" for n in sorted(names) if hooks.fullmatch(n)]
    assert found == []


def test_the_discord_adapter_does_not_import_the_composed_bot() -> None:
    adapter = [*(ROOT / "bot" / "discord_app").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]
    found = [
        p.relative_to(ROOT).as_posix()
        for p in adapter
        if "bot.client" in _imports(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert found == []


# No file over 800 lines: tests/test_rooms.py (every Python file, with its exceptions named).
