"""Amber for Python: UI state preservation and restoration over libamber.so's C ABI (ctypes).

    import amber

    class Items(amber.Controller):
        row = 0
        def encode_restorable_state(self, coder): coder["selectedRow"] = self.row
        def decode_restorable_state(self, decoder): self.row = decoder.decode_int("selectedRow")

    with amber.Engine("org.example.app", delegate=MyDelegate()) as engine:
        report = engine.launch()          # restores what the last run preserved
        ...
        print(engine.preserve())          # or engine.transition(amber.AppState.BACKGROUND);
                                          # what was saved, what was left out and why (R28)

The library is found at $AMBER_LIBRARY, else inside this package, else on the system search path.
Amber's log lines (R29) go to the logger named "amber" (logging.getLogger("amber")).
"""
from ._errors import (AmberError, AmberIOError, AuthenticationError, CallbackFailedError, CorruptError,
                      DuplicateError, InvalidArgumentError, KeyUnavailableError, LimitExceededError, MisuseError,
                      NotFoundError, ReservedKeyError, TypeMismatchError)
from ._ffi import ABI_MAJOR, LibraryNotFound
from ._core import (LOGGER_NAME, AppState, Coder, Controller, Decoder, Engine, FixedKey, FreshReason, IndexPath,
                    KeyFile, KeyProvider, Kind, LeftOut, MemoryStore, NoEncryption, NotSaved, Notification,
                    Notifications, Object, Outcome, PlainObject, PreservationEntry, PreservationReport, Protection,
                    Record, RecordInfo, Report, Store, View, date_from_seconds, seconds_from_date, set_log_level)
from ._archive import (Archiver, CodingRegistry, Directory, Unarchiver, app_directory, archive, read_file,
                       unarchive, write_file_atomic)

__version__ = "0.2.0"


def library_version() -> str:
    """The version of the libamber.so loaded, e.g. "0.2.0"."""
    from ._ffi import load
    return load().amber_version_string().decode()


def library_path() -> str:
    """The file libamber.so was loaded from."""
    from ._ffi import load
    return load().path


def app_state_name(state: int) -> str:
    """Amber's name of a state ("not running", "inactive", ...)."""
    from ._ffi import load
    return load().amber_app_state_string(int(state)).decode()


__all__ = [n for n in dir() if not n.startswith("_")]
