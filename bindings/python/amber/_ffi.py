"""The one ctypes layer: loading libamber.so, the C types of include/amber.h (and the headers it
includes, include/amber/*.h), and its functions.

Everything that touches ctypes lives here (after clang's cindex.py and llvmlite's ffi.py): a
declarative table of ``(name, argtypes, restype)``, a distinct opaque pointer type per handle,
and the loader. The public modules only call ``lib().<function>``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double, c_int, c_int64, c_size_t,
                    c_uint, c_uint64, c_uint8, c_void_p)
from pathlib import Path
from typing import Callable, List, Optional

#: The major version of the C ABI this binding was written for (AMBER_VERSION_MAJOR).
ABI_MAJOR = 0
#: The lowest minor version it needs (AMBER_VERSION_MINOR of the header it follows: 0.2 renamed
#: and removed functions and grew structs, so an 0.1 library is refused).
ABI_MINOR = 2

LIBRARY_NAME = "libamber.so"
PACKAGE_DIR = Path(__file__).resolve().parent


# ---- opaque handle types: one per kind of handle, so they cannot be mixed up -----------------

class EngineP(c_void_p): pass
class ObjectP(c_void_p): pass
class CoderP(c_void_p): pass
class DecoderP(c_void_p): pass
class ReportP(c_void_p): pass
class UserInfoP(c_void_p): pass
class NotificationP(c_void_p): pass
class RegistryP(c_void_p): pass
class ArchiverP(c_void_p): pass
class UnarchiverP(c_void_p): pass
class PreservationP(c_void_p): pass


# ---- callback types and structs --------------------------------------------------------------

CtxFree = CFUNCTYPE(None, c_void_p)
AllocFn = CFUNCTYPE(c_void_p, c_size_t, c_void_p)

StoreRead = CFUNCTYPE(c_int, AllocFn, c_void_p, POINTER(POINTER(c_uint8)), POINTER(c_size_t),
                      POINTER(c_int), c_void_p)
StoreWrite = CFUNCTYPE(c_int, POINTER(c_uint8), c_size_t, c_void_p)
StoreRemove = CFUNCTYPE(c_int, c_void_p)
StoreReadGuard = CFUNCTYPE(c_int, POINTER(c_int), c_void_p)
StoreWriteGuard = CFUNCTYPE(c_int, c_int, c_void_p)
KeyCallback = CFUNCTYPE(c_int, POINTER(c_uint8), c_int, c_void_p)

# A handle the binding's trampoline does not use is declared c_void_p (the same C ABI as the
# handle's own type): ctypes then passes a plain int (or None) instead of making an object of the
# handle's type on every call (issue 6: once per preserved and restored object).
ObjEncode = CFUNCTYPE(c_int, c_void_p, CoderP, c_void_p)  # (amber_object *, amber_coder *, ctx)
ObjDecode = CFUNCTYPE(c_int, c_void_p, DecoderP, c_void_p)  # (amber_object *, amber_decoder *, ctx)
ObjFinished = CFUNCTYPE(None, c_void_p, c_void_p)  # (amber_object *, ctx)

# (amber_object **out, amber_engine *, path, path_length, amber_decoder *, ctx)
ClassMake = CFUNCTYPE(c_int, POINTER(ObjectP), c_void_p, POINTER(c_char_p), c_size_t, DecoderP, c_void_p)
BlueprintMake = CFUNCTYPE(c_int, POINTER(ObjectP), EngineP, c_char_p, POINTER(c_char_p), c_size_t,
                          DecoderP, c_void_p)

DelShouldSave = CFUNCTYPE(c_int, EngineP, CoderP, c_void_p)
DelWillEncode = CFUNCTYPE(c_int, EngineP, CoderP, c_void_p)
DelShouldRestore = CFUNCTYPE(c_int, EngineP, DecoderP, c_void_p)
DelDidDecode = CFUNCTYPE(c_int, EngineP, DecoderP, c_void_p)
DelObjectForPath = CFUNCTYPE(c_int, POINTER(ObjectP), EngineP, POINTER(c_char_p), c_size_t, DecoderP,
                             c_void_p)
DelLaunchStep = CFUNCTYPE(None, EngineP, c_void_p)

ObserverFn = CFUNCTYPE(c_int, NotificationP, c_void_p)

CodingEncode = CFUNCTYPE(c_int, c_void_p, ArchiverP, c_void_p)
CodingMake = CFUNCTYPE(c_int, POINTER(c_void_p), UnarchiverP, c_void_p)
CodingDecode = CFUNCTYPE(c_int, c_void_p, UnarchiverP, c_void_p)

# amber_log_fn: (amber_log_level, const char *message, void *ctx)
LogFn = CFUNCTYPE(None, c_int, c_char_p, c_void_p)


class Store(Structure):
    _fields_ = [("version", c_uint), ("read", StoreRead), ("write", StoreWrite), ("remove", StoreRemove),
                ("read_guard", StoreReadGuard), ("write_guard", StoreWriteGuard)]


class EngineOptions(Structure):
    _fields_ = [("version", c_uint), ("bundle_version", c_char_p), ("interface_idiom", c_char_p),
                ("store", POINTER(Store)), ("store_ctx", c_void_p), ("store_ctx_free", CtxFree),
                ("state_directory", c_char_p), ("memory_store", c_int), ("protection", c_int),
                ("key_file", c_char_p), ("fixed_key", POINTER(c_uint8)), ("key_callback", KeyCallback),
                ("key_ctx", c_void_p), ("key_ctx_free", CtxFree)]


class ObjectCallbacks(Structure):
    _fields_ = [("version", c_uint), ("encode", ObjEncode), ("decode", ObjDecode),
                ("finished_restoring", ObjFinished)]


class RestorationClass(Structure):
    _fields_ = [("version", c_uint), ("make", ClassMake)]


class BlueprintFactory(Structure):
    _fields_ = [("version", c_uint), ("make", BlueprintMake)]


class Delegate(Structure):
    _fields_ = [("version", c_uint), ("should_save", DelShouldSave), ("will_encode", DelWillEncode),
                ("should_restore", DelShouldRestore), ("did_decode", DelDidDecode),
                ("object_for_path", DelObjectForPath), ("will_finish_launching", DelLaunchStep),
                ("did_finish_launching", DelLaunchStep)]


class Buf(Structure):
    """amber_buf: text or bytes Amber gives the caller (``size`` bytes at ``ptr``, a NUL after
    them), released with amber_buf_dispose(). ``ptr`` is a plain pointer (an int), not a
    c_char_p: bytes may hold NULs."""
    _fields_ = [("ptr", c_void_p), ("size", c_size_t)]


class IndexPath(Structure):
    """amber_index_path: ``length`` indexes."""
    _fields_ = [("indexes", POINTER(c_int64)), ("length", c_size_t)]


class ReportRecord(Structure):
    _fields_ = [("path", POINTER(c_char_p)), ("path_length", c_size_t), ("class_name", c_char_p),
                ("kind", c_int), ("outcome", c_int), ("message", c_char_p), ("object", ObjectP),
                ("position", c_size_t), ("dropped_identifiers", POINTER(c_char_p)), ("dropped_count", c_size_t)]


class ReportRecordPointers(Structure):
    """amber_report_record with its strings and object as plain pointers (ints): the layout of
    ReportRecord, for reading a report's records fast (a class name's C string is lent once per
    distinct name, so it is decoded once per address)."""
    _fields_ = [("path", POINTER(c_char_p)), ("path_length", c_size_t), ("class_name", c_void_p),
                ("kind", c_int), ("outcome", c_int), ("message", c_void_p), ("object", c_void_p),
                ("position", c_size_t), ("dropped_identifiers", c_void_p), ("dropped_count", c_size_t)]


class RecordInfo(Structure):
    """amber_record_info: what the archive records of the object a decoder reads (R10)."""
    _fields_ = [("kind", c_int), ("class_name", c_char_p), ("blueprint", c_char_p), ("position", c_size_t)]


class PreservationEntry(Structure):
    """amber_preservation_entry, with its strings as plain pointers (ints), for reading a
    preservation report's entries fast (R28)."""
    _fields_ = [("path", POINTER(c_char_p)), ("path_length", c_size_t), ("class_name", c_void_p),
                ("kind", c_int), ("left_out", c_int), ("message", c_void_p), ("size", c_uint64),
                ("position", c_size_t)]


class KeyedValue(Structure):
    """amber_keyed_value: a typed value under a key, the one value type of the C API: an
    object's values in one C call (amber_coder_encode_values(), amber_decoder_decode_values()),
    a date or an index path, a user info, a keyed archive's values."""
    _fields_ = [("key", c_char_p), ("type", c_int), ("found", c_int), ("int64_value", c_int64),
                ("double_value", c_double), ("string_value", c_char_p), ("bytes_value", c_void_p),
                ("bytes_size", c_size_t), ("index_path_value", IndexPath)]


# amber_value_type
VALUE_ANY, VALUE_BOOL, VALUE_INT64, VALUE_DOUBLE, VALUE_STRING, VALUE_BYTES, VALUE_DATE, VALUE_INDEX_PATH = range(8)

# amber_app_state values amber_engine_launch() takes
APP_INACTIVE, APP_BACKGROUND = 1, 3


class CodingClass(Structure):
    _fields_ = [("version", c_uint), ("encode", CodingEncode), ("make", CodingMake), ("decode", CodingDecode)]


# The versions of the structs above (the *_VERSION macros of include/amber/*.h). A struct zeroed
# with its version set is valid (AMBER_*_INIT): zero members mean the defaults.
STORE_VERSION = 1
ENGINE_OPTIONS_VERSION = 1
OBJECT_CALLBACKS_VERSION = 1
RESTORATION_CLASS_VERSION = 1
BLUEPRINT_FACTORY_VERSION = 1
DELEGATE_VERSION = 1
CODING_CLASS_VERSION = 1

_s = c_char_p
_i = c_int
_p = c_void_p
_sz = c_size_t
_ps = POINTER(c_char_p)
_pi64 = POINTER(c_int64)
_pu8 = POINTER(POINTER(c_uint8))
_buf = POINTER(Buf)
_kv = POINTER(KeyedValue)

# (name, argtypes, restype). restype c_int: a status code, checked by the caller. Grouped by the
# header that declares them (include/amber/*.h).
FUNCTIONS = [
    # common.h
    ("amber_version_number", [], _i),
    ("amber_version_string", [], _s),
    ("amber_error_last", [], _s),
    ("amber_error_last_code", [], _i),
    ("amber_error_clear", [], None),
    ("amber_status_string", [_i], _s),
    ("amber_buf_dispose", [_buf], None),
    ("amber_app_state_string", [_i], _s),
    ("amber_set_log", [_i, LogFn, _p], _i),
    # engine.h
    ("amber_engine_open", [POINTER(EngineP), _s, POINTER(EngineOptions)], _i),
    ("amber_engine_close", [EngineP], None),
    ("amber_engine_register_restoration_class", [EngineP, _s, POINTER(RestorationClass), _p, CtxFree], _i),
    ("amber_engine_register_subclass", [EngineP, _s, _s], _i),
    ("amber_engine_register_blueprint_factory", [EngineP, _s, POINTER(BlueprintFactory), _p, CtxFree], _i),
    ("amber_engine_set_delegate", [EngineP, POINTER(Delegate), _p, CtxFree], _i),
    ("amber_engine_add_root", [EngineP, ObjectP], _i),
    ("amber_engine_remove_root", [EngineP, ObjectP], _i),
    ("amber_engine_launch", [POINTER(ReportP), EngineP, _i], _i),
    ("amber_engine_preserve", [POINTER(_i), EngineP], _i),
    ("amber_engine_preservation", [POINTER(PreservationP), EngineP], _i),
    ("amber_engine_transition", [POINTER(_i), EngineP, _i], _i),
    ("amber_engine_app_state", [EngineP], _i),
    ("amber_engine_report_memory_warning", [EngineP], _i),
    ("amber_engine_discard", [EngineP], _i),
    ("amber_engine_extend_restoration", [POINTER(c_uint64), EngineP], _i),
    ("amber_engine_complete_restoration", [EngineP, c_uint64], _i),
    ("amber_engine_set_log", [EngineP, _i, LogFn, _p], _i),
    # object.h
    ("amber_object_new", [POINTER(ObjectP), EngineP, _i, _s, _s, POINTER(ObjectCallbacks), _p, CtxFree], _i),
    ("amber_object_free", [ObjectP], None),
    ("amber_object_identifier", [ObjectP], _s),
    ("amber_object_set_identifier", [ObjectP, _s], _i),
    ("amber_object_class_name", [ObjectP], _s),
    ("amber_object_kind", [ObjectP], _i),
    ("amber_object_context", [ObjectP], _p),
    ("amber_object_path", [_buf, ObjectP], _i),
    ("amber_object_set_restoration_class", [ObjectP, _s], _i),
    ("amber_object_set_restoration_parent", [ObjectP, ObjectP], _i),
    ("amber_object_set_blueprint", [ObjectP, _s], _i),
    ("amber_object_set_stack", [ObjectP, _i], _i),
    ("amber_object_add_child", [ObjectP, ObjectP], _i),
    ("amber_object_remove_child", [ObjectP, ObjectP], _i),
    ("amber_object_add_view", [ObjectP, ObjectP], _i),
    ("amber_object_present", [ObjectP, ObjectP], _i),
    # coder.h
    ("amber_coder_encode_string", [CoderP, _s, _s], _i),
    ("amber_coder_encode_int64", [CoderP, _s, c_int64], _i),
    ("amber_coder_encode_double", [CoderP, _s, c_double], _i),
    ("amber_coder_encode_bool", [CoderP, _s, _i], _i),
    ("amber_coder_encode_bytes", [CoderP, _s, _p, _sz], _i),
    ("amber_coder_encode_object", [CoderP, _s, ObjectP], _i),
    ("amber_decoder_decode_string", [POINTER(_s), DecoderP, _s], _i),
    ("amber_decoder_decode_int64", [_pi64, DecoderP, _s], _i),
    ("amber_decoder_decode_double", [POINTER(c_double), DecoderP, _s], _i),
    ("amber_decoder_decode_bool", [POINTER(c_int), DecoderP, _s], _i),
    ("amber_decoder_decode_bytes", [_pu8, POINTER(_sz), DecoderP, _s], _i),
    ("amber_decoder_decode_object", [POINTER(ObjectP), DecoderP, _s, _ps, _sz], _i),
    ("amber_decoder_contains", [DecoderP, _s], _i),
    ("amber_decoder_record", [POINTER(RecordInfo), DecoderP], _i),
    # report.h
    ("amber_report_count", [ReportP], _sz),
    ("amber_report_record_at", [POINTER(ReportRecord), ReportP, _sz], _i),
    ("amber_report_message", [ReportP], _s),
    ("amber_report_fresh_reason", [ReportP], _i),
    ("amber_report_protection", [ReportP], _s),
    ("amber_report_format", [_buf, ReportP], _i),
    ("amber_report_free", [ReportP], None),
    ("amber_preservation_count", [PreservationP], _sz),
    ("amber_preservation_entry_at", [POINTER(PreservationEntry), PreservationP, _sz], _i),
    ("amber_preservation_message", [PreservationP], _s),
    ("amber_preservation_not_saved", [PreservationP], _i),
    ("amber_preservation_size", [PreservationP], c_uint64),
    ("amber_preservation_format", [_buf, PreservationP], _i),
    ("amber_preservation_free", [PreservationP], None),
    # app.h
    ("amber_notification_name", [NotificationP], _s),
    ("amber_notification_sender", [NotificationP], _p),
    ("amber_notification_user_info", [NotificationP], UserInfoP),
    ("amber_engine_add_observer", [POINTER(c_uint64), EngineP, _s, _p, ObserverFn, _p, CtxFree], _i),
    ("amber_engine_remove_observer", [EngineP, c_uint64], _i),
    ("amber_engine_post_notification", [EngineP, _s, _p, UserInfoP], _i),
    ("amber_user_info_new", [POINTER(UserInfoP)], _i),
    ("amber_user_info_free", [UserInfoP], None),
    ("amber_user_info_count", [UserInfoP], _sz),
    ("amber_user_info_key_at", [POINTER(_s), UserInfoP, _sz], _i),
    ("amber_user_info_set_values", [UserInfoP, _kv, _sz], _i),
    ("amber_user_info_values", [_kv, _sz, UserInfoP], _i),
    ("amber_app_directory", [_buf, _s, _i], _i),
    ("amber_file_read", [_buf, _s], _i),
    ("amber_file_write_atomic", [_s, _p, _sz], _i),
    # archive.h
    ("amber_coding_registry_new", [POINTER(RegistryP)], _i),
    ("amber_coding_registry_free", [RegistryP], None),
    ("amber_coding_registry_register", [RegistryP, _s, _s, POINTER(CodingClass), _p, CtxFree], _i),
    ("amber_archiver_new", [POINTER(ArchiverP), RegistryP], _i),
    ("amber_archiver_free", [ArchiverP], None),
    ("amber_archiver_finish", [_buf, ArchiverP], _i),
    ("amber_archiver_encode_values", [ArchiverP, _kv, _sz], _i),
    ("amber_archiver_encode_object", [ArchiverP, _s, _s, _p], _i),
    ("amber_archiver_encode_object_array", [ArchiverP, _s, _s, POINTER(_p), _sz], _i),
    ("amber_unarchiver_new", [POINTER(UnarchiverP), RegistryP, _p, _sz], _i),
    ("amber_unarchiver_free", [UnarchiverP], None),
    ("amber_unarchiver_contains", [UnarchiverP, _s], _i),
    ("amber_unarchiver_decode_values", [_kv, _sz, UnarchiverP], _i),
    ("amber_unarchiver_decode_object", [POINTER(_p), UnarchiverP, _s, _ps, _sz], _i),
    ("amber_unarchiver_decode_object_array", [POINTER(_p), _sz, POINTER(_sz), UnarchiverP, _s, _ps, _sz], _i),
    # plugin.h (the advanced calls)
    ("amber_engine_load_plugin", [EngineP, _s], _i),
    ("amber_coder_encode_values", [CoderP, _kv, _sz], _i),
    ("amber_decoder_decode_values", [_kv, _sz, DecoderP], _i),
]


# The hot calls of preservation and restoration (one per value, per object or per report
# record), declared a second time without argtypes as ``lib.fast.<name>``: ctypes then converts
# nothing (from_param per argument costs ~0.1 µs a call). Their signatures are those of FUNCTIONS
# above, and the caller passes exactly the C types, since ctypes no longer checks them: a handle
# as its handle object (ObjectP, CoderP, ...), a string as bytes or None, an int64 as c_int64, a
# double as c_double, a size_t as c_size_t, a pointer-sized context as c_void_p, a C int as a
# Python int, out parameters with byref(). A Python int where the C type is wider than int would
# be cut to 32 bits: never pass one for an int64, size_t or pointer (a float is refused).
FAST = (
    "amber_coder_encode_bool", "amber_coder_encode_int64", "amber_coder_encode_double",
    "amber_coder_encode_string",
    "amber_decoder_decode_bool", "amber_decoder_decode_int64", "amber_decoder_decode_double",
    "amber_decoder_decode_string",
    "amber_object_new", "amber_report_record_at", "amber_preservation_entry_at",
    "amber_coder_encode_values", "amber_decoder_decode_values",
)


class LibraryNotFound(ImportError):
    """libamber.so could not be loaded, or is of another major version; the message says how to fix it."""


def candidates() -> list[tuple[str, str]]:
    """The places the loader tries, in order: ``(where, path-or-name)``.

    1. ``$AMBER_LIBRARY``, a file (when set, it is the only one tried);
    2. the copy inside the package (``amber/libamber.so``, placed by ``bindings/python/build-lib.sh``
       or the test runner);
    3. the system search path (``ctypes.util.find_library("amber")``, else ``libamber.so`` for dlopen).
    """
    env = os.environ.get("AMBER_LIBRARY")
    if env:
        return [("AMBER_LIBRARY", env)]
    found: list[tuple[str, str]] = []
    bundled = PACKAGE_DIR / LIBRARY_NAME
    if bundled.is_file():
        found.append(("package", str(bundled)))
    found.append(("system", ctypes.util.find_library("amber") or LIBRARY_NAME))
    return found


_HOW_TO_FIX = ("Build it with scripts/build-lib.sh (it writes .build-lib/lib/libamber.so), then either set "
               "AMBER_LIBRARY=/path/to/libamber.so, copy it into the package directory ({pkg}), or install it "
               "where the dynamic linker finds it (e.g. /usr/local/lib, then ldconfig).")


class _Namespace:
    """The functions of ``lib.fast``."""


class Library:
    """libamber.so loaded and declared. ``lib.<name>`` are ctypes functions that keep the GIL
    (cheap accessors); ``lib.released.<name>`` release it (calls that may do I/O);
    ``lib.fast.<name>`` are the hot functions of FAST without argtypes (they keep the GIL)."""

    def __init__(self, path: str, where: str):
        self.path = path
        self.where = where
        # PyDLL keeps the GIL held during calls: the coder and decoder accessors (called millions
        # of times from callbacks that hold it anyway) skip a release and re-acquire each.
        # CDLL releases it: preserve, launch and the file calls let other Python threads run.
        self._py = ctypes.PyDLL(path)
        self.released = ctypes.CDLL(path)
        # lib.fast: a third handle (its functions are objects of their own) whose hot functions
        # keep argtypes None (see FAST); PyDLL as well.
        self.fast = _Namespace()
        self.released.amber_version_string.restype = c_char_p
        unchecked = ctypes.PyDLL(path)
        fast = set(FAST)
        for name, argtypes, restype in FUNCTIONS:
            for handle in (self._py, self.released):
                try:
                    fn = getattr(handle, name)
                except AttributeError:
                    # An older library: the layouts of its structs may differ too (the report
                    # record's `position`), so it is refused rather than half used.
                    raise LibraryNotFound(
                        f"{path} (from {where}) has no {name}: it is older than this binding "
                        f"(Amber {self.released.amber_version_string().decode()} without it). "
                        + _HOW_TO_FIX.format(pkg=PACKAGE_DIR)) from None
                fn.argtypes = argtypes
                fn.restype = restype
            setattr(self, name, getattr(self._py, name))
            if name in fast:
                fn = getattr(unchecked, name)
                fn.restype = restype
                setattr(self.fast, name, fn)
                fast.discard(name)
        assert not fast, f"FAST names functions FUNCTIONS does not declare: {sorted(fast)}"
        number = self.amber_version_number()
        major, minor = number // 1000000, number // 1000 % 1000
        if major != ABI_MAJOR or minor < ABI_MINOR:
            raise LibraryNotFound(
                f"{path} (from {where}) is Amber {self.amber_version_string().decode()} (version number {number}); "
                f"this binding needs major version {ABI_MAJOR}, minor >= {ABI_MINOR}. "
                + _HOW_TO_FIX.format(pkg=PACKAGE_DIR))
        self.version_number = number


_lib: Optional[Library] = None
_lock = threading.Lock()
#: Called once with the library when it is first loaded (the public modules register what they
#: install process-wide: the log function, R29).
LOAD_HOOKS: List[Callable[[Library], None]] = []


def load() -> Library:
    """Loads the library on first use (lazily) and returns it. Raises LibraryNotFound."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for where, path in candidates():
            if where == "AMBER_LIBRARY" and not os.path.isfile(path):
                tried.append(f"{where}: {path} is not a file")
                break
            try:
                lib = Library(path, where)
            except OSError as error:
                tried.append(f"{where}: {error}")
                if where == "AMBER_LIBRARY":
                    break
                continue
            _lib = lib
            for hook in LOAD_HOOKS:
                hook(lib)
            return lib
        raise LibraryNotFound("cannot load libamber.so (tried " + "; ".join(tried) + "). "
                              + _HOW_TO_FIX.format(pkg=PACKAGE_DIR))


def reset_for_tests() -> None:
    """Forgets the loaded library so that the next load() searches again (tests of the search order)."""
    global _lib
    with _lock:
        _lib = None
