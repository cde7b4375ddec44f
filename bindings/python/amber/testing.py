"""Testing a program's restoration (amber/testing.h, R33): a kill and a relaunch in one call,
as Flutter's ``restartAndRestore`` and Compose's ``StateRestorationTester`` do.

    def set_up(engine):                      # what the program does at start-up
        engine.set_delegate(MyDelegate())
        engine.add_root(Screen(engine, "root"))

    def test_the_draft_survives(tmp_path):
        with amber.Engine("org.example.app", memory_store=True) as engine:
            set_up(engine)
            engine.launch()
            ...                              # the user types a draft
            engine, report = amber.testing.relaunch(engine, set_up)
            with engine:
                assert not report.fresh and len(report.restored) == 2

The engine given is closed by a relaunch that gets past the tear-down; go on with the one
returned (close it, or use it as a context manager)."""
from __future__ import annotations

from ctypes import byref
from typing import Any, Callable, NamedTuple, Optional

from . import _errors as E
from . import _ffi
from ._ffi import load
from .engine import Engine
from .report import Report


class Relaunched(NamedTuple):
    """What ``relaunch`` gives back: the new engine, launched, and its launch report (R16)."""
    engine: Engine
    report: Report


class _Relaunch(_ffi.Holder):
    """The context of one relaunch: the host's tear-down and set-up, and the new engine."""
    __slots__ = ("old", "set_up", "tear_down", "new")

    def __init__(self, old: Engine, set_up: Callable[[Engine], Any], tear_down: Optional[Callable[[Engine], Any]]):
        self.old = old
        self.set_up = set_up
        self.tear_down = tear_down
        self.new: Optional[Engine] = None

    def c_tear_down(self) -> None:
        if self.tear_down is not None:
            self.tear_down(self.old)

    def c_set_up(self, handle: int) -> None:
        self.new = self.old._successor(handle)
        self.set_up(self.new)


def relaunch(engine: Engine, set_up: Callable[[Engine], Any], tear_down: Optional[Callable[[Engine], Any]] = None, *,
             in_background: bool = False, raise_errors: bool = False) -> Relaunched:
    """Simulates killing the program and launching it again (R33), in one call:

    1. the application goes to the background as before a kill (from active: will-resign-active,
       then did-enter-background), which preserves (should_save must agree, R5);
    2. ``tear_down(engine)`` lets go of the program's own model, then ``engine`` is closed (its
       Objects become dead);
    3. a new Engine is opened with the same application id and options: the same store (a
       ``memory_store=True`` engine's archive, or a MemoryStore, carries over), key and
       protection;
    4. ``set_up(new_engine)`` does what the program does at start-up: the delegate, restoration
       classes, the default interface, the roots;
    5. the new engine launches (into the background if ``in_background``), restoring.

    Returns ``Relaunched(engine, report)``, a named tuple. Raises what the step that failed
    raised (an exception of ``set_up`` or ``tear_down`` itself, or the AmberError of the
    preservation), with the message of the C call in a note: a failed preservation or
    tear-down leaves ``engine`` open; a failed set-up closes both engines. An exception of a
    callback during the preservation or the launch (a decode callback, say) is reported as
    ``Engine.launch`` reports it, on the report's ``errors``; with ``raise_errors`` it is raised
    after the relaunch instead, with ``amber_report`` and ``amber_engine`` (the new engine,
    open) on it."""
    lib = load()
    handle = engine._handle()
    engine._pin_reports()  # the C records name objects that the relaunch frees
    box = _Relaunch(engine, set_up, tear_down)
    key = box.register(engine)
    callbacks = _ffi.Relaunch(_ffi.RELAUNCH_VERSION, _ffi.T_RELAUNCH[0], _ffi.T_RELAUNCH[1],
                              _ffi.APP_BACKGROUND if in_background else _ffi.APP_INACTIVE)
    current = _ffi.EngineP(handle.value)
    out = _ffi.ReportP()
    since = E.mark()
    failure: Optional[E.AmberError] = None
    try:
        lib.amber_testing_relaunch(byref(out), byref(current), byref(callbacks), key)
    except E.AmberError as error:
        failure = error
    finally:
        box.unregister()
    raised = [error for error, _ in E.take_all(since)]
    if current.value != handle.value:
        engine._closed_by_amber()  # closed after the tear-down
    new = box.new
    if new is not None and current.value != (new._h.value if new._h is not None else None):
        new._closed_by_amber()  # the set-up failed: Amber closed the new engine too
    if failure is not None:  # a step failed: what it raised, else its AmberError
        first = E.first(raised)
        if first is None:
            raise failure
        if hasattr(first, "add_note"):
            first.add_note(f"amber: {failure}")
        raise first
    assert new is not None and out
    try:
        report = new._launched(out, raised, "relaunch", raise_errors)
    except BaseException as error:
        error.amber_engine = new  # type: ignore[attr-defined]
        raise
    return Relaunched(new, report)
