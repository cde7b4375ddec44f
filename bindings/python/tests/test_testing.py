"""amber.testing (amber/testing.h): R33, the kill and relaunch of a program in one call."""
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
    before = len(_ffi._contexts)
    old = launched(program, store=store, protection=amber.KeyProvider(lambda for_saving: b"q" * 32))
    engine, report = relaunch(old, program.set_up)
    assert store.writes == 1 and program.restored == "on a host store"
    assert report.protection and not report.fresh
    # The relaunched engine goes on with the same store and key: it saves and relaunches again.
    program.value = "second"
    engine, report = relaunch(engine, program.set_up)
    assert store.writes == 2 and program.restored == "second"
    engine.close()
    assert len(_ffi._contexts) == before  # every context released: the store's, the key's, the objects'


def test_r33_should_save_declining_is_a_fresh_launch(relaunch):  # R33, R5
    program = Program()

    class No(Delegate):
        def should_save(self, engine, coder):
            return False
    program.delegate = No()
    old = launched(program, memory_store=True)
    engine, report = relaunch(old, program.set_up)
    assert report.fresh_reason == amber.FreshReason.NO_ARCHIVE and program.restored is None


def test_r33_a_failing_set_up_closes_both_engines():  # R33
    program = Program()
    before = len(_ffi._contexts)
    old = launched(program, store=amber.MemoryStore())

    def set_up(engine):
        program.set_up(engine)
        raise ValueError("the set-up refused")
    with pytest.raises(ValueError, match="the set-up refused") as raised:
        amber.testing.relaunch(old, set_up)
    assert any("*engine is NULL" in note for note in getattr(raised.value, "__notes__", []))
    assert old.closed
    assert len(_ffi._contexts) == before  # nothing leaked: the store's context was released too


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
