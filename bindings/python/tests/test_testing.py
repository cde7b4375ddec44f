"""amber.testing (amber/testing.h): R33, the kill and relaunch of a program in one call; and R34,
sensitive values, checked with it."""
import logging
import os
import subprocess

import pytest

import amber
from amber import _ffi
from conftest import Delegate, Screen


class Program:
    """The program under test: a root with a child whose state is ``value``."""

    def __init__(self, value="draft 7"):
        self.value = value
        self.restored = None
        self.steps = []
        self.delegate = Delegate()

    def set_up(self, engine):
        self.steps.append("set_up")
        engine.set_delegate(self.delegate)
        root = engine.add_root(Screen(engine, "Root"))
        detail = self.detail = root.add_child(Screen(engine, "Detail"))
        detail.encode_restorable_state = lambda coder: coder.update({"title": self.value})
        detail.decode_restorable_state = lambda decoder: setattr(self, "restored", decoder["title"])
        engine.add_observer(lambda note: self.steps.append("will_resign_active"),
                            amber.Notifications.WILL_RESIGN_ACTIVE)

    def tear_down(self, engine):
        self.steps.append("tear_down")


def launched(program, **options):
    engine = amber.Engine("org.example.relaunch", **options)
    program.set_up(engine)
    engine.launch()
    return engine


def test_r33_relaunch_restores_into_a_new_engine():  # R33
    program = Program()
    old = launched(program, memory_store=True)
    old_detail = program.detail
    old.transition(amber.AppState.ACTIVE)
    program.steps.clear()
    engine, report = amber.testing.relaunch(old, program.set_up, program.tear_down)
    with engine:
        assert program.steps == ["will_resign_active", "tear_down", "set_up"]
        assert engine is not old and old.closed and not engine.closed
        assert not report.fresh and report.outcome("Root/Detail") == amber.Outcome.RESTORED
        assert program.restored == "draft 7"
        assert engine.state == amber.AppState.INACTIVE
        with pytest.raises(amber.MisuseError):
            old.preserve()
        with pytest.raises(amber.MisuseError):  # the old engine's objects are freed
            old_detail.path
        # Again, into the background, with a new value.
        program.value = "draft 8"
        engine2, report2 = amber.testing.relaunch(engine, program.set_up, in_background=True)
        with engine2:
            assert program.restored == "draft 8" and engine2.state == amber.AppState.BACKGROUND
            assert engine.closed


def test_r33_relaunch_on_a_host_store_keeps_the_store(store, relaunch):  # R33
    program = Program("on a host store")
    before = set(_ffi._contexts)  # contexts of earlier tests may still be released meanwhile
    old = launched(program, store=store, protection=amber.KeyProvider(lambda for_saving: b"q" * 32))
    engine, report = relaunch(old, program.set_up)
    assert store.writes == 1 and program.restored == "on a host store"
    assert report.protection and not report.fresh
    # The relaunched engine goes on with the same store and key: it saves and relaunches again.
    program.value = "second"
    engine, report = relaunch(engine, program.set_up)
    assert store.writes == 2 and program.restored == "second"
    engine.close()
    assert set(_ffi._contexts) <= before  # every context released: the store's, the key's, the objects'


def test_r33_should_save_declining_is_a_fresh_launch(relaunch):  # R33, R5
    program = Program()

    class No(Delegate):
        def should_save(self, engine, coder):
            return False
    program.delegate = No()
    old = launched(program, memory_store=True)
    engine, report = relaunch(old, program.set_up)
    assert report.fresh_reason == amber.FreshReason.NO_ARCHIVE and program.restored is None


@pytest.mark.parametrize("raise_errors", [False, True])
def test_r33_r12_a_decode_exception_is_reported_as_launch_reports_it(raise_errors):  # R33, R12
    """The relaunch's launch reports a decode callback's exception as Engine.launch does: on the
    record (DECODE_ERROR, its type and text) and ``report.errors``; ``raise_errors`` raises it
    after the relaunch, with the new engine and the report on it."""
    program = Program()
    old = launched(program, memory_store=True)

    def set_up(engine):
        program.set_up(engine)

        def fails(decoder):
            raise LookupError("no title")
        program.detail.decode_restorable_state = fails
    if raise_errors:
        with pytest.raises(LookupError) as raised:
            amber.testing.relaunch(old, set_up, raise_errors=True)
        engine, report = raised.value.amber_engine, raised.value.amber_report
    else:
        engine, report = amber.testing.relaunch(old, set_up)
    with engine:
        assert not engine.closed and report.outcome("Root/Detail") == amber.Outcome.DECODE_ERROR
        record = next(r for r in report.records if r.path_string == "Root/Detail")
        assert record.message.endswith("returned 12 (AMBER_CALLBACK_FAILED): LookupError: no title")
        assert [type(error) for error in report.errors] == [LookupError]


def test_r33_a_failing_set_up_closes_both_engines():  # R33
    program = Program()
    before = set(_ffi._contexts)  # contexts of earlier tests may still be released meanwhile
    old = launched(program, store=amber.MemoryStore())

    def set_up(engine):
        program.set_up(engine)
        raise ValueError("the set-up refused")
    with pytest.raises(ValueError, match="the set-up refused") as raised:
        amber.testing.relaunch(old, set_up)
    assert any("*engine is NULL" in note for note in getattr(raised.value, "__notes__", []))
    assert old.closed
    assert set(_ffi._contexts) <= before  # nothing leaked: the store's context was released too


def test_r33_a_failing_tear_down_keeps_the_engine():  # R33
    program = Program()
    with launched(program, memory_store=True) as engine:
        def tear_down(e):
            raise RuntimeError("cannot let go")
        with pytest.raises(RuntimeError, match="cannot let go"):
            amber.testing.relaunch(engine, program.set_up, tear_down)
        assert not engine.closed and "set_up" not in program.steps[1:]
        assert engine.preserve().saved


def test_r33_a_failing_preservation_tears_nothing_down():  # R33
    program = Program()

    class Fails(Delegate):
        def will_encode(self, engine, coder):
            raise OSError("disk full")
    program.delegate = Fails()
    with launched(program, memory_store=True) as engine:
        program.steps.clear()
        with pytest.raises(OSError, match="disk full"):
            amber.testing.relaunch(engine, program.set_up, program.tear_down)
        assert program.steps == [] and not engine.closed


def test_r33_relaunch_from_a_callback_is_refused():  # R33
    program = Program()
    seen = {}
    with launched(program, memory_store=True) as engine:
        def tear_down(e):
            with pytest.raises(amber.MisuseError):
                amber.testing.relaunch(e, program.set_up)
            seen["refused"] = True
        new, _ = amber.testing.relaunch(engine, program.set_up, tear_down)
        new.close()
    assert seen == {"refused": True}


# ---- R34: sensitive values, checked with the relaunch helper ----------------------------------

SECRET = "SECRET-7f3a9c"
CONTROL = "CONTROL-51e2"
SECRET_NUMBER = 7355608  # a sensitive number, stored in place rather than as an object
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
AMBER_CLI = os.path.join(ROOT, ".build", "debug", "amber")


class Login(amber.Controller):
    """A screen with a password (sensitive) and a title (the control)."""

    def __init__(self, engine, sensitive=True, **kw):
        super().__init__(engine, "login", class_name="Login", **kw)
        self.sensitive = sensitive
        self.restored = None

    def encode_restorable_state(self, coder):
        coder.update({"password": SECRET, "title": CONTROL, "pin": SECRET_NUMBER},
                     sensitive=("password", "pin") if self.sensitive else ())

    def decode_restorable_state(self, decoder):
        self.restored = decoder["password"]


def login_set_up(engine):
    engine.set_delegate(Delegate())
    engine.add_root(Login(engine))


def files_holding(directory, text):
    """The files of ``directory`` whose bytes hold ``text``, and how many files were read."""
    names = [n for n in os.listdir(directory) if os.path.isfile(os.path.join(directory, n))]
    holding = [n for n in names if text.encode() in open(os.path.join(directory, n), "rb").read()]
    return holding, len(names)


def test_r34_sensitive_value_absent_from_files_and_log(tmp_path, caplog, relaunch):  # R34, with R33's relaunch
    caplog.set_level(logging.DEBUG, logger=amber.LOGGER_NAME)
    directory = str(tmp_path / "state")
    engine = amber.Engine("org.example.sensitive", state_directory=directory)
    login_set_up(engine)
    scans = []

    def tear_down(old):  # killed: the archive is on disk
        scans.append(files_holding(directory, SECRET))
    new, report = relaunch(engine, login_set_up, tear_down)
    assert scans == [([], 2)]  # the archive and its key file read, neither holds the value
    assert not report.fresh
    login = report.restored[0]
    assert login.restored == SECRET  # the restore gives it back to the decode callback
    assert caplog.records and not any(SECRET in r.getMessage() for r in caplog.records)
    assert files_holding(directory, SECRET)[0] == []


def test_r34_without_encryption_nothing_is_written(tmp_path, caplog):  # R34
    caplog.set_level(logging.DEBUG, logger=amber.LOGGER_NAME)
    directory = str(tmp_path / "state")
    with amber.Engine("org.example.sensitive", state_directory=directory, protection=amber.NoEncryption()) as engine:
        login_set_up(engine)
        with pytest.raises(amber.KeyUnavailableError, match="marked sensitive"):
            amber.testing.relaunch(engine, login_set_up)
        assert not engine.closed  # nothing torn down
        holding = files_holding(directory, SECRET)[0] if os.path.isdir(directory) else []
        assert holding == [] and not os.path.exists(os.path.join(directory, "state.archive"))
    assert not any(SECRET in r.getMessage() for r in caplog.records)


@pytest.mark.skipif(not os.access(AMBER_CLI, os.X_OK), reason="the amber command is not built (swift build)")
@pytest.mark.parametrize("sensitive", [True, False])
def test_r34_amber_inspect_and_dump_show_sensitive(tmp_path, relaunch, sensitive):  # R34
    directory = str(tmp_path / "state")
    engine = amber.Engine("org.example.sensitive", state_directory=directory)
    engine.set_delegate(Delegate())
    engine.add_root(Login(engine, sensitive=sensitive))
    outputs = {}

    def tear_down(old):
        key, archive = os.path.join(directory, "archive.key"), os.path.join(directory, "state.archive")
        for command in (["inspect"], ["dump", "--keyed"], ["dump"]):
            run = subprocess.run([AMBER_CLI, *command, "--key-file", key, archive], capture_output=True, text=True)
            assert run.returncode == 0, run.stderr
            outputs[" ".join(command)] = run.stdout
    relaunch(engine, login_set_up, tear_down)
    for command, text in outputs.items():
        assert CONTROL in text, command  # the control: the output does show values
        # Without the mark the value is shown, which proves the scan can fail.
        assert (SECRET in text) is (not sensitive), command
        assert (str(SECRET_NUMBER) in text) is (not sensitive), command
        if sensitive and command != "dump":
            assert "<sensitive>" in text, command
