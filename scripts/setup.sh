#!/usr/bin/env bash
# Installs what Amber needs beyond the Swift toolchain, once: Debian's libffi-dev (ctypes'
# callbacks run on libffi; the Python binding needs it) and python3. Safe to run again.
set -euo pipefail
need=()
for pkg in libffi-dev python3; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
    echo "setup: installing ${need[*]}"
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
python3 -c 'import pytest' 2>/dev/null || python3 -m pip install --quiet pytest  # the Python binding's tests
command -v swift >/dev/null || { echo "setup: the Swift toolchain (6.3) is not on PATH" >&2; exit 1; }
