#!/usr/bin/env bash
# Builds the reader fuzzer: the harness compiled with the library sources into one module
# (so no @testable import is needed), instrumented for libFuzzer and AddressSanitizer.
# Output: .build-fuzz/reader-fuzzer.
#   OPT=-Onone bash Fuzz/build.sh   unoptimized (slower)
#   AMBER_SOURCES=DIR bash Fuzz/build.sh   the library's sources from DIR (e.g. a snapshot of a commit)
# The library's sources are copied to .build-fuzz/src/ first, so that edits made during the
# build do not break it; stack traces name those copies (same lines as the sources at build time).
set -euo pipefail
cd "$(dirname "$0")/.."
src="${AMBER_SOURCES:-Sources/AmberArchive}"
snap=.build-fuzz/src
mkdir -p .build-fuzz
rm -rf "$snap" && mkdir -p "$snap" && cp "$src"/*.swift "$snap"/
# -g: file and line in stack traces. lld: gold warns about every ASan helper symbol.
swiftc "${OPT:--O}" -g -sanitize=fuzzer,address -parse-as-library -swift-version 6 -use-ld=lld \
    -module-name AmberFuzz "$snap"/*.swift Fuzz/ReaderFuzzer.swift \
    -o .build-fuzz/reader-fuzzer.tmp
mv .build-fuzz/reader-fuzzer.tmp .build-fuzz/reader-fuzzer
echo "built .build-fuzz/reader-fuzzer from $src"
