"""Parley's wheel built as a user builds it: from a clean copy of the tree (a leftover build/ or
egg-info could hide a missing file), by the pip of a new venv (nothing installed: the build
must not lean on the test venv, whose lark, for one, mypy would otherwise find). pip's build
isolation fetches setup.py's build requirements, mypy among them, and compiles the batch path.

`tests/run.sh` builds the compiled wheel once a run, beside the other tests, with
`python3 tests/build_wheel.py DIR` (see `main`), then tests that one wheel twice:
`tests/test_wheel.py` (PARLEY_TEST_WHEEL names the file that will say where it is) and the game
core's and CLI's tests with it installed. Without PARLEY_TEST_WHEEL, test_wheel.py builds its
own here."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", ".venv-*", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
    "tests", "demo-out", "out", "*.db*", "*.so",
)  # fmt: skip


def run(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None, stdin: bytes | None = None
) -> str:
    proc = subprocess.run(
        cmd, check=False, cwd=cwd, env=env, input=stdin, capture_output=True, timeout=300
    )
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 0, f"{cmd} -> {proc.returncode}\n{out}\n{err}"
    return out


def fresh_venv(env_dir: Path) -> Path:
    """A new venv's bin folder: nothing installed, as a user starts."""
    run([sys.executable, "-m", "venv", str(env_dir)], env_dir.parent)
    return env_dir / ("Scripts" if os.name == "nt" else "bin")


def build(bindir: Path, tmp: Path, extra_env: dict[str, str] | None = None) -> tuple[Path, str]:
    """The wheel of a clean copy of the tree (its own build/ folder) in `tmp`, built by the pip
    of the venv in `bindir`, and pip's -v log."""
    src = tmp / "src"
    shutil.copytree(REPO, src, ignore=NOT_SOURCE)
    env = {**os.environ, **(extra_env or {})}
    cmd = [str(bindir / "python"), "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(tmp)]
    cmd.append(str(src))
    proc = subprocess.run(
        cmd, check=False, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    log = proc.stdout.decode()
    assert proc.returncode == 0, log
    (whl,) = tmp.glob("parley-*.whl")
    return whl, log


def main(argv: list[str]) -> int:
    """`build_wheel.py DIR`: the wheel in DIR/wheel and pip's log in DIR/build.log; then, at
    once, DIR/wheel.path says where the wheel is (or DIR/wheel.failed why there is none): a
    test waiting for the wheel reads them (tests/test_wheel.py)."""
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    try:
        (out / "wheel").mkdir()
        whl, log = build(fresh_venv(out / "build-venv"), out / "wheel")
    except BaseException as exc:
        (out / "wheel.failed").write_text(f"the wheel's build failed: {exc}", encoding="utf-8")
        raise
    (out / "build.log").write_text(log, encoding="utf-8")
    said = out / "wheel.path.part"
    said.write_text(str(whl), encoding="utf-8")
    said.replace(out / "wheel.path")  # whole or not at all, for the reader
    print(whl)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
