#!/usr/bin/env bash
# Regenerates the committed seed corpus of the reader fuzzer, Fuzz/corpus/reader/:
# plistlib-made property lists and keyed archives (Fuzz/make_seeds.py) and a few files written
# by the library itself (Fuzz/SeedWriter.swift). Deterministic: running it again gives the
# same files.
set -euo pipefail
cd "$(dirname "$0")/.."
# AMBER_SOURCES: another directory of the library's sources (e.g. a snapshot of a commit).
src="${AMBER_SOURCES:-Sources/AmberArchive}"
out=Fuzz/corpus/reader
mkdir -p "$out" .build-fuzz
rm -f "$out"/*.bplist
python3 Fuzz/make_seeds.py "$out"
# A copy of the sources, so that edits made during the build do not break it.
rm -rf .build-fuzz/seed-src && mkdir -p .build-fuzz/seed-src && cp "$src"/*.swift .build-fuzz/seed-src/
swiftc -O -parse-as-library -swift-version 6 -module-name AmberSeeds \
    .build-fuzz/seed-src/*.swift Fuzz/SeedWriter.swift -o .build-fuzz/seed-writer
.build-fuzz/seed-writer "$out"
echo "$(ls "$out" | wc -l) seeds in $out"
