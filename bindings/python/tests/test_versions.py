"""State versions and migration (R30): a record of an older version of its class's state goes to
the class's migrate callback before its object is looked up; a newer one is declined with its
subtree. Each test relaunches with the relaunch test helper (R33, the ``relaunch`` fixture)."""
import pytest

import amber
from conftest import Delegate, Field


class Tab(amber.Controller):
    """A tab whose version 1 state is "title" and version 2 state "caption"."""

    def __init__(self, engine, identifier="tab"):
        super().__init__(engine, identifier, class_name="Tab")
        self.caption = None

    def encode_restorable_state(self, coder):
        coder["title"] = "Inbox"

    def decode_restorable_state(self, decoder):
        self.caption = decoder["caption"]


class Program:
    """What the program does at start-up: the delegate, Tab's state version (none: version 1),
    root -> tab -> field. Keeps the tab and field of the last set-up."""

    def __init__(self, version=None, migrate=None):
        self.version, self.migrate = version, migrate
        self.tab = self.field = None

    def __call__(self, engine):
        engine.set_delegate(Delegate())
        if self.version is not None:
            engine.register_state_version("Tab", self.version, self.migrate)
        root = engine.add_root(amber.Controller(engine, "root", class_name="Root"))
        self.tab = root.add_child(Tab(engine))
        self.field = self.tab.add_child(Field(engine))


def relaunch_tabs(relaunch, run1, run2):
    """Run 1 set up and launched on a memory store, then relaunched (R33) into run 2."""
    engine = amber.Engine("org.example.versions", memory_store=True)
    run1(engine)
    engine.launch()
    return relaunch(engine, run2).report


def test_r30_v1_record_migrated_to_v2(relaunch):  # R30
    calls = []

    def migrate(new, old, from_version, to_version):
        calls.append((from_version, to_version))
        new["caption"] = f"[{old['title']}]"

    run2 = Program(2, migrate)
    report = relaunch_tabs(relaunch, Program(), run2)  # run 1: no version declared, version 1
    assert calls == [(1, 2)]
    assert run2.tab.caption == "[Inbox]" and run2.field.text == "typed"
    assert report.outcome("root/tab") == amber.Outcome.MIGRATED
    assert report.outcome("root/tab/field") == amber.Outcome.RESTORED
    record = next(r for r in report.records if r.path_string.endswith("tab"))
    assert record.message == "migrated from version 1 to version 2"
    assert "migrated (from 1 to 2)  /root/tab" in report.text
    assert run2.tab in report.restored


def test_r30_v3_record_declined(relaunch):  # R30
    calls = []
    run2 = Program(2, lambda new, old, f, t: calls.append((f, t)))
    report = relaunch_tabs(relaunch, Program(3), run2)
    assert calls == [] and run2.tab.caption is None and run2.field.text is None
    assert report.outcome("root/tab") == amber.Outcome.DECLINED_VERSION
    assert report.outcome("root/tab/field") == amber.Outcome.LEFT_OUT  # its subtree, as R10
    record = next(r for r in report.records if r.path_string.endswith("tab"))
    assert "archived at state version 3; class Tab is at version 2" in record.message
    assert "declined: version  /root/tab" in report.text


def test_r30_migrate_declines_or_raises(relaunch):  # R30
    run2 = Program(2, lambda new, old, f, t: False)
    report = relaunch_tabs(relaunch, Program(), run2)
    assert report.outcome("root/tab") == amber.Outcome.DECLINED_VERSION and run2.tab.caption is None
    assert report.outcome("root/tab/field") == amber.Outcome.LEFT_OUT

    def broken(new, old, f, t):
        raise LookupError("no title in this state")

    report = relaunch_tabs(relaunch, Program(), Program(2, broken))  # the record's outcome, not raised
    assert report.outcome("root/tab") == amber.Outcome.DECODE_ERROR
    assert report.outcome("root/tab/field") == amber.Outcome.RESTORED
    record = next(r for r in report.records if r.path_string == "root/tab")
    assert record.message == ("the migrate callback of class Tab returned 12 (AMBER_CALLBACK_FAILED): "
                              "LookupError: no title in this state")
    assert [type(error) for error in report.errors] == [LookupError]


@pytest.mark.parametrize("answer, outcome", [
    (amber.Migration.DONE, amber.Outcome.MIGRATED), (True, amber.Outcome.MIGRATED),
    (None, amber.Outcome.MIGRATED),  # no answer: C's *out left at AMBER_MIGRATION_DONE
    (amber.Migration.DECLINED, amber.Outcome.DECLINED_VERSION), (False, amber.Outcome.DECLINED_VERSION)])
def test_r30_migrate_answers(relaunch, answer, outcome):  # R30
    def migrate(new, old, f, t):
        new["caption"] = old["title"]
        return answer
    report = relaunch_tabs(relaunch, Program(), Program(2, migrate))
    assert report.outcome("root/tab") == outcome and report.errors == []


@pytest.mark.parametrize("answer", [0, 1, "", "no", 42, 1.0, [], amber.Outcome.MIGRATED])
def test_r30_any_other_migrate_answer_is_a_decode_error(relaunch, answer):  # R30
    """As C's *out set to neither AMBER_MIGRATION_DONE nor AMBER_MIGRATION_DECLINED: the record
    is DECODE_ERROR, its message naming what the function returned; the records under it are
    looked up on their own."""
    def migrate(new, old, f, t):
        new["caption"] = old["title"]
        return answer
    run2 = Program(2, migrate)
    report = relaunch_tabs(relaunch, Program(), run2)
    assert report.outcome("root/tab") == amber.Outcome.DECODE_ERROR and run2.tab.caption is None
    assert report.outcome("root/tab/field") == amber.Outcome.RESTORED
    record = next(r for r in report.records if r.path_string == "root/tab")
    assert record.message == ("the migrate callback of class Tab returned 12 (AMBER_CALLBACK_FAILED): "
                              f"CallbackFailedError: the migrate function returned {answer!r}, which is neither "
                              "amber.Migration.DONE "
                              "(or True) nor amber.Migration.DECLINED (or False)")


def test_r30_a_code_out_of_range_is_callback_failed(relaunch):  # R30
    """A half-written migration that raises a code C cannot carry is not MIGRATED: 2**32 would
    reach Amber as 0, success."""
    def migrate(new, old, f, t):
        new["caption"] = old["title"]
        raise amber.AmberError("half written", code=2**32)
    run2 = Program(2, migrate)
    report = relaunch_tabs(relaunch, Program(), run2)
    assert report.outcome("root/tab") == amber.Outcome.DECODE_ERROR and run2.tab.caption is None
    record = next(r for r in report.records if r.path_string == "root/tab")
    assert record.message.endswith("returned 12 (AMBER_CALLBACK_FAILED): AmberError: half written")


def test_r30_registration_is_checked():  # R30
    with amber.Engine("org.example.versions", memory_store=True) as e:
        e.register_state_version("Tab", 2)
        with pytest.raises(amber.DuplicateError):
            e.register_state_version("Tab", 3)
        with pytest.raises(ValueError):
            e.register_state_version("Other", 0)
        with pytest.raises(ValueError):
            e.register_state_version("Other", -1)
