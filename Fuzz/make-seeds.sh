#!/usr/bin/env bash
# Regenerates the committed seed corpus of the reader harness, Fuzz/corpus/reader/:
# plistlib-made property lists and keyed archives (Fuzz/make_seeds.py) and a few files written
# by the library itself (`amber-fuzz make-reader-seeds`, Fuzz/Harnesses/ReaderSeeds.swift).
# Deterministic: running it again gives the same files.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
out=Fuzz/corpus/reader
mkdir -p "$out"
rm -f "$out"/*.bplist
python3 Fuzz/make_seeds.py "$out"
swift build --product amber-fuzz >/dev/null
.build/debug/amber-fuzz make-reader-seeds "$out"
echo "$(ls "$out" | wc -l) seeds in $out"
