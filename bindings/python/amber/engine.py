"""The engine (amber/engine.h): opening and closing, its classes, blueprints and delegate, its
roots, launching and restoring (R9-R16), preserving (R5-R8, R28), the application's transitions
(R23), notifications (R24), snapshots (R21), plugins and its log (R29)."""
from __future__ import annotations

from ctypes import byref, c_int, c_uint64
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, TypeVar, Union, overload

from . import _errors as E
from . import _ffi
from ._ffi import load
from .log import amber_level, report_restoration_errors
from .objects import Coder, Controller, Decoder, EngineCore, Object, PlainObject, object_handle
from .report import PreservationReport, Report
from .storage import Options, Protection, Store
from .values import AppState, LeftOut, Migration, NotSaved, Path, c_text, c_text_or_none, invalid_argument, take_bytes
from .views import View

if TYPE_CHECKING:
    # amber.app is imported by the methods that need it (notifications): restoring an interface
    # needs none, and a program pays for the import before its first frame.
    from .app import Notification, UserInfoValue

_F = TypeVar("_F", bound=Callable[..., Any])
_M = TypeVar("_M")  # a make function, or a class with a make method
_O = TypeVar("_O", bound=Object)


class _Maker(_ffi.Holder):
    """The context of a restoration class or a blueprint factory: its make function."""
    __slots__ = ("fn",)

    def __init__(self, fn: Callable[..., Any]):
        self.fn = fn

    def c_make(self, decoder_h: _ffi.DecoderP, parts: List[bytes]) -> _ffi.ObjectP:
        engine: Engine = self.c_owner
        decoder = Decoder(decoder_h)
        try:
            path = Path.from_c(parts, 0, decoder.path_positions())
            result = self.fn(engine, path, decoder)
        finally:
            decoder._h = None
        return object_handle(result, engine, "a restoration class's make")

    def c_make_blueprint(self, decoder_h: _ffi.DecoderP, blueprint_id: bytes, parts: List[bytes]) -> _ffi.ObjectP:
        engine: Engine = self.c_owner
        decoder = Decoder(decoder_h)
        try:
            path = Path.from_c(parts, 0, decoder.path_positions())
            result = self.fn(engine, blueprint_id.decode("utf-8", "surrogateescape"), path, decoder)
        finally:
            decoder._h = None
        return object_handle(result, engine, "a blueprint factory")


class _Migrator(_ffi.Holder):
    """The context of a class's state version (R30): its migrate function."""
    __slots__ = ("fn",)

    def __init__(self, fn: Callable[..., Any]):
        self.fn = fn

    def c_migrate(self, coder_h: _ffi.CoderP, decoder_h: _ffi.DecoderP, from_version: int, to_version: int) -> int:
        """The amber_migration of the function's answer (see ``migration_answer``)."""
        coder, decoder = Coder(coder_h), Decoder(decoder_h)
        try:
            return migration_answer(self.fn(coder, decoder, from_version, to_version))
        finally:
            coder._h = None
            decoder._h = None


def migration_answer(answer: Any) -> int:
    """The amber_migration of what a migrate function returned: Migration.DONE for DONE, True or
    None (no answer, as C's *out left at AMBER_MIGRATION_DONE), Migration.DECLINED for DECLINED
    or False. Any other answer (0, "no", 42) raises CallbackFailedError naming it, as C's *out
    set to another value is a failure: taking it for an answer would restore a half-written
    state or drop a good one."""
    if answer is None or answer is True or answer is Migration.DONE:
        return int(Migration.DONE)
    if answer is False or answer is Migration.DECLINED:
        return int(Migration.DECLINED)
    raise E.CallbackFailedError(f"the migrate function returned {answer!r}, which is neither amber.Migration.DONE "
                                "(or True) nor amber.Migration.DECLINED (or False)", E.CALLBACK_FAILED,
                                "AMBER_CALLBACK_FAILED")


class _DelegateHolder(_ffi.Holder):
    """The context of the delegate: the trampolines call its c_* methods, which call the
    delegate's own."""
    __slots__ = ("delegate",)

    def __init__(self, delegate: Any):
        self.delegate = delegate

    def c_should_save(self, coder_h: _ffi.CoderP) -> bool:
        coder = Coder(coder_h)
        try:
            return bool(self.delegate.should_save(self.c_owner, coder))
        finally:
            coder._h = None

    def c_will_encode(self, coder_h: _ffi.CoderP) -> None:
        coder = Coder(coder_h)
        try:
            self.delegate.will_encode(self.c_owner, coder)
        finally:
            coder._h = None

    def c_should_restore(self, decoder_h: _ffi.DecoderP) -> bool:
        decoder = Decoder(decoder_h)
        try:
            return bool(self.delegate.should_restore(self.c_owner, decoder))
        finally:
            decoder._h = None

    def c_did_decode(self, decoder_h: _ffi.DecoderP) -> None:
        decoder = Decoder(decoder_h)
        try:
            self.delegate.did_decode(self.c_owner, decoder)
        finally:
            decoder._h = None

    def c_object_for_path(self, decoder_h: _ffi.DecoderP, parts: List[bytes]) -> _ffi.ObjectP:
        decoder = Decoder(decoder_h)
        try:
            path = Path.from_c(parts, 0, decoder.path_positions())
            result = self.delegate.object_for_path(self.c_owner, path, decoder)
        finally:
            decoder._h = None
        return object_handle(result, self.c_owner, "the delegate's object_for_path")

    def c_launch_step(self, name: str) -> None:
        getattr(self.delegate, name)(self.c_owner)


class Engine(EngineCore):
    """An engine: the restorable objects of one program, its classes, delegate and store.

    Use it as a context manager (``with amber.Engine("org.example.app", ...) as engine:``) or
    call ``close()``. Only one thread at a time may use an engine; separate engines may run on
    separate threads.

    :param app_id: the application's identifier, a file name (e.g. "org.example.homepwner").
    :param state_directory: the built-in file store's directory (default $XDG_STATE_HOME/<app_id>).
    :param memory_store: keep the archive in memory only (it lives as long as the engine).
    :param store: a Store of the host's instead of the file store.
    :param protection: KeyFile (default), FixedKey, KeyProvider or NoEncryption.
    :param bundle_version: recorded in every archive (R8).
    :param interface_idiom: recorded in every archive (R8).
    :param delegate: an object with any of the delegate's methods (see set_delegate).
    :param keep_restoration_report: after each launch or restore, keep the restoration's report
        as ``last-restore.report`` beside the archive (no state values; ``amber report`` prints
        it). Default off, unless the environment variable AMBER_KEEP_REPORT is "1". Ignored with
        memory_store.
    :param keep_archive_after_restore: a restoration that succeeds keeps the archive until the
        next save, for desktop programs (R32); a restoration that completes clears the launch
        guard's count, and two launches in a row that crash while restoring still discard it
        (R14). Default off: the archive is discarded once restored.
    :param object_budget: the most bytes one object's record may take (R31): an object over it is
        left out with its subtree (``LeftOut.OVER_BUDGET`` in the preservation report, with its
        size), the rest is saved. Default (None or 0): no budget per object.
    :param archive_budget: the most bytes the archive may take before encryption (R31): a save
        over it writes nothing, keeps the previous archive and raises LimitExceeded; the report
        (``engine.preservation``) says ``NotSaved.OVER_BUDGET`` and lists the largest objects.
        Default (None or 0): the archive limit of R22 (512 MiB), which also bounds a larger
        budget. A budget that is not an int from 0 to 2**64-1 is an InvalidArgumentError.
    """

    def _init_fields(self, app_id: str) -> None:
        """The fields of an engine not open yet, for ``__init__`` and ``_successor``."""
        self._init_core()
        self._senders: Dict[int, Any] = {}
        self._delegate: Any = None
        self._preservation: Optional[PreservationReport] = None  # the last one preserve() returned
        self.app_id = app_id

    def __init__(self, app_id: str, *, state_directory: Optional[str] = None, memory_store: bool = False,
                 store: Optional[Store] = None, protection: Optional[Protection] = None,
                 bundle_version: Optional[str] = None, interface_idiom: Optional[str] = None,
                 delegate: Any = None, keep_restoration_report: bool = False,
                 keep_archive_after_restore: bool = False,
                 object_budget: Optional[int] = None, archive_budget: Optional[int] = None):
        lib = load()
        self._init_fields(app_id)
        options = Options(self, state_directory=state_directory, memory_store=memory_store, store=store,
                          protection=protection, bundle_version=bundle_version, interface_idiom=interface_idiom,
                          keep_restoration_report=keep_restoration_report,
                          keep_archive_after_restore=keep_archive_after_restore,
                          object_budget=object_budget, archive_budget=archive_budget)
        out = _ffi.EngineP()
        try:
            lib.amber_engine_open(byref(out), c_text(app_id), byref(options.struct))
        except BaseException:
            options.forget()
            raise
        self._options = options  # what the options point to, alive with the engine
        self._h = out
        self.set_log_level()
        if delegate is not None:
            self.set_delegate(delegate)

    # -- lifetime --
    @property
    def closed(self) -> bool:
        return self._h is None

    def close(self) -> None:
        """Closes the engine: frees its objects (their Python wrappers become dead), classes and
        callbacks. Harmless twice. Exceptions of ctx_free callbacks are re-raised; closing from
        one of the engine's own callbacks is a MisuseError."""
        if self._h is None:
            return
        lib = load()
        self._pin_reports()
        with E.callbacks_raised():
            lib.amber_error_clear()  # so that the check below sees this close's error only
            lib.amber_engine_close(self._h)
            if lib.amber_error_last_code() == E.MISUSE:
                raise _ffi.error(E.MISUSE)
            self._closed_by_amber()

    def _closed_by_amber(self) -> None:
        """Forgets the C engine, closed by Amber (amber_engine_close(), or a relaunch): its
        objects' wrappers become dead and its contexts are forgotten."""
        self._h = None
        for obj in list(self._objects.values()):
            obj._h = None
        self._objects.clear()
        for key in list(self._keep):
            _ffi._contexts.pop(key, None)
        self._keep.clear()

    def _successor(self, handle: int) -> "Engine":
        """The Engine for the C engine a relaunch opened in this one's place (amber.testing,
        R33): the same application id and options; the contexts of the store and of the key
        provider pass to it, as they do in C."""
        new = Engine.__new__(Engine)
        new._init_fields(self.app_id)
        new._options = self._options
        for box in self._options.holders:
            if self._keep.pop(box.c_context, None) is not None:
                box.c_owner = new
                new._keep[box.c_context] = box
        new._h = _ffi.EngineP(handle)
        new.set_log_level()
        return new

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if self._h is not None:
                self._pin_reports()
                load().amber_engine_close(self._h)
                self._h = None
        except Exception:
            pass

    # -- objects --
    def controller(self, identifier: Optional[str], class_name: str = "UIViewController", **options: Any) -> Controller:
        """A new controller (options as Object's)."""
        return Controller(self, identifier, class_name=class_name, **options)

    def view(self, identifier: Optional[str], class_name: str = "UIView", **options: Any) -> View:
        """A new view (options as View's)."""
        return View(self, identifier, class_name=class_name, **options)

    def plain_object(self, identifier: Optional[str], class_name: str = "NSObject", **options: Any) -> PlainObject:
        """A new plain object (options as Object's)."""
        return PlainObject(self, identifier, class_name=class_name, **options)

    def add_root(self, root: "_O") -> "_O":
        """Adds a root (a window or scene; R2); returns it."""
        load().amber_engine_add_root(self._handle(), root._handle())
        return root

    def remove_root(self, root: Object) -> None:
        load().amber_engine_remove_root(self._handle(), root._handle())

    # -- classes --
    @overload
    def register_restoration_class(self, name: Optional[str]) -> Callable[[_M], _M]: ...

    @overload
    def register_restoration_class(self, name: Optional[str], make: _M) -> _M: ...

    def register_restoration_class(self, name: Optional[str], make: Any = None) -> Any:
        """Registers a restoration class (R10 step 1): ``register_restoration_class(name, make)``,
        or as a decorator of a function or of a class with a ``make`` (class)method:

            @engine.register_restoration_class("Screens")
            def screens(engine, path, decoder): return ... or None

        ``make(engine, path: Path, decoder)`` returns an Object of this engine, or None to
        decline: neither it nor anything under it is looked up or restored. ``path[-1]`` is the
        identifier as the host set it, ``path.positions`` the stack position of each component
        (R3: the child X of the first and of the second A of a stack differ by them);
        ``decoder.record`` tells the kind, class and blueprint of what is asked for. The name
        None takes the function's or class's own."""
        if make is None:
            return lambda target: self.register_restoration_class(name, target)
        fn = getattr(make, "make") if isinstance(make, type) else make
        vtable = _ffi.RestorationClass(_ffi.RESTORATION_CLASS_VERSION, _ffi.T_CLASS_MAKE)
        box = _Maker(fn)
        key = box.register(self)
        try:
            load().amber_engine_register_restoration_class(self._handle(), c_text(make.__name__ if name is None else name),
                                                           byref(vtable), key, _ffi.CTX_FREE)
        except BaseException:
            box.unregister()
            raise
        return make

    @overload
    def register_blueprint_factory(self, name: str) -> Callable[[_M], _M]: ...

    @overload
    def register_blueprint_factory(self, name: str, make: _M) -> _M: ...

    def register_blueprint_factory(self, name: str, make: Any = None) -> Any:
        """Registers a blueprint factory (R10 step 4): ``make(engine, blueprint_id, path, decoder)``
        returns an Object or None. Usable as a decorator (``@engine.register_blueprint_factory("Main")``)."""
        if make is None:
            return lambda target: self.register_blueprint_factory(name, target)
        fn = getattr(make, "make") if isinstance(make, type) else make
        vtable = _ffi.BlueprintFactory(_ffi.BLUEPRINT_FACTORY_VERSION, _ffi.T_BLUEPRINT_MAKE)
        box = _Maker(fn)
        key = box.register(self)
        try:
            load().amber_engine_register_blueprint_factory(self._handle(), c_text(name), byref(vtable), key,
                                                           _ffi.CTX_FREE)
        except BaseException:
            box.unregister()
            raise
        return make

    def register_subclass(self, name: str, superclass: str) -> None:
        """Declares class ``name`` a subclass of ``superclass`` (the class check, R11)."""
        load().amber_engine_register_subclass(self._handle(), c_text(name), c_text(superclass))

    def register_state_version(self, class_name: str, version: int,
                               migrate: Optional[Callable[[Coder, Decoder, int, int],
                                                          Union[Migration, bool, None]]] = None) -> None:
        """Declares the version of the state that objects of class ``class_name`` write (R30):
        their records are preserved with it (a record without one is version 1). At restoration
        a record of an older version goes to ``migrate(new, old, from_version, to_version)``
        before its object is looked up: it reads the old state from ``old`` (a Decoder) and
        writes the current version's values into ``new`` (a Coder, without references to
        restorable objects), which the object's callbacks then read. It answers
        ``Migration.DONE`` (or True, or nothing) when it migrated, ``Migration.DECLINED`` (or
        False) to decline: the record is then Outcome.DECLINED_VERSION with everything under it.
        Any other answer, or an exception, makes the record Outcome.DECODE_ERROR, its message
        naming the answer or the exception (which is on the report's ``errors``).
        A record of a newer version, or of an older one without ``migrate``, is declined
        (Outcome.DECLINED_VERSION) with everything under it. DuplicateError if the class has a
        version already; ValueError for version 0."""
        if not 0 <= version <= 0xFFFFFFFF:
            raise invalid_argument(f"the state version of class {class_name} is {version}, not an unsigned int")
        box = _Migrator(migrate) if migrate is not None else None
        key = box.register(self) if box is not None else None
        try:
            load().amber_engine_register_state_version(self._handle(), c_text(class_name), version,
                                                       _ffi.T_MIGRATE if box is not None else _ffi.Migrate(),
                                                       key, _ffi.CTX_FREE if box is not None else _ffi.CtxFree())
        except BaseException:
            if box is not None:
                box.unregister()
            raise

    def load_plugin(self, path: str) -> None:
        """Loads a plugin library (a shared library exporting amber_plugin_register) and calls
        its entry point with this engine; NotFoundError if it cannot be opened or lacks it."""
        with E.callbacks_raised():
            load().amber_engine_load_plugin(self._handle(), c_text(path))

    # -- the delegate --
    def set_delegate(self, delegate: Any) -> None:
        """Sets the delegate, any object with some of these methods (those missing get Amber's
        defaults: never save, never restore):

        - ``should_save(engine, coder) -> bool`` (R5; may write app state into the coder, and
          references to restorable objects, R4)
        - ``will_encode(engine, coder)`` (R8; may write references too, R4)
        - ``should_restore(engine, decoder) -> bool`` (R9; bundleVersion etc. are readable, also
          under UIKit's names: UIApplicationStateRestorationBundleVersionKey, ...)
        - ``did_decode(engine, decoder)`` (R13; ``decoder.decode_object`` reads the references)
        - ``object_for_path(engine, path, decoder) -> Object | None`` (R10 step 2: asked for
          controllers only, views being found in their controller)
        - ``will_finish_launching(engine)``, ``did_finish_launching(engine)``

        None removes it."""
        handle = self._handle()
        if delegate is None:
            with E.callbacks_raised():
                load().amber_engine_set_delegate(handle, None, None, _ffi.CTX_FREE)
            self._delegate = None
            return
        vtable = _ffi.Delegate(_ffi.DELEGATE_VERSION)  # every callback NULL (Amber's defaults) until set
        for name, trampoline in _ffi.T_DELEGATE.items():
            if callable(getattr(delegate, name, None)):
                setattr(vtable, name, trampoline)
        box = _DelegateHolder(delegate)
        key = box.register(self)
        try:
            with E.callbacks_raised():
                load().amber_engine_set_delegate(handle, byref(vtable), key, _ffi.CTX_FREE)
        except BaseException:
            box.unregister()
            raise
        self._delegate = delegate

    @property
    def delegate(self) -> Any:
        return self._delegate

    # -- the log (R29) --
    def set_log_level(self, level: Optional[int] = None) -> None:
        """Sends this engine's log lines to the ``amber`` logger from ``level`` up (a logging
        level; None: the logger's effective level now, as when the engine opened). Call it
        after changing the logger's level: Amber builds only the lines of the level it is given
        (debug lines cost time), and logging filters the rest."""
        load().amber_engine_set_log(self._handle(), amber_level(level), _ffi.T_LOG, None, _ffi.CtxFree())

    # -- preserving and restoring --
    def preserve(self) -> PreservationReport:
        """Preserves the interface (R5-R8) and returns what it did (R28): a PreservationReport,
        true if an archive was written (``report.saved``), else saying why not.

        An exception raised by should_save, will_encode, the store or the key provider is
        re-raised here (nothing is written; the previous archive is kept), with the report as
        ``exception.amber_preservation`` when there is one. An archive over its budget (R31)
        raises LimitExceededError with that report: ``NotSaved.OVER_BUDGET``, every object
        with its size, and the ``largest``. An exception raised by an object's
        encode callback is not: that object and everything under it are left out, the rest is
        saved, and the report's entry for it holds the exception (``entry.error``, named in
        ``entry.message``); a warning goes to the ``amber`` logger. KeyboardInterrupt and the
        other exceptions that are not Exceptions are re-raised once the preservation is done."""
        saved = c_int()
        report = self._preserving(lambda: load().amber_engine_preserve(byref(saved), self._handle()), False)
        assert report is not None
        return report

    # -- autosave (R32) --
    def set_autosave(self, quiet_ms: int = 0, min_interval_ms: int = 0, *, full_saves: bool = False) -> None:
        """Turns autosave on (R32): after an object is marked dirty (``Object.mark_dirty()``), a
        save is due ``quiet_ms`` after the last change, and at least ``min_interval_ms`` after the
        previous save. 0 takes the engine's defaults; a negative time is none. Unless
        ``full_saves``, a save calls only the encode callbacks of the objects marked dirty (and of
        new ones) and writes again what the others wrote last time, so every object whose state
        changes must be marked. Drive it from the event loop with ``autosave_timeout()`` and
        ``tick()``. ValueError (InvalidArgumentError) for a time above a day."""
        policy = _ffi.Autosave(_ffi.AUTOSAVE_VERSION, quiet_ms, min_interval_ms, 1 if full_saves else 0)
        load().amber_engine_set_autosave(self._handle(), byref(policy))

    def stop_autosave(self) -> None:
        """Turns autosave off (the default): every save then calls every encode callback."""
        load().amber_engine_set_autosave(self._handle(), None)

    def autosave_timeout(self) -> Optional[int]:
        """Milliseconds until autosave is due (0: now), or None when nothing is to be saved
        (autosave off, or no change since the last save): how long an event loop may wait
        before calling ``tick()``."""
        out = c_int()
        load().amber_engine_autosave_timeout(byref(out), self._handle())
        return None if out.value < 0 else out.value

    def tick(self) -> bool:
        """Saves if autosave is due, as preserve() does; returns True if an archive was written.
        The exceptions of encode callbacks are on ``last_preservation``; one that makes the save
        fail is raised (the changes stay unsaved and are tried again later)."""
        saved = c_int()
        handle = self._handle()
        self._preserving(lambda: load().amber_engine_tick(byref(saved), handle), True)
        return bool(saved.value)

    def _preserving(self, call: Callable[[], Any], transition: bool) -> Optional[PreservationReport]:
        """Runs a C call that preserves (preserve(), a transition to the background): reads the
        report, puts the exceptions of encode callbacks on it, raises the others. A transition
        reads the report only when a callback raised (last_preservation reads it when asked)."""
        since = E.mark()
        failure: Optional[E.AmberError] = None
        try:
            call()
        except E.AmberError as error:
            failure = error
        raised = E.take_all(since)
        code = failure.code if failure is not None else 0
        report = None
        if (raised or not transition) and not (transition and code == E.MISUSE):
            report = self._read_preservation()
            # A preserve() that failed wrote a report that says so; any other report is an
            # older one (it failed before it began). A transition that was allowed (not MISUSE)
            # preserved, whatever its observers did.
            if code and not transition and report is not None and \
                    report.not_saved not in (NotSaved.FAILED, NotSaved.OVER_BUDGET):
                report = None
        self._preservation = report  # None: last_preservation reads the engine's
        reported = [(error, source) for error, source in raised if source is not None] if code == 0 else []
        if reported and report is not None:
            report.attach_errors(reported)
        kept = {id(error) for error, _ in reported if isinstance(error, Exception)}
        # A failed save's own cause (a store, a key provider) before an encode callback's.
        errors = [error for error, source in raised if source is None and id(error) not in kept] + \
                 [error for error, source in raised if source is not None and id(error) not in kept]
        first = E.first(errors)
        if first is not None:
            if report is not None:
                first.amber_preservation = report  # type: ignore[attr-defined]
            if failure is not None and first is not failure:
                first.__context__ = failure
            raise first
        if failure is not None:
            if report is not None:
                # An archive over its budget (R31): the report lists the largest objects.
                failure.amber_preservation = report  # type: ignore[attr-defined]
            raise failure
        return report

    def _read_preservation(self) -> Optional[PreservationReport]:
        out = _ffi.PreservationP()
        try:
            load().amber_engine_preservation(byref(out), self._handle())
        except E.NotFoundError:
            return None
        return PreservationReport.from_c(out)

    @property
    def last_preservation(self) -> Optional[PreservationReport]:
        """The report of the engine's last preservation (R28), by preserve() or by the
        transition to the background; None before the first. The one preserve() returned, or
        that transition() read because a callback raised; else read from the engine, anew at
        each access."""
        if self._preservation is not None:
            return self._preservation
        return self._read_preservation()

    @property
    def last_duplicates(self) -> List[str]:
        """The restoration paths the last preservation met more than once (R3), joined with '/':
        the paths of the DUPLICATE_PATH entries of ``last_preservation``."""
        self._handle()  # raises: the engine is closed
        report = self.last_preservation
        if report is None:
            return []
        return [entry.path_string for entry in report.entries if entry.left_out == LeftOut.DUPLICATE_PATH]

    def launch(self, *, in_background: bool = False, raise_errors: bool = False) -> Report:
        """The launch sequence (R9-R16, R23): will_finish_launching, restoration,
        did_finish_launching; returns the report, as amber_engine_launch() does.

        An exception a callback raises does not stop the launch and is not raised: it is what
        the callback's step came to, as a C callback's code is. The exception of a decode,
        migrate, restoration class or blueprint factory callback makes its record
        Outcome.DECODE_ERROR (R12, R30); that of the delegate's object_for_path or did_decode is
        noted in the report's message; the record's or report's message ends with the
        exception's type and text. Every one is on
        ``report.errors`` (with its traceback), and a warning on the ``amber`` logger names its
        type. ``raise_errors=True`` (for tests) raises the first instead, once the launch is
        done, with the report as ``exception.amber_report``. KeyboardInterrupt and the other
        exceptions that are not Exceptions are always raised, once the launch is done."""
        out = _ffi.ReportP()
        state = _ffi.APP_BACKGROUND if in_background else _ffi.APP_INACTIVE
        since = E.mark()
        failure: Optional[E.AmberError] = None
        try:
            load().amber_engine_launch(byref(out), self._handle(), state)
        except E.AmberError as error:
            failure = error
        raised = [error for error, _ in E.take_all(since)]
        if failure is not None:  # refused before it began (a bad state, a call from a callback)
            raise E.first(raised) or failure
        return self._launched(out, raised, "launch", raise_errors)

    def _launched(self, out: _ffi.ReportP, raised: List[BaseException], what: str, raise_errors: bool) -> Report:
        """The Report of a launch (or relaunch, amber.testing) that gave ``out``, during which
        callbacks raised ``raised``: they are its ``errors`` (see report_restoration_errors)."""
        report = Report.from_c(out, self)
        report.errors = raised
        report_restoration_errors(raised, what, raise_errors, report)
        return report

    def keep_unclaimed(self, milliseconds: int) -> None:
        """Keeps the records that find no object at the next launches in memory for
        ``milliseconds`` after each (R35), for objects created later, which claim their state
        with ``Object.restore_pending()``; 0 (the default) keeps none. Call it before
        ``launch()``. Amber has no event loop: the deadline is checked when the engine is called
        (``restore_pending``, ``restoration_report``, ``preserve``, ``transition``, a launch),
        and the records still kept are dropped then, their bytes zeroed. Until then each save
        carries the records still kept into its archive as they were restored
        (``PreservationReport.carried``; an object of the trees with the same path wins), so a
        screen opened after an autosave, or at a later launch, still gets its state."""
        if not 0 <= milliseconds <= 0xFFFFFFFFFFFFFFFF:
            raise invalid_argument(f"the time to keep unclaimed records is {milliseconds} ms; it is 0 or more")
        load().amber_engine_keep_unclaimed(self._handle(), milliseconds)

    def end_restoration(self) -> None:
        """Drops the records kept after launch for objects created later (R35) now; the
        report says so."""
        load().amber_engine_end_restoration(self._handle())

    def restoration_report(self) -> Report:
        """The report of the last restoration as it stands now (R16): with the records claimed
        since by ``Object.restore_pending()`` and the kept records dropped since (R35).
        NotFoundError before the first launch. The exceptions of callbacks are not on it (its
        ``errors`` is empty): they are on the launch's report and restore_pending()'s result."""
        out = _ffi.ReportP()
        load().amber_engine_restoration_report(byref(out), self._handle())
        return Report.from_c(out, self)

    def discard(self) -> None:
        """Discards the archive on purpose (R14)."""
        with E.callbacks_raised():
            load().amber_engine_discard(self._handle())

    def extend_restoration(self) -> int:
        """Extends restoration while data loads (R15); returns a token for complete_restoration.
        Call it from a restoration callback."""
        out = c_uint64()
        load().amber_engine_extend_restoration(byref(out), self._handle())
        return int(out.value)

    def complete_restoration(self, token: int) -> None:
        """Completes an extension; after the last, the archive is discarded (R15)."""
        with E.callbacks_raised():
            load().amber_engine_complete_restoration(self._handle(), token)

    # -- snapshots (R21) --
    def set_snapshot(self, data: Optional[bytes]) -> None:
        """Attaches a snapshot of the interface (a PNG, say) to the next preservation that writes
        an archive, protected and discarded with it (R21); None removes it. LimitExceededError
        beyond 64 MiB."""
        if data is None:
            load().amber_engine_set_snapshot(self._handle(), None, 0)
            return
        data = bytes(data)
        load().amber_engine_set_snapshot(self._handle(), data, len(data))

    def ignore_snapshot(self) -> None:
        """Asks that the snapshot not be used at the next launch (UIKit's
        ignoreSnapshotOnNextApplicationLaunch): the next archive written leaves it out."""
        load().amber_engine_ignore_snapshot(self._handle())

    def snapshot(self) -> Optional[bytes]:
        """The snapshot of the archive there is, to show while restoring (R21): before launch(),
        read from the store; from a callback during restoration, the one being restored. None
        when there is no archive, no snapshot in it, or the host asked to ignore it. The bytes
        are copied at once."""
        out = _ffi.Buf()
        try:
            with E.callbacks_raised():
                load().amber_engine_snapshot(byref(out), self._handle())
        except E.NotFoundError:
            return None
        return take_bytes(out)

    # -- lifecycle (R23) --
    @property
    def state(self) -> AppState:
        state = int(load().amber_engine_app_state(self._handle()))
        if state < 0:
            raise _ffi.error(int(load().amber_error_last_code()) or E.INVALID_ARGUMENT)
        return AppState(state)

    def transition(self, state: AppState) -> bool:
        """Moves the application to ``state`` (R23); returns True if entering the background wrote
        an archive. MisuseError for a transition UIKit does not allow. Entering the background
        preserves as preserve() does: its report is ``last_preservation`` (the exceptions of
        encode callbacks are on it, not raised), and an exception that makes it fail is raised
        here with the report as ``exception.amber_preservation``."""
        saved = c_int()
        handle = self._handle()
        preserves = int(state) == AppState.BACKGROUND and self.state == AppState.INACTIVE
        def call() -> None:
            load().amber_engine_transition(byref(saved), handle, int(state))
        if preserves:
            self._preserving(call, True)
        else:
            with E.callbacks_raised():
                call()
        return bool(saved.value)

    def report_memory_warning(self) -> None:
        """Posts the memory warning notification (R24)."""
        with E.callbacks_raised():
            load().amber_engine_report_memory_warning(self._handle())

    # -- notifications (R24) --
    def add_observer(self, callback: Callable[[Notification], Optional[int]], name: Optional[str] = None,
                     sender: Any = None) -> int:
        """Registers ``callback(notification)`` for notifications named ``name`` (None: all) from
        ``sender`` (None: any; the engine for its own). Returns a token for remove_observer. A
        callback may return a non-zero int, which the post raises (as an AmberError of that code;
        a code a C int cannot hold, or below 0, as CallbackFailedError)."""
        from .app import ObserverHolder
        box = ObserverHolder(callback, self._sender)
        key = box.register(self)
        out = c_uint64()
        try:
            load().amber_engine_add_observer(byref(out), self._handle(), c_text_or_none(name),
                                             self._sender_pointer(sender), _ffi.T_OBSERVER, key, _ffi.CTX_FREE)
        except BaseException:
            box.unregister()
            raise
        box.token = int(out.value)
        return box.token

    def remove_observer(self, token: int) -> None:
        with E.callbacks_raised():
            load().amber_engine_remove_observer(self._handle(), token)

    def observe(self, name: Optional[str] = None, sender: Any = None) -> Callable[[_F], _F]:
        """Decorator form of add_observer."""
        def register(fn: _F) -> _F:
            self.add_observer(fn, name, sender)
            return fn
        return register

    def _sender_pointer(self, sender: Any) -> Optional[int]:
        if sender is None:
            return None
        if sender is self:
            return int(self._handle().value or 0)
        self._senders[id(sender)] = sender  # kept: C compares by pointer while observers live
        return id(sender)

    def _sender(self, pointer: Optional[int]) -> Any:
        """The sender a notification's sender pointer stands for: None, this engine, an object
        given to post_notification or add_observer, else the pointer itself."""
        if pointer is None:
            return None
        if self._h is not None and pointer == self._h.value:
            return self
        return self._senders.get(pointer, pointer)

    def post_notification(self, name: str, sender: Any = None,
                          user_info: Optional[Mapping[str, UserInfoValue]] = None) -> None:
        """Posts a notification to the matching observers, at once, in registration order."""
        from .app import make_user_info
        lib = load()
        info = make_user_info(user_info) if user_info else None
        try:
            with E.callbacks_raised():
                lib.amber_engine_post_notification(self._handle(), c_text(name), self._sender_pointer(sender), info)
        finally:
            if info is not None:
                lib.amber_user_info_free(info)

    def __repr__(self) -> str:
        return f"<amber.Engine {self.app_id!r}{' closed' if self._h is None else ''}>"
