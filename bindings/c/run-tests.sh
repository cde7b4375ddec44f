#!/usr/bin/env bash
# The C tests: the header test (amber.h alone as C99, C11 and C++17, and each header of
# include/amber/ alone, -Wall -Wextra -pedantic -Werror; the AMBER_*_INIT initialisers in C),
# the export check, test_smoke, test_rules (every rule R1-R16, R28 and R29 through
# the C ABI), test_values (an object's values in one call),
# test_envelope (R20, R22), test_files (R19, R20, R22, R28: special files, key file leftovers,
# the kept restoration report),
# test_bounds (R1, R2, R10, R22: depth, value and closing bounds), test_app (R23, R24, R25, R27),
# test_views (R17, R18, R21), test_versions (R30), test_budgets (R31), test_autosave (R32),
# test_late_claims (R35), test_stack_paths (R3: each path component's stack position),
# test_relaunch (R33, the relaunch test helper; R34, sensitive values,
# scanned in the files, the log and the output of .build/debug/amber when it is built) and
# test_kill (R19: SIGKILL while saving, AMBER_KILLS times, default 1000) against libamber.so.
# Each test points the XDG directories at a scratch directory of its own (tests/scratch.h,
# test_app its own), so nothing is written into the home directory.
# Usage: bindings/c/run-tests.sh   (builds the library with scripts/build-lib.sh unless
#        AMBER_SKIP_BUILD=1). Exits non-zero if anything fails.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=.build-lib/c-tests
mkdir -p "$out"
CC=${CC:-cc}
CXX=${CXX:-c++}
status=0

if [ "${AMBER_SKIP_BUILD:-0}" != 1 ]; then
    scripts/build-lib.sh >/dev/null || { echo "build-lib.sh failed"; exit 1; }
fi

echo "== header test"
passed=0
failed=0
hflags=(-Wall -Wextra -pedantic -Werror -Iinclude)
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
if $CC -std=c99 "${hflags[@]}" "$out/inits.c" -o "$out/inits" -L"$root/.build-lib/lib" -lamber -Wl,-rpath,"$root/.build-lib/lib" \
    && "$out/inits"; then
    echo "ok    the $(echo $inits | wc -w) AMBER_*_INIT initialisers set their version (C99)"; passed=$((passed + 1))
else echo "FAIL  the AMBER_*_INIT initialisers"; failed=$((failed + 1)); fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || status=1

echo "== exports"
bindings/c/tests/check-exports.sh | tail -n 4 || status=1

echo "== test_smoke"
flags=(-std=c99 -Wall -Wextra -pedantic -Werror -Iinclude)
link=(-L"$root/.build-lib/lib" -lamber -Wl,-rpath,"$root/.build-lib/lib")
$CC "${flags[@]}" -fPIC -shared bindings/c/tests/plugin_sample.c -o "$out/plugin_sample.so" "${link[@]}" || status=1
$CC "${flags[@]}" bindings/c/tests/test_smoke.c bindings/c/tests/runner.c -o "$out/test_smoke" "${link[@]}" || { echo "test_smoke does not compile"; exit 1; }
"$out/test_smoke" "$root/$out/plugin_sample.so" || status=1

echo "== test_rules"
$CC "${flags[@]}" bindings/c/tests/test_rules.c bindings/c/tests/rules/*.c bindings/c/tests/runner.c -o "$out/test_rules" "${link[@]}" || { echo "test_rules does not compile"; exit 1; }
"$out/test_rules" || status=1

echo "== test_values (R6, R7, R12, R22: values in one call)"
$CC "${flags[@]}" bindings/c/tests/test_values.c bindings/c/tests/runner.c -o "$out/test_values" "${link[@]}" || { echo "test_values does not compile"; exit 1; }
"$out/test_values" || status=1

echo "== test_bounds (R1, R2, R10, R22: a chain deeper than restoration reads, a launch over a host tree as deep, a value over the reader's limit, closing a million objects)"
$CC "${flags[@]}" bindings/c/tests/test_bounds.c bindings/c/tests/runner.c -o "$out/test_bounds" "${link[@]}" || { echo "test_bounds does not compile"; exit 1; }
"$out/test_bounds" || status=1

echo "== test_kill (R19: SIGKILL at ${AMBER_KILLS:-1000} random moments of saving)"
$CC "${flags[@]}" bindings/c/tests/test_kill.c bindings/c/tests/runner.c -o "$out/test_kill" "${link[@]}" || { echo "test_kill does not compile"; exit 1; }
"$out/test_kill" "${AMBER_KILLS:-1000}" || status=1

echo "== test_envelope (R20, R22)"
$CC "${flags[@]}" bindings/c/tests/test_envelope.c bindings/c/tests/runner.c -o "$out/test_envelope" "${link[@]}" || { echo "test_envelope does not compile"; exit 1; }
"$out/test_envelope" || status=1

echo "== test_files (R19, R20, R22: special files, key file leftovers)"
$CC "${flags[@]}" bindings/c/tests/test_files.c bindings/c/tests/runner.c -o "$out/test_files" "${link[@]}" || { echo "test_files does not compile"; exit 1; }
"$out/test_files" || status=1

echo "== test_app"
$CC "${flags[@]}" bindings/c/tests/test_app.c bindings/c/tests/runner.c -o "$out/test_app" "${link[@]}" || { echo "test_app does not compile"; exit 1; }
"$out/test_app" || status=1

echo "== test_relaunch (R33, R34)"
$CC "${flags[@]}" bindings/c/tests/test_relaunch.c bindings/c/tests/runner.c -o "$out/test_relaunch" "${link[@]}" || { echo "test_relaunch does not compile"; exit 1; }
# The amber command (swift build), for the scans of `amber inspect` and `amber dump` (R34).
amber_cli=()
[ -x .build/debug/amber ] && amber_cli=("$root/.build/debug/amber")
"$out/test_relaunch" "${amber_cli[@]}" || status=1

echo "== test_views (R17, R18, R21)"
$CC "${flags[@]}" bindings/c/tests/test_views.c bindings/c/tests/runner.c -o "$out/test_views" "${link[@]}" || { echo "test_views does not compile"; exit 1; }
"$out/test_views" || status=1

echo "== test_budgets (R31)"
$CC "${flags[@]}" bindings/c/tests/test_budgets.c bindings/c/tests/runner.c -o "$out/test_budgets" "${link[@]}" || { echo "test_budgets does not compile"; exit 1; }
"$out/test_budgets" || status=1

echo "== test_autosave (R32)"
$CC "${flags[@]}" bindings/c/tests/test_autosave.c bindings/c/tests/runner.c -o "$out/test_autosave" "${link[@]}" || { echo "test_autosave does not compile"; exit 1; }
"$out/test_autosave" || status=1

echo "== test_versions (R30)"
$CC "${flags[@]}" bindings/c/tests/test_versions.c bindings/c/tests/runner.c -o "$out/test_versions" "${link[@]}" || { echo "test_versions does not compile"; exit 1; }
"$out/test_versions" || status=1

echo "== test_stack_paths (R3, R10, R16, R28: every component's stack position)"
$CC "${flags[@]}" bindings/c/tests/test_stack_paths.c bindings/c/tests/runner.c -o "$out/test_stack_paths" "${link[@]}" || { echo "test_stack_paths does not compile"; exit 1; }
"$out/test_stack_paths" || status=1

echo "== test_late_claims (R35)"
$CC "${flags[@]}" bindings/c/tests/test_late_claims.c bindings/c/tests/runner.c -o "$out/test_late_claims" "${link[@]}" || { echo "test_late_claims does not compile"; exit 1; }
"$out/test_late_claims" || status=1
exit $status
