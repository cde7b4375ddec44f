"""A mutation fuzzer of the Python binding's reading of keyed archives (issue 42, item 2).

What comes out of an archive crosses into Python in amber/archive.py (Unarchiver: the coding
callbacks, objects by address) and amber/values.py (read_value: strings decoded with
surrogateescape, bytes copied, dates made datetimes). atheris is not installed, so this is a plain
driver: it mutates seed archives (bit flips, interesting bytes, truncation, insertion, deletion,
splicing, the binary property list's trailer, and values replaced inside the parsed property list)
and reads each result through the binding as a host does, with a registry of three classes that
mirror the C harness's (Fuzz/Harnesses/UnarchiverHarness.swift), so that Fuzz/corpus/unarchiver
serves as seeds too. A finding is any exception other than the binding's AmberError family, or a
value of the wrong Python type; its input is written to fuzz/findings-work/ (untracked).

    python3 fuzz_unarchiver.py run SECONDS [SEED]    fuzz, then print executions and rate
    python3 fuzz_unarchiver.py replay FILE|DIR...     each input once (a finding's reproducer)
    python3 fuzz_unarchiver.py make-seeds             rewrite fuzz/seeds/ with the binding's Archiver

AMBER_LIBRARY names the library, as for the tests. Exit status: 0, or 1 after a finding.
"""

import datetime as dt
import os
import plistlib
import random
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import amber  # noqa: E402

SEEDS = os.path.join(HERE, "seeds")
C_SEEDS = os.path.join(HERE, "..", "..", "..", "Fuzz", "corpus", "unarchiver")
FINDINGS = os.path.join(HERE, "findings-work")

#: The keys every object and the top level are read under, as every type.
KEYS = ("name", "value", "flag", "weight", "when", "data", "next", "children", "parent", "$class")
#: The Unarchiver's value readers and the Python type each must return.
READERS = (("decode_bool", bool), ("decode_int", int), ("decode_float", float), ("decode_string", str),
           ("decode_bytes", bytes), ("decode_date", dt.datetime))


class Finding(Exception):
    """A value of the wrong type out of the binding: an oracle's failure, not the binding's."""


# ---- the host's classes ------------------------------------------------------------------------

def read_every_value(u):
    """Reads every key as every type, as a host that checks each: the binding's errors are
    expected; what comes back must be of the reader's type (an aware UTC datetime for dates)."""
    for key in KEYS:
        _ = key in u
        for reader, kind in READERS:
            try:
                value = getattr(u, reader)(key)
            except amber.AmberError:
                continue
            if not isinstance(value, kind):
                raise Finding(f"{reader}({key!r}) gave {type(value).__name__}")
            if kind is dt.datetime and value.tzinfo is None:
                raise Finding(f"{reader}({key!r}) gave a naive datetime")


class Node:
    """make: every value, its fields (whose errors pass through the C callback back to the
    caller) and `next`; decode: `children` and `parent`, where cycles resolve."""

    def __init__(self, name="", value=0, next=None, children=(), parent=None, when=None):
        self.name, self.value, self.next, self.children, self.parent = name, value, next, list(children), parent
        self.when = when

    def encode_with_coder(self, a):
        a["name"] = self.name
        a["value"] = self.value
        a["flag"] = self.value % 2 == 1
        a["weight"] = self.value / 4
        a["data"] = bytes(range(self.value % 16))
        if self.when is not None:
            a["when"] = self.when
        if self.next is not None:
            a.encode_object("next", self.next)
        if self.children:
            a.encode_object_array("children", self.children)
        if self.parent is not None:
            a.encode_object("parent", self.parent)

    @classmethod
    def init_with_coder(cls, u):
        read_every_value(u)
        node = cls()
        if "name" in u:
            node.name = u.decode_string("name")
        if "value" in u:
            node.value = u.decode_int("value")
        if "next" in u:
            node.next = u.decode_object("next", ["Node"])
        return node

    def decode_with_coder(self, u):
        if "children" in u:
            self.children = u.decode_object_array("children")
        if "parent" in u:
            self.parent = u.decode_object("parent")


class Leaf(Node):
    """A registered subclass of Node that reads values only."""

    @classmethod
    def init_with_coder(cls, u):
        read_every_value(u)
        return cls(u.decode_string("name") if "name" in u else "")

    def decode_with_coder(self, u):
        pass


class Sealed:
    """Archivable, never made: without init_with_coder, its class has no make callback."""

    def encode_with_coder(self, a):
        a["name"] = "sealed"


def make_registry():
    r = amber.CodingRegistry()
    r.register("Node", Node)
    r.register("Leaf", Leaf, superclass="Node")
    r.register("Sealed", Sealed)
    return r


# ---- one input through the binding ---------------------------------------------------------------

def run_one(data, reg):
    """Reads `data` through the binding as a host does. Returns True if it opened."""
    try:
        u = amber.Unarchiver(data, reg)
    except amber.AmberError:
        return False
    with u:
        read_every_value(u)
        for classes in (None, ["Node"], [Leaf], ["Sealed"], ["Unregistered"]):
            for decode in (u.decode_object, u.decode_object_array):
                try:
                    got = decode("root" if decode == u.decode_object else "items", classes)
                except amber.AmberError:
                    continue
                objects = got if isinstance(got, list) else [got]
                for o in objects:
                    if o is not None and not isinstance(o, (Node, Sealed)):
                        raise Finding(f"{decode.__name__} gave a {type(o).__name__}")
    try:
        amber.unarchive(data, reg)
    except amber.AmberError:
        pass
    return True


# ---- mutations -------------------------------------------------------------------------------------

INTERESTING = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0x0F, 0x10, 0x13, 0x1F, 0x23, 0x33, 0x40, 0x4F, 0x50, 0x5F, 0x60,
               0x6F, 0x80, 0x8F, 0xA0, 0xAF, 0xD0, 0xDF]
#: Values a plist object is replaced with: the ends of every type the readers convert.
EXTREMES = [0, -1, 1, 2 ** 63 - 1, -(2 ** 63), 2 ** 64 - 1, 2 ** 31, float("nan"), float("inf"), float("-inf"), -0.0,
            1e308, 5e-324, 252423993599.0, 252423993598.999999, 252423993600.0, -63113904000.0, -63113904000.5,
            -63113904001.0, "", "\U0001F43B", "\x00", "a\udcff".encode("utf-8", "surrogateescape").decode("latin-1"),
            "é" * 300, b"", b"\xff" * 40, True, False, [], {}, plistlib.UID(0), plistlib.UID(1), plistlib.UID(2 ** 31)]


def trailer_mutation(data, rng):
    """Changes one field of the binary property list's 32-byte trailer."""
    if len(data) < 40:
        return data
    out = bytearray(data)
    t = len(out) - 32
    field = rng.choice([(6, 1), (7, 1), (8, 8), (16, 8), (24, 8)])  # sizes, count, top, table offset
    start, size = t + field[0], field[1]
    value = rng.choice([0, 1, 2, 3, 4, 8, 16, 255, 2 ** (8 * size) - 1, int.from_bytes(out[start:start + size], "big") + rng.choice([-1, 1])])
    out[start:start + size] = (value % (2 ** (8 * size))).to_bytes(size, "big")
    return bytes(out)


def structural_mutation(data, rng):
    """Parses the archive with plistlib, replaces one value deep inside, writes it back."""
    try:
        plist = plistlib.loads(data)
    except Exception:
        return None
    slots = []

    def walk(node, depth):
        if depth > 20:
            return
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in list(items):
            slots.append((node, k))
            walk(v, depth + 1)

    walk(plist, 0)
    if not slots:
        return None
    for _ in range(rng.randint(1, 3)):
        parent, k = rng.choice(slots)
        choice = rng.random()
        if choice < 0.6:
            parent[k] = rng.choice(EXTREMES)
        elif choice < 0.8 and isinstance(parent, dict):
            parent[rng.choice(KEYS + ("NS.time", "NS.objects", "NS.string", "NS.bytes"))] = parent[k]
        else:
            other_parent, other_k = rng.choice(slots)
            parent[k] = other_parent[other_k]
    try:
        return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY, sort_keys=False)
    except Exception:
        return None


def mutate(data, pool, rng):
    kind = rng.randrange(8)
    out = bytearray(data)
    if kind == 0 and out:
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(out))
            out[i] ^= 1 << rng.randrange(8)
    elif kind == 1 and out:
        for _ in range(rng.randint(1, 4)):
            out[rng.randrange(len(out))] = rng.choice(INTERESTING)
    elif kind == 2 and out:
        out = out[:rng.randrange(len(out))]
    elif kind == 3:
        i = rng.randrange(len(out) + 1)
        out[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    elif kind == 4 and len(out) > 1:
        i = rng.randrange(len(out))
        del out[i:i + rng.randint(1, 32)]
    elif kind == 5:
        other = rng.choice(pool)
        out = out[:rng.randrange(len(out) + 1)] + other[rng.randrange(len(other) + 1):]
    elif kind == 6:
        return trailer_mutation(bytes(out), rng)
    else:
        mutated = structural_mutation(bytes(out), rng)
        if mutated is not None:
            return mutated
    return bytes(out)


# ---- commands ---------------------------------------------------------------------------------------

def read_inputs(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += [os.path.join(path, n) for n in sorted(os.listdir(path))]
        else:
            files.append(path)
    return files


def check(data, reg):
    """Runs one input; returns the traceback text of a finding, or None."""
    try:
        return run_one(data, reg), None
    except amber.AmberError:
        return True, None  # raised by a callback through the C API and back: the binding's own error
    except Exception:
        return False, traceback.format_exc()


def save_finding(data, text):
    os.makedirs(FINDINGS, exist_ok=True)
    path = os.path.join(FINDINGS, f"finding-{len(os.listdir(FINDINGS))}")
    with open(path, "wb") as f:
        f.write(data)
    print(f"FINDING, written to {path}:\n{text}", file=sys.stderr)


def fuzz(seconds, seed):
    rng = random.Random(seed)
    reg = make_registry()
    seeds = [open(p, "rb").read() for p in read_inputs([SEEDS, C_SEEDS])]
    pool = list(seeds)  # seeds, and mutants that opened (more likely to reach the conversions)
    executions = opened = findings = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        data = rng.choice(pool)
        for _ in range(rng.choice((1, 1, 2, 4))):
            data = mutate(data, pool, rng)
        ok, text = check(data, reg)
        executions += 1
        if text is not None:
            findings += 1
            save_finding(data, text)
        elif ok:
            opened += 1
            if len(data) <= 65536:
                if len(pool) < 2000:
                    pool.append(data)
                else:
                    pool[len(seeds) + rng.randrange(len(pool) - len(seeds))] = data
    elapsed = time.monotonic() - start
    print(f"executions: {executions} in {elapsed:.0f} s ({executions / elapsed:.0f}/s), {opened} opened, "
          f"{len(seeds)} seeds, pool {len(pool)}, findings {findings}")
    return 1 if findings else 0


def replay(paths):
    reg = make_registry()
    files = read_inputs(paths)
    failed = 0
    for path in files:
        with open(path, "rb") as f:
            _, text = check(f.read(), reg)
        if text is not None:
            failed += 1
            print(f"FAIL {path}\n{text}")
    print(f"{len(files)} inputs, {'all passed' if not failed else f'{failed} failed'}")
    return 1 if failed or not files else 0


def make_seeds():
    """The binding's own archives: dates at both ends of the years the readers hold, text beyond
    the BMP, extreme integers, a cycle through decode, an array of a subclass."""
    reg = make_registry()
    os.makedirs(SEEDS, exist_ok=True)
    utc = dt.timezone.utc
    first = dt.datetime(1, 1, 1, tzinfo=utc)
    last = dt.datetime(9999, 12, 31, 23, 59, 58, 999999, tzinfo=utc)
    parent = Node("parent \U0001F43B", 2 ** 63 - 1, when=last)
    parent.children = [Node("first", -(2 ** 63), when=first), Node("second", 3)]
    for child in parent.children:
        child.parent = parent
    values = {"name": "é\u0301 \u202e", "value": -1, "flag": True, "weight": -0.0, "when": first, "data": b"\0\xff"}
    seeds = {
        "py-cycle": lambda a: a.encode_object("root", parent),
        "py-items": lambda a: a.encode_object_array("items", [Leaf(f"l{i}", i) for i in range(5)]),
        "py-values": lambda a: [a.__setitem__(k, v) for k, v in values.items()],
        "py-sealed": lambda a: a.encode_object("root", Sealed(), "Sealed"),
    }
    for name, encode in seeds.items():
        with amber.Archiver(reg) as a:
            encode(a)
            with open(os.path.join(SEEDS, name), "wb") as f:
                f.write(a.finish())
    print(f"wrote {len(seeds)} seeds into {SEEDS}")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "run":
        return fuzz(float(argv[2]), int(argv[3]) if len(argv) > 3 else 0)
    if len(argv) >= 3 and argv[1] == "replay":
        return replay(argv[2:])
    if len(argv) == 2 and argv[1] == "make-seeds":
        return make_seeds()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
