#!/usr/bin/env bash
# Checks that libamber.so exports exactly the functions include/amber.h (and the headers it
# includes) declares, each with AMBER_API: each declared
# function is exported, and nothing else is (no Swift symbols). Also that it needs no Swift
# runtime library, nor libstdc++.so. Prints one line per check and "N passed, N failed".
# Usage: bindings/c/tests/check-exports.sh [path/to/libamber.so]
set -uo pipefail
cd "$(dirname "$0")/../../.."
lib=${1:-.build-lib/lib/libamber.so}
header=include/amber.h
passed=0
failed=0
check() { # name, condition status
    if [ "$2" -eq 0 ]; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi
}

if [ ! -f "$lib" ]; then echo "no $lib: run scripts/build-lib.sh"; echo "0 passed, 1 failed"; exit 1; fi

# Declared functions: preprocess (comments and macros gone), join each declaration onto one line,
# keep the top-level declarations "type amber_name(" — not typedefs or struct members (those are
# function pointers, "(*name)").
declared=$(cc -E -P -x c "$header" | tr '\n' ' ' | tr ';' '\n' \
    | grep -v -E '^\s*typedef' | grep -o -E '\bamber_[a-z0-9_]+\s*\(' | tr -d ' (' | sort -u)
# The struct bodies are inside typedefs, so member pointers "(*read)" never match above.
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)

n=$(echo "$declared" | grep -c .)
check "the header declares functions ($n)" $([ "$n" -gt 0 ]; echo $?)
for f in $declared; do
    # A here-string, not `echo | grep -q`: grep -q exits at its first match, and under
    # pipefail the echo it cut off (SIGPIPE) would fail the check now and then.
    grep -qx -- "$f" <<< "$exported"
    check "exported: $f" $?
done
# Every top-level declaration carries AMBER_API (a declaration starting at column 0 without it).
bare=$(grep -n -E '^(const |void|int|size_t|uint64_t|amber_)[^;]*\bamber_[a-z0-9_]+\(' include/amber/*.h || true)
check "every function is declared with AMBER_API${bare:+: $(echo $bare | head -c 300)}" $([ -z "$bare" ]; echo $?)
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
check "nothing else is exported${extra:+: $(echo $extra | head -c 300)}" $([ -z "$extra" ]; echo $?)
swiftlibs=$(ldd "$lib" | grep -i -E 'libswift|libdispatch|libFoundation|libBlocksRuntime' || true)
check "no Swift runtime library needed${swiftlibs:+: $swiftlibs}" $([ -z "$swiftlibs" ]; echo $?)
# libstdc++ is linked in (scripts/build-lib.sh): a Python program, which has not loaded it, would
# pay for loading it before its first frame (issue 40, item 6).
cxx=$(readelf -d "$lib" | grep -o 'NEEDED.*\[libstdc++[^]]*\]' || true)
check "libstdc++.so not needed${cxx:+: $cxx}" $([ -z "$cxx" ]; echo $?)
# The SONAME carries the major version of the header (scripts/build-lib.sh).
major=$(sed -n 's/^#define AMBER_VERSION_MAJOR \([0-9][0-9]*\)$/\1/p' include/amber/common.h)
soname=$(readelf -d "$lib" | grep -o 'SONAME.*\[.*\]' || true)
check "SONAME is libamber.so.$major ($soname)" $(echo "$soname" | grep -q "\[libamber\.so\.$major\]"; echo $?)

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
