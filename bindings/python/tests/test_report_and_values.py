"""The lazy report equals one read at once (R16); Coder.update and Decoder.read round-trip every
value type and refuse what the typed setters refuse (R6, R12); objects and trampolines (R1)."""
import copy
import ctypes
import enum
import gc
import math
import pickle
import threading
import types

import pytest

import amber
from amber import _ffi, objects
from amber.report import Report
from conftest import Delegate, Screen


class Boom(Exception):
    pass


def eager_report(handle, engine):
    """The report read at once, at the launch, record by record through ctypes' own structs
    (without freeing the C report)."""
    lib = _ffi.load()
    objects = engine._objects if engine is not None else {}
    count = lib.amber_report_count(handle)
    rec = _ffi.ReportRecord()
    records = []
    for i in range(count):
        lib.amber_report_record_at(ctypes.byref(rec), handle, i)
        records.append(amber.Record(
            amber.Path([b.decode() for b in rec.path[:rec.path_length]], rec.position),
            ctypes.string_at(rec.class_name).decode(), amber.Kind(rec.kind), amber.Outcome(rec.outcome),
            ctypes.string_at(rec.message).decode(), objects.get(rec.object) if rec.object else None,
            tuple(b.decode() for b in rec.dropped_identifiers[:rec.dropped_count])))
    text = _ffi.Buf()
    lib.amber_report_format(ctypes.byref(text), handle)
    return amber.Report(amber.FreshReason(lib.amber_report_fresh_reason(handle)),
                        lib.amber_report_message(handle).decode(), lib.amber_report_protection(handle).decode(),
                        tuple(records), ctypes.string_at(text.ptr, text.size).decode())


@pytest.fixture
def eager(monkeypatch):
    """Records, for each report a launch makes, the report read at once at the same moment."""
    made = []
    lazy_read = Report.from_c.__func__

    def both(cls, handle, engine=None):
        made.append(eager_report(handle, engine))
        return lazy_read(cls, handle, engine)
    monkeypatch.setattr(Report, "from_c", classmethod(both))
    return made


UNICODE_ID = "Ünïcödé ✓ 𝄞"


class Other(Screen):
    pass


def preserve_every_outcome(open_engine):
    """A tree whose restore meets every outcome: restored (implicit, by class, by blueprint),
    declined, left out under it, not found, class mismatch, decode error; with a non-ASCII
    identifier and identifiers repeated at several depths."""
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "Root", {"selectedRow": 0}))
    root.add_child(Screen(e, "A", {"selectedRow": 1}, restoration_class="Makes"))
    no = root.add_child(Screen(e, "No", restoration_class="Declines"))
    no.add_child(Screen(e, "Under"))
    root.add_child(Screen(e, "Lost"))
    root.add_child(Screen(e, "Wrong", class_name="Base"))
    root.add_child(Screen(e, "Bad", {"selectedRow": 5}))
    uni = root.add_child(Screen(e, UNICODE_ID, {"title": UNICODE_ID}, restoration_class="Makes"))
    a2 = uni.add_child(Screen(e, "A", {"selectedRow": 2}, restoration_class="Makes"))
    a2.add_child(Screen(e, "Root", {"selectedRow": 3}, restoration_class="Makes"))
    root.add_child(Screen(e, "Printed", {"selectedRow": 4}, blueprint="Main/Printed"))
    assert e.preserve()
    e.close()


def launch_every_outcome(open_engine, asked=None):
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "Root"))
    root.add_child(Screen(e, "Wrong", class_name="Other"))
    bad = root.add_child(Screen(e, "Bad"))

    def boom(decoder):
        raise Boom("decode")
    bad.decode_restorable_state = boom

    def makes(engine, path, decoder):
        if asked is not None:
            asked.append(path)
        return Screen(engine, None)
    e.register_restoration_class("Makes", makes)
    e.register_restoration_class("Declines", lambda engine, path, decoder: None)
    e.register_blueprint_factory("Main", lambda engine, bp, path, decoder: Screen(engine, None))
    report = e.launch()  # the decode callback's Boom is Root/Bad's outcome (R12), not raised
    assert [type(error) for error in report.errors] == [Boom]
    return e, report


EXPECTED = {
    ("Root",): amber.Outcome.RESTORED,
    ("Root", "A"): amber.Outcome.RESTORED,
    ("Root", "No"): amber.Outcome.DECLINED_BY_CLASS,
    ("Root", "No", "Under"): amber.Outcome.LEFT_OUT,
    ("Root", "Lost"): amber.Outcome.NOT_FOUND,
    ("Root", "Wrong"): amber.Outcome.CLASS_MISMATCH,
    ("Root", "Bad"): amber.Outcome.DECODE_ERROR,
    ("Root", UNICODE_ID): amber.Outcome.RESTORED,
    ("Root", UNICODE_ID, "A"): amber.Outcome.RESTORED,
    ("Root", UNICODE_ID, "A", "Root"): amber.Outcome.RESTORED,
    ("Root", "Printed"): amber.Outcome.RESTORED,
}


@pytest.mark.parametrize("then", ["nothing", "free", "close"])
def test_r16_lazy_report_equals_the_eager_one(open_engine, eager, then):  # R16
    preserve_every_outcome(open_engine)
    e, report = launch_every_outcome(open_engine)
    assert len(eager) == 1
    assert report._items is None and report._text is None  # nothing read by launch()
    assert len(report) == len(EXPECTED) and report._items is None  # len() reads nothing either
    restored = [r.object for r in eager[0].records if r.object is not None]
    if then == "free":
        restored[1].free()  # what the records name is kept as it was at the launch
        assert not restored[1].alive
    elif then == "close":
        e.close()  # the C report outlives its engine; its records are read before the close
        assert not any(o.alive for o in restored)
    assert report == eager[0]
    assert report.records == eager[0].records and report.text == eager[0].text
    assert all(a.object is b.object for a, b in zip(report.records, eager[0].records))
    assert {r.path: r.outcome for r in report} == EXPECTED
    assert str(report) == eager[0].text and repr(report) == repr(eager[0])
    assert hash(report) == hash(eager[0])
    assert report.restored == eager[0].restored and len(report.restored) == 6
    assert report.outcome(("Root", UNICODE_ID, "A", "Root")) == amber.Outcome.RESTORED
    assert report._source is None  # both read: the C report is freed


def test_r3_paths_given_to_callbacks_and_in_the_report_are_each_nodes_own(open_engine):  # R3, R10, R16
    preserve_every_outcome(open_engine)
    asked = []
    e, report = launch_every_outcome(open_engine, asked)
    assert asked == [("Root", "A"), ("Root", UNICODE_ID), ("Root", UNICODE_ID, "A"),
                     ("Root", UNICODE_ID, "A", "Root")]
    for r in report:
        assert isinstance(r.path, amber.Path) and all(type(p) is str for p in r.path)
        if r.object is not None:
            assert r.object.path_string == r.path_string  # the object's own path, from Amber
            assert tuple(r.object.path) == tuple(r.path)
    by_path = {r.path: r.object for r in report}
    assert by_path[("Root", UNICODE_ID)].decoded == {"title": UNICODE_ID}
    assert by_path[("Root", UNICODE_ID, "A")].decoded == {"selectedRow": 2}
    assert by_path[("Root", UNICODE_ID, "A", "Root")].decoded == {"selectedRow": 3}
    assert by_path[("Root", "A")].decoded == {"selectedRow": 1}


def test_r16_report_read_on_another_thread_after_close(open_engine, eager):  # R16
    preserve_every_outcome(open_engine)
    e, report = launch_every_outcome(open_engine)
    e.close()
    seen = []

    def read():
        seen.append((report.records, report.text))
    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 4 and all(s[0] is seen[0][0] and s[1] == eager[0].text for s in seen)
    assert report == eager[0]


def test_r16_report_frees_its_c_report(open_engine):  # R16
    preserve_every_outcome(open_engine)
    e, report = launch_every_outcome(open_engine)
    free = report._source.free
    assert free.alive
    del report
    gc.collect()
    assert not free.alive  # collected: amber_report_free ran
    preserve_every_outcome(open_engine)
    e, report = launch_every_outcome(open_engine)
    free = report._source.free
    report.close()
    assert not free.alive and len(report.records) == len(EXPECTED) and report.text
    report.close()  # harmless twice


def test_r9_r16_fresh_report_copies_and_pickles(open_engine):  # R9, R16
    report = open_engine(Delegate()).launch()
    assert report.fresh and report.fresh_reason == amber.FreshReason.NO_ARCHIVE and len(report) == 0
    assert copy.copy(report) == report and copy.deepcopy(report) == report
    back = pickle.loads(pickle.dumps(report))
    assert back == report and back.records == () and back.text == report.text
    assert isinstance(back, amber.Report) and back._source is None
    with pytest.raises(AttributeError):
        report.nothing_like_this  # noqa: B018
    eager = amber.Report(report.fresh_reason, report.message, report.protection, (), report.text)
    assert eager == report and len(eager) == 0


class Values(amber.Controller):
    """Writes ``values`` with update() or with the typed setters, reads them back with read()."""
    values: dict = {}
    how = "update"
    schema: dict = {}
    read_back = None

    def encode_restorable_state(self, coder):
        if self.how == "update":
            coder.update(self.values)
        elif self.how == "mapping":
            coder.update(types.MappingProxyType(self.values))
        else:
            for key, value in self.values.items():
                coder[key] = value

    def decode_restorable_state(self, decoder):
        self.read_back = decoder.read(self.schema)
        assert decoder.read(self.schema) == self.read_back  # the cached array reused: same values again
        self.typed = {k: decoder[k] for k in self.schema if k in decoder}


class Level(enum.IntEnum):
    HIGH = 7


VALUES = {"int": -(1 << 63), "max": (1 << 63) - 1, "yes": True, "no": False, "one": 1, "zero": 0,
          "float": 2.5, "inf": math.inf, "text": "héllo ✓ 𝄞", "empty": "", "level": Level.HIGH,
          "sub": type("S", (str,), {})("subclass"), "bytes": b"\x00\x01", "path": amber.IndexPath(1, 2)}
SCHEMA = {"int": int, "max": int, "yes": bool, "no": bool, "one": int, "zero": int, "float": float, "inf": float,
          "text": str, "empty": str, "level": int, "sub": str, "bytes": bytes, "path": amber.IndexPath,
          "missing": int}


@pytest.mark.parametrize("how", ["update", "mapping", "setitem"])
def test_r6_r12_update_and_read_round_trip(open_engine, how):  # R6, R12
    e = open_engine(Delegate())
    obj = e.add_root(Values(e, "Root"))
    obj.values, obj.how = VALUES, how
    assert e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    back = e2.add_root(Values(e2, "Root"))
    back.schema = SCHEMA
    e2.launch()
    expected = {k: v for k, v in VALUES.items()}
    assert back.read_back == expected and "missing" not in back.read_back
    assert [type(back.read_back[k]) for k in ("yes", "one", "float", "text", "level", "sub")] == \
        [bool, int, float, str, int, str]
    assert back.typed["yes"] is True and back.typed["one"] == 1 and type(back.typed["one"]) is int


@pytest.mark.parametrize("value, error", [(1 << 63, OverflowError), (-(1 << 63) - 1, OverflowError),
                                          ("a\0b", amber.InvalidArgumentError), ("\udc80", amber.InvalidArgumentError),
                                          (object(), TypeError), ([1], TypeError)])
def test_r6_update_refuses_what_the_typed_setters_refuse(open_engine, value, error):  # R6
    for how in ("update", "setter"):
        e = open_engine(Delegate())

        def encode(obj, coder, how=how):
            if how == "update":
                coder.update({"ok": 1, "bad": value})
            elif isinstance(value, int):
                coder.encode_int("bad", value)
            elif isinstance(value, str):
                coder.encode_string("bad", value)
            else:
                coder["bad"] = value
        e.add_root(amber.Controller(e, "Root", encode=encode))
        entry = e.preserve().entry("Root")  # R28: left out, the exception on its entry
        assert entry.left_out == amber.LeftOut.ENCODE_FAILED and isinstance(entry.error, error), entry


def test_r12_read_type_mismatch_and_misuse(open_engine):  # R12
    e = open_engine(Delegate())
    e.add_root(Values(e, "Root")).values = {"n": 3, "s": "x"}
    assert e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    kept = {}

    def decode(obj, decoder):
        with pytest.raises(amber.TypeMismatchError):
            decoder.read({"n": str})
        with pytest.raises(TypeError):
            decoder.read({"s": float})
        assert decoder.read({"n": int, "s": str}) == {"n": 3, "s": "x"}  # still works after the errors
        kept["decoder"] = decoder
    e2.add_root(amber.Controller(e2, "Root", class_name="Values", decode=decode))
    report = e2.launch()
    assert report.outcome("Root") == amber.Outcome.RESTORED
    with pytest.raises(amber.AmberError):
        kept["decoder"].read({"n": int})  # a decoder kept past its callback is refused, not a crash


def test_reads_on_threads_do_not_share_cells(open_engine):  # R12
    """Each thread's Decoder.read has its own out cells: engines on two threads at once."""
    errors = []

    def work(n):
        try:
            store = amber.MemoryStore()
            for round_ in range(20):
                with amber.Engine(f"org.c{n}", store=store, delegate=Delegate(),
                                  protection=amber.FixedKey(bytes([n]) * 32)) as e:
                    root = e.add_root(Values(e, "Root"))
                    root.values = {"n": n * 1000 + round_, "s": f"s{n}-{round_}", "f": n + round_ / 10}
                    for i in range(30):
                        child = root.add_child(Values(e, f"C{i}"))
                        child.values = {"n": i, "s": f"c{n}-{i}", "f": i / 2}
                    assert e.preserve()
                with amber.Engine(f"org.c{n}", store=store, delegate=Delegate(),
                                  protection=amber.FixedKey(bytes([n]) * 32)) as e:
                    schema = {"n": int, "s": str, "f": float}
                    root = e.add_root(Values(e, "Root"))
                    root.schema = schema
                    children = [root.add_child(Values(e, f"C{i}")) for i in range(30)]
                    for c in children:
                        c.schema = schema
                    report = e.launch()
                    assert root.read_back == {"n": n * 1000 + round_, "s": f"s{n}-{round_}", "f": n + round_ / 10}
                    assert [c.read_back for c in children] == \
                        [{"n": i, "s": f"c{n}-{i}", "f": i / 2} for i in range(30)]
                    assert len(report.restored) == 31
        except BaseException as error:  # pragma: no cover - reported below
            errors.append((n, error))
    threads = [threading.Thread(target=work, args=(n,)) for n in range(1, 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_r1_object_creation_errors_leave_nothing_registered(open_engine):  # R1
    e = open_engine(Delegate())
    before = (dict(e._keep), dict(e._objects), dict(_ffi._contexts))
    with pytest.raises(ValueError):
        Screen(e, "a\0b")
    with pytest.raises(TypeError):
        Screen(e, "X", class_name=3)
    assert (e._keep, e._objects, _ffi._contexts) == before
    e.close()
    with pytest.raises(amber.MisuseError):
        Screen(e, "Late")
    e2 = open_engine(Delegate())
    obj = Screen(e2, "Root", kind=amber.Kind.VIEW)
    assert obj.object_kind == amber.Kind.VIEW and obj.class_name == "Screen" and obj.identifier == "Root"


def test_every_trampoline_stays_alive():  # R1
    """The CFUNCTYPE objects C calls are module globals of _ffi, alive as long as the module."""
    trampolines = [_ffi.T_ENCODE, _ffi.T_DECODE, _ffi.T_FINISHED, _ffi.T_CLASS_MAKE, _ffi.T_BLUEPRINT_MAKE,
                   _ffi.CTX_FREE, _ffi.T_OBSERVER, _ffi.T_KEY, _ffi.T_LOG, *_ffi.T_DELEGATE.values(), *_ffi.T_STORE,
                   *_ffi.T_CODING, *_ffi.T_VIEW, *_ffi.T_MODEL]
    assert all(isinstance(t, ctypes._CFuncPtr) for t in trampolines)
    for struct in objects._CALLBACKS.values():
        assert isinstance(struct, _ffi.ObjectCallbacks)


def test_status_functions_raise_and_others_return_their_value():
    """One errcheck on every function that returns a status; none on the others."""
    lib = _ffi.load()
    for proto in _ffi.FUNCTIONS:
        fn = getattr(lib, proto.name)
        assert fn.argtypes == list(proto.argtypes) or tuple(fn.argtypes) == proto.argtypes, proto.name
        assert (getattr(fn, "errcheck", None) is _ffi._check) == proto.status, proto.name
    with pytest.raises(amber.InvalidArgumentError) as info:
        lib.amber_engine_add_root(None, None)
    assert info.value.code == 1 and info.value.status == "AMBER_INVALID_ARGUMENT" and info.value.message
    assert lib.amber_app_state_string(2) == b"active"


def test_r3_path_from_c_equals_path():  # R3
    """Path.from_c (what callbacks and reports are given) skips Path()'s checks of each
    identifier: its result is the Path() of the same identifiers and position."""
    from amber.values import Path
    assert Path.from_c([b"nav", b"A"], 0) == Path(("nav", "A")) and Path.from_c([], 0) == Path()
    made = Path.from_c([b"nav", "\u00e9".encode()], 2)
    assert made == Path(("nav", "\u00e9"), 2) and made.position == 2 and all(type(i) is str for i in made)
    assert Path.from_c([b"\xff"], 0) == Path(("\udcff",))  # not UTF-8: surrogateescape
    assert Path(("a",)).position == 0 and hash(Path.from_c([b"a"], 0)) == hash(("a",))
    with pytest.raises(ValueError):
        Path(("a",), -1)
