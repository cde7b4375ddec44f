#!/usr/bin/env bash
# Amber's tests.
#
#   bash scripts/test.sh         builds once (the debug build of every target, and the release
#                                libamber.so the C and Python suites load), then runs the Swift
#                                suites, the amber command's tests, the fuzz corpora and past
#                                findings replayed, the C tests, the C demo, the README's three
#                                quick starts, the Python binding's tests, and the GTK 4 and
#                                Tkinter adapters' tests in real windows (under Xvfb).
#   bash scripts/test.sh --all   also: the malformed-input and bounds suites in a release build
#                                (R22's behaviour in optimized code; its time is
#                                `amber-bench-archive --hostile`'s figure), the Swift and C
#                                tests under AddressSanitizer and ThreadSanitizer, the four fuzz
#                                harnesses (reader, envelope, restore, unarchiver; AMBER_FUZZ_SECONDS each,
#                                default 120), valgrind on the C demo, the kill test (R19:
#                                AMBER_KILLS kills, default 1000; the quick run makes none),
#                                make install checked (scripts/test-install.sh), and the
#                                power-loss test (R19: every crash state of a save, a first
#                                save, a launch, a discard and amber_file_write_atomic(), under
#                                POSIX and ext4 rules; Tests/powerloss/run.sh).
#
# Installing what is missing is scripts/setup.sh's job; this script calls it first. Build output
# goes to .build/logs/; a build that fails prints the end of its log and the log's path. Each
# suite prints its summary and its failures. Exits non-zero if anything fails.
set -uo pipefail
cd "$(dirname "$0")/.."
all=0
case "${1:-}" in
    --all) all=1 ;;
    "") ;;
    *) echo "usage: bash scripts/test.sh [--all]"; exit 2 ;;
esac
export SWIFT_BACKTRACE=enable=no
logs=.build/logs
mkdir -p "$logs"
bash scripts/setup.sh || exit 1
status=0
began=$SECONDS

# build LABEL LOG COMMAND...: one line of progress; on failure the log's end and its path.
build() {
    local label=$1 log=$2 t=$SECONDS
    shift 2
    printf '%s ... ' "$label"
    if "$@" >"$log" 2>&1; then
        echo "done ($((SECONDS - t)) s)"
    else
        echo "FAILED"; tail -n 30 "$log"; echo "(full log: $log)"; exit 1
    fi
}

# suite NAME LOG FILTER COMMAND...: runs a suite, its whole output to LOG, the lines matching
# FILTER (an extended regular expression) to the terminal, then its time; a failing suite fails
# the run.
suite() {
    local name=$1 log=$2 filter=$3 t=$SECONDS
    shift 3
    echo "== $name"
    "$@" >"$log" 2>&1
    report_suite $? "$log" "$filter" $((SECONDS - t))
}

# report_suite RC LOG FILTER SECONDS: what suite prints once a suite has ended.
report_suite() {
    local rc=$1 log=$2 filter=$3 took=$4
    grep -E "$filter" "$log"
    if [[ $rc -ne 0 ]]; then status=1; echo "FAILED ($took s; full output: $log)"; else echo "($took s)"; fi
}

# The real-window suites spend most of their time waiting on their windows, each under its own
# Xvfb: they run side by side. start_suite is suite in the background; finish_suites waits for
# them and prints each one's lines in the order they were started.
started=()
start_suite() {
    local name=$1 log=$2 filter=$3
    shift 3
    ( t=$SECONDS; "$@" >"$log" 2>&1; rc=$?; echo "$rc $((SECONDS - t))" >"$log.rc" ) &
    started+=("$!|$name|$log|$filter")
}
finish_suites() {
    local entry pid name log filter rc took
    for entry in "${started[@]}"; do
        IFS='|' read -r pid name log filter <<<"$entry"
        wait "$pid"
        echo "== $name"
        read -r rc took <"$log.rc" 2>/dev/null || { rc=1; took=?; }
        rm -f "$log.rc"
        report_suite "$rc" "$log" "$filter" "$took"
    done
    started=()
}

build "building (debug, every target and test)" "$logs/build-debug.log" swift build --build-tests
build "building libamber.so (release, scripts/build-lib.sh)" "$logs/build-lib.log" bash scripts/build-lib.sh

# The toolkit adapters in real windows: each script starts its own Xvfb, drives its notes demo
# and the real programs with xdotool, closes, signals or kills them, relaunches, and compares
# states and screenshots. They wait on their windows far more than they work, so they run in the
# background from here on, beside every other suite, and print their lines at the end.
start_suite "the Tkinter adapter in real windows (bindings/tk/run-tests.sh)" "$logs/tk-test.log" \
    '^(FAILED|amber.tk: all checks passed)' bash bindings/tk/run-tests.sh
start_suite "the GTK 4 adapter in real windows (bindings/gtk/run-tests.sh)" "$logs/gtk-test.log" \
    '^(FAIL|gtk tests: )' bash bindings/gtk/run-tests.sh
suite "Swift tests (swift test)" "$logs/swift-test.log" '^(✘|✔ Test run|✘ Test run)' \
    swift test --skip-build
suite "amber command tests (Tests/cli/run.sh)" "$logs/cli-test.log" '^(not ok|[0-9]+ passed)' \
    bash Tests/cli/run.sh .build/debug/amber
# Every seed and every past finding through its harness once, without a fuzzer.
replay() {
    .build/debug/amber-fuzz reader Fuzz/corpus/reader Fuzz/findings \
        && .build/debug/amber-fuzz envelope Fuzz/corpus/envelope \
        && .build/debug/amber-fuzz restore Fuzz/corpus/restore \
        && .build/debug/amber-fuzz unarchiver Fuzz/corpus/unarchiver
}
suite "fuzz corpora and findings replayed (amber-fuzz, no fuzzer)" "$logs/replay.log" 'inputs, all passed|^FAIL' replay
kills=0
[[ $all == 1 ]] && kills=${AMBER_KILLS:-1000}
suite "C tests (bindings/c/run-tests.sh: headers, exports, the C ABI; $kills kills)" "$logs/c-tests.log" \
    '^(== [^R]|FAIL|[0-9]+ passed, [0-9]+ failed|R19 [0-9]+ kills)' \
    env AMBER_SKIP_BUILD=1 AMBER_KILLS="$kills" bash bindings/c/run-tests.sh

# The C demo: amber inspect --app shows the archive after run 1; run 2 (after the item store
# changed) must show the same item selected at its new row, the half-edited name with its
# cursor, the scroll position, and the deleted item dropped; amber report --app shows its report.
demo_ok() {
    local state
    state=$(mktemp -d "${TMPDIR:-/tmp}/amber-demo-XXXXXX")
    XDG_STATE_HOME=$state bash scripts/demo-c.sh > "$logs/demo-c.log" 2>&1 || { rm -rf "$state"; return 1; }
    rm -rf "$state"
    sed -n '/^== homepwner .* run2$/,$p' "$logs/demo-c.log" > "$logs/demo-c-run2.log"
    grep -q '^/NavRoot: UINavigationController' "$logs/demo-c.log" || return 1
    grep -q '^report: ' "$logs/demo-c-run2.log" || return 1
    grep -q "restored 10 of 10 archived objects" "$logs/demo-c-run2.log" \
        && grep -q 'selected row 1: 7F3A-SPORK "Shiny Spork"' "$logs/demo-c-run2.log" \
        && grep -q 'NameField (UITextField)  text "Shiny Spork (edi", cursor at 16' "$logs/demo-c-run2.log" \
        && grep -q 'ItemsTable (UITableView)  scrolled to (0, 44)' "$logs/demo-c-run2.log" \
        && grep -q "dropped model identifier: 9D55-LAMP" "$logs/demo-c-run2.log"
}
echo "== the C demo (scripts/demo-c.sh)"
if demo_ok; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed (output: $logs/demo-c.log)"; status=1; fi

# The README's quick starts (examples/quickstart): run twice, the second run restores.
quickstarts() {
    local d lib=.build-lib/lib
    d=$(mktemp -d "${TMPDIR:-/tmp}/amber-quickstart-XXXXXX")
    cc -std=c11 -Wall -Wextra -Werror -I include examples/quickstart/c/twoscreens.c -o "$d/qs" \
        -L"$lib" -lamber -Wl,-rpath,"$PWD/$lib" || return 1
    local c py sw
    "$d/qs" "$d/c" >/dev/null && c=$("$d/qs" "$d/c") || return 1
    py=(env PYTHONPATH=bindings/python AMBER_LIBRARY="$PWD/$lib/libamber.so" python3 examples/quickstart/python/twoscreens.py "$d/py")
    "${py[@]}" >/dev/null && py=$("${py[@]}") || return 1
    .build/debug/quickstart-swift "$d/sw" >/dev/null && sw=$(.build/debug/quickstart-swift "$d/sw") || return 1
    rm -rf "$d"
    python3 -c "import sys; r = open('README.md').read(); sys.exit(0 if all(open(f).read() in r for f in sys.argv[1:]) else 1)" \
        examples/quickstart/c/twoscreens.c examples/quickstart/python/twoscreens.py examples/quickstart/swift/main.swift \
        || { echo "the README's quick starts differ from examples/quickstart"; return 1; }
    local ok=0
    for out in "$c" "$py" "$sw"; do grep -q '^row 0, offset 40.0$' <<<"$out" && ok=$((ok + 1)); done
    echo "$ok passed, $((3 - ok)) failed (C, Python, Swift: run 2 restores row 0 and offset 40)"
    [[ $ok == 3 ]]
}
suite "the README's quick starts (examples/quickstart)" "$logs/quickstart.log" 'passed, ' quickstarts

suite "Python binding (bindings/python/run-tests.sh: the wheel, the example, mypy, pytest)" "$logs/python-test.log" \
    '^(wheel:|auditwheel|example|mypy|FAILED|[0-9]+ (passed|failed))|(passed|failed) in ' \
    env AMBER_SKIP_BUILD=1 bash bindings/python/run-tests.sh
finish_suites

if [[ $all == 1 ]]; then
    build "building (release, with testing, for the malformed-input suites)" "$logs/build-release.log" \
        swift build -c release --build-tests -Xswiftc -enable-testing
    suite "malformed input and bounds, release build (R22)" "$logs/release-test.log" \
        '^(✘|✔ Test run|✘ Test run)|references to one record|children one by one' \
        swift test -c release --skip-build -Xswiftc -enable-testing --filter 'MalformedInputTests|BoundsTests'
    for sanitizer in address thread; do
        suite "Swift and C tests under the $sanitizer sanitizer (scripts/test-sanitizers.sh)" "$logs/$sanitizer.log" \
            '^(== |✘|✔ Test run|✘ Test run|FAIL|[0-9]+ passed, [0-9]+ failed)' \
            bash scripts/test-sanitizers.sh "$sanitizer"
    done
    skip_build=0  # the first harness builds amber-fuzz, the others use it
    for harness in reader envelope restore unarchiver; do
        suite "fuzzing '$harness' for ${AMBER_FUZZ_SECONDS:-120} s (Fuzz/run-harness.sh; libFuzzer + ASan)" \
            "$logs/fuzz-$harness.log" '.' \
            env AMBER_FUZZ_SKIP_BUILD=$skip_build bash Fuzz/run-harness.sh "$harness" "${AMBER_FUZZ_SECONDS:-120}"
        skip_build=1
    done
    suite "power loss (Tests/powerloss/run.sh: R19, R20, every crash state of five actions)" "$logs/powerloss.log" \
        '^(== |   [0-9]+ states explored|FAIL|powerloss: |self-check)' \
        env AMBER_SKIP_BUILD=1 bash Tests/powerloss/run.sh
    suite "valgrind memcheck of the C demo (scripts/valgrind-demo.sh)" "$logs/valgrind.log" '.' \
        bash scripts/valgrind-demo.sh
    suite "make install into a scratch prefix, a C host built with pkg-config (scripts/test-install.sh)" \
        "$logs/install.log" '^(FAIL|[0-9]+ passed, [0-9]+ failed)|libamber.so.0.[0-9]+.[0-9]+ +[0-9]+ bytes' \
        bash scripts/test-install.sh
fi

echo "($((SECONDS - began)) s)"
if [[ $status -eq 0 ]]; then echo "all suites passed"; else echo "FAILED (logs: $logs/)"; fi
exit $status
