#!/usr/bin/env python3
"""bench.py — the Python binding against the C engine it wraps (issue 28, item 5).

For each size N (100, 1k, 10k screens by default) it preserves and restores the tree of
bindings/c/bench/bench_engine.c (N controllers, 4 children per node, 5 values each, a
restoration class that makes every object again), three ways, in turn in every round:

  C       bench_engine --values batch, compiled here against the same libamber.so: one
          amber_coder_encode_values() / amber_decoder_decode_values() call per node;
  floor   ctypes alone, in this process, without the binding: a second handle on the same
          library declared from amber._ffi.FUNCTIONS (no errcheck), trivial CFUNCTYPE callbacks
          that make the same calls with the same values as the binding (per node: one encode
          callback and one batch call at preservation; one make callback, one amber_object_new,
          one decode callback and one batch call at restoration), on prebuilt value arrays;
  Python  the binding: Controller subclasses writing coder.update(state), a restoration class
          making them, decoder.read(schema).

Every way writes archives of the same size (checked). Preserve is amber_engine_preserve with the
built-in file store (a durable write); restore is the launch of a new engine. The table gives
medians over the rounds, per object: Python's overhead over C, and beside it the floor's, and
their ratio. Then `import amber` and the first Engine(), each in fresh processes, and with
--breakdown the parts of the binding's own time per object.

Usage: bench.py [--sizes 100,1000,10000] [--rounds 7] [--breakdown] [--processes 7]
Needs a C compiler (cc) and the source tree's include/ and bindings/c/bench/.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from ctypes import byref, c_char_p, c_int, c_size_t, c_void_p
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))  # the source tree's package, unless installed first
import amber  # noqa: E402
from amber import _ffi  # noqa: E402

APP_ID = "org.example.bench"
RESTORATION_CLASS = "BenchScreens"

# ---- the tree of bench_engine.c --------------------------------------------------------------

CLASS_NAMES = ("ItemsViewController", "DetailViewController", "UINavigationController", "UITableView",
               "UIScrollView", "UITextField", "ImagePickerController", "SettingsViewController")
TITLES = ("Vintage bicycle bell", "Leather notebook set", "Ceramic coffee mug", "Wireless earbuds v2",
          "Mechanical keyboard", "Hiking boots, size 9", "Cast iron skillet 10", "Noise cancel headset")
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
M64 = (1 << 64) - 1


def item_key(i: int) -> str:
    """bench_engine.c's item_key(): a 22-character key, unique per node."""
    x = ((i * 0x9E3779B97F4A7C15) & M64) ^ 0xD1B54A32D192ED03
    out = []
    for k in range(22):
        if k == 11:
            x = ((x * 0xBF58476D1CE4E5B9) & M64) ^ i
        out.append(ALPHABET[x & 63])
        x = ((x >> 6) | (x << 58)) & M64
    return "".join(out)


def node_state(i: int) -> Dict[str, Any]:
    """bench_engine.c's fill_node(), as the 5 values a node encodes."""
    return {"selectedIndex": i % 37, "isEditing": i % 3 == 0, "contentOffsetY": i * 44.5, "itemKey": item_key(i),
            "title": TITLES[i % 8]}


SCHEMA = {"selectedIndex": int, "isEditing": bool, "contentOffsetY": float, "itemKey": str, "title": str}


def index_of(identifier: str) -> int:
    return int(identifier[identifier.rindex("-") + 1:])


def archive_size(directory: str) -> int:
    return os.path.getsize(os.path.join(directory, "state.archive"))


# ---- the binding ----------------------------------------------------------------------------

class Node(amber.Controller):
    """A screen of the tree: its state written with one update and read with one read."""

    def __init__(self, engine: amber.Engine, identifier: str, index: int, state: Optional[Dict[str, Any]] = None):
        super().__init__(engine, identifier, class_name=CLASS_NAMES[index % 8])
        self.index = index
        self.state = state

    def encode_restorable_state(self, coder: amber.Coder) -> None:
        coder.update(self.state)  # type: ignore[arg-type]

    def decode_restorable_state(self, decoder: amber.Decoder) -> None:
        self.state = decoder.read(SCHEMA)


class SavesAndRestores:
    def should_save(self, engine: amber.Engine, coder: amber.Coder) -> bool:
        return True

    def should_restore(self, engine: amber.Engine, decoder: amber.Decoder) -> bool:
        return True


def make_node(engine: amber.Engine, path: amber.Path, decoder: amber.Decoder) -> Node:
    identifier = path[-1]
    return Node(engine, identifier, index_of(identifier))


def python_round(n: int, directory: str) -> Tuple[float, float, int]:
    """The binding: (preserve seconds, restore seconds, archive bytes)."""
    with amber.Engine(APP_ID, state_directory=directory, bundle_version="1.0", delegate=SavesAndRestores()) as e:
        nodes: List[Node] = []
        for i in range(n):
            node = Node(e, f"ItemsViewController-{i}", i, node_state(i))
            node.set_restoration_class(RESTORATION_CLASS)
            if i == 0:
                e.add_root(node)
            else:
                nodes[(i - 1) // 4].add_child(node)
            nodes.append(node)
        t0 = time.perf_counter()
        report = e.preserve()
        preserve = time.perf_counter() - t0
        assert report.saved
    size = archive_size(directory)
    with amber.Engine(APP_ID, state_directory=directory, bundle_version="1.0", delegate=SavesAndRestores()) as e:
        e.register_restoration_class(RESTORATION_CLASS, make_node)
        t0 = time.perf_counter()
        restored = e.launch()
        restore = time.perf_counter() - t0
        assert not restored.fresh and len(restored) == n, restored.message
        for record in restored:
            obj = record.object
            assert record.outcome == amber.Outcome.RESTORED and isinstance(obj, Node)
            assert obj.state == node_state(obj.index)
    return preserve, restore, size


# ---- the ctypes floor: the same calls without the binding ------------------------------------

class Floor:
    """libamber.so through a second ctypes handle declared from the binding's prototype table,
    without its errcheck: only what ctypes itself costs."""

    def __init__(self, path: str):
        lib = ctypes.PyDLL(path)
        for proto in _ffi.FUNCTIONS:
            fn = getattr(lib, proto.name)
            fn.argtypes = proto.argtypes
            fn.restype = proto.restype
        self.lib = lib
        self.arrays: List[Any] = []  # per node, at its context i + 1 (0 is NULL): its amber_keyed_value[5]
        self.encode = _ffi.ObjEncode(self._encode)
        self.decode = _ffi.ObjDecode(self._decode)
        self.make = _ffi.ClassMake(self._make)
        self.should = _ffi.DelShouldSave(lambda engine, coder, ctx: 1)
        self.should_restore = _ffi.DelShouldRestore(lambda engine, decoder, ctx: 1)
        self.callbacks = _ffi.ObjectCallbacks(_ffi.OBJECT_CALLBACKS_VERSION, self.encode, self.decode)
        self.no_free = _ffi.CtxFree()  # a NULL ctx_free
        self.names = [name.encode() for name in CLASS_NAMES]
        self.keys = [key.encode() for key in SCHEMA]

    def _encode(self, obj: int, coder: Any, ctx: int) -> int:
        return int(self.lib.amber_coder_encode_values(coder, self.arrays[ctx], 5))

    def _decode(self, obj: int, decoder: Any, ctx: int) -> int:
        return int(self.lib.amber_decoder_decode_values(self.arrays[ctx], 5, decoder))

    def _make(self, out: Any, engine: int, path: Any, length: int, decoder: Any, ctx: int) -> int:
        identifier = path[length - 1]
        i = int(identifier[identifier.rindex(b"-") + 1:])
        return int(self.lib.amber_object_new(out, engine, 0, self.names[i % 8], identifier, byref(self.callbacks),
                                             i + 1, self.no_free))

    def values(self, n: int, filled: bool) -> None:
        """Prebuilt arrays: each node's values (preserving) or its keys and types (restoring)."""
        types = [_ffi.VALUE_INT64, _ffi.VALUE_BOOL, _ffi.VALUE_DOUBLE, _ffi.VALUE_STRING, _ffi.VALUE_STRING]
        self.arrays = [None]
        for i in range(n):
            array = (_ffi.KeyedValue * 5)()
            state = list(node_state(i).values())
            for slot, key, vtype, value in zip(array, self.keys, types, state):
                slot.key, slot.type = key, vtype
                if filled:
                    if vtype == _ffi.VALUE_DOUBLE:
                        slot.double_value = value
                    elif vtype == _ffi.VALUE_STRING:
                        slot.string_value = value.encode()
                    else:
                        slot.int64_value = int(value)
            self.arrays.append(array)

    def open(self, directory: str, restoring: bool) -> Any:
        lib = self.lib
        options = _ffi.EngineOptions(_ffi.ENGINE_OPTIONS_VERSION)
        options.state_directory = directory.encode()
        options.bundle_version = b"1.0"
        engine = _ffi.EngineP()
        assert lib.amber_engine_open(byref(engine), APP_ID.encode(), byref(options)) == 0
        delegate = _ffi.Delegate(_ffi.DELEGATE_VERSION)
        delegate.should_save = self.should
        delegate.should_restore = self.should_restore
        assert lib.amber_engine_set_delegate(engine, byref(delegate), None, self.no_free) == 0
        if restoring:
            cls = _ffi.RestorationClass(_ffi.RESTORATION_CLASS_VERSION, self.make)
            assert lib.amber_engine_register_restoration_class(engine, RESTORATION_CLASS.encode(), byref(cls),
                                                               None, self.no_free) == 0
        return engine

    def round(self, n: int, directory: str) -> Tuple[float, float, int]:
        lib = self.lib
        self.values(n, True)
        engine = self.open(directory, False)
        objects = []
        for i in range(n):
            obj = _ffi.ObjectP()
            assert lib.amber_object_new(byref(obj), engine, 0, self.names[i % 8],
                                        f"ItemsViewController-{i}".encode(), byref(self.callbacks), i + 1, self.no_free) == 0
            assert lib.amber_object_set_restoration_class(obj, RESTORATION_CLASS.encode()) == 0
            if i == 0:
                assert lib.amber_engine_add_root(engine, obj) == 0
            else:
                assert lib.amber_object_add_child(objects[(i - 1) // 4], obj) == 0
            objects.append(obj)
        saved = c_int()
        t0 = time.perf_counter()
        rc = lib.amber_engine_preserve(byref(saved), engine)
        preserve = time.perf_counter() - t0
        assert rc == 0 and saved.value == 1
        lib.amber_engine_close(engine)
        size = archive_size(directory)
        self.values(n, False)
        engine = self.open(directory, True)
        report = _ffi.ReportP()
        t0 = time.perf_counter()
        rc = lib.amber_engine_launch(byref(report), engine, _ffi.APP_INACTIVE)
        restore = time.perf_counter() - t0
        assert rc == 0 and lib.amber_report_count(report) == n and lib.amber_report_fresh_reason(report) == 0
        # (the strings the decoder lent are gone with their callback: the numbers are checked)
        assert all(array[0].found and array[0].int64_value == i % 37 and array[2].double_value == i * 44.5
                   for i, array in enumerate(self.arrays[1:]))
        lib.amber_report_free(report)
        lib.amber_engine_close(engine)
        return preserve, restore, size


# ---- the C engine -----------------------------------------------------------------------------

def compile_c(work: str) -> str:
    library = os.path.dirname(amber.library_path())
    binary = os.path.join(work, "bench_engine")
    subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "include"),
                    os.path.join(ROOT, "bindings", "c", "bench", "bench_engine.c"), "-o", binary,
                    "-L", library, "-lamber", f"-Wl,-rpath,{library}"], check=True)
    return binary


def c_round(binary: str, n: int, directory: str) -> Tuple[float, float, int]:
    out = subprocess.run([binary, "--sizes", str(n), "--reps", "1", "--mem-sizes", "none", "--values", "batch",
                          "--dir", directory], capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("engine "))
    fields = dict(re.findall(r"(\w+)=(\S+)", line))
    return float(fields["preserve"]), float(fields["restore"]), int(fields["bytes"])


# ---- fresh processes ----------------------------------------------------------------------------

CHILD = """
import time
t0 = time.perf_counter()
import amber
t1 = time.perf_counter()
engine = amber.Engine("org.example.bench", memory_store=True)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def fresh_processes(count: int) -> Tuple[float, float, float]:
    """Medians of `import amber` and of the first Engine() (dlopen, the log hook, amber_engine_open),
    and -X importtime's cumulative figure for amber, in seconds."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(amber.__file__)))
    imports, engines, cumulative = [], [], []
    for _ in range(count):
        out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
        a, b = map(float, out.stdout.split())
        imports.append(a)
        engines.append(b)
        trace = subprocess.run([sys.executable, "-X", "importtime", "-c", "import amber"], env=env,
                               capture_output=True, text=True, check=True).stderr
        line = [l for l in trace.splitlines() if l.rstrip().endswith("| amber")][-1]
        cumulative.append(int(line.split("|")[1]) / 1e6)
    return statistics.median(imports), statistics.median(engines), statistics.median(cumulative)


# ---- where the binding's time goes ----------------------------------------------------------------

def breakdown(n: int, directory: str) -> List[Tuple[str, float]]:
    """One preserve and restore of the binding with its main steps timed from the inside
    (inclusive times, so each holds the C call it makes), in µs per object."""
    from amber import engine as engine_module, objects, values
    spent: Dict[str, float] = {}
    clock = time.perf_counter

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kw: Any) -> Any:
            t0 = clock()
            try:
                return fn(*args, **kw)
            finally:
                spent[name] = spent.get(name, 0.0) + clock() - t0
        return wrapper
    patches = [(objects.Coder, "update", "Coder.update (5 values, with its C call)"),
               (objects.Decoder, "read", "Decoder.read (5 values, with its C call)"),
               (objects.Object, "c_encode", "encode: Coder made, the object's method called"),
               (objects.Object, "c_decode", "decode: Decoder made, the object's method called"),
               (engine_module._Maker, "c_make", "make: Decoder, Path, the make function, the handle")]
    saved = [(cls, attr, cls.__dict__[attr]) for cls, attr, _ in patches]
    real_init = Node.__init__
    real_from_c = values.Path.from_c.__func__  # type: ignore[attr-defined]
    try:
        for cls, attr, name in patches:
            setattr(cls, attr, timed(name, cls.__dict__[attr]))
        Node.__init__ = timed("Object() in make (register, amber_object_new)", real_init)  # type: ignore[method-assign]
        values.Path.from_c = classmethod(timed("Path from C", real_from_c))  # type: ignore[method-assign, assignment]
        preserve, restore, _ = python_round(n, directory)
    finally:
        for cls, attr, fn in saved:
            setattr(cls, attr, fn)
        Node.__init__ = real_init  # type: ignore[method-assign]
        values.Path.from_c = classmethod(real_from_c)  # type: ignore[method-assign, assignment]
    # The cost of the timing itself, taken off each step.
    probe = timed("probe", lambda: None)
    t0 = clock()
    for _ in range(100000):
        probe()
    per_call = (clock() - t0) / 100000 - (spent.pop("probe") / 100000)
    rows = [("preserve, whole (instrumented)", preserve), ("restore, whole (instrumented)", restore)]
    rows += [(name, max(seconds - n * per_call, 0.0)) for name, seconds in spent.items()]
    return [(name, seconds / n * 1e6) for name, seconds in rows]


# ---- main ---------------------------------------------------------------------------------------

def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--processes", type=int, default=7, help="fresh processes for import and first Engine()")
    parser.add_argument("--breakdown", action="store_true", help="where the binding's time goes, at the largest size")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    if shutil.which("cc") is None:
        print("bench.py needs a C compiler (cc) to build bench_engine.c", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="amber-pybench-")
    try:
        binary = compile_c(work)
        floor = Floor(amber.library_path())
        print(f"Amber {amber.library_version()} ({amber.library_path()}), Python {sys.version.split()[0]}, "
              f"{args.rounds} rounds, medians")
        results: Dict[Tuple[str, int], List[Tuple[float, float]]] = {}
        for _ in range(args.rounds):
            for n in sizes:
                sizes_seen = {}
                for way, run in (("C", lambda d: c_round(binary, n, d)), ("floor", lambda d: floor.round(n, d)),
                                 ("Python", lambda d: python_round(n, d))):
                    directory = tempfile.mkdtemp(dir=work)
                    preserve, restore, size = run(directory)
                    shutil.rmtree(directory)
                    results.setdefault((way, n), []).append((preserve, restore))
                    sizes_seen[way] = size
                assert len(set(sizes_seen.values())) == 1, f"archives of different sizes at N={n}: {sizes_seen}"
        print()
        print("| N | phase | C ms | floor ms | Python ms | floor µs/obj | Python overhead µs/obj | overhead / floor |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|")
        for n in sizes:
            for phase, k in (("preserve", 0), ("restore", 1)):
                c, fl, py = (statistics.median(r[k] for r in results[(way, n)]) for way in ("C", "floor", "Python"))
                floor_us, over_us = (fl - c) / n * 1e6, (py - c) / n * 1e6
                ratio = over_us / floor_us if floor_us > 0 else float("nan")
                print(f"| {n:,} | {phase} | {c * 1e3:.2f} | {fl * 1e3:.2f} | {py * 1e3:.2f} | {floor_us:.2f} | "
                      f"{over_us:.2f} | {ratio:.2f}× |")
        imports, engines, cumulative = fresh_processes(args.processes)
        print()
        print(f"import amber, fresh process: {imports * 1e3:.1f} ms (median of {args.processes}; "
              f"-X importtime cumulative for amber: {cumulative * 1e3:.1f} ms)")
        print(f"first amber.Engine() after it (dlopen, log hook, amber_engine_open): {engines * 1e3:.1f} ms")
        if args.breakdown:
            n = max(sizes)
            directory = tempfile.mkdtemp(dir=work)
            print()
            print(f"where the binding's time goes at N={n:,} (µs per object, inclusive, one instrumented run):")
            for name, us in breakdown(n, directory):
                print(f"  {us:7.2f}  {name}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
