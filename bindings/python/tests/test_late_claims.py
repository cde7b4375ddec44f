"""State claimed late (R35): after launch, the records that found no object are kept for a time
the host sets; an object created later claims its record's state and its subtree's with
``restore_pending()``, and the engine's report is updated. Each test relaunches with the
relaunch test helper (R33, the ``relaunch`` fixture)."""
import time

import pytest

import amber
from conftest import Delegate, Field


class Tab(amber.Controller):
    def __init__(self, engine):
        super().__init__(engine, "tab", class_name="Tab")
        self.title = None

    def encode_restorable_state(self, coder):
        coder["title"] = "Inbox"

    def decode_restorable_state(self, decoder):
        self.title = decoder["title"]


def tab_with_field(engine):
    tab = Tab(engine)
    tab.add_child(Field(engine))
    return tab


def relaunch_without_the_tab(relaunch, keep_ms):
    """Run 1 (root -> tab -> field) relaunched (R33) into a run 2 whose set-up keeps unclaimed
    records for `keep_ms` and makes only the root. Returns the new engine, its root, the report."""
    engine = amber.Engine("org.example.late", memory_store=True, delegate=Delegate())
    engine.add_root(amber.Controller(engine, "root", class_name="Root")).add_child(tab_with_field(engine))
    engine.launch()
    roots = []

    def set_up(e):
        e.set_delegate(Delegate())
        e.keep_unclaimed(keep_ms)
        roots.append(e.add_root(amber.Controller(e, "root", class_name="Root")))

    new_engine, report = relaunch(engine, set_up)
    return new_engine, roots[0], report


def test_r35_tab_created_2s_after_launch_gets_its_state(relaunch):  # R35
    engine, root, report = relaunch_without_the_tab(relaunch, 10_000)
    assert report.outcome("root/tab") == amber.Outcome.NOT_FOUND
    assert any("kept for 10000 ms" in line for line in report.message.splitlines())
    time.sleep(2)  # the tab is opened later
    tab = root.add_child(tab_with_field(engine))
    tab.restore_pending()
    field = engine.restoration_report().records[-1].object
    assert tab.title == "Inbox" and field is not None and field.text == "typed"
    now = engine.restoration_report()
    assert now.outcome("root/tab") == amber.Outcome.RESTORED
    assert now.outcome("root/tab/field") == amber.Outcome.RESTORED
    assert tab in now.restored
    assert report.outcome("root/tab") == amber.Outcome.NOT_FOUND  # the launch report stays as it was


def test_r35_claim_after_the_deadline_gets_nothing(relaunch):  # R35
    engine, root, _ = relaunch_without_the_tab(relaunch, 300)
    time.sleep(0.6)
    tab = root.add_child(tab_with_field(engine))
    with pytest.raises(amber.NotFoundError) as raised:
        tab.restore_pending()
    assert "dropped at their deadline, 300 ms after launch" in str(raised.value)
    assert tab.title is None
    report = engine.restoration_report()
    assert report.outcome("root/tab") == amber.Outcome.NOT_FOUND
    record = next(r for r in report.records if r.path_string == "root/tab")
    assert "none claimed it: dropped at their deadline" in record.message
    assert "were dropped at their deadline" in report.message


def test_r35_end_restoration(relaunch):  # R35
    engine, root, _ = relaunch_without_the_tab(relaunch, 10_000)
    engine.end_restoration()
    tab = root.add_child(tab_with_field(engine))
    with pytest.raises(KeyError):
        tab.restore_pending()
    assert "when the host ended restoration" in engine.restoration_report().message


@pytest.mark.parametrize("raise_errors", [False, True])
def test_r35_r12_a_late_decode_exception_is_the_records_outcome(relaunch, raise_errors):  # R35, R12
    """As at launch: a decode callback's exception during a late claim is its record's outcome
    (DECODE_ERROR, its type and text in the message) and restore_pending() returns as C's does,
    giving the exception back; ``raise_errors`` raises it."""
    engine, root, _ = relaunch_without_the_tab(relaunch, 10_000)
    tab = root.add_child(tab_with_field(engine))

    def fails(decoder):
        raise LookupError("no title")
    tab.decode_restorable_state = fails
    if raise_errors:
        with pytest.raises(LookupError):
            tab.restore_pending(raise_errors=True)
    else:
        raised = tab.restore_pending()
        assert [type(error) for error in raised] == [LookupError] and str(raised[0]) == "no title"
    now = engine.restoration_report()
    assert now.outcome("root/tab") == amber.Outcome.DECODE_ERROR
    assert now.outcome("root/tab/field") == amber.Outcome.RESTORED
    record = next(r for r in now.records if r.path_string == "root/tab")
    assert record.message.endswith("returned 12 (AMBER_CALLBACK_FAILED): LookupError: no title"), record.message
    assert now.errors == []  # C's report as it stands: the exception went to restore_pending's caller


def test_r35_a_save_carries_the_kept_records(relaunch):  # R35 R28
    engine, root, _ = relaunch_without_the_tab(relaunch, 10_000)
    saved = engine.preserve()  # an autosave before the tab is opened
    assert [e.path_string for e in saved.carried] == ["root/tab", "root/tab/field"]
    assert all(e.left_out == amber.LeftOut.CARRIED and e.size > 0 for e in saved.carried)
    assert saved.left_out == [] and [e.path_string for e in saved.preserved] == ["root"]
    # The process dies after the autosave: the next launch gives the tab its state.
    roots = []

    def set_up(e):
        e.set_delegate(Delegate())
        roots.append(e.add_root(amber.Controller(e, "root", class_name="Root")))
        roots.append(roots[0].add_child(tab_with_field(e)))

    _, report = relaunch(engine, set_up)
    assert report.outcome("root/tab") == amber.Outcome.RESTORED
    assert report.outcome("root/tab/field") == amber.Outcome.RESTORED
    assert roots[1].title == "Inbox"
