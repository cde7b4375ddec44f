#!/usr/bin/env python3
"""bench_dirty.py — a save after some screens changed, from Python, with and without the reuse of
clean objects' states (R32), side by side in one run.

Two engines in this process, each with its own tree of N screens (4 children per node, 5
values each, written with coder.update) and its own directory (the built-in file store, a durable
write): one saves in full (no autosave policy), the other with a policy, so that a save calls
only the encode callbacks of the screens marked dirty. Each round edits the same PERCENT of the
screens of both trees, then preserves both, in turn first. Prints the medians and their ratio.

Usage: bench_dirty.py [--sizes 10000] [--percent 1] [--rounds 11]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import amber  # noqa: E402


class Screen(amber.Controller):
    def __init__(self, engine: amber.Engine, i: int) -> None:
        super().__init__(engine, f"ItemsViewController-{i}", class_name="Screen")
        self.state = {"selectedIndex": i % 37, "isEditing": i % 3 == 0, "contentOffsetY": i * 44.5,
                      "itemKey": f"key-{i:016d}", "title": "Items"}

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder.update(self.state)


class Yes:
    def should_save(self, engine: amber.Engine, coder: amber.Coder) -> bool:
        return True


def tree(directory: str, n: int, autosave: bool) -> tuple[amber.Engine, list[Screen]]:
    e = amber.Engine("org.example.bench-dirty", state_directory=directory, delegate=Yes())
    if autosave:
        e.set_autosave()
    screens = [Screen(e, i) for i in range(n)]
    e.add_root(screens[0])
    for i in range(1, n):
        screens[(i - 1) // 4].add_child(screens[i])
    return e, screens


def timed(e: amber.Engine) -> float:
    t = time.perf_counter()
    assert e.preserve().saved
    return time.perf_counter() - t


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="10000")
    p.add_argument("--percent", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=11)
    a = p.parse_args()
    for n in (int(s) for s in a.sizes.split(",")):
        with tempfile.TemporaryDirectory() as d:
            full, fs = tree(os.path.join(d, "full"), n, False)
            part, ps = tree(os.path.join(d, "dirty"), n, True)
            timed(full), timed(part)
            count = max(1, round(n * a.percent / 100))
            tf, tp = [], []
            for r in range(a.rounds):
                for k in range(count):
                    i = (r * 7919 + k * 97) % n
                    fs[i].state["selectedIndex"] = ps[i].state["selectedIndex"] = r * 1000 + k
                    ps[i].mark_dirty()
                if r % 2 == 0:
                    tf.append(timed(full)), tp.append(timed(part))
                else:
                    tp.append(timed(part)), tf.append(timed(full))
            f, i = statistics.median(tf), statistics.median(tp)
            print(f"python-dirty n={n} percent={a.percent:g} changed={count} rounds={a.rounds} "
                  f"full={f:.6f} incremental={i:.6f} ratio={f / i:.2f}")
            full.close(), part.close()


if __name__ == "__main__":
    main()
