#!/usr/bin/env bash
# Installs what Amber needs beyond the Swift toolchain, once: Debian's libffi-dev (ctypes'
# callbacks run on libffi; the Python binding needs it), libstdc++-12-dev (libstdc++.a, which
# scripts/build-lib.sh links into libamber.so), python3, make, pkgconf and binutils
# (make install, pkg-config, strip and readelf), and the Python tools of the binding's tests; for
# the toolkit adapters and their real-window tests, GTK 4's headers (libgtk-4-dev), Tkinter
# (python3-tk), an X server without a screen (xvfb), real input events (xdotool), screenshots
# (imagemagick) and a session bus for GTK (dbus); programs written by others that the runners'
# real-window tests bring back (gtk-4-examples: gtk4-widget-factory and gtk4-demo; idle3: IDLE,
# whose idlelib Debian's python3 leaves out). The only script that installs anything. Safe to
# run again.
set -euo pipefail
need=()
for pkg in libffi-dev libstdc++-12-dev python3 make pkgconf binutils libgtk-4-dev python3-tk xvfb xdotool imagemagick dbus gtk-4-examples idle3; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
    echo "setup: installing ${need[*]}"
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The Python binding's build and tests: hatchling builds the wheel, auditwheel checks its tag,
# mypy and pytest check the package (bindings/python/run-tests.sh downloads nothing itself);
# atheris (libFuzzer for Python) drives the binding's fuzzer (bindings/python/fuzz).
py_tools=()
for tool in hatchling auditwheel mypy pytest atheris; do
    python3 -c "import $tool" 2>/dev/null || py_tools+=("$tool")
done
if ((${#py_tools[@]})); then
    echo "setup: installing ${py_tools[*]} for python3"
    python3 -m pip install --quiet "${py_tools[@]}"
fi
command -v swift >/dev/null || { echo "setup: the Swift toolchain (6.3) is not on PATH" >&2; exit 1; }
