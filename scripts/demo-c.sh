#!/usr/bin/env bash
# The C demo: bindings/c/demo/homepwner.c preserves the Homepwner interface in one run, the item
# store changes, and a second run restores the interface (the same item selected at its new row,
# the half-edited name, the scroll position; a deleted selected item reported as dropped),
# through include/amber.h and libamber.so.
# Usage: scripts/demo-c.sh   (builds the library with scripts/build-lib.sh only if
#        .build-lib/lib/libamber.so is missing). Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
CC=${CC:-cc}

if [ ! -f .build-lib/lib/libamber.so ]; then
    bash scripts/build-lib.sh
fi

out=.build-lib/c-demo
mkdir -p "$out"
$CC -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/demo/homepwner.c -o "$out/homepwner" \
    -L.build-lib/lib -lamber -Wl,-rpath,"$root/.build-lib/lib"

dir=$(mktemp -d "${TMPDIR:-/tmp}/amber-homepwner-XXXXXX")
trap 'rm -rf "$dir"' EXIT

echo "== homepwner $dir run1"
"$out/homepwner" "$dir" run1
echo
echo "== homepwner $dir change"
"$out/homepwner" "$dir" change
echo
echo "== homepwner $dir run2"
"$out/homepwner" "$dir" run2
