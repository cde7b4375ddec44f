"""R31, size budgets: an object over its budget left out and named with its size, the rest saved
and restored; an archive over its budget not written, the previous one kept; the largest
objects listed.

The restore after the save is a relaunch in one call (amber.testing.relaunch, R33, through the
``relaunch`` fixture); the archive budget's tests open engines directly, each with its own
options."""
import pytest

import amber
from conftest import Delegate, Screen


def build(engine):
    """Root; under it Small, Big (over a budget of 1000 bytes) and Medium; under Big UnderBig."""
    root = engine.add_root(Screen(engine, "Root", {"title": "r" * 10}))
    screens = {"Root": root}
    for name, size in (("Small", 100), ("Big", 5000), ("Medium", 600)):
        screens[name] = root.add_child(Screen(engine, name, {"title": name[0].lower() * size}))
    screens["UnderBig"] = screens["Big"].add_child(Screen(engine, "UnderBig", {"title": "u" * 20}))
    return screens


def test_r31_object_over_budget_left_out_and_named(open_engine, relaunch):  # R31
    e = open_engine(Delegate(), object_budget=1000)
    build(e)
    report = e.preserve()
    assert report.saved and report.not_saved == amber.NotSaved.NONE  # the rest is saved
    assert report.size < 5000  # Big's value dropped from the archive
    big = report.entry("Root/Big")
    assert big.left_out == amber.LeftOut.OVER_BUDGET
    assert 5000 < big.size < 6000  # named with its size
    assert "1000" in big.message and "budget" in big.message
    under = report.entry("Root/Big/UnderBig")
    assert under.left_out == amber.LeftOut.UNDER_LEFT_OUT and "Big" in under.message
    assert [e.path_string for e in report.preserved] == ["Root", "Root/Small", "Root/Medium"]
    assert all(entry.size > 0 for entry in report.preserved)

    # Killed and launched again (the relaunch saves once more, with the same budget): the rest is
    # restored; Big and what is under it are not.
    screens = {}

    def set_up(engine):
        engine.set_delegate(Delegate())
        screens.update(build(engine))
    e2, restored = relaunch(e, set_up)
    assert e.closed and not e2.closed
    assert not restored.fresh
    assert screens["Small"].decoded == {"title": "s" * 100}
    assert screens["Medium"].decoded == {"title": "m" * 600}
    assert screens["Root"].decoded == {"title": "r" * 10}
    assert screens["Big"].decoded is None and screens["UnderBig"].decoded is None
    outcomes = {r.path_string: r.outcome for r in restored}
    assert outcomes["Root/Big"] == amber.Outcome.LEFT_OUT


def test_r31_largest_objects(open_engine):  # R31
    e = open_engine(Delegate(), object_budget=1000)
    build(e)
    report = e.preserve()
    largest = report.largest
    assert [x.path_string for x in largest][0] == "Root/Medium"
    assert sorted(x.path_string for x in largest) == ["Root", "Root/Medium", "Root/Small"]  # Big is left out
    assert [x.size for x in largest] == sorted((x.size for x in largest), reverse=True)
    assert largest[0] == report.entry("Root/Medium")  # the same entry as in `entries`
    assert "largest:" in report.text and "1. /Root/Medium" in report.text


def test_r31_largest_are_ten_at_most(open_engine):  # R31
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "Root"))
    for i in range(15):
        root.add_child(Screen(e, f"S{i}", {"title": "x" * (100 * (i + 1))}))
    report = e.preserve()
    assert [x.path_string for x in report.largest] == [f"Root/S{i}" for i in range(14, 4, -1)]


def test_r31_archive_over_budget_keeps_previous(open_engine):  # R31
    e = open_engine(Delegate())
    build(e)
    assert e.preserve().saved
    e.close()
    e2 = open_engine(Delegate(), archive_budget=500)
    build(e2)
    with pytest.raises(amber.LimitExceededError) as raised:
        e2.preserve()
    report = raised.value.amber_preservation
    assert report.not_saved == amber.NotSaved.OVER_BUDGET and "500" in report.message
    assert report.largest[0].path_string == "Root/Big" and report.largest[0].size > 5000
    assert e2.last_preservation.not_saved == amber.NotSaved.OVER_BUDGET
    e2.close()
    e3 = open_engine(Delegate())
    screens = build(e3)
    assert not e3.launch().fresh  # the previous archive, kept
    assert screens["Big"].decoded == {"title": "b" * 5000}


@pytest.mark.parametrize("budget", ["object_budget", "archive_budget"])
def test_r31_a_budget_of_zero_is_none(open_engine, budget):  # R31
    """0 means no budget, as in C's options (today's default)."""
    e = open_engine(Delegate(), **{budget: 0})
    build(e)
    report = e.preserve()
    assert report.saved and not report.left_out


@pytest.mark.parametrize("budget", ["object_budget", "archive_budget"])
@pytest.mark.parametrize("value", [-1, 2**64, 2**64 + 100, 1.5, "100"])
def test_r31_a_budget_outside_a_uint64_is_refused(open_engine, budget, value):  # R31
    """A budget C's uint64_t cannot hold is refused, never cut to its low bits (2**64 + 100
    would be a budget of 100 bytes)."""
    with pytest.raises(amber.InvalidArgumentError, match=budget):
        open_engine(Delegate(), **{budget: value})


def test_r31_the_largest_budget_is_accepted(open_engine):  # R31
    e = open_engine(Delegate(), object_budget=2**64 - 1, archive_budget=2**64 - 1)
    build(e)
    assert e.preserve().saved
