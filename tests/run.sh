#!/usr/bin/env bash
# The whole test suite, on both builds, with one compile a run and both cores kept busy:
#   wheel     from the start, in the background: the compiled wheel, built once
#             (tests/build_wheel.py: one core's work for minutes), then installed with the test
#             requirements in a new venv
#   compiled  then, still in the background, the game core's and CLI's tests again on that
#             installed compiled build (mypyc changed behaviours the pure build's tests could
#             not see: bench/native/README.md); its output is shown at the end
#   lint      ruff check, ruff format --check
#   types     mypy --strict
#   pytest    every test on the pure (editable) build, over the cores (pytest-xdist);
#             tests/test_wheel.py tests the wheel built above, waiting for it if need be
# The tests wait on PostgreSQL, sockets and timers for much of their time: two pytest runs at
# once keep the cores busy.
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
stage() {  # NAME COMMAND...: its times recorded, failed or not
    local name=$1 t0 c0 rc=0
    shift
    t0=$(now)
    cpu
    c0=$CPU
    "$@" || rc=$?
    if [ -z "${bg_seen:-}" ] && [ -f "$work/bg.done" ]; then
        # The background job ended during this stage and the shell counted its CPU here: not
        # this stage's (the job reports its own).
        bg_seen=1
        c0=$(awk -v a="$c0" '{ s += $(NF - 2) } END { print a + s }' "$work/wheel.report")
    fi
    line "$name" "$t0" "$c0" > "$work/line"
    report+=("$(cat "$work/line")")
    return "$rc"
}
start=$(now)
finish() {
    local rc=$?
    if [ -n "${wheel_pid:-}" ]; then kill -- "-$wheel_pid" 2>/dev/null || true; fi
    if [ -f "$work/wheel.report" ]; then mapfile -t -O "${#report[@]}" report < "$work/wheel.report"; fi
    echo
    echo "tests/run.sh stages (wheel and compiled in the background, beside lint, types, pytest):"
    if [ "${#report[@]}" -gt 0 ]; then printf '  %s\n' "${report[@]}"; fi
    line total "$start" 0 > "$work/line"
    printf '  %s\n' "$(cat "$work/line")"
    rm -rf "$work"
    exit "$rc"
}
trap finish EXIT

# From an empty folder (xdist's workers put theirs first on sys.path), with the checkout after
# site-packages on sys.path (for `tests`): `bot` is the installed compiled build.
run_compiled() {
    cd "$work" && PARLEY_TEST_BUILD=compiled "$work/compiled/bin/python" -P -m pytest \
        -p no:cacheprovider --rootdir "$repo" -c "$repo/pyproject.toml" --import-mode=append \
        -n auto "$repo/tests/bot/core" "$repo/tests/bot/cli"
}
compiled_build() {  # the background job: the wheel, its venv, the compiled build's tests
    local t0 c0 rc=0
    t0=$(now)
    python3 tests/build_wheel.py "$work/build" > /dev/null
    python3 -m venv "$work/compiled"
    "$work/compiled/bin/python" -m pip install --quiet --disable-pip-version-check \
        "$(cat "$work/build/wheel.path")[test]"
    line wheel "$t0" 0 > "$work/wheel.report"
    t0=$(now)
    cpu
    c0=$CPU
    (run_compiled) > "$work/compiled.log" 2>&1 || rc=$?
    line compiled "$t0" "$c0" >> "$work/wheel.report"
    : > "$work/bg.done"
    return "$rc"
}
set -m  # the background job in its own process group, so that `finish` can stop all of it
compiled_build > "$work/wheel.log" 2>&1 &
wheel_pid=$!
set +m

stage lint sh -c 'python3 -m ruff check . && python3 -m ruff format --check .'
stage types python3 -m mypy
# Two workers a core (at most 8): a worker waiting on PostgreSQL, a socket or a timer leaves its
# core to another (on 2 cores: 151 s wall with 2 workers, 108 s with 4, for the same CPU give or
# take 15%). worksteal: a worker done early takes half of a busy one's queue, so a file of long
# tests (tests/cogs) does not keep one worker busy alone at the end.
workers=$(($(nproc) * 2))
if [ "$workers" -gt 8 ]; then workers=8; fi
stage pytest env PARLEY_TEST_WHEEL="$work/build/wheel.path" PARLEY_TEST_BUILD=pure \
    python3 -m pytest -n "$workers" --dist worksteal "$@"

t0=$(now)
rc=0
wait "$wheel_pid" || rc=$?
wheel_pid=
report+=("$(awk -v w="$(($(now) - t0))" 'BEGIN { printf "%-9s %6.1f s wall\n", "(wait)", w / 1e9 }')")
echo
echo "The game core's and CLI's tests on the compiled build (the wheel, installed):"
if [ -f "$work/compiled.log" ]; then cat "$work/compiled.log"; fi
if [ "$rc" -ne 0 ]; then
    cat "$work/wheel.log" >&2
    echo "tests/run.sh: FAIL: the compiled build (wheel, venv or tests) failed" >&2
    exit "$rc"
fi
