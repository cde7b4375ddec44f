#!/usr/bin/env bash
# The Python binding's tests, through the wheel a pip user gets:
#   1. finds libamber.so: $AMBER_LIBRARY, else .build-lib/lib/libamber.so (built with
#      scripts/build-lib.sh if missing, unless AMBER_SKIP_BUILD=1);
#   2. builds the wheel (pip wheel ./bindings/python; its build hook puts the stripped library
#      inside) and refuses a py3-none-any one; checks its tag with `auditwheel show`;
#   3. installs it in a fresh virtual environment (no system site-packages, nothing downloaded);
#   4. runs the example twice from there, with AMBER_LIBRARY unset and swift not on PATH: run 1
#      preserves (its report names the login screen left out), run 2 restores 8 of 8;
#   5. runs mypy --strict on the installed package and its example;
#   6. runs pytest against the installed package, printing its summary.
# The tools (hatchling, auditwheel, mypy, pytest) come from scripts/setup.sh, which installs them
# for python3; this script downloads nothing. Exits non-zero if anything fails.
# Usage: bindings/python/run-tests.sh [pytest args]
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
if [ -n "${AMBER_LIBRARY:-}" ]; then
    [ -f "$AMBER_LIBRARY" ] || { echo "AMBER_LIBRARY=$AMBER_LIBRARY is not a file"; exit 1; }
elif [ ! -f .build-lib/lib/libamber.so ]; then
    [ "${AMBER_SKIP_BUILD:-0}" = 1 ] && { echo "no .build-lib/lib/libamber.so (AMBER_SKIP_BUILD=1)"; exit 1; }
    bash scripts/build-lib.sh >/dev/null || { echo "build-lib.sh failed"; exit 1; }
fi
rm -f bindings/python/amber/libamber.so  # a copy left by an older runner would shadow nothing, but mislead

venv=.build-lib/py-venv
mkdir -p .build-lib
rm -rf "$venv"
python=$(python3 -c 'import sys; print(sys.executable)')  # the tools' interpreter
for tool in hatchling auditwheel mypy pytest; do
    "$python" -c "import $tool" 2>/dev/null || { echo "FAILED: $tool is missing (run bash scripts/setup.sh)"; exit 1; }
done
"$python" -m venv "$venv" || { echo "python3 -m venv failed"; exit 1; }
py="$root/$venv/bin/python"
log="$root/$venv.log"
: >"$log"
step() { "$@" >>"$log" 2>&1 || { cat "$log"; echo "FAILED: $*"; exit 1; }; }

# 2. the wheel (built by pip with the installed hatchling: nothing is downloaded)
step "$python" -m pip wheel --no-deps --no-build-isolation --quiet -w "$root/$venv/dist" ./bindings/python
wheel=$(ls "$root/$venv"/dist/amber_restoration-*.whl 2>/dev/null | head -n 1)
[ -n "$wheel" ] || { cat "$log"; echo "FAILED: pip wheel made no wheel"; exit 1; }
case "$wheel" in *none-any.whl) echo "FAILED: $(basename "$wheel") is a pure-Python wheel"; exit 1;; esac
echo "wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"
verdict=$("$python" -m auditwheel show "$wheel" 2>&1)
if grep -q 'consistent with the following platform tag: *"manylinux_2_35_x86_64"' <<<"$verdict"; then
    echo "auditwheel show: consistent with manylinux_2_35_x86_64"
else
    echo "$verdict"; echo "FAILED: auditwheel show does not confirm manylinux_2_35_x86_64"; exit 1
fi

# 3. installed in the fresh venv, from the file alone
step "$py" -m pip install --quiet --no-deps --no-index "$wheel"
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

status=0
state=$(mktemp -d "${TMPDIR:-/tmp}/amber-py-XXXXXX")
trap 'rm -rf "$state"' EXIT
bare=(env -u AMBER_LIBRARY -u PYTHONPATH "PATH=$root/$venv/bin:/usr/bin:/bin")

# 4. the example, twice, from the wheel alone (no swift on this PATH, no AMBER_LIBRARY)
if (cd "$state" && ! "${bare[@]}" sh -c 'command -v swift' >/dev/null \
    && "${bare[@]}" python -m amber.examples.homepwner --state-dir "$state/s" >run1.log 2>&1 \
    && grep -q "($root/$venv/lib/python[0-9.]*/site-packages/amber/libamber.so)" run1.log \
    && grep -q "left out /(LoginViewController): no restoration identifier" run1.log \
    && "${bare[@]}" python -m amber.examples.homepwner --state-dir "$state/s" >run2.log 2>&1 \
    && grep -q "restored 8 of 8 archived objects" run2.log); then
    echo "example (the wheel's library, no swift, no AMBER_LIBRARY): run 1 preserved (its report names the screen left out), run 2 restored 8 of 8 archived objects"
else
    cat "$state"/run*.log; echo "example FAILED"; status=1
fi

# 5. mypy --strict on the installed package (the venv's), the example included
if (cd "$state" && "$python" -m mypy --strict --no-incremental --python-executable "$py" -p amber >mypy.log 2>&1); then
    echo "mypy --strict -p amber: $(tail -n 1 "$state/mypy.log")"
else
    cat "$state/mypy.log"; echo "mypy FAILED"; status=1
fi

# 6. pytest against the installed package (the tests import it, not the source tree)
cd "$state" && env -u AMBER_LIBRARY PYTHONPATH="$site" AMBER_TEST_INSTALLED=1 "$python" -m pytest -q -p no:cacheprovider \
    "$root/bindings/python/tests" "$@" 2>&1 | tail -n 25
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
exit $status
