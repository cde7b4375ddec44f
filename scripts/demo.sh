#!/usr/bin/env bash
# The demo: archives the seeds' Homepwner item store with AmberArchive (a keyed archive in the
# NSKeyedArchiver layout), reads it back, and shows the file with `amber dump --keyed`.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
bash scripts/setup.sh
swift build --product amber-demo >/dev/null
swift build --product amber >/dev/null
out=$(mktemp -d)/homepwner.archive
.build/debug/amber-demo "$out"
echo "== amber dump --keyed $out"
.build/debug/amber dump --keyed "$out"
echo "== python3 plistlib reads it too:"
python3 -c "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); print('  \$archiver =', d['\$archiver'], '| objects:', len(d['\$objects']))" "$out"
