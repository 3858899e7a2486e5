#!/usr/bin/env bash
# The whole test suite, on both builds, with one compile a run and both cores kept busy:
#   wheel     from the start, in the background: the compiled wheel, built once
#             (tests/build_wheel.py: one core's work for minutes), then installed with the test
#             requirements in a new venv
#   lint      ruff check, ruff format --check
#   types     mypy --strict
#   pytest    every test on the pure (editable) build, over the cores (pytest-xdist);
#             tests/test_wheel.py tests the wheel built above, waiting for it if need be
#   compiled  the game core's and CLI's tests again on that installed compiled build (mypyc
#             changed behaviours the pure build's tests could not see: bench/native/README.md)
# Each stage's wall and CPU time is printed at the end. Arguments go to the first pytest
# (`bash tests/run.sh -x -k name`, `-n 0` for no workers).
set -euo pipefail
cd "$(dirname "$0")/.."
# The quick start's venv, when the command runs in a new shell.
if [ -z "${VIRTUAL_ENV:-}" ] && [ -f .venv/bin/activate ]; then . .venv/bin/activate; fi
repo="$PWD"
work="$(mktemp -d)"
report=()

now() { date +%s%N; }
cpu() {  # CPU=seconds (user + sys) of this shell's children that have ended (`times`, run
    # here: in a $(...) subshell it would count the subshell's)
    local f="$work/times.$BASHPID"
    times > "$f"
    CPU=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] }
                         print s }' "$f")
}
line() {  # NAME START_NS CPU_AT_START: a line of the report, up to now
    cpu
    awk -v n="$1" -v w="$(($(now) - $2))" -v c="$CPU" -v c0="$3" \
        'BEGIN { printf "%-9s %6.1f s wall %7.1f s CPU\n", n, w / 1e9, c - c0 }'
}
stage() {  # NAME COMMAND...
    local name=$1 t0 c0
    shift
    t0=$(now)
    cpu
    c0=$CPU
    "$@"
    line "$name" "$t0" "$c0" > "$work/line"
    report+=("$(cat "$work/line")")
}
start=$(now)
finish() {
    local rc=$?
    if [ -n "${wheel_pid:-}" ]; then kill -- "-$wheel_pid" 2>/dev/null || true; fi
    if [ -f "$work/wheel.report" ]; then report=("$(cat "$work/wheel.report")" "${report[@]}"); fi
    echo
    echo "tests/run.sh stages (the wheel was built beside lint, types and pytest):"
    if [ "${#report[@]}" -gt 0 ]; then printf '  %s\n' "${report[@]}"; fi
    line total "$start" 0 > "$work/line"
    printf '  %s\n' "$(cat "$work/line")"
    rm -rf "$work"
    exit "$rc"
}
trap finish EXIT

compiled_venv() {
    local t0
    t0=$(now)
    python3 tests/build_wheel.py "$work/build" > /dev/null
    python3 -m venv "$work/compiled"
    "$work/compiled/bin/python" -m pip install --quiet --disable-pip-version-check \
        "$(cat "$work/build/wheel.path")[test]"
    line wheel "$t0" 0 > "$work/wheel.report"
}
set -m  # the background job in its own process group, so that `finish` can stop all of it
compiled_venv > "$work/wheel.log" 2>&1 &
wheel_pid=$!
set +m

stage lint sh -c 'python3 -m ruff check . && python3 -m ruff format --check .'
stage types python3 -m mypy
stage pytest env PARLEY_TEST_WHEEL="$work/build/wheel.path" PARLEY_TEST_BUILD=pure \
    python3 -m pytest -n auto "$@"

wait_wheel() {
    if ! wait "$wheel_pid"; then
        wheel_pid=
        cat "$work/wheel.log" >&2
        echo "tests/run.sh: FAIL: the compiled wheel was not built or not installed" >&2
        return 1
    fi
    wheel_pid=
}
t0=$(now)
wait_wheel  # (not a stage of its own: the shell counts the wheel's CPU when it ends, here)
report+=("$(awk -v w="$(($(now) - t0))" 'BEGIN { printf "%-9s %6.1f s wall\n", "(wait)", w / 1e9 }')")
# From an empty folder (xdist's workers put theirs first on sys.path), with the checkout after
# site-packages on sys.path (for `tests`): `bot` is the installed compiled build.
run_compiled() {
    (cd "$work" && PARLEY_TEST_BUILD=compiled "$work/compiled/bin/python" -P -m pytest \
        -p no:cacheprovider --rootdir "$repo" -c "$repo/pyproject.toml" --import-mode=append \
        -n auto "$repo/tests/bot/core" "$repo/tests/bot/cli")
}
stage compiled run_compiled
