#!/usr/bin/env python3
"""The power-loss test (issue 42, R19, R20): records the file-system calls of a save, of the key
file's first creation, of a launch that consumes the archive, of a discard and of
amber_file_write_atomic(); builds every on-disk state a power cut at each point of those calls
may leave; launches from each one; and checks that what is restored is the old state or the new
one, whole, and the new one once the call returned.

Usage: crashstates.py --host HOST --recorder RECORDER.so --work DIR [--jobs N] [--show N]
                      [--states-per-point N] [--scenario NAME]... [--drop CALL]...

HOST is host.c built against libamber, RECORDER the LD_PRELOAD shim of recorder.c. Prints, per
scenario, the calls recorded, the states explored and those that failed (each with the calls
that led there and the choices the crash made); exits 1 if any state failed, 2 if the test could
not run.

The crash model (written down in docs/behaviour.md, R19)
--------------------------------------------------------
The state before the recorded action is durable (it is the baseline). From there each recorded
call changes a live file system, and a crash after call k leaves a disk built from what was made
durable and a choice over what was not:

* File data. fsync or fdatasync of a file makes its data and size durable. Data written since
  then reaches the disk or not by whole 4 KiB pages, each page on its own: a crash keeps any
  subset of the changed pages (all subsets up to PAGE_SUBSETS_ALL pages, else a bounded family:
  prefixes, suffixes, each page alone and each page missing, and seeded random subsets). The
  file's size is the old size, the new size, or the end of the kept pages' prefix; a page not
  kept reads as its old content, zeros past the old end (ext4's ordered mode never shows stale
  blocks). sync_file_range only starts write-back: it makes nothing durable.
* Names. A create (open with O_CREAT of a new name), mkdir, rename, link, unlink and rmdir
  change a directory; they are durable once that directory is fsynced. Two rule sets, and every
  state of either is checked:
  - "posix": the operations pending in a directory since its last fsync are kept in any subset
    (applied in their order); the fsync of a file does not make its name durable.
  - "ext4": ext4's journal (jbd2) commits names in the order they were made, and any fsync, of a
    file or a directory, commits every name operation made before it: a crash keeps a prefix of
    the pending operations.
  A name's operation is independent of its file's data: a rename kept with the renamed file's
  unsynced data lost is a state both rule sets allow (ext4's auto_da_alloc is not relied on).
* Not modelled: a drive that acknowledges a flush it did not do, data journaling and
  metadata-only (writeback) journaling modes, file systems other than ext4, mode changes
  (chmod is taken as durable at once; the engine makes none while saving).
"""

import argparse
import functools
import hashlib
import itertools
import os
import random
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field

PAGE = 4096
PAGE_SUBSETS_ALL = 11  # up to this many changed pages, every subset of them is a crash state
PAGE_SUBSETS_SAMPLED = 96  # beyond it, the bounded family's size
STATES_PER_POINT = 6000  # a point's states beyond this are sampled (seeded): --states-per-point
PENDING_NAMES_MAX = 16  # the "posix" rules try every subset of the pending name operations
UMASK = os.umask(0o022)
os.umask(UMASK)  # read, not changed: a created file's or directory's mode is the call's less it


class RecordError(Exception):
    """The recording cannot be modelled: the test cannot run (exit 2)."""


# ---------------------------------------------------------------------------------------------
# The recorded calls


@dataclass
class Call:
    """One line of the recorder's log."""

    index: int
    name: str
    fields: list
    result: int

    def describe(self):
        """The call as a short line for a failure's report (bytes as their count)."""
        if self.name == "write":
            path, _fd, offset, data = self.fields[:4]
            return f"write({path}, {len(data) // 2} bytes at {offset}) = {self.result}"
        args = [f for f in self.fields if f != "-"]
        return f"{self.name}({', '.join(args)}) = {self.result}"


def read_log(path):
    """The calls of a recorder's log that succeeded (a failed call changed nothing)."""
    calls = []
    with open(path) as log:
        for line in log:
            parts = line.rstrip("\n").split("\t")
            if "=" not in parts:
                raise RecordError(f"a log line without a result: {line!r}")
            at = parts.index("=")
            name, fields, result = parts[0], parts[1:at], int(parts[at + 1])
            if name == "unresolved":
                raise RecordError(f"a call relative to a directory descriptor cannot be modelled: {line!r}")
            if result >= 0:
                calls.append(Call(len(calls), name, fields, result))
    if not any(c.name == "write" for c in calls):
        raise RecordError("the log holds no write: libamber's calls did not go through the recorder")
    return calls


# ---------------------------------------------------------------------------------------------
# The file system: live, durable, and the operations in between


@dataclass
class Inode:
    is_dir: bool
    mode: int
    durable: bytes = b""  # a file's data as of its last fsync (or the baseline)
    live: bytes = b""  # its data now


@dataclass
class NameOp:
    """One call's changes of directory entries, kept or lost together by a crash (a rename is
    atomic: its two names never part): each change is (directory, name, inode or None for a
    removal, the inode the name held)."""

    call: int  # the index of the call that made it
    changes: list

    @property
    def directories(self):
        return {change[0] for change in self.changes}


@dataclass
class FileSystem:
    inodes: dict = field(default_factory=dict)
    root: int = 0
    durable_entries: dict = field(default_factory=dict)  # directory inode -> {name: inode}
    live_entries: dict = field(default_factory=dict)
    pending: list = field(default_factory=list)  # NameOps not yet durable, in order

    def new_inode(self, is_dir, mode, data=b""):
        number = len(self.inodes) + 1
        self.inodes[number] = Inode(is_dir, mode, data, data)
        if is_dir:
            self.durable_entries[number] = {}
            self.live_entries[number] = {}
        return number

    def lookup(self, relative):
        """The inode a path relative to the root names now, and its directory and last name."""
        parts = [p for p in relative.split("/") if p]
        directory = self.root
        for part in parts[:-1]:
            directory = self.live_entries[directory].get(part)
            if directory is None:
                return None, None, None
        if not parts:
            return self.root, None, None
        return self.live_entries[directory].get(parts[-1]), directory, parts[-1]


def baseline(root):
    """The file system a directory holds, everything in it durable."""
    fs = FileSystem()
    fs.root = fs.new_inode(True, stat.S_IMODE(os.lstat(root).st_mode))

    def load(path, directory):
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            info = os.lstat(full)
            if stat.S_ISDIR(info.st_mode):
                child = fs.new_inode(True, stat.S_IMODE(info.st_mode))
                load(full, child)
            elif stat.S_ISREG(info.st_mode):
                with open(full, "rb") as f:
                    child = fs.new_inode(False, stat.S_IMODE(info.st_mode), f.read())
            else:
                raise RecordError(f"the baseline holds something other than a file or a directory: {full}")
            fs.durable_entries[directory][name] = child
            fs.live_entries[directory][name] = child

    load(root, fs.root)
    return fs


def write_at(data, offset, chunk):
    if len(data) < offset:
        data += bytes(offset - len(data))
    return data[:offset] + chunk + data[offset + len(chunk):]


class Replay:
    """Replays the calls on the live file system, keeping what a crash may leave after each."""

    def __init__(self, fs, watch):
        self.fs = fs
        self.watch = watch.rstrip("/")
        self.fds = {}  # descriptor -> inode
        self.fsyncs = []  # the indexes of the fsync and fdatasync calls replayed

    def relative(self, path):
        if path != self.watch and not path.startswith(self.watch + "/"):
            raise RecordError(f"a path outside the watched directory: {path}")
        return path[len(self.watch):]

    def name_op(self, call, *changes):
        """Makes a call's changes, each (directory, name, inode or None), on the live entries,
        and keeps them pending."""
        fs = self.fs
        recorded = []
        for directory, name, inode in changes:
            recorded.append((directory, name, inode, fs.live_entries[directory].get(name)))
            if inode is None:
                fs.live_entries[directory].pop(name, None)
            else:
                fs.live_entries[directory][name] = inode
        fs.pending.append(NameOp(call.index, recorded))

    def commit_directory(self, directory):
        """The operations pending in a directory become durable (its fsync)."""
        fs = self.fs
        for op in [op for op in fs.pending if directory in op.directories]:
            apply_name_op(fs.durable_entries, op)
        fs.pending = [op for op in fs.pending if directory not in op.directories]

    def apply(self, call):
        fs = self.fs
        handler = getattr(self, "on_" + call.name, None)
        if handler is None:
            raise RecordError(f"a call the model does not know: {call.name}")
        handler(call, fs)

    def on_open(self, call, fs):
        path, flags, mode = call.fields[0], int(call.fields[1]), int(call.fields[2], 8)
        inode, directory, name = fs.lookup(self.relative(path))
        if inode is None:
            if not flags & os.O_CREAT or directory is None:
                raise RecordError(f"an open of a name the model does not hold: {call.describe()}")
            inode = fs.new_inode(False, mode & 0o7777 & ~UMASK)
            self.name_op(call, (directory, name, inode))
        elif flags & os.O_TRUNC and not fs.inodes[inode].is_dir:
            fs.inodes[inode].live = b""
        self.fds[call.result] = inode

    def on_write(self, call, fs):
        _path, fd, offset, data = call.fields[:4]
        chunk = bytes.fromhex(data)
        if len(chunk) != call.result:
            raise RecordError(f"a write whose logged bytes are not its result: {call.describe()}")
        node = fs.inodes[self.fds[int(fd)]]
        node.live = write_at(node.live, int(offset), chunk)

    def on_ftruncate(self, call, fs):
        node = fs.inodes[self.fds[int(call.fields[1])]]
        length = int(call.fields[2])
        node.live = node.live[:length] + bytes(max(0, length - len(node.live)))

    def on_fsync(self, call, fs):
        inode = self.fds[int(call.fields[1])]
        node = fs.inodes[inode]
        if node.is_dir:
            self.commit_directory(inode)
        else:
            node.durable = node.live
        self.fsyncs.append(call.index)

    on_fdatasync = on_fsync

    def on_close(self, call, fs):
        self.fds.pop(int(call.fields[1]), None)

    def on_sync_file_range(self, call, fs):
        pass  # starts write-back: nothing is durable until an fsync says so

    def on_rename(self, call, fs):
        inode, source_dir, source = fs.lookup(self.relative(call.fields[0]))
        _, target_dir, target = fs.lookup(self.relative(call.fields[1]))
        if inode is None or target_dir is None:
            raise RecordError(f"a rename the model cannot follow: {call.describe()}")
        self.name_op(call, (target_dir, target, inode), (source_dir, source, None))

    def on_link(self, call, fs):
        inode, _, _ = fs.lookup(self.relative(call.fields[0]))
        _, target_dir, target = fs.lookup(self.relative(call.fields[1]))
        if inode is None or target_dir is None:
            raise RecordError(f"a link the model cannot follow: {call.describe()}")
        self.name_op(call, (target_dir, target, inode))

    def on_unlink(self, call, fs):
        inode, directory, name = fs.lookup(self.relative(call.fields[0]))
        if inode is None:
            raise RecordError(f"an unlink of a name the model does not hold: {call.describe()}")
        self.name_op(call, (directory, name, None))

    on_rmdir = on_unlink

    def on_mkdir(self, call, fs):
        _, directory, name = fs.lookup(self.relative(call.fields[0]))
        if directory is None:
            raise RecordError(f"a mkdir the model cannot follow: {call.describe()}")
        inode = fs.new_inode(True, int(call.fields[2]) & 0o7777 & ~UMASK)
        self.name_op(call, (directory, name, inode))

    def on_chmod(self, call, fs):
        inode, _, _ = fs.lookup(self.relative(call.fields[0]))
        fs.inodes[inode].mode = int(call.fields[2]) & 0o7777

    def on_fchmod(self, call, fs):
        fs.inodes[self.fds[int(call.fields[1])]].mode = int(call.fields[2]) & 0o7777


def apply_name_op(entries, op):
    """Applies a call's name changes to a set of directory entries (a removal removes the name
    only if it still holds the inode it removed: an earlier operation may not have been kept)."""
    for directory, name, inode, replaced in op.changes:
        names = entries[directory]
        if inode is not None:
            names[name] = inode
        elif replaced is not None and names.get(name) == replaced:
            del names[name]


# ---------------------------------------------------------------------------------------------
# Crash states


@dataclass
class Snapshot:
    """What a crash after a call may build on: copies of the file system's parts at that point."""

    point: int  # how many calls ran
    inodes: dict  # inode -> (is_dir, mode, durable, live)
    durable_entries: dict
    pending: list
    last_fsync: int  # the index of the last fsync made, -1 if none

    @staticmethod
    def take(point, fs, last_fsync):
        return Snapshot(
            point,
            {n: (i.is_dir, i.mode, i.durable, i.live) for n, i in fs.inodes.items()},
            {d: dict(e) for d, e in fs.durable_entries.items()},
            list(fs.pending),
            last_fsync,
        )


def name_choices(snapshot, rules):
    """The subsets of the pending name operations a crash may keep, under one rule set, as
    tuples of the operations' positions in `snapshot.pending`."""
    pending = snapshot.pending
    if rules == "ext4":
        # Every operation made before the last fsync is committed; of the rest, a prefix.
        committed = [i for i, op in enumerate(pending) if op.call < snapshot.last_fsync]
        rest = [i for i, op in enumerate(pending) if op.call >= snapshot.last_fsync]
        return [tuple(committed + rest[:k]) for k in range(len(rest) + 1)]
    # posix: any subset.
    if len(pending) > PENDING_NAMES_MAX:
        raise RecordError(f"{len(pending)} name operations pending at once: more than the subsets tried allow")
    return [tuple(c) for k in range(len(pending) + 1) for c in itertools.combinations(range(len(pending)), k)]


def page_subsets(count, seed):
    """Subsets of `count` changed pages, as frozensets of page numbers."""
    pages = range(count)
    if count <= PAGE_SUBSETS_ALL:
        return [frozenset(c) for k in range(count + 1) for c in itertools.combinations(pages, k)]
    family = {frozenset(pages[:k]) for k in range(count + 1)}
    family |= {frozenset(pages[k:]) for k in range(count + 1)}
    family |= {frozenset([p]) for p in pages}
    family |= {frozenset(pages) - {p} for p in pages}
    rng = random.Random(seed)
    while len(family) < PAGE_SUBSETS_SAMPLED:
        family.add(frozenset(p for p in pages if rng.random() < 0.5))
    return sorted(family, key=sorted)


@dataclass(frozen=True)
class Variant:
    """A content a file may hold after a crash."""

    content: bytes
    digest: str
    described: str


@functools.lru_cache(maxsize=64)
def data_variants(durable, live, seed):
    """The contents a file may hold after a crash (computed once per file and point)."""
    if durable == live:
        return (Variant(live, hashlib.sha256(live).hexdigest(), "synced"),)
    size = max(len(durable), len(live))
    changed = [p for p in range(0, size, PAGE) if durable[p:p + PAGE] != live[p:p + PAGE]]
    variants = {}
    for kept in page_subsets(len(changed), seed):
        pages = {changed[i] for i in kept}
        image = bytearray(durable + bytes(max(0, size - len(durable))))
        for p in pages:
            image[p:p + PAGE] = live[p:p + PAGE] + bytes(max(0, PAGE - len(live[p:p + PAGE])))
        prefix_end = 0
        for p in range(0, size, PAGE):
            if p in changed and p not in pages:
                break
            prefix_end = min(p + PAGE, len(live))
        for length in sorted({len(durable), len(live), prefix_end}):
            content = bytes(image[:length])
            if content not in variants:
                described = (f"pages {sorted(p // PAGE for p in pages)} of {[p // PAGE for p in changed]} kept, "
                             f"size {length} (old {len(durable)}, new {len(live)})")
                variants[content] = Variant(content, hashlib.sha256(content).hexdigest(), described)
    return tuple(variants.values())


def states_at(snapshot, seed, limit):
    """Every crash state after `snapshot.point` calls: (tree, description, rule sets) where a
    tree maps a relative path to (is_dir, mode, Variant or None for a directory). Beyond
    `limit`, each choice of names gets its share of them, sampled."""
    rules_of = {}
    for rules in ("posix", "ext4"):
        for kept in name_choices(snapshot, rules):
            rules_of.setdefault(kept, set()).add(rules)
    choices = []
    for kept, rules in rules_of.items():
        entries = {d: dict(e) for d, e in snapshot.durable_entries.items()}
        for i in kept:
            apply_name_op(entries, snapshot.pending[i])
        described = (
            "name operations kept: " + (", ".join(f"call {snapshot.pending[i].call}" for i in kept) or "none")
            + f" of those pending (calls {[op.call for op in snapshot.pending]})"
        )
        choices.append((Reached(snapshot, entries, seed), described, rules))
    total = sum(reached.count for reached, _, _ in choices)
    found = {}
    for reached, names_described, rules in choices:
        share = reached.count if total <= limit else max(1, limit * reached.count // total)
        for tree, data_described in reached.trees(share):
            key = tree_key(tree)
            if key in found:
                found[key][2].update(rules)
            else:
                found[key] = (tree, names_described + "; " + data_described, set(rules))
    return list(found.values())


class Reached:
    """The directories and files a set of entries reaches from the root, and the contents each
    file may hold."""

    def __init__(self, snapshot, entries, seed):
        self.dirs, self.files = [], []
        self.seed = seed

        def walk(directory, path):
            for name, inode in sorted(entries[directory].items()):
                is_dir, mode, durable, live = snapshot.inodes[inode]
                child = path + "/" + name
                if is_dir:
                    self.dirs.append((child, mode))
                    walk(inode, child)
                else:
                    self.files.append((child, mode, data_variants(durable, live, seed + inode)))

        walk(1, "")
        self.count = 1
        for _, _, variants in self.files:
            self.count *= len(variants)

    def combination(self, index):
        """The index-th choice of a content per file (mixed radix over the files' variants)."""
        combo = []
        for path, mode, variants in self.files:
            index, digit = divmod(index, len(variants))
            combo.append((path, mode, variants[digit]))
        return combo

    def trees(self, budget):
        """Every tree, or `budget` distinct ones sampled with a fixed seed when there are more."""
        indexes = range(self.count) if self.count <= budget else random.Random(self.seed).sample(range(self.count), budget)
        for index in indexes:
            tree = {path: (True, mode, None) for path, mode in self.dirs}
            described = []
            for path, mode, variant in self.combination(index):
                tree[path] = (False, mode, variant)
                if variant.described != "synced":
                    described.append(f"{path}: {variant.described}")
            yield tree, "; ".join(described) or "all data synced"


def tree_key(tree):
    return tuple(
        (path, is_dir, mode, None if variant is None else variant.digest)
        for path, (is_dir, mode, variant) in sorted(tree.items())
    )


def materialise(tree, root):
    os.makedirs(root, mode=0o700)
    for path, (is_dir, mode, variant) in sorted(tree.items()):
        full = root + path
        if is_dir:
            os.mkdir(full, 0o700)
        else:
            with open(full, "wb") as f:
                f.write(variant.content)
        os.chmod(full, mode)


# ---------------------------------------------------------------------------------------------
# Scenarios


@dataclass
class Scenario:
    """An action recorded from a baseline, and what a launch from any crash state may find."""

    name: str
    what: str
    setup: list  # host commands that build the baseline (not recorded), {state} and {docs}
    action: list  # the host command recorded
    kind: str  # "archive": launches check the state; "file": the file's bytes are checked
    allowed: set  # outcomes a crash at any point may give
    final: set  # outcomes once the action returned
    may_sync: bool = True  # False: the action must not wait on an fsync or fdatasync


SCENARIOS = [
    Scenario("save", "a save replacing an archive (key file there)",
             [["save", "{state}", "1"]], ["save", "{state}", "2"],
             "archive", {"restored 1", "restored 2"}, {"restored 2"}),
    Scenario("first-save", "the first save ever: the state directory and the key file created",
             [], ["save", "{state}", "1"],
             "archive", {"fresh 1", "restored 1"}, {"restored 1"}),
    # The consumed archive's removal is not synced (R14): the launch waits on no fsync, and a
    # power cut after it may give the archive back once more, never a part of it.
    Scenario("launch", "a launch that restores the archive and consumes it",
             [["save", "{state}", "1"]], ["launch", "{state}"],
             "archive", {"restored 1", "fresh 1"}, {"restored 1", "fresh 1"}, may_sync=False),
    Scenario("discard", "amber_engine_discard() of an archive",
             [["save", "{state}", "1"]], ["discard", "{state}"],
             "archive", {"restored 1", "fresh 1", "fresh 8"}, {"fresh 1", "fresh 8"}),
    Scenario("write-atomic", "amber_file_write_atomic() replacing a file",
             [["write", "{docs}/items", "1"]], ["write", "{docs}/items", "2"],
             "file", {"file 1", "file 2"}, {"file 2"}),
    Scenario("first-write-atomic", "amber_file_write_atomic() creating a file",
             [], ["write", "{docs}/items", "1"],
             "file", {"file absent", "file 1"}, {"file 1"}),
]

FRESH_NAMES = {"1": "no archive", "8": "discarded by the host"}


def run_host(host, args, env=None):
    result = subprocess.run([host] + args, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RecordError(f"host {' '.join(args)} failed: {result.stderr.strip()}")


def record(scenario, args, work):
    """Builds the baseline, records the action; the baseline's copy, the calls, the paths."""
    watch = os.path.join(work, scenario.name, "w")
    os.makedirs(os.path.join(watch, "docs"), mode=0o700)
    paths = {"state": os.path.join(watch, "state"), "docs": os.path.join(watch, "docs")}
    for command in scenario.setup:
        run_host(args.host, [a.format(**paths) for a in command])
    base = os.path.join(work, scenario.name, "baseline")
    shutil.copytree(watch, base, symlinks=True)
    log = os.path.join(work, scenario.name, "calls.log")
    env = dict(os.environ, LD_PRELOAD=args.recorder, AMBER_PL_LOG=log, AMBER_PL_WATCH=watch)
    run_host(args.host, [a.format(**paths) for a in scenario.action], env)
    return base, read_log(log), watch


def key_sealing(scenario, base, watch):
    """Which key each archive there may be was sealed with: {archive bytes: key bytes}."""
    sealed = {}
    for root in (base, watch):
        archive, key = os.path.join(root, "state/state.archive"), os.path.join(root, "state/archive.key")
        if os.path.exists(archive) and os.path.exists(key):
            with open(archive, "rb") as a, open(key, "rb") as k:
                sealed[a.read()] = k.read()
    return sealed


def key_failure(tree, sealed):
    """Why a state breaks the key file's rule (an archive sealed with a key that is gone or
    replaced), or None."""
    archive = tree.get("/state/state.archive")
    if archive is None or archive[2].content not in sealed:
        return None
    key = tree.get("/state/archive.key")
    if key is None:
        return "the archive remains and its key file is lost"
    if key[2].content != sealed[archive[2].content]:
        return "the archive remains and its key file was replaced"
    return None


def file_outcome(tree, numbers):
    items = tree.get("/docs/items")
    if items is None:
        return "file absent"
    return "file " + numbers.get(items[2].content, "torn (neither the old bytes nor the new)")


CHECK_BATCH = 500  # states materialised on disk at once


def check_states(args, work, trees):
    """Launches from each state (materialised under `work`, a batch at a time); the outcome of
    each, in order: (outcome, message), the outcome "restored N", "fresh REASON", "mixed" or
    "error"."""
    results = []
    for start in range(0, len(trees), CHECK_BATCH):
        results += check_batch(args, work, trees[start:start + CHECK_BATCH], start)
    return results


def check_batch(args, work, trees, first):
    dirs = []
    for number, tree in enumerate(trees, first):
        root = os.path.join(work, f"{number:06d}")
        materialise(tree, root)
        dirs.append(os.path.join(root, "state"))
    jobs = max(1, min(args.jobs, len(dirs)))
    procs = [subprocess.Popen([args.host, "check"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(jobs)]
    for number, proc in enumerate(procs):
        proc.stdin.write("".join(d + "\n" for d in dirs[number::jobs]))
        proc.stdin.close()
    outcomes = {}
    for proc in procs:
        for line in proc.stdout:
            directory, kind, rest = (line.rstrip("\n").split("\t", 2) + ["", ""])[:3]
            outcomes[directory] = (kind, rest)
        proc.wait()
    shutil.rmtree(work)
    results = []
    for d in dirs:
        kind, rest = outcomes.get(d, ("error", "the checker printed nothing for this state (did it crash?)"))
        if kind == "fresh":
            reason, _, message = rest.partition("\t")
            results.append((f"fresh {reason}", message))
        elif kind == "restored":
            results.append((f"restored {rest}", ""))
        else:
            results.append((kind, rest))
    return results


def without(calls, names):
    """The calls but those named (the self-check: the recording of an engine that left them
    out), numbered again."""
    kept = [c for c in calls if c.name not in names]
    return [Call(i, c.name, c.fields, c.result) for i, c in enumerate(kept)]


def run_scenario(scenario, args):
    work = os.path.join(args.work, scenario.name)
    base, calls, watch = record(scenario, args, args.work)
    if args.drop:
        calls = without(calls, set(args.drop))
    fs = baseline(base)
    replay = Replay(fs, watch)
    snapshots = [Snapshot.take(0, fs, -1)]
    for call in calls:
        replay.apply(call)
        snapshots.append(Snapshot.take(call.index + 1, fs, replay.fsyncs[-1] if replay.fsyncs else -1))
    sealed = key_sealing(scenario, base, watch)
    numbers = {}
    if scenario.kind == "file":
        for root in (base, watch):
            path = os.path.join(root, "docs/items")
            if os.path.exists(path):
                with open(path, "rb") as f:
                    numbers[f.read()] = scenario.action[-1] if root == watch else scenario.setup[0][-1]

    # Each distinct state is checked once; its occurrences (point, rule sets, the crash's
    # choices) say where it arises.
    explored, unique, failures = 0, {}, []
    per_point = []
    for snapshot in snapshots:
        states = states_at(snapshot, snapshot.point, args.states_per_point)
        per_point.append(len(states))
        for tree, described, rules in states:
            explored += 1
            unique.setdefault(tree_key(tree), (tree, []))[1].append((snapshot.point, rules, described))
    entries = list(unique.values())
    if scenario.kind == "archive":
        outcomes = check_states(args, os.path.join(work, "states"), [tree for tree, _ in entries])
    else:
        outcomes = [(file_outcome(tree, numbers), "") for tree, _ in entries]
    final_point = len(calls)
    for (tree, occurrences), (outcome, message) in zip(entries, outcomes):
        first = occurrences[0]
        if outcome not in scenario.allowed:
            failures.append((first, f"the launch gave '{outcome}' {message}".rstrip(), tree))
        final = [o for o in occurrences if o[0] == final_point]
        if final and outcome not in scenario.final:
            failures.append((final[0], f"after the action returned, the launch gave '{outcome}', "
                             f"not {' or '.join(sorted(scenario.final))}", tree))
        why = key_failure(tree, sealed) if scenario.kind == "archive" else None
        if why:
            failures.append((first, why, tree))

    synced = [call for call in calls if call.name in ("fsync", "fdatasync")]
    if synced and not scenario.may_sync:
        failures.append(((synced[0].index + 1, {"any"}, "none: the calls themselves"),
                         f"the {scenario.name} waited on {synced[0].describe()}, which it must not (R14)", {}))

    print(f"== {scenario.name}: {scenario.what}")
    print(f"   {len(calls)} calls recorded; crash states per point: {per_point}")
    ext4 = sum(1 for _, occurrences in entries if any("ext4" in rules for _, rules, _ in occurrences))
    print(f"   {explored} states explored, {len(unique)} distinct ({ext4} of them under the ext4 rules, "
          f"{len(unique) - ext4} under the posix rules only), {len(failures)} failed")
    for (point, rules, described), problem, tree in failures[: args.show]:
        print(f"FAIL  {scenario.name}: crash after call {point} ({'/'.join(sorted(rules))} rules): {problem}")
        print(f"      the crash: {described}")
        print(f"      the files: {', '.join(sorted(tree)) or 'none'}")
        print("      the calls that led there:")
        for call in calls[:point]:
            print(f"        {call.index}: {call.describe()}")
    if len(failures) > args.show:
        print(f"      ... and {len(failures) - args.show} more failed states")
    return len(unique), len(failures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", required=True)
    parser.add_argument("--recorder", required=True)
    parser.add_argument("--work", required=True, help="an empty directory for the recordings and states")
    parser.add_argument("--jobs", type=int, default=2, help="checker processes")
    parser.add_argument("--show", type=int, default=3, help="failed states printed in full per scenario")
    parser.add_argument("--scenario", action="append", help="run only these (default: all)")
    parser.add_argument("--states-per-point", type=int, default=STATES_PER_POINT,
                        help="the crash states built at one point at most, sampled beyond")
    parser.add_argument("--drop", action="append",
                        help="the self-check: leave these calls (fsync...) out of the recording, as an engine "
                        "that did not make them; the states must then fail")
    args = parser.parse_args()
    chosen = [s for s in SCENARIOS if not args.scenario or s.name in args.scenario]
    total, failed = 0, 0
    try:
        for scenario in chosen:
            states, failures = run_scenario(scenario, args)
            total += states
            failed += failures
    except RecordError as error:
        print(f"powerloss: cannot run: {error}")
        return 2
    print(f"powerloss: {total} distinct crash states checked over {len(chosen)} scenarios, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
