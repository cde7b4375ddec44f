"""The binding itself: exceptions in every kind of callback, lifetimes, threads, the loader."""
import gc
import os
import subprocess
import sys
import threading
import traceback
from typing import List, Set

import pytest

import amber
from amber import _ffi
from conftest import Delegate, Screen


class Boom(Exception):
    pass


def raiser(*args, **kw):
    raise Boom("from a callback")


def frames(error):
    return [f.name for f in traceback.extract_tb(error.__traceback__)]


def saved_tree(open_engine):
    e = open_engine(Delegate())
    e.add_root(Screen(e, "Root", {"selectedRow": 1}))
    assert e.preserve()
    e.close()


@pytest.mark.parametrize("method", ["should_save", "will_encode"])
def test_exception_in_preserving_delegate_methods(open_engine, store, method):
    d = Delegate()
    setattr(d, method, raiser)
    e = open_engine(d)
    e.add_root(Screen(e, "Root"))
    with pytest.raises(Boom) as info:
        e.preserve()
    assert "raiser" in frames(info.value) and store.data is None  # with its traceback; nothing saved


def test_exception_in_encode(open_engine, store, caplog):  # R28
    """An encode callback that raises leaves its object out, with what is under it; the rest is
    saved, and the exception is on the report's entry, not raised."""
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "Root"))
    root.add_child(Screen(e, "Child"))
    e.add_root(Screen(e, "Other"))
    root.encode_restorable_state = raiser
    report = e.preserve()
    assert report.saved and store.data is not None and [x.path for x in report.preserved] == [("Other",)]
    entry = report.entry("Root")
    assert entry.left_out == amber.LeftOut.ENCODE_FAILED and isinstance(entry.error, Boom)
    assert "raiser" in frames(entry.error)  # with its traceback
    assert entry.message == ("its encode callback failed: the encode callback of 'Screen' returned 12 "
                             "(AMBER_CALLBACK_FAILED): Boom: from a callback")
    assert report.errors == [entry.error] and report.entry("Root/Child").left_out == amber.LeftOut.UNDER_LEFT_OUT
    assert e.last_preservation is report
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == ["preserve: left out /Root (Screen): its encode callback raised Boom; the rest is saved"]


def test_exception_in_encode_with_a_failing_store(open_engine):  # R28
    """When the save itself fails, its own cause is raised first, the encode callback's noted."""
    class BadStore(amber.MemoryStore):
        def write(self, data):
            raise OSError("disk full")
    e = open_engine(Delegate(), store=BadStore())
    e.add_root(Screen(e, "Root")).encode_restorable_state = raiser
    e.add_root(Screen(e, "Other"))
    with pytest.raises(OSError, match="disk full") as info:
        e.preserve()
    assert info.value.amber_preservation.not_saved == amber.NotSaved.FAILED


@pytest.mark.parametrize("method", ["should_restore", "did_decode", "object_for_path", "will_finish_launching",
                                    "did_finish_launching"])
def test_r16_exception_in_launch_delegate_methods_is_reported(open_engine, method, caplog):  # R16
    """launch() returns its report as C's does: a delegate method that raised is on
    ``report.errors`` (with its traceback), named in the report's message where C notes a
    failing callback (did_decode, object_for_path), and in a warning; it is not raised."""
    saved_tree(open_engine)
    d = Delegate()
    setattr(d, method, raiser)
    e = open_engine(d)
    report = e.launch()
    assert len(report.errors) == 1 and isinstance(report.errors[0], Boom)
    assert "raiser" in frames(report.errors[0])
    if method in ("did_decode", "object_for_path"):
        assert "Boom: from a callback" in report.message
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == ["launch: a callback raised Boom (reported, not raised: see the report's errors)"]


def test_r16_launch_raises_callback_errors_when_asked(open_engine):  # R16
    """``launch(raise_errors=True)``, for tests: the first exception is raised once the launch
    completes, with the report on it."""
    saved_tree(open_engine)
    e = open_engine(Delegate())
    e.add_root(Screen(e, "Root")).decode_restorable_state = raiser
    with pytest.raises(Boom) as info:
        e.launch(raise_errors=True)
    assert "raiser" in frames(info.value)
    assert info.value.amber_report.outcome("Root") == amber.Outcome.DECODE_ERROR


@pytest.mark.parametrize("where", ["decode", "restoration_class", "blueprint"])
def test_r12_exception_in_a_record_callback_is_its_outcome(open_engine, where):  # R12, R10
    """An exception of a decode callback, a restoration class's make or a blueprint factory is
    its record's outcome, DECODE_ERROR, with the exception's type and text in the record's
    message (through the C API: the callback's code is followed by the message it set); the
    launch goes on and returns its report."""
    e = open_engine(Delegate())
    e.add_root(Screen(e, "Root", {"selectedRow": 1}, restoration_class="Cls" if where == "restoration_class" else None,
                      blueprint="BP" if where == "blueprint" else None))
    e.add_root(Screen(e, "Other", {"selectedRow": 2}))
    e.preserve()
    e.close()
    e2 = open_engine(Delegate())
    if where == "decode":
        e2.add_root(Screen(e2, "Root")).decode_restorable_state = raiser
    elif where == "restoration_class":
        e2.register_restoration_class("Cls", raiser)
    else:
        e2.register_blueprint_factory("BP", raiser)
    other = e2.add_root(Screen(e2, "Other"))
    report = e2.launch()
    record = next(r for r in report.records if r.path_string == "Root")
    assert record.outcome == amber.Outcome.DECODE_ERROR
    assert record.message.endswith("returned 12 (AMBER_CALLBACK_FAILED): Boom: from a callback"), record.message
    assert report.outcome("Other") == amber.Outcome.RESTORED and other.decoded == {"selectedRow": 2}
    assert [type(error) for error in report.errors] == [Boom] and "raiser" in frames(report.errors[0])


def test_r13_exception_in_finished_restoring_is_reported(open_engine):  # R13
    saved_tree(open_engine)
    e = open_engine(Delegate())
    e.add_root(Screen(e, "Root")).application_finished_restoring = raiser
    report = e.launch()
    assert report.outcome("Root") == amber.Outcome.RESTORED
    assert [type(error) for error in report.errors] == [Boom]


def test_r12_amber_error_keeps_its_code_and_message(open_engine):  # R12
    """An AmberError raised by a decode callback gives Amber its own code, and its message."""
    saved_tree(open_engine)
    e = open_engine(Delegate())

    def fails(decoder):
        raise amber.CorruptError("row 7 is gone")
    e.add_root(Screen(e, "Root")).decode_restorable_state = fails
    record = e.launch().records[0]
    assert record.outcome == amber.Outcome.DECODE_ERROR
    assert record.message.endswith("returned 7 (AMBER_CORRUPT): CorruptError: row 7 is gone"), record.message


@pytest.mark.parametrize("code", [2**32, 2**32 + 3, 2**31, -2**40, -1, 0])
def test_r12_a_code_out_of_range_is_callback_failed(open_engine, code):  # R12
    """A code a callback raises that C cannot carry (not 1 to 2**31-1) is AMBER_CALLBACK_FAILED,
    never truncated: 2**32 would reach Amber as 0, success."""
    saved_tree(open_engine)
    e = open_engine(Delegate())

    def fails(decoder):
        raise amber.AmberError("half read", code=code)
    e.add_root(Screen(e, "Root")).decode_restorable_state = fails
    record = e.launch().records[0]
    assert record.outcome == amber.Outcome.DECODE_ERROR
    assert "returned 12 (AMBER_CALLBACK_FAILED): AmberError: half read" in record.message, record.message


@pytest.mark.parametrize("code", [2**32, 2**32 + 3, 2**31, -2**40])
def test_r24_an_observers_code_out_of_range_is_callback_failed(open_engine, code):  # R24
    e = open_engine(Delegate())
    e.add_observer(lambda note: code, "X")
    with pytest.raises(amber.CallbackFailedError) as info:
        e.post_notification("X")
    assert info.value.code == 12  # AMBER_CALLBACK_FAILED


def test_exception_in_observer_and_store_and_key_provider(open_engine, store):
    e = open_engine(Delegate())
    e.add_observer(raiser, "X")
    with pytest.raises(Boom):
        e.post_notification("X")

    class BadStore(amber.MemoryStore):
        write = raiser
    e = open_engine(Delegate(), store=BadStore())
    e.add_root(Screen(e, "Root"))
    with pytest.raises(Boom):
        e.preserve()
    e = open_engine(Delegate(), protection=amber.KeyProvider(raiser))
    e.add_root(Screen(e, "Root"))
    with pytest.raises(Boom):
        e.preserve()


def test_exception_in_coding_callbacks():
    class Bad:
        def encode_with_coder(self, a):
            raise Boom("encode")

        @classmethod
        def init_with_coder(cls, u):
            raise Boom("make")
    reg = amber.CodingRegistry()
    reg.register("Bad", Bad)
    with pytest.raises(Boom, match="encode"):
        amber.archive(Bad(), reg)

    class Good(Bad):
        def encode_with_coder(self, a):
            a["x"] = 1
    reg.register("Good", Good, superclass="Bad")
    data = amber.archive(Good(), reg)
    with pytest.raises(Boom, match="make"):
        amber.unarchive(data, reg)


def test_keyboard_interrupt_is_not_swallowed(open_engine):
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "Root"))

    def interrupt(coder):
        raise KeyboardInterrupt
    root.encode_restorable_state = interrupt
    with pytest.raises(KeyboardInterrupt) as info:
        e.preserve()  # re-raised once the preservation is done (R28: the object left out)
    assert info.value.amber_preservation.entry("Root").left_out == amber.LeftOut.ENCODE_FAILED
    root.encode_restorable_state = lambda c: None
    assert e.preserve()  # the engine still works


def test_gc_while_engine_runs(open_engine):
    e = open_engine(Delegate())
    root = e.add_root(Screen(e, "Root", {"selectedRow": 5}))
    for i in range(50):  # objects nobody in Python references: the engine keeps them
        root.add_child(Screen(e, f"C{i}", {"selectedRow": i}))
    e.register_restoration_class("Tmp", lambda engine, path, decoder: None)
    e.add_observer(lambda n: None)
    e.set_delegate(Delegate())  # the previous delegate's context is freed, the new one kept
    del root
    gc.collect()
    assert e.preserve()
    e.close()
    e2 = open_engine(Delegate())

    def make(engine, path, decoder):
        gc.collect()  # inside a callback, in the middle of a restoration
        return Screen(engine, None)
    e2.register_restoration_class("R", make)

    class D(Delegate):
        def object_for_path(self, engine, path, decoder):
            gc.collect()
            return Screen(engine, None)  # referenced only by the engine
    e2.set_delegate(D())
    report = e2.launch()
    gc.collect()
    assert len(report.restored) == 51 and report.restored[-1].decoded == {"selectedRow": 49}


def test_unreferenced_engine_is_collected_and_closed():
    e = amber.Engine("org.example.gc", memory_store=True, delegate=Delegate())
    obj = e.add_root(Screen(e, "Root"))
    ref = __import__("weakref").ref(e)
    del e, obj
    gc.collect()
    assert ref() is None


def test_closed_handles_are_errors_not_crashes(open_engine):
    e = open_engine(Delegate())
    obj = Screen(e, "Root")
    obj.free()
    with pytest.raises(amber.MisuseError):
        e.add_root(obj)
    e.close()
    e.close()
    with pytest.raises(amber.MisuseError):
        e.preserve()
    keep = {}
    e2 = open_engine(Delegate())
    root = e2.add_root(Screen(e2, "Root"))
    root.encode_restorable_state = lambda c: keep.setdefault("coder", c)
    e2.preserve()
    with pytest.raises(amber.AmberError):
        keep["coder"]["late"] = 1  # a coder kept past its callback


def test_errors_carry_code_and_message(open_engine):
    e = open_engine(Delegate())
    with pytest.raises(amber.DuplicateError) as info:
        e.register_subclass("A", "B")
        e.register_subclass("A", "C")
    assert info.value.code == 5 and info.value.status == "AMBER_DUPLICATE" and info.value.message
    with pytest.raises(KeyError):
        e.remove_root(Screen(e, "X"))


def test_threads_with_separate_engines(tmp_path):
    errors = []

    def work(n):
        try:
            store = amber.MemoryStore()
            for round_ in range(5):
                with amber.Engine(f"org.t{n}", store=store, delegate=Delegate(),
                                  protection=amber.FixedKey(bytes([n]) * 32)) as e:
                    root = e.add_root(Screen(e, "Root", {"selectedRow": n * 100 + round_}))
                    for i in range(20):
                        root.add_child(Screen(e, f"C{i}", {"selectedRow": i}))
                    assert e.preserve()
                with amber.Engine(f"org.t{n}", store=store, delegate=Delegate(),
                                  protection=amber.FixedKey(bytes([n]) * 32)) as e:
                    root = e.add_root(Screen(e, "Root"))
                    e.add_observer(lambda note: None)
                    report = e.launch()
                    assert root.decoded == {"selectedRow": n * 100 + round_}, (n, root.decoded)
                    assert report.outcome("Root") == amber.Outcome.RESTORED
                    # an exception in one thread's callback stays in that thread (on its report)
                    root.encode_restorable_state = raiser
                    errors_seen = e.preserve().errors
                    assert len(errors_seen) == 1 and isinstance(errors_seen[0], Boom), errors_seen
        except BaseException as error:  # pragma: no cover - reported below
            errors.append((n, error))
    threads = [threading.Thread(target=work, args=(n,)) for n in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


LOADER = """
import sys; sys.path.insert(0, {pkg!r})
import amber
try:
    print(amber.library_path())
except amber.LibraryNotFound as e:
    print("ERROR", e)
if "ctypes.util" in sys.modules:
    print("(the system search path was asked)")
"""
ASKED_THE_SYSTEM = "\n(the system search path was asked)"


def run_loader(env, pkg):
    out = subprocess.run([sys.executable, "-c", LOADER.format(pkg=pkg)], env=env, capture_output=True, text=True,
                         timeout=60)
    return out.stdout.strip()


def test_loader_search_order(tmp_path):
    import shutil
    pkg_dir = os.path.dirname(os.path.dirname(os.path.abspath(amber.__file__)))
    real = amber.library_path()
    env = {k: v for k, v in os.environ.items() if k not in ("AMBER_LIBRARY", "LD_LIBRARY_PATH")}
    # 1. AMBER_LIBRARY wins over the copy in the package
    other = tmp_path / "elsewhere" / "libamber.so"
    other.parent.mkdir()
    shutil.copy(real, other)
    assert run_loader(dict(env, AMBER_LIBRARY=str(other)), pkg_dir) == str(other)
    # ... and a missing file there is an error that says how to fix it (no silent fallback)
    out = run_loader(dict(env, AMBER_LIBRARY=str(tmp_path / "nope.so")), pkg_dir)
    assert out.startswith("ERROR") and "not a file" in out and "scripts/build-lib.sh" in out and "wheel" in out
    # 2. without it, the copy inside the package
    copy = tmp_path / "pkg"
    shutil.copytree(os.path.join(pkg_dir, "amber"), copy / "amber", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(real, copy / "amber" / "libamber.so")
    # (ctypes.util.find_library, which runs ldconfig and the compiler, is not asked then: the
    # loader tries the places in order and stops at the first library that loads)
    assert run_loader(env, str(copy)) == str(copy / "amber" / "libamber.so")
    # 3. without a copy in the package, a source tree's build (.build-lib/lib beside bindings/python)
    os.remove(copy / "amber" / "libamber.so")
    tree = tmp_path / "tree"
    shutil.copytree(copy / "amber", tree / "bindings" / "python" / "amber")
    (tree / ".build-lib" / "lib").mkdir(parents=True)
    shutil.copy(real, tree / ".build-lib" / "lib" / "libamber.so")
    assert run_loader(env, str(tree / "bindings" / "python")) == str(tree / ".build-lib" / "lib" / "libamber.so")
    # 4. without any of them, the system search path (LD_LIBRARY_PATH here), laid out as
    #    `make install` lays it out: the SONAME file and the development link
    system = tmp_path / "system"
    system.mkdir()
    shutil.copy(real, system / "libamber.so.0")
    os.symlink("libamber.so.0", system / "libamber.so")
    assert run_loader(dict(env, LD_LIBRARY_PATH=str(system)), str(copy)) == "libamber.so.0" + ASKED_THE_SYSTEM
    out = run_loader(env, str(copy))
    assert out.startswith("ERROR") and "AMBER_LIBRARY" in out and out.endswith(ASKED_THE_SYSTEM)


IMPORTED = """
import sys; sys.path.insert(0, {pkg!r})
before = set(sys.modules)
import amber
print(" ".join(sorted(set(sys.modules) - before)))
{then}
"""
OPEN_AN_ENGINE = """
before = set(sys.modules)
with amber.Engine("org.example.imports", memory_store=True) as engine:
    engine.launch()
print(" ".join(sorted(set(sys.modules) - before)))
"""


def modules_imported(then: str = "") -> List[Set[str]]:
    """The modules a new process imports for ``import amber``, then for ``then``'s code (with
    AMBER_LIBRARY set, as it is for the tests), each printing what it added."""
    pkg_dir = os.path.dirname(os.path.dirname(os.path.abspath(amber.__file__)))
    env = dict(os.environ, AMBER_LIBRARY=amber.library_path())
    out = subprocess.run([sys.executable, "-c", IMPORTED.format(pkg=pkg_dir, then=then)], capture_output=True,
                         text=True, timeout=60, check=True, env=env)
    return [set(line.split()) for line in out.stdout.splitlines()]


def test_import_leaves_out_what_only_the_library_needs():
    """``import amber`` does not import what only loading the library or logging needs: logging
    (with traceback, string, textwrap), ctypes.util (with subprocess) and pathlib were a third
    of the package's import time, and dataclasses (with inspect, ast, dis) most of the rest;
    datetime is imported by the first date read (issue 40, item 6)."""
    imported, = modules_imported()
    assert "amber.engine" in imported
    left_out = {"logging", "ctypes.util", "subprocess", "pathlib", "dataclasses", "inspect", "datetime"}
    assert imported.isdisjoint(left_out), sorted(imported & left_out)


USE_THE_LAZY_NAMES = """
before = set(sys.modules)
print(amber.testing.relaunch.__module__, amber.Notification.__module__, amber.read_file.__module__)
print(" ".join(sorted(set(sys.modules) - before)))
"""


def test_import_leaves_testing_and_app_to_their_first_use():
    """``import amber`` does not import amber.testing (a test harness, R33) nor amber.app
    (notifications, app directories), which restoring an interface never uses and a Tk program
    would pay for before its first frame (issue 40, item 6); their names are the package's all the
    same, imported when first asked for (PEP 562), and listed by dir()."""
    imported, used, added = modules_imported(then=USE_THE_LAZY_NAMES)
    assert "amber.engine" in imported
    assert imported.isdisjoint({"amber.testing", "amber.app"}), sorted(imported)
    assert used == {"amber.testing", "amber.app"}  # the names, from their own modules
    assert {"amber.testing", "amber.app"} <= added
    assert {"testing", "Notification", "Directory", "app_directory", "write_file_atomic"} <= set(dir(amber))
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        amber.no_such_name  # noqa: B018


def test_import_leaves_importlib_to_the_names_imported_on_first_use():
    """``import amber`` does not import importlib where nothing has (a venv's interpreter, or
    ``python -S`` as here, since this interpreter's site may have imported it); the names
    imported on first use import it."""
    pkg_dir = os.path.dirname(os.path.dirname(os.path.abspath(amber.__file__)))
    code = ("import sys; sys.path.insert(0, {pkg!r}); import amber; print('importlib' in sys.modules); "
            "amber.testing; print('importlib' in sys.modules)").format(pkg=pkg_dir)
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=60, check=True,
                         env=dict(os.environ, AMBER_LIBRARY=amber.library_path()))
    assert out.stdout.split() == ["False", "True"]


def test_opening_an_engine_imports_neither_logging_nor_the_library_search():
    """Loading the library at $AMBER_LIBRARY and opening an engine import neither ctypes.util
    (the system search, only when the variable is unset) nor logging (the log level of a
    program that never configured logging is WARNING: logging is imported for the first line
    the engine logs)."""
    _, opened = modules_imported(then=OPEN_AN_ENGINE)
    assert opened.isdisjoint({"logging", "ctypes.util", "subprocess"}), sorted(opened)


def test_loader_checks_major_version(monkeypatch):
    monkeypatch.setattr(_ffi, "ABI_MAJOR", 99)
    with pytest.raises(amber.LibraryNotFound, match="needs major version 99"):
        _ffi.Library(amber.library_path(), "test")


def test_loader_refuses_a_library_without_a_function_it_declares(monkeypatch):
    """An older libamber.so of the same version number (the report record's `position` and the
    functions of issue 25 came without a version bump) is refused, not half used."""
    import ctypes
    monkeypatch.setattr(_ffi, "FUNCTIONS", _ffi.FUNCTIONS + (_ffi.status("amber_no_such_function"),))
    with pytest.raises(amber.LibraryNotFound, match="has no amber_no_such_function: it is older than this binding"):
        _ffi.Library(amber.library_path(), "test")


def test_loader_declares_each_function_on_first_use():
    """The library's functions are declared when first called (issue 40, item 6: a Tk program
    calls about a fifth of them before its first frame), each once, as its prototype says; the
    symbols were all looked up at load (the test above)."""
    lib = _ffi.Library(amber.library_path(), "test")
    assert [name for name in vars(lib) if name.startswith("amber_")] == ["amber_version_number"]  # its check
    fn = lib.amber_status_string
    assert vars(lib)["amber_status_string"] is fn and lib.amber_status_string is fn
    assert fn.restype is _ffi.PROTOTYPES["amber_status_string"].restype and fn(1) == b"AMBER_INVALID_ARGUMENT"
    with pytest.raises(amber.InvalidArgumentError):  # a status function: its errcheck raises
        lib.amber_engine_add_root(None, None)
    with pytest.raises(AttributeError, match="no function 'amber_no_such_function'"):
        lib.amber_no_such_function  # noqa: B018


def test_struct_layouts_match_the_library(open_engine):  # R3, R10, R16, R28
    """The C calls that fill a struct write no byte past the binding's ctypes Structure (the
    report record's `position` was added last: a struct without it would be overwritten)."""
    import ctypes
    canary = b"\xa5" * 64

    def filled(struct_type, fill):
        size = ctypes.sizeof(struct_type)
        buffer = ctypes.create_string_buffer(b"\0" * size + canary, size + len(canary))
        assert fill(ctypes.cast(buffer, ctypes.POINTER(struct_type))) == 0
        assert buffer.raw[size:size + len(canary)] == canary, struct_type.__name__
        return struct_type.from_buffer_copy(buffer.raw[:size])

    lib = _ffi.load()
    e = open_engine(Delegate())
    nav = e.add_root(Screen(e, "Nav", stack=True))
    for _ in range(2):
        nav.add_child(Screen(e, "Item", restoration_class="Items"))
    e.preserve()
    handle = _ffi.PreservationP()
    assert lib.amber_engine_preservation(ctypes.byref(handle), e._h) == 0
    try:
        entry = filled(_ffi.PreservationEntry, lambda p: lib.amber_preservation_entry_at(p, handle, 2))
        assert (entry.path_length, entry.position, entry.left_out) == (2, 1, 0)
    finally:
        lib.amber_preservation_free(handle)
    e.close()
    e2 = open_engine(Delegate())
    e2.add_root(Screen(e2, "Nav", stack=True))
    infos = []

    def make(engine, path, decoder):
        infos.append(filled(_ffi.RecordInfo, lambda p: lib.amber_decoder_record(p, decoder._h)).position)
        return Screen(engine, path[-1])
    e2.register_restoration_class("Items", make)
    report = e2.launch()
    assert infos == [0, 1]
    record = filled(_ffi.ReportRecord, lambda p: lib.amber_report_record_at(p, report._source.handle, 2))
    assert (record.path_length, record.position, record.outcome) == (2, 1, 0)
