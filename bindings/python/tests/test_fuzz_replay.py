"""Issue 42, item 2: the inputs of the binding's unarchiver fuzzer (fuzz/fuzz_unarchiver.py), its
seeds, its kept corpus and the C harness's (Fuzz/corpus/unarchiver), read through the binding
once: no exception but the AmberError family, every value of its reader's type."""
import os
import sys

import amber

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fuzz"))
import fuzz_unarchiver  # noqa: E402


def test_issue42_unarchiver_fuzz_seeds_replay(capsys):
    inputs = [fuzz_unarchiver.SEEDS, fuzz_unarchiver.KEPT, fuzz_unarchiver.C_SEEDS]
    # Each set is there: an empty replay would pass vacuously.
    assert [len(fuzz_unarchiver.read_inputs([d])) > 0 for d in inputs] == [True, True, True]
    assert fuzz_unarchiver.replay(inputs) == 0, capsys.readouterr().out


def test_issue42_unarchiver_fuzz_seeds_reach_objects():
    # The seeds get past amber_unarchiver_new and back into the host's classes: a cycle resolves.
    registry = fuzz_unarchiver.make_registry()
    with open(os.path.join(fuzz_unarchiver.SEEDS, "py-cycle"), "rb") as f:
        data = f.read()
    with amber.Unarchiver(data, registry) as u:
        root = u.decode_object("root", ["Node"])
    assert root.name == "parent \U0001F43B" and [c.parent is root for c in root.children] == [True, True]


def test_issue42_fuzzer_mutation_visits_shared_containers_once():
    # A property list's references can share a container many times over, or make it hold
    # itself: the format-aware mutation lists each container's slots once. Walking every path
    # to depth 20, as it once did, is 10^20 steps for this list of ten references to itself.
    import plistlib
    import random
    loop = []
    loop.extend([loop] * 10)
    data = plistlib.dumps({"$objects": [loop, {"x": loop, "y": loop}]}, fmt=plistlib.FMT_BINARY)
    parsed = plistlib.loads(data)
    # The top dictionary's one slot, the array's two, the loop's ten, the dictionary's two.
    assert len(fuzz_unarchiver.slots_of(parsed)) == 1 + 2 + 10 + 2
    assert fuzz_unarchiver.structural_mutation(data, random.Random(1)) is not None
