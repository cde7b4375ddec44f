#!/usr/bin/env bash
# The Python binding's tests: locates libamber.so (builds it with scripts/build-lib.sh if missing,
# unless AMBER_SKIP_BUILD=1), installs the package with its copy of the library into a fresh
# virtual environment, runs the example in two steps there, and runs the pytest suite against
# the installed package, printing pytest's summary line. Exits non-zero if anything fails.
# Usage: bindings/python/run-tests.sh [pytest args]
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
if [ ! -f .build-lib/lib/libamber.so ]; then
    [ "${AMBER_SKIP_BUILD:-0}" = 1 ] && { echo "no .build-lib/lib/libamber.so (AMBER_SKIP_BUILD=1)"; exit 1; }
    bash scripts/build-lib.sh >/dev/null || { echo "build-lib.sh failed"; exit 1; }
fi
cp .build-lib/lib/libamber.so bindings/python/amber/libamber.so
python3 -c 'import pytest' 2>/dev/null || python3 -m pip install --quiet pytest || { echo "pytest is missing"; exit 1; }

venv=.build-lib/py-venv
rm -rf "$venv"
python3 -m venv --system-site-packages "$venv" || { echo "python3 -m venv failed"; exit 1; }
"$venv/bin/python" -m pip install --quiet ./bindings/python >"$venv.log" 2>&1 || { cat "$venv.log"; echo "pip install failed"; exit 1; }
status=0
state=$(mktemp -d "${TMPDIR:-/tmp}/amber-py-homepwner-XXXXXX")
trap 'rm -rf "$state"' EXIT
# the installed package, run from elsewhere (not the source tree)
# run 1 prints the preservation report (R28): the login screen without an identifier is left out
(cd "$state" && "$root/$venv/bin/python" "$root/bindings/python/examples/homepwner.py" --state-dir "$state/s" >run1.log 2>&1 \
    && grep -q "left out /(LoginViewController): no restoration identifier" run1.log \
    && "$root/$venv/bin/python" "$root/bindings/python/examples/homepwner.py" --state-dir "$state/s" >run2.log 2>&1 \
    && grep -q "restored 8 of 8 archived objects" run2.log) \
    && echo "example: run 1 preserved (its report names the screen left out), run 2 restored 8 of 8 archived objects" \
    || { cat "$state"/run*.log; echo "example FAILED"; status=1; }
cd "$state" && AMBER_TEST_INSTALLED=1 "$root/$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/bindings/python/tests" "$@" 2>&1 | tail -n 25
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
exit $status
