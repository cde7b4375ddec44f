#!/usr/bin/env bash
# The C tests, against .build-lib/lib/libamber.so: the header test (amber.h alone as C99, C11 and
# C++17, each header of include/amber/ alone, -Wall -Wextra -pedantic -Werror; the AMBER_*_INIT
# initialisers in C), the export check, then one program per suite (bindings/c/tests/test_NAME.c,
# with the files of bindings/c/tests/NAME/ when the suite is split into them). The table below
# says which rules each suite checks; docs/testing.md says which suite owns which kind of rule.
#
# Usage: bindings/c/run-tests.sh                    the header test, the exports and every suite
#        bindings/c/run-tests.sh SUITE [PREFIX...]  one of them (headers, exports or a suite's
#                                                   NAME); with prefixes, only the suite's tests
#                                                   named PREFIX or PREFIX_... (tests/runner.h):
#                                                   run-tests.sh rules r10
#        bindings/c/run-tests.sh --list             the suites
# Builds the library with scripts/build-lib.sh first unless AMBER_SKIP_BUILD=1. AMBER_KILLS: the
# kill test's kills (default 1000; 0 makes none and checks nothing). Every suite points the XDG
# directories at a scratch directory of its own (tests/scratch.h), so nothing is written into the
# home directory. Each prints one line per check and "N passed, N failed"; the script exits
# non-zero if anything fails.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=.build-lib/c-tests
tests=bindings/c/tests
mkdir -p "$out"
CC=${CC:-cc}
CXX=${CXX:-c++}

# NAME|what it checks, in the order they run.
suites=(
    "headers|amber.h and each header alone, the AMBER_*_INIT initialisers"
    "exports|libamber.so exports exactly the header's functions"
    "conventions|every function of amber.h and amber-gtk.h follows amber.h's conventions (out-parameters first, ctx_free, amber_buf)"
    "smoke|versions, errors, a save and a restore, a host store, a plugin"
    "rules|R1-R16, R22, R28, R29 through the C ABI, one named test per rule"
    "values|R6, R7, R12, R22: values in one call; dates and index paths"
    "bounds|R1, R2, R10, R22: a chain deeper than restoration reads, a launch over a host tree as deep, a value over the reader's limit, closing a million objects"
    "memory|R22: every restore of the hostile corpus within max(1 MiB, 10x the archive) of extra memory"
    "kill|R19: SIGKILL at ${AMBER_KILLS:-1000} random moments of saving"
    "envelope|R20, R22"
    "files|R19, R20, R22: special files, key file leftovers"
    "app|R23, R24, R25, R27"
    "relaunch|R33, R34"
    "views|R17, R18, R21"
    "budgets|R31"
    "autosave|R32"
    "versions|R30"
    "stack_paths|R3, R10, R16, R28: every component's stack position"
    "late_claims|R35"
    "rule_table|R1, R4, R6, R7, R10, R11, R17, R18, R24, R25: the rules once only in C give the table's status (Tests/rules/abi-rules.table)"
    "threads|amber.h thread safety: 6 engines and 3 callers on their threads at once"
)

names() { local s; for s in "${suites[@]}"; do echo "${s%%|*}"; done; }

case "${1:-}" in
    --list) names; exit 0 ;;
    "") only=""; prefixes=() ;;
    *)
        only=$1; shift; prefixes=("$@")
        if ! names | grep -qx -- "$only"; then
            echo "run-tests.sh: no suite named $only; the suites: $(names | tr '\n' ' ')"; exit 2
        fi ;;
esac

if [ "${AMBER_SKIP_BUILD:-0}" != 1 ]; then
    scripts/build-lib.sh >/dev/null || { echo "build-lib.sh failed"; exit 1; }
fi

flags=(-std=c99 -Wall -Wextra -pedantic -Werror -Iinclude)
link=(-L"$root/.build-lib/lib" -lamber -Wl,-rpath,"$root/.build-lib/lib" -lpthread)
# What every test program is built with: the runner and the memory store, compiled once.
common=("$out/runner.o" "$out/mem_store.o")

# ---- the header test ---------------------------------------------------------------------------
suite_headers() {
    local passed=0 failed=0 std h m t inits
    local hflags=(-Wall -Wextra -pedantic -Werror -Iinclude)
    printf '#include "amber.h"\nint main(void) { return amber_version_number() == AMBER_VERSION_NUMBER ? 0 : 1; }\n' > "$out/header.c"
    cp "$out/header.c" "$out/header.cpp"
    for std in c99 c11; do
        if $CC -std=$std "${hflags[@]}" -c "$out/header.c" -o "$out/header-$std.o"; then
            echo "ok    amber.h compiles alone as ${std^^}"; passed=$((passed + 1))
        else echo "FAIL  amber.h as ${std^^}"; failed=$((failed + 1)); fi
    done
    if $CXX -std=c++17 "${hflags[@]}" -c "$out/header.cpp" -o "$out/header-cpp.o"; then
        echo "ok    amber.h compiles alone as C++17"; passed=$((passed + 1))
    else echo "FAIL  amber.h as C++17"; failed=$((failed + 1)); fi
    for h in include/amber/*.h; do
        printf '#include "%s"\nint amber_header_test;\n' "${h#include/}" > "$out/one-header.c"
        if $CC -std=c99 "${hflags[@]}" -c "$out/one-header.c" -o "$out/one-header.o"; then
            echo "ok    ${h#include/} compiles alone as C99"; passed=$((passed + 1))
        else echo "FAIL  ${h#include/} alone as C99"; failed=$((failed + 1)); fi
    done
    # Every versioned struct's initialiser: zero members, the version set.
    inits=$(grep -ho '#define AMBER_[A-Z_]*_INIT\b' include/amber/*.h | awk '{print $2}' | grep -v AMBER_BUF_INIT)
    {
        echo '#include "amber.h"'
        echo 'int main(void) {'
        for m in $inits; do
            t=$(echo "${m%_INIT}" | tr 'A-Z' 'a-z')
            echo "    { $t s = $m; if (s.version != ${m%_INIT}_VERSION) return 1; }"
        done
        echo '    { amber_buf b = AMBER_BUF_INIT; amber_buf_dispose(&b); if (b.ptr || b.size) return 1; }'
        echo '    return 0;'
        echo '}'
    } > "$out/inits.c"
    if $CC -std=c99 "${hflags[@]}" "$out/inits.c" -o "$out/inits" "${link[@]}" && "$out/inits"; then
        echo "ok    the $(echo $inits | wc -w) AMBER_*_INIT initialisers set their version (C99)"; passed=$((passed + 1))
    else echo "FAIL  the AMBER_*_INIT initialisers"; failed=$((failed + 1)); fi
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

suite_exports() { "$tests/check-exports.sh" | tail -n 4; }
suite_conventions() { python3 "$tests/check-conventions.py"; }

# ---- the test programs ---------------------------------------------------------------------------
# Every suite runs on the runner (tests/runner.h) and takes only test prefixes: what else a
# suite reads comes in the environment.
suite_environment() {
    case $1 in
        smoke) export AMBER_TEST_PLUGIN="$root/$out/plugin_sample.so" ;;
        memory) export AMBER_TEST_CORPUS="$root/Fuzz/corpus" AMBER_TEST_PYTHON_CORPUS="$root/bindings/python/fuzz/corpus" \
                       AMBER_TEST_REPEAT_REFERENCES="$root/$tests/repeat_references.py" ;;
        kill) export AMBER_KILLS="${AMBER_KILLS:-1000}" ;;
        # The amber command (swift build), for the scans of `amber inspect` and `amber dump` (R34).
        relaunch) if [ -x .build/debug/amber ]; then export AMBER_TEST_CLI="$root/.build/debug/amber"; fi ;;
    esac
}

build_program() {
    local name=$1 sources=("$tests/test_$1.c")
    [ -d "$tests/$name" ] && sources+=("$tests/$name"/*.c)
    if [ "$name" = smoke ]; then
        $CC "${flags[@]}" -fPIC -shared "$tests/plugin_sample.c" -o "$out/plugin_sample.so" "${link[@]}" || return 1
    fi
    $CC "${flags[@]}" "${sources[@]}" "${common[@]}" -o "$out/test_$name" "${link[@]}"
}

# Builds the selected programs in the background, as many at once as there are cores: a build
# is one compiler call that waits on nothing, and the suites then run one after the other. Each
# build leaves its output in test_NAME.build.log and its exit status in test_NAME.built.
build_programs() {
    local name cores
    cores=$(nproc 2>/dev/null || echo 2)
    rm -f "$out"/test_*.built
    for name in "$@"; do
        while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n; done
        { build_program "$name" >"$out/test_$name.build.log" 2>&1; echo $? >"$out/test_$name.built"; } &
    done
    wait
}

run_program() {
    local name=$1
    shift
    if [ "$(cat "$out/test_$name.built" 2>/dev/null)" != 0 ]; then
        cat "$out/test_$name.build.log"; echo "FAIL  test_$name does not compile"; return 1
    fi
    (suite_environment "$name" && "$out/test_$name" "$@")
}

selected=()
for entry in "${suites[@]}"; do
    name=${entry%%|*}
    [ -z "$only" ] || [ "$name" = "$only" ] || continue
    case $name in headers | exports | conventions) ;; *) selected+=("$name") ;; esac
done
status=0
if [ ${#selected[@]} -gt 0 ]; then
    for c in runner mem_store; do
        $CC "${flags[@]}" -c "$tests/$c.c" -o "$out/$c.o" || { echo "FAIL  $tests/$c.c does not compile"; exit 1; }
    done
    build_programs "${selected[@]}"
fi

for entry in "${suites[@]}"; do
    name=${entry%%|*}
    [ -z "$only" ] || [ "$name" = "$only" ] || continue
    case $name in
        headers | exports | conventions)
            echo "== $name"
            [ ${#prefixes[@]} -eq 0 ] || { echo "FAIL  $name has no named tests"; status=1; continue; }
            "suite_$name" || status=1 ;;
        *)
            echo "== test_$name (${entry#*|})"
            run_program "$name" "${prefixes[@]}" || status=1 ;;
    esac
done
exit $status
