"""A host tree far deeper than an archive may be (R1, R10, R22), built from Python.

No time is asserted: before the engine's lookup became linear, the launch over a tree this deep
allocated a path per object and aborted the process."""
import amber
from conftest import Delegate

DEPTH = 100_000


def build_chain(engine, depth):
    """A chain of ``depth`` controllers, the first a root, each the child of the one before."""
    top = engine.add_root(engine.controller("screen-0", "Screen"))
    for i in range(1, depth):
        top = top.add_child(engine.controller(f"screen-{i % 8}", "Screen"))
    return top


def test_r10_r22_a_hundred_thousand_deep_tree_launches_and_restores(open_engine):  # R1, R10, R22
    first = open_engine(Delegate())
    bottom = build_chain(first, DEPTH)
    assert bottom.path_string.count("/") == DEPTH - 1
    report = first.preserve()
    assert report.saved is True
    first.close()

    # The next launch: the host builds the same tree, and each record finds its object in it.
    second = open_engine(Delegate())
    build_chain(second, DEPTH)
    records = list(second.launch())
    assert len(records) == 512
    assert all(r.outcome == amber.Outcome.RESTORED for r in records)
    assert records[511].path == tuple(f"screen-{i % 8}" for i in range(512))
    assert second.preserve().saved is True
    second.close()
