#!/usr/bin/env bash
# The install step as a user meets it (issue 29, item 1):
#   1. `make install PREFIX=<a fresh temporary directory>`; the installed files are exactly the
#      expected ones, the library's SONAME is libamber.so.0 (readelf -d) and its symlinks chain
#      to it, the pkg-config file gives the header's version;
#   2. bindings/c/examples/install_check.c, compiled against the prefix only with
#      `cc install_check.c $(pkg-config --cflags --libs amber)` (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig,
#      an rpath from `pkg-config --variable=libdir amber`), runs twice: the first run preserves a
#      two-screen app, the second restores it;
#   3. the installed `amber` runs;
#   4. `make uninstall` leaves no file in the prefix;
#   5. the same with DESTDIR (a staged install, as packagers do): the files land under
#      DESTDIR/PREFIX, amber.pc names PREFIX, `make uninstall DESTDIR=...` removes them;
#   6. with GTK 4 installed, the GTK 4 adapter is installed too, and a program built with
#      `pkg-config --cflags --libs amber-gtk` links and runs.
# Prints the installed library's size. Exits non-zero on any failure.
# Usage: scripts/test-install.sh   (builds what `make install` needs; a cold build takes minutes)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
MAKE=${MAKE:-make}
CC=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/amber-test-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() { # name, status
    if [ "$2" -eq 0 ]; then echo "ok    $1"; passed=$((passed + 1)); else echo "FAIL  $1"; failed=$((failed + 1)); fi
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
for tool in pkg-config readelf strip "$CC"; do
    command -v "$tool" >/dev/null || { echo "FAIL  $tool is not installed (scripts/setup.sh installs it)"; exit 1; }
done

version=$(sed -n 's/^#define AMBER_VERSION_STRING "\(.*\)"$/\1/p' include/amber/common.h)
major=${version%%.*}
real=libamber.so.$version
soname=libamber.so.$major
expected=$(printf '%s\n' bin/amber include/amber.h lib/$real lib/$soname lib/libamber.so lib/pkgconfig/amber.pc \
    $(cd include && ls amber/*.h | sed 's|^|include/|') | sort)
# With GTK 4 (libgtk-4-dev), make install also installs the GTK 4 adapter (bindings/gtk).
gtk=0
if pkg-config --exists gtk4; then
    gtk=1
    gtk_version=$(sed -n 's/^VERSION := //p' bindings/gtk/Makefile)
    expected=$(printf '%s\n' $expected include/amber-gtk.h lib/libamber-gtk.so.$gtk_version lib/libamber-gtk.so.0 \
        lib/libamber-gtk.so lib/pkgconfig/amber-gtk.pc bin/amber-run lib/libamber-gtk-run.so | sort)
fi
installed() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort); }

echo "== make install PREFIX=$work/prefix"
prefix=$work/prefix
mkdir -p "$prefix"
if ! $MAKE --no-print-directory install PREFIX="$prefix" > "$work/install.log" 2>&1; then
    tail -n 30 "$work/install.log"
    check "make install" 1
    finish
fi
check "make install" 0
echo "installed:"
(cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort | while read -r f; do
    if [ -L "$f" ]; then echo "  $f -> $(readlink "$f")"; else printf '  %-32s %10s bytes\n' "$f" "$(stat -c %s "$f")"; fi
done)
check "the installed files are exactly the expected ones" $([ "$(installed "$prefix")" = "$expected" ]; echo $?)
lib=$prefix/lib/$real
check "lib/$soname -> $real" $([ "$(readlink "$prefix/lib/$soname")" = "$real" ]; echo $?)
check "lib/libamber.so -> $soname" $([ "$(readlink "$prefix/lib/libamber.so")" = "$soname" ]; echo $?)
soline=$(readelf -d "$lib" | grep SONAME)
echo "readelf -d lib/$real:$soline"
check "SONAME is $soname" $(echo "$soline" | grep -q "\[$soname\]"; echo $?)
check "the library is stripped (no .symtab, no debug information)" \
    $(! readelf -S "$lib" | grep -q -E '\.symtab|\.debug_'; echo $?)
check "the installed headers are the repository's" \
    $(diff -r include/amber "$prefix/include/amber" >/dev/null && cmp -s include/amber.h "$prefix/include/amber.h"; echo $?)

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
check "pkg-config --modversion amber is $version" $([ "$(pkg-config --modversion amber)" = "$version" ]; echo $?)
echo "pkg-config --cflags --libs amber: $(pkg-config --cflags --libs amber)"

echo "== a C host built against the prefix"
libdir=$(pkg-config --variable=libdir amber)
# shellcheck disable=SC2046 # pkg-config's output is flags, split on purpose
if $CC -std=c99 -Wall -Wextra -Werror bindings/c/examples/install_check.c -o "$work/install_check" \
        $(pkg-config --cflags --libs amber) -Wl,-rpath,"$libdir"; then
    check "cc install_check.c \$(pkg-config --cflags --libs amber)" 0
    check "the host needs $soname, found in the prefix" \
        $(ldd "$work/install_check" | grep -q "$soname => $libdir/$soname"; echo $?)
    state=$work/state
    mkdir -p "$state" "$work/xdg"
    # Nothing of the test in the real home directory.
    export XDG_STATE_HOME=$work/xdg XDG_DATA_HOME=$work/xdg XDG_CACHE_HOME=$work/xdg XDG_CONFIG_HOME=$work/xdg
    "$work/install_check" "$state" > "$work/run1.log" 2>&1
    rc=$?
    sed 's/^/  run 1: /' "$work/run1.log"
    check "run 1 preserves" $([ $rc -eq 0 ] && grep -q '^preserved' "$work/run1.log"; echo $?)
    "$work/install_check" "$state" > "$work/run2.log" 2>&1
    rc=$?
    sed 's/^/  run 2: /' "$work/run2.log"
    check "run 2 restores the two screens and their stack" \
        $([ $rc -eq 0 ] && grep -q '^restored 3 of 3$' "$work/run2.log" && grep -q 'text = "Shiny Sp"' "$work/run2.log"; echo $?)
else
    check "cc install_check.c \$(pkg-config --cflags --libs amber)" 1
fi

if [ $gtk = 1 ]; then
    echo "== a GTK 4 host built against the prefix (pkg-config amber-gtk)"
    printf '#include <amber-gtk.h>\nint main(void) { return amber_gtk_attach == 0; }\n' > "$work/gtk_check.c"
    # shellcheck disable=SC2046 # pkg-config's output is flags, split on purpose
    $CC -std=c11 "$work/gtk_check.c" -o "$work/gtk_check" $(pkg-config --cflags --libs amber-gtk) -Wl,-rpath,"$libdir" \
        > "$work/gtk_check.log" 2>&1
    check "cc gtk_check.c \$(pkg-config --cflags --libs amber-gtk) (version $(pkg-config --modversion amber-gtk))" $?
    "$work/gtk_check" > /dev/null 2>&1
    check "it runs: libamber-gtk.so.0 and libamber.so.0 found in the prefix" $?
    check "bin/amber-run preloads the module installed beside it ($libdir/libamber-gtk-run.so)" \
        $(grep -qF "$libdir/libamber-gtk-run.so" "$prefix/bin/amber-run"; echo $?)
fi

echo "== the installed amber command"
"$prefix/bin/amber" --help > "$work/amber-help.log" 2>&1
rc=$?
check "bin/amber --help runs ($(stat -c %s "$prefix/bin/amber") bytes)" $rc
swiftlibs=$(ldd "$prefix/bin/amber" | grep -i -E 'libswift|libFoundation|libdispatch' || true)
check "bin/amber needs no Swift runtime library${swiftlibs:+: $(echo $swiftlibs)}" $([ -z "$swiftlibs" ]; echo $?)

size=$(stat -c %s "$lib")
echo "the installed library: lib/$real, $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1e6 }'))"

echo "== make uninstall"
$MAKE --no-print-directory uninstall PREFIX="$prefix" > "$work/uninstall.log" 2>&1
check "make uninstall" $?
left=$(installed "$prefix")
check "no file is left in the prefix${left:+: $(echo $left)}" $([ -z "$left" ]; echo $?)

echo "== make install DESTDIR=$work/stage PREFIX=/opt/amber-test"
stage=$work/stage
if $MAKE --no-print-directory install DESTDIR="$stage" PREFIX=/opt/amber-test > "$work/install-destdir.log" 2>&1; then
    check "make install DESTDIR=..." 0
    check "the files are under DESTDIR/PREFIX" $([ "$(installed "$stage/opt/amber-test")" = "$expected" ]; echo $?)
    check "amber.pc names PREFIX, not DESTDIR" \
        $(grep -qx 'prefix=/opt/amber-test' "$stage/opt/amber-test/lib/pkgconfig/amber.pc" \
          && ! grep -q "$stage" "$stage/opt/amber-test/lib/pkgconfig/amber.pc"; echo $?)
    $MAKE --no-print-directory uninstall DESTDIR="$stage" PREFIX=/opt/amber-test > "$work/uninstall-destdir.log" 2>&1
    left=$(installed "$stage")
    check "make uninstall DESTDIR=... leaves no file${left:+: $(echo $left)}" $([ -z "$left" ]; echo $?)
else
    tail -n 20 "$work/install-destdir.log"
    check "make install DESTDIR=..." 1
fi
finish
