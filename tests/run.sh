#!/usr/bin/env bash
# The whole test suite: lint, types on the game core, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The quick start's venv, when the command runs in a new shell.
if [ -z "${VIRTUAL_ENV:-}" ] && [ -f .venv/bin/activate ]; then . .venv/bin/activate; fi
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m mypy
python3 -m pytest "$@"
# The same game core and CLI compiled (opt-in build, issue 18): tests/native.sh.
bash tests/native.sh
