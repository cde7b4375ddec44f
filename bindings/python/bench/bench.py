#!/usr/bin/env python3
"""Preserve and restore of the synthetic UI tree from Python, beside pickle and json.

The tree of issue 2/3: N controllers "ItemsViewController-<i>" of 8 classes, node i > 0 the child
of node (i - 1) // 4 (4 children per node, breadth first), each with the state
{selectedIndex: int, isEditing: bool, contentOffsetY: float, itemKey: unique 22-char string,
title: ~20 chars}.

  preserve        engine.preserve(): should_save, the walk, one Python encode callback per node
                  writing its dict with coder.update() (5 C calls), encryption, durable write,
                  and (since issue 25) reading the preservation report it returns, an entry per
                  node (R28)
  restore         engine.launch() on a new engine: a Python restoration class makes each node,
                  its decode callback reads the dict with decoder.read() (5 C calls). The
                  Report it returns reads its records and text from Amber's C report when first
                  asked for (since py-perf): that work is no longer inside launch(), so it is
                  timed on its own, as "report read"
  report read     right after launch(), reading report.records and report.text (every record
                  as a Python Record, Amber's text of the report): what launch() itself did
                  before py-perf; restore + report read is what the old "restore" covered (its
                  ratio to read + pickle.loads is the last column)
  pickle+write    pickle.dumps(list of the N state dicts) + durable write of those bytes
                  (write, fsync, rename, directory fsync, in the same directory)
  read+unpickle   read the file + pickle.loads
  json            the same with json.dumps/json.loads

Each round runs every phase once in turn; medians over the rounds. Usage:
  bench.py [--sizes 1000,10000,100000] [--rounds 7] [--markdown]
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import amber  # noqa: E402

CLASSES = [f"BenchClass{i}" for i in range(8)]
SCHEMA = {"selectedIndex": int, "isEditing": bool, "contentOffsetY": float, "itemKey": str, "title": str}


def states(n: int) -> list:
    return [{"selectedIndex": i % 97, "isEditing": i % 3 == 0, "contentOffsetY": i * 1.5,
             "itemKey": f"K{i:021d}", "title": f"Item number {i:08d}"[:20]} for i in range(n)]


class Node(amber.Controller):
    state: dict = None

    def encode_restorable_state(self, coder):
        coder.update(self.state)

    def decode_restorable_state(self, decoder):
        self.state = decoder.read(SCHEMA)


def build(engine: amber.Engine, data: list) -> list:
    nodes = []
    for i, state in enumerate(data):
        node = Node(engine, f"ItemsViewController-{i}", class_name=CLASSES[i % 8], restoration_class="BenchScreens")
        node.state = state
        if i == 0:
            engine.add_root(node)
        else:
            nodes[(i - 1) // 4].add_child(node)
        nodes.append(node)
    return nodes


class SaveAll:
    def should_save(self, engine, coder):
        return True

    def should_restore(self, engine, decoder):
        return True


def durable_write(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(tmp, path)
    dfd = os.open(os.path.dirname(path), os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def read_all(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def timed(fn):
    gc.collect()
    t = time.perf_counter()
    result = fn()
    return time.perf_counter() - t, result


def run(n: int, rounds: int, directory: str) -> dict:
    data = states(n)
    t = {k: [] for k in ("preserve", "restore", "report", "pickle", "unpickle", "json", "unjson", "archive")}
    state_dir = os.path.join(directory, f"state-{n}")
    pfile, jfile = os.path.join(state_dir, "state.pickle"), os.path.join(state_dir, "state.json")
    os.makedirs(state_dir, exist_ok=True)
    engine = amber.Engine("org.example.bench", state_directory=state_dir, delegate=SaveAll())
    nodes = build(engine, data)
    for _ in range(rounds):
        dt, saved = timed(engine.preserve)
        assert saved
        t["preserve"].append(dt)
        t["archive"].append(os.path.getsize(os.path.join(state_dir, "state.archive")))

        def restore():
            with amber.Engine("org.example.bench", state_directory=state_dir, delegate=SaveAll()) as e2:
                made = []

                @e2.register_restoration_class("BenchScreens")
                def make(engine, path, decoder):
                    node = Node(engine, None, class_name=CLASSES[int(path[-1].rsplit("-", 1)[1]) % 8])
                    made.append(node)
                    return node

                t0 = time.perf_counter()
                report = e2.launch()
                dt = time.perf_counter() - t0
                t0 = time.perf_counter()
                records, text = report.records, report.text
                read = time.perf_counter() - t0
                assert len(records) == n and text, report.message
                assert not report.fresh and len(report) == n, report.message
                restored = report.restored
                last = restored[-1]
                assert len(restored) == n and last.state == data[int(last.path.rsplit("-", 1)[1])], (last.path, last.state)
                return dt, read
        gc.collect()
        dt, read = restore()
        t["restore"].append(dt)
        t["report"].append(read)
        dt, _ = timed(lambda: durable_write(pfile, pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)))
        t["pickle"].append(dt)
        dt, back = timed(lambda: pickle.loads(read_all(pfile)))
        assert back == data
        t["unpickle"].append(dt)
        dt, _ = timed(lambda: durable_write(jfile, json.dumps(data).encode()))
        t["json"].append(dt)
        dt, back = timed(lambda: json.loads(read_all(jfile)))
        assert back == data
        t["unjson"].append(dt)
    engine.close()
    result = {k: statistics.median(v) for k, v in t.items()}
    result["pickle_bytes"] = os.path.getsize(pfile)
    result["json_bytes"] = os.path.getsize(jfile)
    return result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--rounds-large", type=int, default=3, help="rounds from 100,000 nodes")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="amber-pybench-", dir=os.environ.get("AMBER_BENCH_DIR"))
    print(f"Amber {amber.library_version()} from {amber.library_path()}; Python {sys.version.split()[0]}")
    print("| N | archive | preserve | pickle + durable write | preserve / pickle | json + durable write | "
          "restore | read + pickle.loads | restore / unpickle | read + json.loads | report read | "
          "(restore + report read) / unpickle | rounds |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            rounds = args.rounds if n < 100000 else args.rounds_large
            r = run(n, rounds, directory)
            print(f"| {n} | {int(r['archive'])} | {ms(r['preserve'])} | {ms(r['pickle'])} | "
                  f"{r['preserve'] / r['pickle']:.1f}× | {ms(r['json'])} | {ms(r['restore'])} | {ms(r['unpickle'])} | "
                  f"{r['restore'] / r['unpickle']:.1f}× | {ms(r['unjson'])} | {ms(r['report'])} | "
                  f"{(r['restore'] + r['report']) / r['unpickle']:.1f}× | {rounds} |", flush=True)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
