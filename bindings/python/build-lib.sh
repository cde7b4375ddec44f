#!/usr/bin/env bash
# Places libamber.so inside the Python package (bindings/python/amber/libamber.so), so that
# `pip install ./bindings/python` carries it. Builds it with scripts/build-lib.sh when
# .build-lib/lib/libamber.so is missing (or always with --rebuild).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = --rebuild ] || [ ! -f .build-lib/lib/libamber.so ]; then
    bash scripts/build-lib.sh >/dev/null
fi
cp .build-lib/lib/libamber.so bindings/python/amber/libamber.so
echo "copied .build-lib/lib/libamber.so to bindings/python/amber/libamber.so"
