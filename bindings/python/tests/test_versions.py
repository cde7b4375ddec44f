"""State versions and migration (R30): a record of an older version of its class's state goes to
the class's migrate callback before its object is looked up; a newer one is declined with its
subtree. Each relaunch is a second engine on the same store (the open_engine fixture)."""
import pytest

import amber
from conftest import Delegate


class Tab(amber.Controller):
    """A tab whose version 1 state is "title" and version 2 state "caption"."""

    def __init__(self, engine, identifier="tab"):
        super().__init__(engine, identifier, class_name="Tab")
        self.caption = None

    def encode_restorable_state(self, coder):
        coder["title"] = "Inbox"

    def decode_restorable_state(self, decoder):
        self.caption = decoder["caption"]


class Field(amber.Controller):
    def __init__(self, engine):
        super().__init__(engine, "field", class_name="Field")
        self.text = None

    def encode_restorable_state(self, coder):
        coder["text"] = "typed"

    def decode_restorable_state(self, decoder):
        self.text = decoder["text"]


def tabs(engine):
    """root -> tab -> field in `engine`."""
    root = engine.add_root(amber.Controller(engine, "root", class_name="Root"))
    tab = root.add_child(Tab(engine))
    field = tab.add_child(Field(engine))
    return tab, field


def preserve_tabs(open_engine, version=None):
    e = open_engine(Delegate())
    if version is not None:
        e.register_state_version("Tab", version)
    tabs(e)
    e.preserve()
    e.close()


def test_r30_v1_record_migrated_to_v2(open_engine):  # R30
    preserve_tabs(open_engine)  # no version declared: version 1
    e = open_engine(Delegate())
    calls = []

    def migrate(new, old, from_version, to_version):
        calls.append((from_version, to_version))
        new["caption"] = f"[{old['title']}]"

    e.register_state_version("Tab", 2, migrate)
    tab, field = tabs(e)
    report = e.launch()
    assert calls == [(1, 2)]
    assert tab.caption == "[Inbox]" and field.text == "typed"
    assert report.outcome("root/tab") == amber.Outcome.MIGRATED
    assert report.outcome("root/tab/field") == amber.Outcome.RESTORED
    record = next(r for r in report.records if r.path_string.endswith("tab"))
    assert record.message == "migrated from version 1 to version 2"
    assert "migrated (from 1 to 2)  /root/tab" in report.text
    assert tab in report.restored


def test_r30_v3_record_declined(open_engine):  # R30
    preserve_tabs(open_engine, version=3)
    e = open_engine(Delegate())
    calls = []
    e.register_state_version("Tab", 2, lambda new, old, f, t: calls.append((f, t)))
    tab, field = tabs(e)
    report = e.launch()
    assert calls == [] and tab.caption is None and field.text is None
    assert report.outcome("root/tab") == amber.Outcome.DECLINED_VERSION
    assert report.outcome("root/tab/field") == amber.Outcome.LEFT_OUT  # its subtree, as R10
    record = next(r for r in report.records if r.path_string.endswith("tab"))
    assert "archived at state version 3; class Tab is at version 2" in record.message
    assert "declined: version  /root/tab" in report.text


def test_r30_migrate_declines_or_raises(open_engine):  # R30
    preserve_tabs(open_engine)
    e = open_engine(Delegate())
    e.register_state_version("Tab", 2, lambda new, old, f, t: False)
    tab, _ = tabs(e)
    assert e.launch().outcome("root/tab") == amber.Outcome.DECLINED_VERSION and tab.caption is None
    e.close()

    preserve_tabs(open_engine)
    e = open_engine(Delegate())

    def broken(new, old, f, t):
        raise LookupError("no title in this state")

    e.register_state_version("Tab", 2, broken)
    tabs(e)
    with pytest.raises(LookupError) as raised:  # re-raised once the launch completes
        e.launch()
    report = raised.value.amber_report
    assert report.outcome("root/tab") == amber.Outcome.DECODE_ERROR
    assert report.outcome("root/tab/field") == amber.Outcome.RESTORED


def test_r30_registration_is_checked(open_engine):  # R30
    e = open_engine(Delegate())
    e.register_state_version("Tab", 2)
    with pytest.raises(amber.DuplicateError):
        e.register_state_version("Tab", 3)
    with pytest.raises(ValueError):
        e.register_state_version("Other", 0)
    with pytest.raises(ValueError):
        e.register_state_version("Other", -1)
