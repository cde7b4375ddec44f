"""The SPEC rules reachable from Python, each test naming its rule."""
import datetime as dt
import time
import plistlib
import stat
import os

import pytest

import amber
from conftest import Delegate, Screen


def preserve_tree(open_engine, delegate=None):
    e = open_engine(delegate or Delegate())
    nav = e.add_root(Screen(e, "Nav", {"title": "root"}, stack=True))
    nav.add_child(Screen(e, "Items", {"selectedRow": 3, "title": "Items"}))
    assert e.preserve().saved is True
    e.close()


def test_r1_r3_objects_tree_and_paths(open_engine):  # R1, R3
    e = open_engine()
    nav = e.add_root(e.controller("Nav", "UINavigationController", stack=True))
    items = nav.add_child(e.controller("Items", "ItemsViewController"))
    view = items.add_view(e.view("Table", "UITableView"))
    cursor = e.plain_object("Cursor", "Cursor")
    cursor.set_restoration_parent(items)
    assert items.path == ("Nav", "Items") and items.path_string == "Nav/Items"
    assert items.object_kind == amber.Kind.CONTROLLER and view.object_kind == amber.Kind.VIEW
    assert cursor.object_kind == amber.Kind.OBJECT
    assert items.class_name == "ItemsViewController" and items.identifier == "Items"
    with pytest.raises(ValueError):  # R1: a view cannot have children
        view.add_child(items)
    with pytest.raises(ValueError):  # R1: no cycles
        items.add_child(nav)


def test_r2_objects_without_identifier_left_out(open_engine, delegate, relaunch):  # R2, with R33's relaunch
    e = open_engine(delegate)
    root = e.add_root(Screen(e, "Root", {"selectedRow": 1}))
    hidden = root.add_child(Screen(e, None, {"selectedRow": 2}))
    hidden.add_child(Screen(e, "Under", {"selectedRow": 3}))
    assert hidden.path is None

    def set_up(e2):
        e2.set_delegate(Delegate())
        e2.add_root(Screen(e2, "Root"))
    _, report = relaunch(e, set_up)
    assert [r.path for r in report] == [("Root",)]


def test_r3_duplicate_paths_reported(open_engine, delegate):  # R3
    e = open_engine(delegate)
    root = e.add_root(Screen(e, "Root"))
    root.add_child(Screen(e, "Same"))
    root.add_child(Screen(e, "Same"))
    e.preserve()
    assert e.last_duplicates == ["Root/Same"]


def test_r4_object_references(open_engine, delegate):  # R4
    e = open_engine(delegate)
    other = Screen(e, "Other", {"selectedRow": 9})
    root = e.add_root(Screen(e, "Root", encode=None))
    root.encode_restorable_state = lambda coder: coder.encode_object("ref", other)
    assert e.preserve()
    e.close()
    found = {}
    e2 = open_engine(Delegate())
    root2 = e2.add_root(Screen(e2, "Root"))
    root2.decode_restorable_state = lambda d: found.update(ref=d.decode_object("ref"))
    made = Screen(e2, "Other")

    class D(Delegate):
        def object_for_path(self, engine, path, decoder):
            return made if path == ("Other",) else None
    e2.set_delegate(D())
    e2.launch()
    assert found["ref"] is made and made.decoded == {"selectedRow": 9}


def test_r5_nothing_saved_without_should_save(open_engine, store):  # R5, R28
    e = open_engine(object())  # a delegate with no methods
    e.add_root(Screen(e, "Root"))
    report = e.preserve()
    assert not report and report.saved is False and store.data is None
    assert report.not_saved == amber.NotSaved.NO_SHOULD_SAVE and report.entries == () and report.size == 0
    assert report.message == "the delegate has no should-save callback"  # R28: never silent
    assert str(report) == "nothing saved: the delegate has no should-save callback"

    class No(Delegate):
        def should_save(self, engine, coder):
            return False
    e.set_delegate(No())
    report = e.preserve()
    assert report.not_saved == amber.NotSaved.DECLINED and store.writes == 0
    assert str(report) == "nothing saved: should-save declined" and e.last_preservation == report


def test_r6_r12_values_round_trip_typed(open_engine, relaunch):  # R6, R12
    state = {"selectedRow": 3, "isEditing": True, "offset": 1.5, "title": "Spork ✓", "blob": b"\x00\x01",
             "when": dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc), "sel": amber.IndexPath(0, 4)}
    e = open_engine(Delegate())
    e.add_root(Screen(e, "Root", state))
    got = {}
    errors = {}

    def decode(d):
        got.update({k: d[k] for k in state})
        assert d.decode_int("selectedRow") == 3 and d.decode_float("selectedRow") == 3.0
        assert d.read({"selectedRow": int, "title": str, "missing": int}) == {"selectedRow": 3, "title": "Spork ✓"}
        for fn, key in (("decode_int", "title"), ("decode_string", "selectedRow"), ("decode_bool", "offset")):
            with pytest.raises(TypeError):  # R12: type-checked, never a crash
                getattr(d, fn)(key)
        with pytest.raises(KeyError):  # R12: a missing key is a distinct error
            d.decode_int("nothing")
        errors["ok"] = "nothing" not in d and "title" in d

    def set_up(e2):
        e2.set_delegate(Delegate())
        e2.add_root(Screen(e2, "Root")).decode_restorable_state = decode
    _, report = relaunch(e, set_up)  # R33
    assert report.outcome("Root") == amber.Outcome.RESTORED, report.text
    assert got == state and errors["ok"]


def test_r6_each_object_has_its_own_coder_and_duplicate_keys_error(open_engine, delegate):  # R6, R28
    e = open_engine(delegate)
    root = e.add_root(Screen(e, "Root", {"k": 1}))
    root.add_child(Screen(e, "Child", {"k": 2}))
    assert e.preserve().saved
    e.add_root(Screen(e, "Other", {"k": 3}))

    def twice(coder):
        coder["k"] = 1
        coder["k"] = 2
    root.encode_restorable_state = twice
    report = e.preserve()  # R28: the object whose encode failed is left out, with its child; the rest saved
    assert report.saved and [x.path for x in report.preserved] == [("Other",)]
    failed = report.entry("Root")
    assert failed.left_out == amber.LeftOut.ENCODE_FAILED and isinstance(failed.error, amber.DuplicateError)
    assert "AMBER_DUPLICATE" in failed.message and report.entry("Root/Child").left_out == amber.LeftOut.UNDER_LEFT_OUT


@pytest.mark.parametrize("key", ["bundleVersion", "timestamp", "systemVersion", "interfaceIdiom", "blueprint",
                                 "amber.anything", "UIApplicationStateRestorationBundleVersionKey"])
def test_r7_reserved_keys_are_an_error(open_engine, delegate, key):  # R7, R28
    e = open_engine(delegate)
    e.add_root(Screen(e, "Root", {key: "mine"}))
    e.add_root(Screen(e, "Kept", {"title": "kept"}))
    report = e.preserve()  # R28: an error, not a silent overwrite: that object is left out, the rest saved
    assert report.saved and [x.path for x in report.preserved] == [("Kept",)]
    entry = report.entry("Root")
    assert entry.left_out == amber.LeftOut.ENCODE_FAILED and entry.size == 0
    assert isinstance(entry.error, amber.ReservedKeyError) and entry.error.code == 4
    assert entry.message.startswith("its encode callback failed: the encode callback of 'Screen' returned 4 "
                                    "(AMBER_RESERVED_KEY): ReservedKeyError: ")
    assert f"'{key}' is reserved" in entry.message
    with pytest.raises(amber.ReservedKeyError):  # the application coder refuses it too: should_save raises

        class Writes(Delegate):
            def should_save(self, engine, coder):
                coder[key] = "mine"
                return True
        e.set_delegate(Writes())
        e.preserve()


def test_r8_r9_application_state_and_metadata(open_engine, relaunch):  # R8, R9, with R33's relaunch
    d = Delegate()
    e = open_engine(d, bundle_version="4.2", interface_idiom="desktop")
    e.add_root(Screen(e, "Root"))
    d2 = Delegate()

    def tear_down(old):
        assert d.calls[:2] == ["should_save", "will_encode"]  # preserved before the tear-down

    def set_up(e2):
        e2.set_delegate(d2)
        e2.add_root(Screen(e2, "Root"))
    before = time.time()  # clock_gettime(CLOCK_REALTIME), the clock the engine stamps with
    _, report = relaunch(e, set_up, tear_down)
    after = time.time()
    assert d.calls[:2] == ["should_save", "will_encode"]
    assert d2.calls == ["will_finish_launching", "should_restore", "did_decode", "did_finish_launching"]  # R9, R13
    assert d2.app["bundleVersion"] == "4.2" and d2.app["interfaceIdiom"] == "desktop"
    assert d2.app["appVersion"] == "1.0" and d2.app["systemVersion"]
    stamp = d2.app["timestamp"].timestamp()
    assert before - 1e-6 <= stamp <= after + 1e-6  # a datetime holds whole microseconds
    assert not report.fresh


def test_r9_fresh_launches_say_why(open_engine):  # R9, R16
    e = open_engine(Delegate())
    assert e.launch().fresh_reason == amber.FreshReason.NO_ARCHIVE
    e.close()
    preserve_tree(open_engine)

    class No(Delegate):
        def should_restore(self, engine, decoder):
            return False
    report = open_engine(No()).launch()
    assert report.fresh_reason == amber.FreshReason.DECLINED and report.message


def test_r10_lookup_order_and_r16_outcomes(open_engine):  # R10, R16
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "Root"))
    declined = root.add_child(Screen(e, "No", restoration_class="Declines"))
    declined.add_child(Screen(e, "Under", {"selectedRow": 4}))
    root.add_child(Screen(e, "Child", {"selectedRow": 1}, restoration_class="Makes"))
    root.add_child(Screen(e, "Lost", {"selectedRow": 2}))
    root.add_child(Screen(e, "Printed", {"selectedRow": 3}, blueprint="Main/Printed"))
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    e2.add_root(Screen(e2, "Root"))
    e2.add_root(Screen(e2, "Under"))
    asked = []

    @e2.register_restoration_class("Declines")
    class Declines:
        @classmethod
        def make(cls, engine, path, decoder):
            asked.append(path)
            return None

    made = {}
    e2.register_restoration_class("Makes", lambda engine, path, decoder: made.setdefault("c", Screen(engine, None)))

    @e2.register_blueprint_factory("Main")
    def factory(engine, blueprint_id, path, decoder):
        assert blueprint_id == "Main/Printed"
        return made.setdefault("p", Screen(engine, None))

    report = e2.launch()
    assert asked == [("Root", "No")]
    assert report.outcome("Root") == amber.Outcome.RESTORED  # step 3, implicit
    assert report.outcome("Root/No") == amber.Outcome.DECLINED_BY_CLASS
    assert report.outcome("Root/No/Under") == amber.Outcome.LEFT_OUT  # nothing under a declined one
    assert report.outcome("Root/Child") == amber.Outcome.RESTORED and made["c"].decoded == {"selectedRow": 1}
    assert report.outcome("Root/Lost") == amber.Outcome.NOT_FOUND
    assert report.outcome("Root/Printed") == amber.Outcome.RESTORED and made["p"].decoded == {"selectedRow": 3}
    lost = [r for r in report if r.path == ("Root", "Lost")][0]
    assert lost.message and lost.object is None and lost.kind == amber.Kind.CONTROLLER


def test_r10_implicit_lookup(open_engine):  # R10 step 3
    preserve_tree(open_engine)
    e = open_engine(Delegate())
    nav = e.add_root(Screen(e, "Nav", stack=True))
    items = nav.add_child(Screen(e, "Items"))
    report = e.launch()
    assert report.restored == [nav, items] and items.decoded == {"selectedRow": 3, "title": "Items"}
    assert items.finished  # R13


def test_r11_class_check(open_engine, relaunch):  # R11, with R33's relaunch
    e = open_engine(Delegate())
    e.add_root(Screen(e, "Root", class_name="Base"))
    e.add_root(Screen(e, "Sub", class_name="Base"))
    made = {}

    def set_up(e2):
        e2.set_delegate(Delegate())
        made["wrong"] = e2.add_root(Screen(e2, "Root", class_name="Other"))
        e2.add_root(Screen(e2, "Sub", class_name="Derived"))
        e2.register_subclass("Derived", "Base")
    _, report = relaunch(e, set_up)
    assert report.outcome("Root") == amber.Outcome.CLASS_MISMATCH and made["wrong"].decoded is None
    assert report.outcome("Sub") == amber.Outcome.RESTORED


def test_r12_secure_decoding_of_references(open_engine):  # R12
    e = open_engine(Delegate())
    other = e.add_root(Screen(e, "Other", class_name="Secret"))
    root = e.add_root(Screen(e, "Root"))
    root.encode_restorable_state = lambda c: c.encode_object("ref", other)
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    e2.add_root(Screen(e2, "Other", class_name="Secret"))
    r = e2.add_root(Screen(e2, "Root"))
    seen = {}

    def decode(d):
        with pytest.raises(TypeError):
            d.decode_object("ref", ["Screen"])
        seen["ok"] = d.decode_object("ref", ["Secret"]).class_name
    r.decode_restorable_state = decode
    e2.launch()
    assert seen["ok"] == "Secret"


def test_r14_archive_discarded_after_restore_and_on_purpose(open_engine, store):  # R14
    preserve_tree(open_engine)
    assert store.data
    e = open_engine(Delegate())
    e.launch()
    assert store.data is None
    e.close()
    preserve_tree(open_engine)
    e = open_engine(Delegate())
    e.discard()
    assert e.launch().fresh_reason == amber.FreshReason.DISCARDED_BY_HOST


def test_r14_crash_loop(open_engine, store):  # R14
    preserve_tree(open_engine)
    store.guard = 2  # two launches in a row died while restoring
    report = open_engine(Delegate()).launch()
    assert report.fresh_reason == amber.FreshReason.CRASH_LOOP and store.data is None


def test_r15_extending_restoration(open_engine, store):  # R15
    preserve_tree(open_engine)
    tokens = []

    class Waits(Delegate):
        def did_decode(self, engine, decoder):
            tokens.append(engine.extend_restoration())
    e = open_engine(Waits())
    with pytest.raises(amber.MisuseError):
        e.extend_restoration()  # R15: outside a restoration
    e.add_root(Screen(e, "Nav"))
    e.launch()
    assert store.data is not None  # kept until completion
    e.complete_restoration(tokens[0])
    assert store.data is None
    with pytest.raises(KeyError):
        e.complete_restoration(tokens[0])


def test_r16_report_text_and_decode_errors(open_engine):  # R16
    preserve_tree(open_engine)
    e = open_engine(Delegate())
    nav = e.add_root(Screen(e, "Nav"))
    items = nav.add_child(Screen(e, "Items"))

    def bad(d):
        d.decode_int("title")  # a TypeError inside the callback
    items.decode_restorable_state = bad
    report = e.launch()
    assert report.outcome("Nav/Items") == amber.Outcome.DECODE_ERROR
    assert [type(error) for error in report.errors] == [amber.TypeMismatchError]
    record = next(r for r in report.records if r.path_string == "Nav/Items")
    assert record.message.endswith("(AMBER_TYPE_MISMATCH): TypeMismatchError: " + report.errors[0].message)
    assert "Nav/Items" in report.text and report.protection


def test_r19_file_store_atomic_owner_only(tmp_path):  # R19, R20
    with amber.Engine("org.example.t", state_directory=str(tmp_path), delegate=Delegate()) as e:
        e.add_root(Screen(e, "Root", {"title": "x"}))
        assert e.preserve()
    for name in ("state.archive", "archive.key"):
        mode = stat.S_IMODE(os.stat(tmp_path / name).st_mode)
        assert mode & 0o077 == 0, (name, oct(mode))
    assert b"Root" not in (tmp_path / "state.archive").read_bytes()  # R20: encrypted
    with amber.Engine("org.example.t", state_directory=str(tmp_path), delegate=Delegate()) as e:
        root = e.add_root(Screen(e, "Root"))
        assert not e.launch().fresh and root.decoded == {"title": "x"}


def test_r28_keep_restoration_report(tmp_path):  # R28: the report kept beside the archive
    report = tmp_path / "last-restore.report"
    with amber.Engine("org.example.t", state_directory=str(tmp_path), delegate=Delegate()) as e:
        e.add_root(Screen(e, "Root", {"title": "a secret title"}))
        assert e.preserve()
    with amber.Engine("org.example.t", state_directory=str(tmp_path), delegate=Delegate(),
                      keep_restoration_report=True) as e:
        e.add_root(Screen(e, "Root"))
        assert not e.launch().fresh
    text = report.read_text()
    lines = text.splitlines()
    assert lines[0] == "amber-restoration-report\t1" and lines[-1] == "end"
    assert "app\torg.example.t" in lines and "result\trestored" in lines
    assert any(line.startswith("record\trestored\t\tcontroller\t") and line.endswith("\tRoot\t0") for line in lines)
    assert "secret" not in text  # like the log, no state values
    assert stat.S_IMODE(os.stat(report).st_mode) == 0o600
    with amber.Engine("org.example.t", state_directory=str(tmp_path), delegate=Delegate(),
                      keep_restoration_report=True) as e:
        assert e.launch().fresh  # the archive was consumed (R14): the report says so
    assert "fresh\tno-archive\t" in report.read_text()


def test_r28_no_report_by_default(tmp_path):  # R28: off by default
    if os.environ.get("AMBER_KEEP_REPORT") == "1":
        pytest.skip("AMBER_KEEP_REPORT=1 keeps every report")
    with amber.Engine("org.example.t", state_directory=str(tmp_path), delegate=Delegate()) as e:
        e.launch()
    assert not (tmp_path / "last-restore.report").exists()


def test_r28_keep_report_environment(tmp_path, monkeypatch):  # R28: AMBER_KEEP_REPORT=1
    monkeypatch.setenv("AMBER_KEEP_REPORT", "1")
    with amber.Engine("org.example.t", state_directory=str(tmp_path), delegate=Delegate()) as e:
        assert e.launch().fresh
    assert "fresh\tno-archive\t" in (tmp_path / "last-restore.report").read_text()


def test_r20_key_provider_unavailable_defers(open_engine, store):  # R20
    key = b"s" * 32
    locked = {"v": False}

    def provider(for_saving):
        return None if locked["v"] else key
    e = open_engine(Delegate(), protection=amber.KeyProvider(provider))
    e.add_root(Screen(e, "Root"))
    e.preserve()
    e.close()
    locked["v"] = True
    report = open_engine(Delegate(), protection=amber.KeyProvider(provider)).launch()
    assert report.fresh_reason == amber.FreshReason.KEY_UNAVAILABLE and store.data is not None
    report = open_engine(Delegate(), protection=amber.FixedKey(b"w" * 32)).launch()
    assert report.fresh_reason == amber.FreshReason.AUTHENTICATION_FAILED


def test_r20_no_encryption_is_explicit(open_engine):  # R20
    e = open_engine(Delegate(), protection=amber.NoEncryption())
    e.add_root(Screen(e, "Root"))
    e.preserve()
    e.close()
    report = open_engine(Delegate(), protection=amber.NoEncryption()).launch()
    assert "not encrypted" in report.protection


def test_r22_bad_input(open_engine, store):  # R22
    preserve_tree(open_engine)
    store.data = store.data[: len(store.data) // 2]
    assert open_engine(Delegate()).launch().fresh_reason in (amber.FreshReason.CORRUPT,
                                                             amber.FreshReason.AUTHENTICATION_FAILED)
    e = open_engine(Delegate())
    with pytest.raises(ValueError):
        e.controller("x\0y")
    with pytest.raises(ValueError):
        amber.Engine("../escape", memory_store=True)
    with pytest.raises(amber.CorruptError):
        amber.Unarchiver(b"not an archive")
    e.add_root(Screen(e, "T", {"x": object()}))
    entry = e.preserve().entry("T")  # R28: the binding's refusal leaves the object out, the rest is saved
    assert entry.left_out == amber.LeftOut.ENCODE_FAILED and isinstance(entry.error, TypeError)
    assert "(AMBER_CALLBACK_FAILED): TypeError: amber: cannot encode object under 'x'" in entry.message


def test_r23_lifecycle(open_engine, store):  # R23
    e = open_engine(Delegate())
    e.add_root(Screen(e, "Root"))
    assert e.state == amber.AppState.NOT_RUNNING
    with pytest.raises(amber.MisuseError):
        e.transition(amber.AppState.ACTIVE)
    e.launch()
    assert e.state == amber.AppState.INACTIVE
    e.transition(amber.AppState.ACTIVE)
    with pytest.raises(amber.MisuseError):
        e.transition(amber.AppState.BACKGROUND)  # two steps, as in UIKit
    e.transition(amber.AppState.INACTIVE)
    assert e.transition(amber.AppState.BACKGROUND) is True and store.data
    assert e.last_preservation.saved and e.last_preservation.entry("Root").preserved  # R28
    e.transition(amber.AppState.SUSPENDED)
    assert amber.app_state_name(e.state) == "suspended"


def test_r24_notifications(open_engine):  # R24
    e = open_engine(Delegate())
    seen = []
    t1 = e.add_observer(lambda n: seen.append(("a", n.name, n.sender is e)), amber.Notifications.DID_BECOME_ACTIVE, e)
    e.add_observer(lambda n: seen.append(("b", n.name, n.user_info)))
    e.launch()
    e.transition(amber.AppState.ACTIVE)
    e.post_notification("Custom", user_info={"n": 1, "s": "x", "f": 0.5, "b": True, "raw": b"\x01"})
    e.remove_observer(t1)
    e.report_memory_warning()
    names = [s[1] for s in seen]
    assert names == [amber.Notifications.DID_FINISH_LAUNCHING, amber.Notifications.DID_BECOME_ACTIVE,
                     amber.Notifications.DID_BECOME_ACTIVE, "Custom", amber.Notifications.DID_RECEIVE_MEMORY_WARNING]
    assert seen[1] == ("a", amber.Notifications.DID_BECOME_ACTIVE, True)  # registration order
    assert seen[3][2] == {"n": 1, "s": "x", "f": 0.5, "b": True, "raw": b"\x01"}
    with pytest.raises(KeyError):
        e.remove_observer(t1)
    e.add_observer(lambda n: 7, "Fails")
    with pytest.raises(amber.AmberError) as info:
        e.post_notification("Fails")
    assert info.value.code == 7


class Item:
    def __init__(self, name, value, other=None):
        self.name, self.value, self.other = name, value, other

    def encode_with_coder(self, a):
        a["name"] = self.name
        a["value"] = self.value
        a.encode_object("other", self.other, "Item")

    @classmethod
    def init_with_coder(cls, u):
        return cls(u.decode_string("name"), u.decode_int("value"))

    def decode_with_coder(self, u):
        self.other = u.decode_object("other", [Item])


def test_r25_r26_keyed_archiver_cycles_and_plistlib(tmp_path):  # R25, R26
    registry = amber.CodingRegistry()
    registry.register("Item", Item)
    a, b = Item("a", 1), Item("b", 2)
    a.other, b.other = b, a  # a cycle
    data = amber.archive([a, b], registry)
    plist = plistlib.loads(data)  # R26: CPython's plistlib reads it
    assert plist["$archiver"] == "NSKeyedArchiver"
    back = amber.unarchive(data, registry, [Item])
    assert [i.name for i in back] == ["a", "b"] and back[0].other is back[1] and back[1].other is back[0]
    path = str(tmp_path / "items.archive")
    with amber.Archiver(registry) as ar:
        ar.encode_object_array("items", [a])
        ar["when"] = dt.datetime(2001, 1, 1, 0, 0, 1, tzinfo=dt.timezone.utc)
        ar.write_file(path)
    with amber.Unarchiver.open(path, registry) as u:
        assert u.decode_object_array("items", ["Item"])[0].name == "a"
        assert u.decode_date("when").second == 1
        with pytest.raises(TypeError):
            u.decode_object_array("items", ["NotAllowed"])  # R12 secure coding


def test_r27_directories_and_atomic_files(tmp_path, monkeypatch):  # R27
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    docs = amber.app_directory("org.example.t", amber.Directory.DOCUMENTS)
    assert docs == str(tmp_path / "data" / "org.example.t") and os.path.isdir(docs)
    path = os.path.join(docs, "f.bin")
    amber.write_file_atomic(path, b"one")
    amber.write_file_atomic(path, b"two")
    assert amber.read_file(path) == b"two" and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with pytest.raises(KeyError):
        amber.read_file(os.path.join(docs, "missing"))


def test_r22_dates_outside_years_1_to_9999(open_engine):  # R22
    """A date no datetime holds is refused by the engine, with a clear error, both ways: read
    from an archive (NaN, an infinity, year 10000), and written (year 1 east of UTC, before
    0001-01-01T00:00:00Z), which leaves its object out."""
    def archive(seconds):
        return plistlib.dumps({
            "$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)},
            "$objects": ["$null", {"$class": plistlib.UID(2), "NS.time": seconds},
                         {"$classname": "NSDate", "$classes": ["NSDate", "NSObject"]}],
        }, fmt=plistlib.FMT_BINARY)
    for seconds, why in [(float("nan"), "not a number"), (float("inf"), "infinite"),
                         (252_423_993_600.0, "outside years 1 to 9999")]:
        with pytest.raises(amber.CorruptError, match=why):
            amber.Unarchiver(archive(seconds)).decode_date("root")
    last = amber.Unarchiver(archive(252_423_993_599.0)).decode_date("root")
    assert last == dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc)

    e = open_engine(Delegate())
    east = dt.timezone(dt.timedelta(hours=2))
    e.add_root(Screen(e, "T", {"when": dt.datetime(1, 1, 1, tzinfo=east)}))
    entry = e.preserve().entry("T")
    assert entry.left_out == amber.LeftOut.ENCODE_FAILED
    assert "outside years 1 to 9999" in entry.message
