"""R32: dirty marking and autosave, driven as an event loop would (autosave_timeout(), then
tick()); only dirty objects encoded again; the archive kept after a restore on request.

A relaunch is the relaunch test helper (R33, the relaunch fixture); the launches that crash
before a save (R14) open engines directly on the same MemoryStore, since the helper saves first."""
import time

import pytest

import amber
from conftest import Delegate


class Counter(amber.Controller):
    """A screen saving one number, counting its encode calls."""

    def __init__(self, engine, identifier, value):
        super().__init__(engine, identifier, class_name="Counter")
        self.value = value
        self.encodes = 0
        self.decoded = None

    def encode_restorable_state(self, coder):
        self.encodes += 1
        coder["value"] = self.value

    def decode_restorable_state(self, decoder):
        self.decoded = decoder["value"]


def build(e, values):
    """The program's start-up: the root and its screens."""
    root = e.add_root(amber.Controller(e, "root", class_name="Root"))
    return [root.add_child(Counter(e, f"screen{i}", v)) for i, v in enumerate(values)]


def host(open_engine, values, **kw):
    e = open_engine(Delegate(), **kw)
    return e, build(e, values)


def set_up(values, into):
    """A relaunch's set-up: the delegate and the screens, which go into ``into``."""
    def run(e):
        e.set_delegate(Delegate())
        into.extend(build(e, values))
    return run


def loop_turn(engine, limit_ms):
    """An event loop's turn: waits what the engine says (at most limit_ms), then ticks."""
    timeout = engine.autosave_timeout()
    wait = limit_ms if timeout is None else min(timeout, limit_ms)
    time.sleep(wait / 1000)
    return engine.tick()


def test_r32_autosave_fires_after_a_change_and_not_without(open_engine, store, relaunch):  # R32
    e, screens = host(open_engine, [10, 11, 12])
    e.set_autosave(quiet_ms=40, min_interval_ms=-1)

    # No change: nothing to wait for, and ticks after the quiet time save nothing.
    assert e.autosave_timeout() is None
    assert loop_turn(e, 80) is False and loop_turn(e, 80) is False
    assert store.writes == 0

    # A change: due after the quiet time, not before.
    screens[1].mark_dirty()
    timeout = e.autosave_timeout()
    assert timeout is not None and 0 < timeout <= 40
    assert e.tick() is False and store.writes == 0
    assert loop_turn(e, 1000) is True
    assert store.writes == 1
    assert e.autosave_timeout() is None
    assert loop_turn(e, 80) is False and store.writes == 1

    # Only the dirty screen's callback runs again; every value restores.
    for s in screens:
        s.encodes = 0
    screens[1].value = 111
    screens[1].mark_dirty()
    assert loop_turn(e, 1000) is True
    assert [s.encodes for s in screens] == [0, 1, 0]

    # The relaunch saves once more (nothing dirty: every state reused), then restores.
    for s in screens:
        s.encodes = 0
    again = []
    relaunch(e, set_up([0, 0, 0], again))
    assert [s.encodes for s in screens] == [0, 0, 0]
    assert [s.decoded for s in again] == [10, 111, 12]


def test_r32_autosave_off_and_full_saves(open_engine, store):  # R32
    e, screens = host(open_engine, [1, 2])
    screens[0].mark_dirty()
    assert e.autosave_timeout() is None  # off by default
    e.set_autosave(quiet_ms=-1, min_interval_ms=-1, full_saves=True)
    screens[0].mark_dirty()
    assert e.autosave_timeout() == 0
    assert e.tick() is True
    screens[0].mark_dirty()
    assert e.tick() is True
    assert [s.encodes for s in screens] == [2, 2]  # full saves: every callback each time
    e.stop_autosave()
    screens[0].mark_dirty()
    assert e.autosave_timeout() is None and e.tick() is False
    with pytest.raises(amber.InvalidArgumentError):
        e.set_autosave(quiet_ms=86_400_001)


def test_r32_keep_archive_after_restore(open_engine, store, relaunch):  # R32, R14
    e, _ = host(open_engine, [5], keep_archive_after_restore=True)
    screens = []
    e = relaunch(e, set_up([0], screens)).engine
    assert screens[0].decoded == 5
    assert store.data is not None and store.guard == 0  # the restoration completed: no launch count
    assert e.preserve().saved and store.guard == 0
    # Launches that complete, with no save between them, all restore it (issue 39, item 2).
    for _ in range(3):
        report = host(open_engine, [0], keep_archive_after_restore=True)[0].launch()
        assert report.fresh_reason == amber.FreshReason.NONE and store.data is not None and store.guard == 0
    # Two launches that died while restoring leave their count: the third discards.
    store.guard = 2
    report = host(open_engine, [0], keep_archive_after_restore=True)[0].launch()
    assert report.fresh_reason == amber.FreshReason.CRASH_LOOP and store.data is None
    # The default discards once restored.
    e, _ = host(open_engine, [5])
    e.preserve()
    host(open_engine, [0])[0].launch()
    assert store.data is None
