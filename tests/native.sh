#!/usr/bin/env bash
# The compiled build (tools/build_native.py, issue 18) tested as the pure one is: built with
# mypyc in a copy of the tree (never beside the sources someone edits: a stale .so would run
# instead of the edited .py), then the game core's and the CLI's tests run there. mypyc
# changed behaviours the pure build's tests could not see (bench/native/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${VIRTUAL_ENV:-}" ] && [ -f .venv/bin/activate ]; then . .venv/bin/activate; fi
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
tar --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.so' \
    --exclude='__pycache__' --exclude=./bench/.venv-mila --exclude=./bench/.venv-parley -cf - . | tar -xf - -C "$copy"
cd "$copy"
python3 tools/build_native.py > build.log 2>&1 || { cat build.log >&2; exit 1; }
python3 - <<'PY'
import bot.core.model as m
assert m.NATIVE and not m.__file__.endswith(".py"), f"not compiled: {m.__file__}"
PY
python3 -m pytest -p no:cacheprovider tests/bot/core tests/bot/cli "$@"
