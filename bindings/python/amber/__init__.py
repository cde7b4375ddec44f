"""Amber for Python: UI state preservation and restoration over libamber.so's C API (ctypes).

    import amber

    class Items(amber.Controller):
        row = 0
        def encode_restorable_state(self, coder): coder["selectedRow"] = self.row
        def decode_restorable_state(self, decoder): self.row = decoder.decode_int("selectedRow")

    with amber.Engine("org.example.app", delegate=MyDelegate()) as engine:
        report = engine.launch()          # restores what the last run preserved
        ...
        print(engine.preserve())          # what was saved, what was left out and why (R28)

The modules follow the header's sections: engine (amber/engine.h), objects (object.h and
coder.h), report (report.h), views (view.h), storage (stores and keys), app (app.h), archive
(archive.h), log (the log, R29), testing (testing.h: amber.testing.relaunch, R33); _ffi holds
every ctypes declaration and the trampolines. testing and app are imported when one of their
names is first used: restoring an interface needs neither, and a program pays for its imports
before its first frame (issue 40, item 6).

They import one way, as llvmlite's do: the concepts below, the Engine above them.

Layers, lowest first: a module imports only modules on earlier lines, anywhere in its code (in a
function, under TYPE_CHECKING), so that no import cycle can form (tests/test_layering.py checks it):

    _errors                               the exceptions, the pending callback failures
    _ffi                                  ctypes declarations, the loader, contexts (Holder, Owner)
    values, log                           enums, Path, IndexPath, text and value conversions; the log
    objects                               Object, Coder, Decoder, and EngineCore: the engine as its
                                          objects, views, stores and reports know it
    report, views, storage, app, archive  what an engine reports, views, stores, notifications, NSCoding
    engine                                Engine, an EngineCore with everything else
    testing                               relaunch (R33), which makes Engines
    amber                                 this package, which names the public API
    tk                                    the Tk adapter, which imports amber

Where the binding departs from the C API:

- Status codes are exceptions: AMBER_NOT_FOUND is NotFoundError (a KeyError),
  AMBER_TYPE_MISMATCH TypeMismatchError (a TypeError), AMBER_INVALID_ARGUMENT
  InvalidArgumentError (a ValueError), AMBER_IO AmberIOError (an OSError), the others
  AmberError subclasses; each carries the code, its name and amber_error_last()'s message. A
  getter answering a bad handle with its _INVALID value raises likewise. Where NOT_FOUND only
  means "there is none" (an object's path, a snapshot, the last preservation), the answer is None.
- Handles are objects: Engine, Object, CodingRegistry, Archiver and Unarchiver have close() (or
  free()) and are context managers; a NULL handle is None; a handle used after it was freed is
  a MisuseError raised by the binding, before C sees it.
- Text is str (UTF-8; lone surrogates cross as surrogateescape bytes, which Amber refuses as
  invalid UTF-8); a str with a NUL is an InvalidArgumentError; buffers are bytes; amber_buf is
  never seen (its bytes are copied and it is disposed of).
- Restoration paths are amber.Path: a tuple of identifiers that also carries the stack position
  (R3), in callbacks, reports and Object.path. The C API gives a live object's path as '/'-joined
  text only: Object.path splits it (Object.path_string is the exact text) and has position 0.
- Callbacks are methods: a subclass of Object, View or Store overrides them, a delegate or data
  source has them. An exception a callback raises is kept, reported to Amber as a callback
  failure with its type and text as the message (amber_error_set), and re-raised once the C call
  that led to it returns; except where C reports a callback's failure instead of returning it:
  in an object's encode callback, preservation leaves the object out and goes on (R28), the
  exception on the preservation report's entry (entry.error); during a launch, the exception is
  its step's outcome (a decode callback's record is DECODE_ERROR, R12) and is on the launch
  report's ``errors`` (Engine.launch).
- Coders and decoders are valid only during their callback (afterwards a MisuseError).
  Coder.update(mapping) writes any Mapping in one call, all or nothing; values are bool, int,
  float, str, bytes, datetime (an NSDate) and IndexPath; references to objects are written
  one at a time (coder[key] = obj).
- Reports are read lazily: a launch's and a preservation's summary at once, their records and
  text when first asked for, the C report freed once both are read.
- The log goes to the logging module's logger "amber" (R29); AMBER_LOG still prints to stderr.
- The library is found at $AMBER_LIBRARY (a file; when set, nothing else is tried), else inside
  this package (a wheel carries it), else in the source tree's .build-lib/lib, else on the
  system search path.
"""
from typing import TYPE_CHECKING, Any, List

from ._errors import AmberError as AmberError
from ._errors import AmberIOError as AmberIOError
from ._errors import AuthenticationError as AuthenticationError
from ._errors import CallbackFailedError as CallbackFailedError
from ._errors import CorruptError as CorruptError
from ._errors import DuplicateError as DuplicateError
from ._errors import InvalidArgumentError as InvalidArgumentError
from ._errors import KeyUnavailableError as KeyUnavailableError
from ._errors import LimitExceededError as LimitExceededError
from ._errors import MisuseError as MisuseError
from ._errors import NotFoundError as NotFoundError
from ._errors import ReservedKeyError as ReservedKeyError
from ._errors import TypeMismatchError as TypeMismatchError
from ._ffi import ABI_MAJOR as ABI_MAJOR
from ._ffi import LibraryNotFound as LibraryNotFound
from ._ffi import load as _load
from .archive import Archiver as Archiver
from .archive import CodingRegistry as CodingRegistry
from .archive import Unarchiver as Unarchiver
from .archive import archive as archive
from .archive import unarchive as unarchive
from .engine import Engine as Engine
from .log import LOGGER_NAME as LOGGER_NAME
from .log import set_log_level as set_log_level
from .objects import Coder as Coder
from .objects import Controller as Controller
from .objects import Decoder as Decoder
from .objects import Object as Object
from .objects import PlainObject as PlainObject
from .objects import RecordInfo as RecordInfo
from .report import PreservationEntry as PreservationEntry
from .report import PreservationReport as PreservationReport
from .report import Record as Record
from .report import Report as Report
from .storage import FixedKey as FixedKey
from .storage import KeyFile as KeyFile
from .storage import KeyProvider as KeyProvider
from .storage import MemoryStore as MemoryStore
from .storage import NoEncryption as NoEncryption
from .storage import Protection as Protection
from .storage import Store as Store
from .values import AppState as AppState
from .values import FreshReason as FreshReason
from .values import IndexPath as IndexPath
from .values import Kind as Kind
from .values import LeftOut as LeftOut
from .values import Migration as Migration
from .values import NotSaved as NotSaved
from .values import Outcome as Outcome
from .values import Path as Path
from .values import ViewField as ViewField
from .values import ViewKind as ViewKind
from .values import date_from_seconds as date_from_seconds
from .values import seconds_from_date as seconds_from_date
from .views import Insets as Insets
from .views import ModelAssociation as ModelAssociation
from .views import Point as Point
from .views import Rect as Rect
from .views import Size as Size
from .views import TextRange as TextRange
from .views import Transform as Transform
from .views import View as View
from .views import ViewState as ViewState
from .views import WebPage as WebPage

if TYPE_CHECKING:  # imported when first used (``__getattr__`` below); named here for type checkers
    from . import testing as testing
    from .app import Directory as Directory
    from .app import Notification as Notification
    from .app import Notifications as Notifications
    from .app import app_directory as app_directory
    from .app import read_file as read_file
    from .app import write_file_atomic as write_file_atomic

#: The names of amber.app this package gives, imported on first use: a program that restores its
#: interface needs neither app directories nor notifications, and ``import amber`` (which a Tk
#: program pays for before its first frame) does not build them.
_APP_NAMES = frozenset({"Directory", "Notification", "Notifications", "app_directory", "read_file",
                        "write_file_atomic"})

__version__ = "0.3.0"


def __getattr__(name: str) -> Any:
    """The names imported on first use (PEP 562): ``amber.testing`` (a test harness, R33) and
    amber.app's. Each is then an attribute of the package, and this is not called for it again."""
    # Imported here, not by `import amber`: an interpreter that has not imported it yet (a
    # venv's) would pay for it before a program's first frame. import_module, not
    # ``from . import``: that asks this package for the name first, which would call this
    # function again.
    import importlib
    if name == "testing":
        return importlib.import_module(".testing", __name__)  # which makes it the attribute
    if name in _APP_NAMES:
        value = getattr(importlib.import_module(".app", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | _APP_NAMES | {"testing"})


def library_version() -> str:
    """The version of the libamber.so loaded, e.g. "0.3.0"."""
    return (_load().amber_version_string() or b"").decode()


def library_path() -> str:
    """The file libamber.so was loaded from."""
    return _load().path


def app_state_name(state: int) -> str:
    """Amber's name of a state ("not running", "inactive", ...)."""
    return (_load().amber_app_state_string(int(state)) or b"").decode()


__all__ = [
    "ABI_MAJOR", "AmberError", "AmberIOError", "AppState", "Archiver", "AuthenticationError",
    "CallbackFailedError", "Coder", "CodingRegistry", "Controller", "CorruptError", "Decoder", "Directory",
    "DuplicateError", "Engine", "FixedKey", "FreshReason", "IndexPath", "Insets", "InvalidArgumentError",
    "KeyFile", "KeyProvider", "KeyUnavailableError", "Kind", "LOGGER_NAME", "LeftOut", "LibraryNotFound",
    "LimitExceededError", "MemoryStore", "Migration", "MisuseError", "ModelAssociation", "NoEncryption",
    "NotFoundError", "NotSaved", "Notification", "Notifications", "Object", "Outcome", "Path", "PlainObject", "Point",
    "PreservationEntry", "PreservationReport", "Protection", "Record", "RecordInfo", "Rect", "Report",
    "ReservedKeyError", "Size", "Store", "TextRange", "Transform", "TypeMismatchError", "Unarchiver", "View",
    "ViewField", "ViewKind", "ViewState", "WebPage", "app_directory", "app_state_name", "archive",
    "date_from_seconds", "library_path", "library_version", "read_file", "seconds_from_date", "set_log_level",
    "testing", "unarchive", "write_file_atomic",
]
