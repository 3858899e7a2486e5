"""The size and the shape of the house (issue 33): no Python file over 800 lines, no import
circle between modules, and each package importing only what its `__init__` allows.

An import is any `import` statement of a module, wherever it stands: at the top, inside a
function (deferred to dodge a circle at import time) or under `if TYPE_CHECKING:` (a circle in
the types is a circle in the design). `from a.b import c` depends on `a.b.c` when that is a
module, else on `a.b`. The production code is `bot/`, `cogs/` and `renderer/`.

Each package's `__init__.py` names, in `MAY_IMPORT`, what its own modules may import besides
each other: an entry allows that module or package and everything under it, and an
entry nothing imports is refused too (the list says what the package reads). A subpackage is
its own package with its own list (its parent's modules import it only if theirs names it)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = ("bot", "cogs", "renderer")
# Every Python file of the repository is held to the size, tests and tools too.
SIZED = (*PRODUCTION, "tests", "tools", "bench")
NOT_OURS = {".venv", "__pycache__", "_cache", "build"}
MAX_LINES = 800
# Files allowed over MAX_LINES, each with its reason; none may join them.
LONG_FILES: dict[str, str] = {}


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


@functools.cache
def _house() -> tuple[dict[str, Path], dict[str, set[str]], dict[str, tuple[str, ...]]]:
    """The production modules, their import graph and each package's `MAY_IMPORT`, read once
    for the tests below."""
    modules = _modules()
    lists = {n: may_import(p) or () for n, p in modules.items() if p.name == "__init__.py"}
    return modules, import_graph(modules), lists


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


def test_no_import_circle() -> None:
    found = [sorted(c) for c in circles(_house()[1])]
    assert found == [], f"import circles: {found}"


def units(modules: dict[str, Path]) -> dict[str, str]:
    """Each module's unit of the layering: its package, or itself when its package has
    subpackages (`bot.service.table` is a unit; `bot.service.games.lobby` is in the unit
    `bot.service.games`)."""
    packages = {n for n, p in modules.items() if p.name == "__init__.py"}
    parents = {n.rpartition(".")[0] for n in packages}
    out = {}
    for name in modules:
        package = _package_of(name, modules)
        out[name] = name if package in parents else package
    return out


def unit_graph(graph: dict[str, set[str]], unit: dict[str, str]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {u: set() for u in unit.values()}
    for name, deps in graph.items():
        out[unit[name]] |= {unit[d] for d in deps} - {unit[name]}
    return out


def test_no_circle_between_packages() -> None:
    """The domain packages are layers too: `bot.service.orders` may read `bot.service.games`,
    so nothing of `games` may read `orders` (a Protocol says what a lower package needs of a
    higher one: `orders.secret.Advances`, `games.record.TableService`)."""
    modules, graph, _ = _house()
    found = [sorted(c) for c in circles(unit_graph(graph, units(modules)))]
    assert found == [], f"circles between packages: {found}"


def test_units_are_packages_or_the_modules_beside_subpackages() -> None:
    modules = {
        "p": Path("p/__init__.py"),
        "p.top": Path("p/top.py"),
        "p.q": Path("p/q/__init__.py"),
        "p.q.b": Path("p/q/b.py"),
    }
    assert units(modules) == {"p": "p", "p.top": "p.top", "p.q": "p.q", "p.q.b": "p.q"}
    graph = {"p": set(), "p.top": {"p.q.b"}, "p.q": set(), "p.q.b": {"p.top"}}
    assert circles(unit_graph(graph, units(modules))) == [frozenset({"p.top", "p.q"})]


def may_import(path: Path) -> tuple[str, ...] | None:
    """A package's `MAY_IMPORT`, read from its `__init__.py` without importing it; None if
    it has none."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(target, ast.Name) and target.id == "MAY_IMPORT" and node.value is not None:
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple), path
            assert all(isinstance(v, str) for v in value), path
            return value
    return None


def _package_of(name: str, modules: dict[str, Path]) -> str:
    return name if modules[name].name == "__init__.py" else name.rpartition(".")[0]


def _allowed(dep: str, package: str, allowed: tuple[str, ...], modules: dict[str, Path]) -> bool:
    if dep == package or _package_of(dep, modules) == package:
        return True  # the package's own modules
    return any(dep == a or dep.startswith(a + ".") for a in allowed)


def trespasses(
    modules: dict[str, Path], graph: dict[str, set[str]], lists: dict[str, tuple[str, ...]]
) -> list[str]:
    """`module -> import` for each import that the module's package (its list in `lists`)
    does not allow."""
    return sorted(
        f"{name} -> {dep}"
        for name, deps in graph.items()
        for dep in deps
        if not _allowed(dep, _package_of(name, modules), lists[_package_of(name, modules)], modules)
    )


def unneeded(
    modules: dict[str, Path], graph: dict[str, set[str]], lists: dict[str, tuple[str, ...]]
) -> list[str]:
    """`package: entry` for each entry of a `MAY_IMPORT` that none of the package's modules
    uses: a list says what the package reads, not what it might."""
    used = {
        (package, entry)
        for name, deps in graph.items()
        for package in [_package_of(name, modules)]
        for entry in lists[package]
        for dep in deps
        if dep == entry or dep.startswith(entry + ".")
    }
    return sorted(
        f"{n}: {e}" for n, entries in lists.items() for e in entries if (n, e) not in used
    )


def test_the_package_rule_sees_a_trespass() -> None:
    modules = {
        "p": Path("p/__init__.py"),
        "p.a": Path("p/a.py"),
        "p.q": Path("p/q/__init__.py"),
        "p.q.b": Path("p/q/b.py"),
        "r": Path("r/__init__.py"),
        "r.c": Path("r/c.py"),
    }
    graph = {"p": set(), "p.a": {"p.q.b", "r.c"}, "p.q": set(), "p.q.b": {"p.a"}, "r": set()}
    graph["r.c"] = {"p.q", "r"}
    lists = {"p": ("p.q",), "p.q": ("p.a",), "r": ()}
    # p.a may use p.q (listed) but not r.c; p.q.b may use p.a; r.c its own package, not p.q
    assert trespasses(modules, graph, lists) == ["p.a -> r.c", "r.c -> p.q"]
    assert unneeded(modules, graph, lists) == []
    assert unneeded(modules, graph, {**lists, "r": ("p.a",)}) == ["r: p.a"]


def test_each_package_says_what_it_may_import() -> None:
    modules, graph, lists = _house()
    packages = {n: p for n, p in modules.items() if p.name == "__init__.py"}
    missing = sorted(n for n, p in packages.items() if may_import(p) is None)
    assert missing == [], "add MAY_IMPORT to these packages' __init__.py"
    stale = sorted(
        f"{n}: {entry}"
        for n, p in packages.items()
        for entry in may_import(p) or ()
        if entry not in modules
    )
    assert stale == [], "MAY_IMPORT names a module that does not exist"
    assert unneeded(modules, graph, lists) == [], "MAY_IMPORT names what nothing imports"
    undocumented = sorted(
        n
        for n, p in packages.items()
        if ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) is None
    )
    assert undocumented == [], "say in the package's docstring what it owns"


def test_each_package_imports_only_what_its_init_allows() -> None:
    assert trespasses(*_house()) == []


def test_no_python_file_over_800_lines() -> None:
    sizes = {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in [*_python_files(SIZED), *ROOT.glob("*.py")]
    }
    long = {path: n for path, n in sizes.items() if n > MAX_LINES and path not in LONG_FILES}
    assert long == {}, "split these files by concern (put new concerns in new modules)"
    assert len(sizes) > 300  # the walk saw the tree


# The game core is pure (the brief): no I/O library, no event loop, no clock, nothing of the
# bot. Files it reads (maps, presets, catalogues) through bot.paths and importlib.resources.
IMPURE = {"asyncio", "aiosqlite", "asyncpg", "discord", "PIL", "socket", "sqlite3", "time"}
IMPURE |= {"subprocess", "threading", "concurrent", "datetime", "renderer"}


def test_the_core_imports_no_io_library_and_no_clock() -> None:
    found = []
    for path in _python_files(("bot/core",)):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in IMPURE]
    assert found == []
