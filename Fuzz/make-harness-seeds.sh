#!/usr/bin/env bash
# Regenerates the committed seed corpora of the envelope, restore and unarchiver harnesses,
# Fuzz/corpus/envelope/ and Fuzz/corpus/restore/: archives of variants of the harnesses' small
# interface preserved by an engine (Fuzz/Harnesses/Seeds.swift), plain, sealed with the
# harnesses' fixed key (envelope format 2 in one chunk and in 64-byte chunks, and format 1 as
# earlier releases wrote it), unencrypted, and a few damaged (among them a multi-chunk envelope
# cut at a chunk boundary and one with two chunks swapped). Sealing draws a fresh salt and nonce and
# the archives carry a timestamp, so the files differ from one run to the next.
# Fuzz/corpus/unarchiver/: archives of the unarchiver harness's objects written with
# amber_archiver_* (Fuzz/Harnesses/UnarchiverSeeds.swift); these are the same on every run.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
swift build --product amber-fuzz >/dev/null
rm -rf Fuzz/corpus/envelope Fuzz/corpus/restore Fuzz/corpus/unarchiver
.build/debug/amber-fuzz make-seeds Fuzz/corpus
