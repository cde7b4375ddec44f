"""The wheel's build hook (hatchling): puts libamber.so, stripped, inside the wheel as
amber/libamber.so, and tags the wheel for the platform and glibc the library needs.

The library is taken from, in order:
  1. $AMBER_LIBRARY (a file);
  2. the source tree's .build-lib/lib/libamber.so (this directory is bindings/python of it);
  3. a build by scripts/build-lib.sh, if `swift` is on PATH;
and the build fails otherwise, naming the three fixes.

`pip wheel ./bindings/python` builds in place, so the tree is reachable; a build through an
sdist (`python -m build` without --wheel) is not in the tree and needs AMBER_LIBRARY. An editable
install (`pip install -e`) gets no copy: the package finds the tree's library at run time.

The tag is py3-none-<platform>: the binding is pure Python over ctypes (no CPython ABI), the
library is what ties it to a platform. The platform is manylinux_2_<m>_<arch>, m the highest
GLIBC_2.m symbol version the library needs (objdump -T); `auditwheel show` confirms it.
"""
from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, Optional

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LIBRARY = "libamber.so"


class BuildError(RuntimeError):
    pass


def find_library(package_root: Path) -> Path:
    """libamber.so for the wheel (see the module's docstring), building it if it can."""
    env = os.environ.get("AMBER_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise BuildError(f"AMBER_LIBRARY={env} is not a file")
        return Path(env)
    tree = package_root.resolve().parents[1]
    built = tree / ".build-lib" / "lib" / LIBRARY
    if built.is_file():
        return built
    script = tree / "scripts" / "build-lib.sh"
    if script.is_file() and shutil.which("swift"):
        subprocess.run(["bash", str(script)], cwd=tree, check=True)
        if built.is_file():
            return built
    raise BuildError(
        f"no {LIBRARY} to put in the wheel: not at {built}. Either build it with scripts/build-lib.sh "
        "(needs swift on PATH; then pip wheel builds it for you), or set AMBER_LIBRARY=/path/to/libamber.so, "
        "or build the wheel from a checkout where .build-lib/lib/libamber.so exists (pip wheel ./bindings/python).")


def glibc_minor(library: Path) -> Optional[int]:
    """The highest m of the GLIBC_2.m symbol versions the library needs (None: no objdump)."""
    if shutil.which("objdump") is None:
        return None
    out = subprocess.run(["objdump", "-T", str(library)], capture_output=True, text=True, check=True).stdout
    minors = [int(m) for m in re.findall(r"GLIBC_2\.(\d+)", out)]
    return max(minors) if minors else None


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: Dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        source = find_library(Path(self.root))
        if shutil.which("strip") is None:
            raise BuildError("`strip` (binutils) is needed to build the wheel: the library's debug information "
                             "would make it several times larger")
        self._temporary = tempfile.mkdtemp(prefix="amber-wheel-")
        stripped = os.path.join(self._temporary, LIBRARY)
        subprocess.run(["strip", "--strip-unneeded", "-o", stripped, str(source)], check=True)
        build_data["force_include"][stripped] = f"amber/{LIBRARY}"
        build_data["pure_python"] = False
        arch = platform.machine()
        minor = glibc_minor(Path(stripped))
        platform_tag = f"manylinux_2_{minor}_{arch}" if minor is not None else f"linux_{arch}"
        build_data["tag"] = f"py3-none-{platform_tag}"

    def finalize(self, version: str, build_data: Dict[str, Any], artifact_path: str) -> None:
        temporary = getattr(self, "_temporary", None)
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)
