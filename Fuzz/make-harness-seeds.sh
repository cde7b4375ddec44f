#!/usr/bin/env bash
# Regenerates the committed seed corpora of the envelope and restore harnesses,
# Fuzz/corpus/envelope/ and Fuzz/corpus/restore/: archives of variants of the harnesses' small
# interface preserved by an engine (Fuzz/Harnesses/Seeds.swift), plain, sealed with the
# harnesses' fixed key (envelope format 2 in one chunk and in 64-byte chunks, and format 1 as
# earlier releases wrote it), unencrypted, and a few damaged (among them a multi-chunk envelope
# cut at a chunk boundary and one with two chunks swapped). Sealing draws a fresh salt and nonce and
# the archives carry a timestamp, so the files differ from one run to the next.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
swift build --product amber-fuzz >/dev/null
rm -rf Fuzz/corpus/envelope Fuzz/corpus/restore
.build/debug/amber-fuzz make-seeds Fuzz/corpus
