#!/usr/bin/env bash
# The power-loss test (issue 42, docs/behaviour.md R19): records the file-system calls of a save,
# of the key file's first creation, of a launch that consumes the archive, of a discard and of
# amber_file_write_atomic() (recorder.c, an LD_PRELOAD shim, over host.c); builds every on-disk
# state a power cut at each point may leave under the POSIX and the ext4 ordered-mode rules
# (crashstates.py says which); launches from each; and checks that the old state or the new one
# is restored whole, that a save that returned is durable, and that the key file stays while
# an archive sealed with it remains. Then the self-check: the same save recorded without its
# fsyncs must fail, or the test could not see what it looks for.
#
# Usage: Tests/powerloss/run.sh [crashstates.py options: --scenario NAME, --show N, --jobs N]
# Builds the library with scripts/build-lib.sh first unless AMBER_SKIP_BUILD=1. Prints, per
# scenario, the calls recorded, the states explored and those that failed, each with the calls
# that led there; then the total. Exits non-zero if any state fails or the self-check passes.
set -uo pipefail
cd "$(dirname "$0")/../.."
export SWIFT_BACKTRACE=enable=no
lib=.build-lib/lib
out=.build-lib/powerloss
if [[ ${AMBER_SKIP_BUILD:-0} != 1 ]]; then
    bash scripts/build-lib.sh >/dev/null || { echo "powerloss: the library did not build"; exit 2; }
fi
mkdir -p "$out"
cc -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC -o "$out/recorder.so" Tests/powerloss/recorder.c -ldl \
    || { echo "powerloss: the recorder did not build"; exit 2; }
cc -std=c11 -Wall -Wextra -Werror -O2 -I include -o "$out/host" Tests/powerloss/host.c \
    -L"$lib" -lamber -Wl,-rpath,"$PWD/$lib" || { echo "powerloss: the host did not build"; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/amber-powerloss-XXXXXX")
trap 'rm -rf "$work"' EXIT
run() { python3 Tests/powerloss/crashstates.py --host "$out/host" --recorder "$PWD/$out/recorder.so" "$@"; }

run --work "$work/test" "$@"
status=$?

# The self-check: a save whose fsyncs are left out leaves torn or lost archives, which must fail.
mkdir "$work/self-check"
run --work "$work/self-check" --scenario save --drop fsync --states-per-point 50 --show 1 > "$work/self-check.log"
check_status=$?
failed=$(sed -n 's/^powerloss: .*, \([0-9]*\) failed$/\1/p' "$work/self-check.log")
if [[ $check_status == 1 && ${failed:-0} -gt 0 ]]; then
    echo "self-check: the save recorded without its fsyncs fails in $failed states, as it must"
else
    echo "FAIL  self-check: the save recorded without its fsyncs did not fail (exit $check_status):"
    cat "$work/self-check.log"
    status=1
fi
exit $status
