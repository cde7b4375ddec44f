#!/usr/bin/env bash
# Builds libamber.so, the C ABI of include/amber.h, as one self-contained library:
#   - the Swift runtime linked in statically (-static-stdlib; SwiftPM's --static-swift-stdlib is
#     ignored for dynamic libraries), so it needs only libc, libm, libstdc++ and libgcc_s;
#   - only the amber_* functions exported (Sources/Amber/amber.map), linked with lld when the
#     toolchain has it (gold keeps the hidden Swift symbols in .dynsym as LOCAL entries);
#   - SONAME libamber.so (the SwiftPM product is named Amber: "amber" is the command's);
#   - Swift's run-time exclusivity checks off (-enforce-exclusivity=unchecked), as the Swift
#     standard library is built: the compile-time checks stay, and every test build (debug,
#     ASan, TSan, fuzz) keeps the run-time checks, so a violation is caught there. What the
#     checks cost is in BENCHMARKS.md; this one setting replaces the opt-outs that were spread
#     over the code.
# Output: .build-lib/lib/libamber.so.  Usage: scripts/build-lib.sh [extra swift build flags]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=.build-lib
mkdir -p "$scratch/lib"

toolset=()
lld="$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld"
if [ -x "$lld" ]; then
    printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" > "$scratch/toolset.json"
    toolset=(--toolset "$root/$scratch/toolset.json")
else
    echo "build-lib: no ld.lld beside swift; linking with the default linker" >&2
fi

swift build -c release --scratch-path "$scratch" --product Amber "${toolset[@]}" \
    -Xswiftc -static-stdlib -Xswiftc -enforce-exclusivity=unchecked \
    -Xlinker --version-script="$root/Sources/Amber/amber.map" \
    -Xlinker -soname=libamber.so "$@"

cp "$scratch/release/libAmber.so" "$scratch/lib/libamber.so"
echo "built $scratch/lib/libamber.so"
