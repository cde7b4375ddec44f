#!/usr/bin/env bash
# Builds libamber.so, the C ABI of include/amber.h, as one self-contained library:
#   - the Swift runtime linked in statically (-static-stdlib; SwiftPM's --static-swift-stdlib is
#     ignored for dynamic libraries), and with it the C++ library the runtime is written against
#     (libstdc++.a, hidden like the rest: --exclude-libs ALL and the version script), so it needs
#     only libc, libm and libgcc_s. A Python program (a Tk one) has not loaded libstdc++.so.6
#     when it first calls Amber: loading it was half of the library's dlopen, which the program
#     pays before its first frame (BENCHMARKS.md, "Start-up: what restoring adds to a window's
#     first frame");
#   - only the amber_* functions exported (Sources/Amber/amber.map), linked with lld when the
#     toolchain has it (gold keeps the hidden Swift symbols in .dynsym as LOCAL entries);
#   - versioned as shared libraries are: the real file libamber.so.MAJOR.MINOR.PATCH with SONAME
#     libamber.so.MAJOR, and the symlinks libamber.so.MAJOR and libamber.so (the version is the
#     header's, AMBER_VERSION_* in include/amber/common.h). A host linked with -lamber needs
#     libamber.so.MAJOR at run time; .build-lib/lib/libamber.so stays the path to load by
#     (the SwiftPM product is named Amber: "amber" is the command's);
#   - Swift's run-time exclusivity checks off (-enforce-exclusivity=unchecked), as the Swift
#     standard library is built: the compile-time checks stay, and every test build (debug,
#     ASan, TSan, fuzz) keeps the run-time checks, so a violation is caught there. What the
#     checks cost is in BENCHMARKS.md; this one setting replaces the opt-outs that were spread
#     over the code.
# Size (0.2.0, stripped as `make install` strips it: 17.4 MB; 40.4 MB as built, with debug
# information). Of its 17.2 MB of sections: the Swift standard library 5.4 MB;
# FoundationEssentials and what it pulls in (_FoundationCollections, _RegexParser,
# _StringProcessing, Swift Concurrency, libdispatch) 6.7 MB, all of it reached through
# swift-crypto's Data/DataProtocol API; BoringSSL and swift-crypto 2.1 MB; Amber's own modules
# 1.3 MB; the linker's tables (relocations, .eh_frame_hdr, .dynsym) 1.6 MB. Tried and not
# used: -Osize for the Swift modules with -Os for C (-0.57 MB, but preserve and restore ~20%
# slower in bench_engine); -z pack-relative-relocs (-1.0 MB, but needs glibc 2.36's
# GLIBC_ABI_DT_RELR where the library otherwise runs on 2.35); lld --icf=safe (-8 KB).
# --gc-sections is on (SwiftPM passes it).
# Output: .build-lib/lib/libamber.so.MAJOR.MINOR.PATCH (0.3.0) (not stripped: `make install` strips its copy), and
# the symlinks .build-lib/lib/libamber.so.0 and .build-lib/lib/libamber.so.
# Usage: scripts/build-lib.sh [extra swift build flags]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=.build-lib
mkdir -p "$scratch/lib"

# The version, defined once in the header.
version_part() { sed -n "s/^#define AMBER_VERSION_$1 \([0-9][0-9]*\)\$/\1/p" include/amber/common.h; }
major=$(version_part MAJOR) minor=$(version_part MINOR) patch=$(version_part PATCH)
[ -n "$major" ] && [ -n "$minor" ] && [ -n "$patch" ] \
    || { echo "build-lib: no AMBER_VERSION_MAJOR/MINOR/PATCH in include/amber/common.h" >&2; exit 1; }
soname=libamber.so.$major
real=libamber.so.$major.$minor.$patch

toolset=()
lld="$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld"
if [ -x "$lld" ]; then
    printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" > "$scratch/toolset.json"
    toolset=(--toolset "$root/$scratch/toolset.json")
else
    echo "build-lib: no ld.lld beside swift; linking with the default linker" >&2
fi

# The Swift runtime's link arguments (static-stdlib-args.lnk) ask for -lstdc++: a directory that
# holds only the static archive, searched before the system's, makes that one be linked. Given to
# swiftc (-L), which puts it before the compiler's own directories; through -Xlinker it would come
# after them, and libstdc++.so would be found first.
static_cxx=()
archive=$("$(dirname "$(readlink -f "$(command -v swift)")")/clang" -print-file-name=libstdc++.a)
if [ -f "$archive" ]; then
    mkdir -p "$scratch/static-cxx"
    ln -sfn "$archive" "$scratch/static-cxx/libstdc++.a"
    static_cxx=(-Xswiftc -L"$root/$scratch/static-cxx")
else
    echo "build-lib: no libstdc++.a (libstdc++-12-dev); linking libstdc++.so.6" >&2
fi

swift build -c release --scratch-path "$scratch" --product Amber "${toolset[@]}" \
    -Xswiftc -static-stdlib -Xswiftc -enforce-exclusivity=unchecked "${static_cxx[@]}" \
    -Xlinker --version-script="$root/Sources/Amber/amber.map" \
    -Xlinker -soname="$soname" "$@"

# Replace, never write through: a symlink or hard link left by an earlier build must not carry
# the new bytes to another file.
rm -f "$scratch/lib/libamber.so" "$scratch/lib/$soname" "$scratch/lib/$real"
cp "$scratch/release/libAmber.so" "$scratch/lib/$real"
ln -s "$real" "$scratch/lib/$soname"
ln -s "$soname" "$scratch/lib/libamber.so"
echo "built $scratch/lib/$real (SONAME $soname) and the symlinks $soname, libamber.so"
