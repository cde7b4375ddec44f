#!/usr/bin/env bash
# valgrind memcheck of the C demo (issue 5): bindings/c/demo/homepwner.c preserves its interface
# (run1) and restores it (run2) through libamber.so, each run under
# valgrind --leak-check=full; fails on a definite leak or a memory error.
# Usage: scripts/valgrind-demo.sh   (builds libamber.so with scripts/build-lib.sh if it is missing)
# Prints valgrind's error and leak summaries for each run.
set -uo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
root=$PWD
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
[ -f .build-lib/lib/libamber.so ] || bash scripts/build-lib.sh >/dev/null || exit 1
out=.build-lib/valgrind
mkdir -p "$out"
# valgrind 3.19 cannot read the DWARF 5 forms the Swift toolchain writes ("unhandled dwarf2
# abbrev form code 0x25", then it gives up): it gets a copy of the library without debug
# information (symbol names stay) and a demo with DWARF 4.
# The copy is named by the library's SONAME (libamber.so.0), which the demo needs at run time;
# libamber.so beside it is what -lamber finds at link time.
soname=$(readelf -d .build-lib/lib/libamber.so | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
rm -f "$out"/libamber.so*
objcopy --strip-debug .build-lib/lib/libamber.so "$out/$soname" || exit 1
ln -s "$soname" "$out/libamber.so"
${CC:-cc} -std=c99 -Wall -Wextra -Werror -gdwarf-4 -Iinclude bindings/c/demo/homepwner.c -o "$out/homepwner" \
    -L"$out" -lamber -Wl,-rpath,"$root/$out" || exit 1
dir=$(mktemp -d "${TMPDIR:-/tmp}/amber-valgrind-XXXXXX")
trap 'rm -rf "$dir"' EXIT
status=0
for run in run1 run2; do
    log=$out/valgrind-$run.log
    valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
        --error-exitcode=99 --log-file="$log" "$out/homepwner" "$dir" "$run" >"$out/homepwner-$run.out" 2>&1
    rc=$?
    echo "$run (exit $rc): $(grep -E 'ERROR SUMMARY' "$log" | sed 's/^==[0-9]*== //')"
    grep -E 'definitely lost|indirectly lost|possibly lost|still reachable|All heap blocks were freed' "$log" | sed 's/^==[0-9]*== /    /'
    [[ $rc -eq 0 ]] || { status=1; grep -E -A20 'definitely lost in|Invalid (read|write)|uninitialised' "$log" | head -40; }
done
# Every archived object restored (the same check as test.sh's demo stage, without its count).
grep -qE "^restored ([1-9][0-9]*) of \1 archived objects" "$out/homepwner-run2.out" \
    || { echo "run2 did not restore every archived object"; status=1; }
[[ $status -eq 0 ]] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $status
