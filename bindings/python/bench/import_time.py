#!/usr/bin/env python3
"""import_time.py — what `import amber` (and `import amber.tk`) costs over a bare interpreter
(issue 40, item 6: at most 25 ms).

Each run is a new process (`python3 -c STATEMENT`); the statements of a comparison alternate
run by run, so that a change in the machine's load falls on both sides. For each it prints the
median wall-clock time (from starting the process to its exit) and CPU time (user + system of the
child), and the difference to its baseline. The load average is printed before and after: on a
shared machine CPU time is the steadier figure.

The comparisons:
  amber      `import amber` over `pass` (a bare interpreter, site included)
  dlopen     `ctypes.CDLL(libamber.so)` over `import ctypes`: the dynamic loader alone (the
             library and the Swift runtime it links), which `import amber` does not pay: the
             library is loaded on the first call into it
  first-call `import amber; amber.library_version()` over `import amber`: the library loaded
             and the first prototype declared
  tk         `import amber.tk` over `import tkinter; from tkinter import ttk`

Bytecode is compiled first, as an installed package has it. The package is the source tree's
(PYTHONPATH), the library $AMBER_LIBRARY (else the source tree's .build-lib).

Usage: import_time.py [--runs 15] [--only amber,dlopen,first-call,tk]
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_PARENT = os.path.abspath(os.path.join(HERE, ".."))
ROOT = os.path.abspath(os.path.join(PACKAGE_PARENT, "..", ".."))
DEFAULT_LIBRARY = os.path.join(ROOT, ".build-lib", "lib", "libamber.so")

#: name -> (baseline statement, measured statement)
COMPARISONS: Dict[str, Tuple[str, str]] = {
    "amber": ("pass", "import amber"),
    "dlopen": ("import ctypes", "import ctypes, os; ctypes.CDLL(os.environ['AMBER_LIBRARY'])"),
    "first-call": ("import amber", "import amber; amber.library_version()"),
    "tk": ("import tkinter; from tkinter import ttk", "import amber.tk"),
}


def child_environment(library: str) -> Dict[str, str]:
    env = dict(os.environ)
    env["AMBER_LIBRARY"] = library
    env["PYTHONPATH"] = PACKAGE_PARENT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_once(statement: str, env: Dict[str, str]) -> Tuple[float, float]:
    """One new process running ``statement``: its wall-clock and CPU time, in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", statement], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"import_time: `{statement}` failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def compare(name: str, runs: int, env: Dict[str, str]) -> None:
    baseline, measured = COMPARISONS[name]
    samples: Dict[str, List[Tuple[float, float]]] = {baseline: [], measured: []}
    for statement in (baseline, measured):  # a warm-up each: the files in the page cache
        run_once(statement, env)
    for _ in range(runs):
        for statement in (baseline, measured):
            samples[statement].append(run_once(statement, env))

    def medians(statement: str) -> Tuple[float, float]:
        walls, cpus = zip(*samples[statement])
        return statistics.median(walls) * 1e3, statistics.median(cpus) * 1e3

    base_wall, base_cpu = medians(baseline)
    wall, cpu = medians(measured)
    print(f"{name}: `{measured}` over `{baseline}`, medians of {runs} alternating processes")
    print(f"  {baseline:<45} wall {base_wall:7.1f} ms   CPU {base_cpu:7.1f} ms")
    print(f"  {measured:<45} wall {wall:7.1f} ms   CPU {cpu:7.1f} ms")
    print(f"  {'added':<45} wall {wall - base_wall:+7.1f} ms   CPU {cpu - base_cpu:+7.1f} ms")


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="processes per statement (default 15)")
    parser.add_argument("--only", default=",".join(COMPARISONS),
                        help="comparisons to run, comma-separated: " + ", ".join(COMPARISONS))
    args = parser.parse_args()
    names = [name for name in args.only.split(",") if name]
    unknown = [name for name in names if name not in COMPARISONS]
    if unknown:
        parser.error(f"unknown comparison {', '.join(unknown)}; known: {', '.join(COMPARISONS)}")
    library = os.environ.get("AMBER_LIBRARY") or DEFAULT_LIBRARY
    if not os.path.isfile(library):
        sys.exit(f"import_time: no library at {library}: build it (scripts/build-lib.sh) or set AMBER_LIBRARY")
    compileall.compile_dir(os.path.join(PACKAGE_PARENT, "amber"), quiet=1)
    env = child_environment(library)
    print(f"python {sys.version.split()[0]} ({sys.executable}); library {library}")
    print(f"load average before: {load_average()}")
    for name in names:
        compare(name, args.runs, env)
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
