#!/usr/bin/env bash
# The demo, in two parts:
# 1. the C host (bindings/c/demo/homepwner.c): run 1 builds the Homepwner interface (a table with
#    a selection and a scroll position, a half-edited text field) and preserves it with a
#    snapshot; the item store then changes; run 2 restores it through libamber.so and prints the
#    restored tree (the same item selected at its new row) and the report (the dropped item);
# 2. the seeds' item store archived with AmberArchive's keyed archiver (the NSKeyedArchiver
#    layout), read back, and shown with `amber dump --keyed`.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
bash scripts/setup.sh
echo "######## 1. preserve and restore a C host's interface (scripts/demo-c.sh)"
bash scripts/demo-c.sh
echo
echo "######## 2. the item store as a keyed archive"
swift build --product amber-demo >/dev/null
swift build --product amber >/dev/null
out=$(mktemp -d)/homepwner.archive
.build/debug/amber-demo "$out"
echo "== amber dump --keyed $out"
.build/debug/amber dump --keyed "$out"
echo "== python3 plistlib reads it too:"
python3 -c "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); print('  \$archiver =', d['\$archiver'], '| objects:', len(d['\$objects']))" "$out"
