"""The size and the shape of the house (issue 33): no Python file over 800 lines, and no import
circle between modules beyond the ones known today, which issue 33's restructure is to break
(then the list below is emptied, and stays so).

An import is any `import` statement of a module, wherever it stands: at the top, inside a
function (deferred to dodge a circle at import time) or under `if TYPE_CHECKING:` (a circle in
the types is a circle in the design). `from a.b import c` depends on `a.b.c` when that is a
module, else on `a.b`. The production code is `bot/`, `cogs/` and `renderer/`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = ("bot", "cogs", "renderer")
# Every Python file of the repository is held to the size, tests and tools too.
SIZED = (*PRODUCTION, "tests", "tools", "bench")
NOT_OURS = {".venv", "__pycache__", "_cache", "build"}
MAX_LINES = 800
# Files allowed over MAX_LINES, each with its reason; none may join them.
LONG_FILES: dict[str, str] = {}

# The import circles of 2026-11-29 on main 00d26c6 (issue 33 names seven; the games/channels
# merges of issue 32 widened two and added clock <-> schedule), each one strongly connected set
# of modules. Issue 33's restructure breaks them; a circle found must lie inside one of these,
# so none may grow or appear. Delete an entry once its circle is gone.
KNOWN_CIRCLES: list[frozenset[str]] = [
    frozenset({"bot.cli.adjudicate", "bot.cli.adjudicate_jobs", "bot.cli.stab"}),
    frozenset({"bot.cli.demo", "bot.cli.stab_demo"}),
    frozenset(
        {
            "bot.core.language.fastparse",
            "bot.core.messages",
            "bot.core.language.notation",
            "bot.core.outcome",
            "bot.core.language.parser",
        }
    ),
    frozenset(
        {
            "bot.discord_app.builder_notice",
            "bot.discord_app.channels",
            "bot.discord_app.hidden",
            "bot.discord_app.notifier",
        }
    ),
    frozenset(
        {
            "bot.service.clock.absences",
            "bot.service.orders.builder",
            "bot.service.games.gm",
            "bot.service.games.lobby",
            "bot.service.orders.secret",
            "bot.service.clock.phase_machine",
            "bot.service.games.record",
            "bot.service.clock.scheduler",
            "bot.service.service",
            "bot.service.games.settings",
            "bot.service.clock.workers",
        }
    ),
    frozenset({"bot.service.clock.clocks", "bot.service.clock.schedule"}),
    frozenset({"renderer.layers", "renderer.legend", "renderer.orders", "renderer.render"}),
]


def _python_files(folders: tuple[str, ...]) -> list[Path]:
    return sorted(
        p
        for folder in folders
        for p in (ROOT / folder).rglob("*.py")
        if not NOT_OURS.intersection(p.relative_to(ROOT).parts)
    )


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for the production code (a package is its `__init__`)."""
    out = {}
    for path in _python_files(PRODUCTION):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imported(tree: ast.Module, name: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` imports, anywhere in its body."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, or `level - 1` packages up
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([node.module] if node.module else [])])
            out |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return (out & known) - {name}


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    known = set(modules)
    return {
        name: _imported(
            ast.parse(path.read_text(encoding="utf-8")), name, path.stem == "__init__", known
        )
        for name, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of two or more modules (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    members.add(m)
                    if m == node:
                        break
                if len(members) > 1:
                    found.append(frozenset(members))
    return found


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}}
    assert circles(graph) == [frozenset({"a", "b", "c"})]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_every_kind_of_import() -> None:
    source = """
from __future__ import annotations
from typing import TYPE_CHECKING
import p.top
from . import sibling
from .. import uncle
from p.q import helper_function
if TYPE_CHECKING:
    from p.typed import T
def later():
    from p.deferred import f
"""
    known = {"p.top", "p.q", "p.q.sibling", "p.uncle", "p.typed", "p.deferred", "p.q.me"}
    got = _imported(ast.parse(source), "p.q.me", False, known)
    assert got == {"p.top", "p.q", "p.q.sibling", "p.uncle", "p.typed", "p.deferred"}


def test_no_new_import_circle() -> None:
    found = circles(import_graph(_modules()))
    new = [
        sorted(c) for c in found if not any(c <= known for known in KNOWN_CIRCLES)
    ]  # a known circle may shrink or break, never grow or appear
    assert new == [], f"new import circles (issue 33): {new}"


def test_no_python_file_over_800_lines() -> None:
    sizes = {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in [*_python_files(SIZED), *ROOT.glob("*.py")]
    }
    long = {path: n for path, n in sizes.items() if n > MAX_LINES and path not in LONG_FILES}
    assert long == {}, "split these files by concern (put new concerns in new modules)"
    assert len(sizes) > 300  # the walk saw the tree
