#!/usr/bin/env bash
# Regenerates the committed seed corpora of the envelope and restore harnesses,
# Fuzz/corpus/envelope/ and Fuzz/corpus/restore/: archives of variants of the harnesses' small
# interface preserved by an engine (Fuzz/Harnesses/Seeds.swift), plain, sealed with the
# harnesses' fixed key, unencrypted, and a few damaged. Sealing draws a fresh salt and nonce and
# the archives carry a timestamp, so the files differ from one run to the next.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
swift build --product amber-fuzz >/dev/null
rm -rf Fuzz/corpus/envelope Fuzz/corpus/restore
.build/debug/amber-fuzz make-seeds Fuzz/corpus
