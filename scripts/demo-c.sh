#!/usr/bin/env bash
# The C demo: bindings/c/demo/homepwner.c preserves the Homepwner interface in one run, the item
# store changes, and a second run restores the interface (the same item selected at its new row,
# the half-edited name, the scroll position; a deleted selected item reported as dropped),
# through include/amber.h and libamber.so. The state lives where an application's does,
# $XDG_STATE_HOME/org.example.homepwner (default ~/.local/state/...); between the runs the
# amber command shows the archive waiting for run 2 (amber inspect --app) and, after it, the
# report run 2 kept (amber report --app).
# Usage: scripts/demo-c.sh   (builds the library with scripts/build-lib.sh only if
#        .build-lib/lib/libamber.so is missing, and the amber command if .build/debug/amber is).
#        Exits non-zero if anything fails.
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

[ -x .build/debug/amber ] || swift build --product amber >/dev/null
amber=$root/.build/debug/amber
export XDG_STATE_HOME=${XDG_STATE_HOME:-$HOME/.local/state}
app=org.example.homepwner
dir=$XDG_STATE_HOME/$app
mkdir -p "$dir"

echo "== homepwner $dir run1"
"$out/homepwner" "$dir" run1
echo
echo "== amber inspect --app $app   (the archive run 2 will restore)"
"$amber" inspect --app "$app"
echo
echo "== homepwner $dir change"
"$out/homepwner" "$dir" change
echo
echo "== homepwner $dir run2"
"$out/homepwner" "$dir" run2
echo
echo "== amber report --app $app   (what run 2 restored, kept beside the archive)"
"$amber" report --app "$app"
