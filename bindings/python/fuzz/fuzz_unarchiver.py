#!/usr/bin/env python3
"""A coverage-guided fuzzer of the Python binding's reading of keyed archives (issue 42, item 2).

What comes out of an archive crosses into Python in amber/archive.py (Unarchiver: the coding
callbacks, objects by address) and amber/values.py (read_value: strings decoded with
surrogateescape, bytes copied, dates made datetimes). atheris (libFuzzer for Python) drives it,
guided by the coverage of the amber package's Python code, with libFuzzer's own mutations and
one that knows the format: a value deep inside the parsed property list replaced by an extreme
of its type, or by another value of the archive. Each input is read through the binding as a
host does, with a registry of three classes that mirror the C harness's
(Fuzz/Harnesses/UnarchiverHarness.swift), so that Fuzz/corpus/unarchiver serves as seeds too. A
finding is any exception other than the binding's AmberError family, or a value of the wrong
Python type; libFuzzer writes its input to fuzz/findings-work/ (untracked).

    python3 fuzz_unarchiver.py run SECONDS [LIBFUZZER_FLAGS...]
                                    fuzz from the seeds, the kept corpus fuzz/corpus/ and the
                                    working corpus fuzz/corpus-work/ (untracked, kept between
                                    runs); prints libFuzzer's statistics
    python3 fuzz_unarchiver.py replay FILE|DIR...     each input once (a finding's reproducer)
    python3 fuzz_unarchiver.py make-seeds             rewrite fuzz/seeds/ with the binding's Archiver

libFuzzer runs the script itself again, with its own flags only, for -merge=1, -set_cover_merge=1,
-fork and -jobs (which is why it is executable): pass them after `run SECONDS`, e.g. a corpus
minimised into NEW_DIR by `run 3600 -set_cover_merge=1 NEW_DIR` (the kept corpus is such a set
cover of a long run's working corpus; the tests replay it).

AMBER_LIBRARY names the library, as for the tests. Exit status: 0, or non-zero after a finding.
"""

import datetime as dt
import os
import plistlib
import random
import shutil
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
#: Whether this process fuzzes: `run`, or libFuzzer's own child, whose command line has no verb,
#: only libFuzzer's flags and directories (in any order: a merge's child has the directories first).
_ARGUMENTS = sys.argv[1:]
FUZZING = __name__ == "__main__" and (
    _ARGUMENTS[:1] == ["run"]
    or _ARGUMENTS[:1] not in (["replay"], ["make-seeds"]) and any(a.startswith("-") for a in _ARGUMENTS))
if FUZZING:
    import atheris  # only to fuzz: replaying needs no more than the binding

    with atheris.instrument_imports(include=["amber"]):  # the coverage libFuzzer is guided by
        import amber
else:
    import amber

SEEDS = os.path.join(HERE, "seeds")
#: The corpus kept in the repository: a set cover of a long run's inputs, replayed by the tests.
KEPT = os.path.join(HERE, "corpus")
C_SEEDS = os.path.join(HERE, "..", "..", "..", "Fuzz", "corpus", "unarchiver")
FINDINGS = os.path.join(HERE, "findings-work")
CORPUS = os.path.join(HERE, "corpus-work")
DICTIONARY = os.path.join(HERE, "..", "..", "..", "Fuzz", "bplist.dict")

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


#: How many objects of an input read every key as every type (the top level always does); later
#: ones read their own fields, as a host does, so that an input of many objects stays fast.
SWEPT_OBJECTS = 8


def read_values_of_new_object(u):
    """An object's make: every value for the first SWEPT_OBJECTS of the input (Node.made)."""
    Node.made += 1
    if Node.made <= SWEPT_OBJECTS:
        read_every_value(u)


class Node:
    """make: every value (the first objects of an input), its fields (whose errors pass through
    the C callback back to the caller) and `next`; decode: `children` and `parent`, where cycles
    resolve."""

    made = 0  # objects made for the input being read; run_one resets it

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
        read_values_of_new_object(u)
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
        read_values_of_new_object(u)
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
    Node.made = 0
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


# ---- the mutation that knows the format ----------------------------------------------------------

#: Values a plist object is replaced with: the ends of every type the readers convert.
EXTREMES = [0, -1, 1, 2 ** 63 - 1, -(2 ** 63), 2 ** 64 - 1, 2 ** 31, float("nan"), float("inf"), float("-inf"), -0.0,
            1e308, 5e-324, 252423993599.0, 252423993598.999999, 252423993600.0, -63113904000.0, -63113904000.5,
            -63113904001.0, "", "\U0001F43B", "\x00", "a\udcff".encode("utf-8", "surrogateescape").decode("latin-1"),
            "é" * 300, b"", b"\xff" * 40, True, False, [], {}, plistlib.UID(0), plistlib.UID(1), plistlib.UID(2 ** 31)]


def slots_of(plist):
    """Every slot of every container of a parsed property list, as (container, key or index),
    each container once: its references can share a container many times over, or make it
    hold itself."""
    slots = []
    seen = set()
    todo = [plist]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in list(items):
            slots.append((node, k))
            todo.append(v)
    return slots


def structural_mutation(data, rng):
    """Parses the archive with plistlib, replaces one value deep inside, writes it back."""
    try:
        plist = plistlib.loads(data)
    except Exception:
        return None
    slots = slots_of(plist)
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


def custom_mutator(data, max_size, seed):
    """libFuzzer's mutations, and one time in four a value of the parsed archive replaced."""
    rng = random.Random(seed)
    if rng.randrange(4) == 0:
        mutated = structural_mutation(data, rng)
        if mutated is not None and len(mutated) <= max_size:
            return mutated
    return atheris.Mutate(data, max_size)


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


def fuzz(seconds, flags):
    """Fuzzes for `seconds` from the seeds, copied into the working corpus."""
    os.makedirs(CORPUS, exist_ok=True)
    os.makedirs(FINDINGS, exist_ok=True)
    for path in read_inputs([SEEDS, KEPT, C_SEEDS]):
        target = os.path.join(CORPUS, os.path.basename(path))
        if not os.path.exists(target):
            shutil.copy(path, target)
    argv = [sys.argv[0], f"-max_total_time={int(seconds)}", "-max_len=16384", "-timeout=300",
            "-print_final_stats=1", f"-dict={DICTIONARY}", f"-artifact_prefix={FINDINGS}/", *flags, CORPUS]
    return run_libfuzzer(argv)


def run_libfuzzer(argv):
    """Hands the process to libFuzzer, with `argv` as its command line."""
    reg = make_registry()

    def one_input(data):
        try:
            run_one(data, reg)
        except amber.AmberError:
            pass  # the binding's own error (a callback's, back through the C API): expected

    atheris.Setup(argv, one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()  # exits the process when done


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
        return fuzz(float(argv[2]), argv[3:])
    if FUZZING:  # libFuzzer's child: its command line as libFuzzer made it
        return run_libfuzzer(argv)
    if len(argv) >= 3 and argv[1] == "replay":
        return replay(argv[2:])
    if len(argv) == 2 and argv[1] == "make-seeds":
        return make_seeds()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
