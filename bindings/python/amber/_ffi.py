"""The one ctypes layer: loading libamber.so, the C types of include/amber.h (and the headers it
includes, include/amber/*.h), the prototype of every function, the one errcheck that turns a
status code into an exception, and the trampolines C calls back.

Everything that declares ctypes lives here (after llvmlite's ``binding/ffi.py`` and clang's
``cindex.py``): a distinct opaque pointer type per handle, the structs, the ``CFUNCTYPE`` of every
callback, the table ``FUNCTIONS``, and the loader. ``tests/test_header.py`` checks all of it
against the headers: the names, the number and kind of every argument and result, the callback
prototypes, the struct members and their offsets.

The other modules call ``load().amber_<name>(...)``. A function that returns a status code raises
the exception of a non-zero code (``_errors.error_for``) and returns 0 otherwise.
"""
from __future__ import annotations

import ctypes
import itertools
import os
import threading
import weakref
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint,
                    c_uint32, c_uint64, c_uint8, c_void_p)
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Protocol, Tuple

from . import _errors as E

#: The major version of the C ABI this binding was written for (AMBER_VERSION_MAJOR).
ABI_MAJOR = 0
#: The lowest minor version it needs (AMBER_VERSION_MINOR of the header it follows).
ABI_MINOR = 3

LIBRARY_NAME = "libamber.so"
# os.path rather than pathlib, and ctypes.util only in candidates(): `import amber` does not pay
# for what only loading the library needs (pathlib, and subprocess through ctypes.util).
PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))


# ---- opaque handle types: one per kind of handle, so that they cannot be mixed up -------------

class EngineP(c_void_p): pass
class ObjectP(c_void_p): pass
class CoderP(c_void_p): pass
class DecoderP(c_void_p): pass
class ReportP(c_void_p): pass
class PreservationP(c_void_p): pass
class UserInfoP(c_void_p): pass
class NotificationP(c_void_p): pass
class RegistryP(c_void_p): pass
class ArchiverP(c_void_p): pass
class UnarchiverP(c_void_p): pass


# ---- structs ----------------------------------------------------------------------------------
# Each mirrors the C struct of the same name (amber_<snake_case>), member for member.

class Buf(Structure):
    """amber_buf: text or bytes Amber gives the caller, released with amber_buf_dispose().
    ``ptr`` is a plain pointer (an int), not a c_char_p: bytes may hold NULs."""
    _fields_ = [("ptr", c_void_p), ("size", c_size_t)]


class IndexPath(Structure):
    """amber_index_path: ``length`` indexes."""
    _fields_ = [("indexes", POINTER(c_int64)), ("length", c_size_t)]


class KeyedValue(Structure):
    """amber_keyed_value: a typed value under a key, the one value type of the C API."""
    _fields_ = [("key", c_char_p), ("type", c_int), ("found", c_int), ("int64_value", c_int64),
                ("double_value", c_double), ("string_value", c_char_p), ("bytes_value", c_void_p),
                ("bytes_size", c_size_t), ("index_path_value", IndexPath)]


class RecordInfo(Structure):
    """amber_record_info: what the archive records of the object a decoder reads (R10)."""
    _fields_ = [("kind", c_int), ("class_name", c_char_p), ("blueprint", c_char_p), ("position", c_size_t)]


class ReportRecord(Structure):
    """amber_report_record (R16, R18). Strings and the object are plain pointers (ints): the
    report reads them once per distinct address (report.py)."""
    _fields_ = [("path", POINTER(c_char_p)), ("path_length", c_size_t), ("class_name", c_void_p),
                ("kind", c_int), ("outcome", c_int), ("message", c_void_p), ("object", c_void_p),
                ("position", c_size_t), ("dropped_identifiers", POINTER(c_char_p)), ("dropped_count", c_size_t)]


class PreservationEntry(Structure):
    """amber_preservation_entry (R28), its strings as plain pointers (ints)."""
    _fields_ = [("path", POINTER(c_char_p)), ("path_length", c_size_t), ("class_name", c_void_p),
                ("kind", c_int), ("left_out", c_int), ("message", c_void_p), ("size", c_uint64),
                ("position", c_size_t)]


class Point(Structure):
    _fields_ = [("x", c_double), ("y", c_double)]


class Size(Structure):
    _fields_ = [("width", c_double), ("height", c_double)]


class Rect(Structure):
    _fields_ = [("origin", Point), ("size", Size)]


class Insets(Structure):
    _fields_ = [("top", c_double), ("left", c_double), ("bottom", c_double), ("right", c_double)]


class Transform(Structure):
    _fields_ = [("a", c_double), ("b", c_double), ("c", c_double), ("d", c_double), ("tx", c_double),
                ("ty", c_double)]


class Range(Structure):
    _fields_ = [("location", c_uint64), ("length", c_uint64)]


class WebPage(Structure):
    _fields_ = [("url", c_char_p), ("scroll", Point)]


class ViewState(Structure):
    """amber_view_state (R17): the members whose AMBER_VIEW_FIELD_* bit is set in ``fields``."""
    _fields_ = [("version", c_uint), ("fields", c_uint32), ("kind", c_int), ("content_offset", Point),
                ("content_inset", Insets), ("zoom_scale", c_double), ("selected_items", POINTER(IndexPath)),
                ("selected_count", c_size_t), ("first_visible_item", IndexPath), ("editing", c_int),
                ("selected_range", Range), ("editable", c_int), ("bounds", Rect), ("center", Point),
                ("transform", Transform), ("anchor_point", Point), ("pages", POINTER(WebPage)),
                ("page_count", c_size_t), ("current_page", c_size_t)]


# ---- callback types ---------------------------------------------------------------------------
# A handle a trampoline does not use is declared c_void_p (the same C ABI as its handle type):
# ctypes then passes an int instead of making a handle object on every call.

CtxFree = CFUNCTYPE(None, c_void_p)
AllocFn = CFUNCTYPE(c_void_p, c_size_t, c_void_p)
LogFn = CFUNCTYPE(None, c_int, c_char_p, c_void_p)

StoreRead = CFUNCTYPE(c_int, AllocFn, c_void_p, POINTER(POINTER(c_uint8)), POINTER(c_size_t), POINTER(c_int),
                      c_void_p)
StoreWrite = CFUNCTYPE(c_int, POINTER(c_uint8), c_size_t, c_void_p)
StoreRemove = CFUNCTYPE(c_int, c_void_p)
StoreReadGuard = CFUNCTYPE(c_int, POINTER(c_int), c_void_p)
StoreWriteGuard = CFUNCTYPE(c_int, c_int, c_void_p)
KeyCallback = CFUNCTYPE(c_int, POINTER(c_uint8), c_int, c_void_p)

ObjEncode = CFUNCTYPE(c_int, c_void_p, CoderP, c_void_p)
ObjDecode = CFUNCTYPE(c_int, c_void_p, DecoderP, c_void_p)
ObjFinished = CFUNCTYPE(None, c_void_p, c_void_p)

# amber_migrate_fn (R30): out (amber_migration), new_state, old_state, from_version, to_version, ctx.
Migrate = CFUNCTYPE(c_int, POINTER(c_int), CoderP, DecoderP, c_uint, c_uint, c_void_p)
ClassMake = CFUNCTYPE(c_int, POINTER(ObjectP), c_void_p, POINTER(c_char_p), c_size_t, DecoderP, c_void_p)
BlueprintMake = CFUNCTYPE(c_int, POINTER(ObjectP), c_void_p, c_char_p, POINTER(c_char_p), c_size_t, DecoderP,
                          c_void_p)

DelShouldSave = CFUNCTYPE(c_int, c_void_p, CoderP, c_void_p)
DelWillEncode = CFUNCTYPE(c_int, c_void_p, CoderP, c_void_p)
DelShouldRestore = CFUNCTYPE(c_int, c_void_p, DecoderP, c_void_p)
DelDidDecode = CFUNCTYPE(c_int, c_void_p, DecoderP, c_void_p)
DelObjectForPath = CFUNCTYPE(c_int, POINTER(ObjectP), c_void_p, POINTER(c_char_p), c_size_t, DecoderP, c_void_p)
DelLaunchStep = CFUNCTYPE(None, c_void_p, c_void_p)

ObserverFn = CFUNCTYPE(c_int, NotificationP, c_void_p)

CodingEncode = CFUNCTYPE(c_int, c_void_p, ArchiverP, c_void_p)
CodingMake = CFUNCTYPE(c_int, POINTER(c_void_p), UnarchiverP, c_void_p)
CodingDecode = CFUNCTYPE(c_int, c_void_p, UnarchiverP, c_void_p)

ViewRead = CFUNCTYPE(c_int, c_void_p, POINTER(ViewState), c_void_p)
ViewApply = CFUNCTYPE(c_int, c_void_p, POINTER(ViewState), c_void_p)
ViewTextLength = CFUNCTYPE(c_int, POINTER(c_uint64), c_void_p, c_void_p)
ModelIdForPath = CFUNCTYPE(c_int, POINTER(c_char_p), c_void_p, POINTER(c_int64), c_size_t, c_void_p)
ModelPathForId = CFUNCTYPE(c_int, POINTER(c_int64), c_size_t, POINTER(c_size_t), c_void_p, c_char_p, c_void_p)
PluginEntry = CFUNCTYPE(c_int, EngineP, c_int)  # amber_plugin_entry: only C calls it
RelaunchStep = CFUNCTYPE(c_int, c_void_p, c_void_p)  # amber_relaunch's tear_down and set_up


# ---- structs with callbacks (vtables and options) ----------------------------------------------

class Store(Structure):
    _fields_ = [("version", c_uint), ("read", StoreRead), ("write", StoreWrite), ("remove", StoreRemove),
                ("read_guard", StoreReadGuard), ("write_guard", StoreWriteGuard)]


class EngineOptions(Structure):
    _fields_ = [("version", c_uint), ("bundle_version", c_char_p), ("interface_idiom", c_char_p),
                ("store", POINTER(Store)), ("store_ctx", c_void_p), ("store_ctx_free", CtxFree),
                ("state_directory", c_char_p), ("memory_store", c_int), ("protection", c_int),
                ("key_file", c_char_p), ("fixed_key", POINTER(c_uint8)), ("key_callback", KeyCallback),
                ("key_ctx", c_void_p), ("key_ctx_free", CtxFree), ("keep_restoration_report", c_int),
                ("keep_archive_after_restore", c_int), ("object_budget", c_uint64), ("archive_budget", c_uint64)]


class Autosave(Structure):
    _fields_ = [("version", c_uint), ("quiet_ms", c_int), ("min_interval_ms", c_int), ("full_saves", c_int)]


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


class CodingClass(Structure):
    _fields_ = [("version", c_uint), ("encode", CodingEncode), ("make", CodingMake), ("decode", CodingDecode)]


class ViewAccessors(Structure):
    _fields_ = [("version", c_uint), ("read", ViewRead), ("apply", ViewApply), ("text_length", ViewTextLength)]


class ModelAssociation(Structure):
    _fields_ = [("version", c_uint), ("identifier_for_index_path", ModelIdForPath),
                ("index_path_for_identifier", ModelPathForId)]


class Relaunch(Structure):
    _fields_ = [("version", c_uint), ("tear_down", RelaunchStep), ("set_up", RelaunchStep), ("launch_state", c_int)]


# The versions of the structs above (the *_VERSION macros): a struct zeroed with its version set is
# valid (AMBER_*_INIT); zero members mean the defaults.
STORE_VERSION = 1
ENGINE_OPTIONS_VERSION = 3
AUTOSAVE_VERSION = 1
OBJECT_CALLBACKS_VERSION = 1
RESTORATION_CLASS_VERSION = 1
BLUEPRINT_FACTORY_VERSION = 1
DELEGATE_VERSION = 1
CODING_CLASS_VERSION = 1
VIEW_STATE_VERSION = 1
VIEW_ACCESSORS_VERSION = 1
MODEL_ASSOCIATION_VERSION = 1
RELAUNCH_VERSION = 1

# amber_value_type
VALUE_ANY, VALUE_BOOL, VALUE_INT64, VALUE_DOUBLE, VALUE_STRING, VALUE_BYTES, VALUE_DATE, VALUE_INDEX_PATH = range(8)

# amber_app_state values amber_engine_launch() takes
APP_INACTIVE, APP_BACKGROUND = 1, 3


# ---- the prototype table ----------------------------------------------------------------------

class Proto(NamedTuple):
    """One C function: its name, argument types and result type. ``status``: it returns an
    amber_status, which errcheck turns into an exception. ``releases_gil``: it is called without
    the GIL (it may do I/O or run long), so other Python threads run meanwhile."""
    name: str
    argtypes: Tuple[Any, ...]
    restype: Any
    status: bool = False
    releases_gil: bool = False


def status(name: str, *argtypes: Any, releases_gil: bool = False) -> Proto:
    """A function that returns an amber_status."""
    return Proto(name, argtypes, c_int, True, releases_gil)


def plain(name: str, restype: Any, *argtypes: Any) -> Proto:
    """A function whose result is a value (a count, a getter's answer), or void (None)."""
    return Proto(name, argtypes, restype)


_s = c_char_p
_i = c_int
_p = c_void_p
_sz = c_size_t
_ps = POINTER(c_char_p)
_buf = POINTER(Buf)
_kv = POINTER(KeyedValue)

# Grouped by the header that declares them.
FUNCTIONS: Tuple[Proto, ...] = (
    # common.h
    plain("amber_version_number", _i),
    plain("amber_version_string", _s),
    plain("amber_error_last", _s),
    plain("amber_error_last_code", _i),
    plain("amber_error_clear", None),
    plain("amber_error_set", _i, _i, _s),
    plain("amber_status_string", _s, _i),
    plain("amber_buf_dispose", None, _buf),
    plain("amber_app_state_string", _s, _i),
    status("amber_set_log", _i, LogFn, _p, CtxFree),
    # engine.h
    status("amber_engine_open", POINTER(EngineP), _s, POINTER(EngineOptions)),
    plain("amber_engine_close", None, EngineP),
    status("amber_engine_register_restoration_class", EngineP, _s, POINTER(RestorationClass), _p, CtxFree),
    status("amber_engine_register_subclass", EngineP, _s, _s),
    status("amber_engine_register_state_version", EngineP, _s, c_uint, Migrate, _p, CtxFree),
    status("amber_engine_register_blueprint_factory", EngineP, _s, POINTER(BlueprintFactory), _p, CtxFree),
    status("amber_engine_set_delegate", EngineP, POINTER(Delegate), _p, CtxFree),
    status("amber_engine_add_root", EngineP, ObjectP),
    status("amber_engine_remove_root", EngineP, ObjectP),
    status("amber_engine_launch", POINTER(ReportP), EngineP, _i, releases_gil=True),
    status("amber_engine_preserve", POINTER(_i), EngineP, releases_gil=True),
    status("amber_engine_preservation", POINTER(PreservationP), EngineP),
    status("amber_engine_set_autosave", EngineP, POINTER(Autosave)),
    status("amber_engine_autosave_timeout", POINTER(_i), EngineP),
    status("amber_engine_tick", POINTER(_i), EngineP, releases_gil=True),
    status("amber_engine_transition", POINTER(_i), EngineP, _i, releases_gil=True),
    plain("amber_engine_app_state", _i, EngineP),
    status("amber_engine_report_memory_warning", EngineP),
    status("amber_engine_discard", EngineP, releases_gil=True),
    status("amber_engine_extend_restoration", POINTER(c_uint64), EngineP),
    status("amber_engine_complete_restoration", EngineP, c_uint64, releases_gil=True),
    status("amber_engine_keep_unclaimed", EngineP, c_uint64),
    status("amber_engine_end_restoration", EngineP),
    status("amber_engine_restoration_report", POINTER(ReportP), EngineP),
    status("amber_engine_set_snapshot", EngineP, _p, _sz),
    status("amber_engine_ignore_snapshot", EngineP),
    status("amber_engine_snapshot", _buf, EngineP, releases_gil=True),
    status("amber_engine_set_log", EngineP, _i, LogFn, _p, CtxFree),
    # object.h
    status("amber_object_new", POINTER(ObjectP), EngineP, _i, _s, _s, POINTER(ObjectCallbacks), _p, CtxFree),
    plain("amber_object_free", None, ObjectP),
    plain("amber_object_identifier", _s, ObjectP),
    status("amber_object_set_identifier", ObjectP, _s),
    status("amber_object_mark_dirty", ObjectP),
    plain("amber_object_class_name", _s, ObjectP),
    plain("amber_object_kind", _i, ObjectP),
    plain("amber_object_context", _p, ObjectP),
    status("amber_object_path", _buf, ObjectP),
    status("amber_object_set_restoration_class", ObjectP, _s),
    status("amber_object_restore_pending", ObjectP),
    status("amber_object_set_restoration_parent", ObjectP, ObjectP),
    status("amber_object_set_blueprint", ObjectP, _s),
    status("amber_object_set_stack", ObjectP, _i),
    status("amber_object_add_child", ObjectP, ObjectP),
    status("amber_object_remove_child", ObjectP, ObjectP),
    status("amber_object_add_view", ObjectP, ObjectP),
    status("amber_object_present", ObjectP, ObjectP),
    # coder.h
    status("amber_coder_encode_string", CoderP, _s, _s),
    status("amber_coder_encode_int64", CoderP, _s, c_int64),
    status("amber_coder_encode_double", CoderP, _s, c_double),
    status("amber_coder_encode_bool", CoderP, _s, _i),
    status("amber_coder_encode_bytes", CoderP, _s, _p, _sz),
    status("amber_coder_encode_date", CoderP, _s, c_double),
    status("amber_coder_encode_index_path", CoderP, _s, POINTER(c_int64), _sz),
    status("amber_coder_encode_object", CoderP, _s, ObjectP),
    status("amber_coder_mark_sensitive", CoderP, _s),
    status("amber_decoder_decode_string", POINTER(_s), DecoderP, _s),
    status("amber_decoder_decode_int64", POINTER(c_int64), DecoderP, _s),
    status("amber_decoder_decode_double", POINTER(c_double), DecoderP, _s),
    status("amber_decoder_decode_bool", POINTER(_i), DecoderP, _s),
    status("amber_decoder_decode_bytes", POINTER(POINTER(c_uint8)), POINTER(_sz), DecoderP, _s),
    status("amber_decoder_decode_date", POINTER(c_double), DecoderP, _s),
    status("amber_decoder_decode_index_path", POINTER(IndexPath), DecoderP, _s),
    status("amber_decoder_decode_object", POINTER(ObjectP), DecoderP, _s, _ps, _sz),
    plain("amber_decoder_contains", _i, DecoderP, _s),
    status("amber_decoder_record", POINTER(RecordInfo), DecoderP),
    status("amber_decoder_path_positions", POINTER(POINTER(_sz)), POINTER(_sz), DecoderP),
    # report.h
    plain("amber_report_count", _sz, ReportP),
    status("amber_report_record_at", POINTER(ReportRecord), ReportP, _sz),
    status("amber_report_record_positions", POINTER(POINTER(_sz)), ReportP, _sz),
    plain("amber_report_message", _s, ReportP),
    plain("amber_report_fresh_reason", _i, ReportP),
    plain("amber_report_protection", _s, ReportP),
    status("amber_report_format", _buf, ReportP),
    plain("amber_report_free", None, ReportP),
    plain("amber_preservation_count", _sz, PreservationP),
    status("amber_preservation_entry_at", POINTER(PreservationEntry), PreservationP, _sz),
    status("amber_preservation_entry_positions", POINTER(POINTER(_sz)), PreservationP, _sz),
    plain("amber_preservation_message", _s, PreservationP),
    plain("amber_preservation_not_saved", _i, PreservationP),
    plain("amber_preservation_size", c_uint64, PreservationP),
    plain("amber_preservation_largest_count", _sz, PreservationP),
    status("amber_preservation_largest_at", POINTER(PreservationEntry), PreservationP, _sz),
    status("amber_preservation_largest_positions", POINTER(POINTER(_sz)), PreservationP, _sz),
    status("amber_preservation_format", _buf, PreservationP),
    plain("amber_preservation_free", None, PreservationP),
    # view.h
    status("amber_object_set_view_accessors", ObjectP, _i, POINTER(ViewAccessors), _p, CtxFree),
    plain("amber_object_view_kind", _i, ObjectP),
    status("amber_object_set_model_association", ObjectP, POINTER(ModelAssociation), _p, CtxFree),
    # app.h
    plain("amber_notification_name", _s, NotificationP),
    plain("amber_notification_sender", _p, NotificationP),
    plain("amber_notification_user_info", UserInfoP, NotificationP),
    status("amber_engine_add_observer", POINTER(c_uint64), EngineP, _s, _p, ObserverFn, _p, CtxFree),
    status("amber_engine_remove_observer", EngineP, c_uint64),
    status("amber_engine_post_notification", EngineP, _s, _p, UserInfoP),
    status("amber_user_info_new", POINTER(UserInfoP)),
    plain("amber_user_info_free", None, UserInfoP),
    plain("amber_user_info_count", _sz, UserInfoP),
    status("amber_user_info_key_at", POINTER(_s), UserInfoP, _sz),
    status("amber_user_info_set_values", UserInfoP, _kv, _sz),
    status("amber_user_info_values", _kv, _sz, UserInfoP),
    status("amber_app_directory", _buf, _s, _i, releases_gil=True),
    status("amber_file_read", _buf, _s, releases_gil=True),
    status("amber_file_write_atomic", _s, _p, _sz, releases_gil=True),
    # archive.h
    status("amber_coding_registry_new", POINTER(RegistryP)),
    plain("amber_coding_registry_free", None, RegistryP),
    status("amber_coding_registry_register", RegistryP, _s, _s, POINTER(CodingClass), _p, CtxFree),
    status("amber_archiver_new", POINTER(ArchiverP), RegistryP),
    plain("amber_archiver_free", None, ArchiverP),
    status("amber_archiver_finish", _buf, ArchiverP),
    status("amber_archiver_encode_values", ArchiverP, _kv, _sz),
    status("amber_archiver_encode_object", ArchiverP, _s, _s, _p),
    status("amber_archiver_encode_object_array", ArchiverP, _s, _s, POINTER(_p), _sz),
    status("amber_unarchiver_new", POINTER(UnarchiverP), RegistryP, _p, _sz),
    plain("amber_unarchiver_free", None, UnarchiverP),
    plain("amber_unarchiver_contains", _i, UnarchiverP, _s),
    status("amber_unarchiver_decode_values", _kv, _sz, UnarchiverP),
    status("amber_unarchiver_decode_object", POINTER(_p), UnarchiverP, _s, _ps, _sz),
    status("amber_unarchiver_decode_object_array", POINTER(_p), _sz, POINTER(_sz), UnarchiverP, _s, _ps, _sz),
    # plugin.h
    status("amber_engine_load_plugin", EngineP, _s),
    status("amber_coder_encode_values", CoderP, _kv, _sz),
    status("amber_decoder_decode_values", _kv, _sz, DecoderP),
    # testing.h
    status("amber_testing_relaunch", POINTER(ReportP), POINTER(EngineP), POINTER(Relaunch), _p),
)
#: The same prototypes by name, for the library's declaration on first use.
PROTOTYPES: Dict[str, Proto] = {proto.name: proto for proto in FUNCTIONS}


# ---- errors -----------------------------------------------------------------------------------

def error(code: int) -> E.AmberError:
    """The exception of a status code that a call of this thread just returned, with
    amber_error_last()'s message."""
    lib = load()
    message = (lib.amber_error_last() or b"").decode("utf-8", "replace")
    return E.error_for(code, message, (lib.amber_status_string(code) or b"").decode())


def _check(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """The errcheck of every function that returns a status: raises for a non-zero one."""
    if result:
        raise error(result)
    return result


# ---- the loader -------------------------------------------------------------------------------

class LibraryNotFound(ImportError):
    """libamber.so could not be loaded, or is of another version; the message says how to fix it."""


def candidates() -> Iterator[Tuple[str, str]]:
    """The places the loader tries, in order, each when the one before has failed:
    ``(where, path-or-name)``.

    1. ``$AMBER_LIBRARY``, a file (when set, it is the only one tried);
    2. the copy inside the package (``amber/libamber.so``: a wheel carries one);
    3. the source tree's build (``.build-lib/lib/libamber.so``, three levels above the package),
       for a source checkout or an editable install;
    4. the system search path (``ctypes.util.find_library("amber")``, else ``libamber.so``): asked
       last and only when needed, since it runs ``ldconfig`` and the compiler in subprocesses.
    """
    env = os.environ.get("AMBER_LIBRARY")
    if env:
        yield ("AMBER_LIBRARY", env)
        return
    bundled = os.path.join(PACKAGE_DIR, LIBRARY_NAME)
    if os.path.isfile(bundled):
        yield ("package", bundled)
    tree = os.path.join(PACKAGE_DIR, "..", "..", "..", ".build-lib", "lib", LIBRARY_NAME)
    if os.path.isfile(tree):
        yield ("source tree", os.path.normpath(tree))
    import ctypes.util  # here, and only when it is asked: it imports subprocess
    yield ("system", ctypes.util.find_library("amber") or LIBRARY_NAME)


HOW_TO_FIX = ("Install the wheel, which carries the library (pip install amber_restoration-*.whl, built with "
              "`pip wheel ./bindings/python`); or in a source checkout build it with scripts/build-lib.sh (it writes "
              ".build-lib/lib/libamber.so, which the package finds); or set AMBER_LIBRARY=/path/to/libamber.so.")


class Library:
    """libamber.so loaded and declared: one attribute per C function, ``lib.amber_<name>``.

    Functions marked ``releases_gil`` come from a ctypes.CDLL (the GIL is released during the
    call); the others from a ctypes.PyDLL (the GIL stays held: they are short, and most are called
    from callbacks that hold it anyway).

    Each function is declared when first used (``__getattr__``): a program calls about a fifth of
    them before its first frame, and making a ctypes function object is most of what declaring
    costs. Every symbol is looked up at load all the same, so that an older library is refused
    whole rather than half used."""

    def __init__(self, path: str, where: str):
        self.path = path
        self.where = where
        self._held = ctypes.PyDLL(path)
        self._released = ctypes.CDLL(path)
        missing = next((proto.name for proto in FUNCTIONS if not _exports(self._held, proto.name)), None)
        if missing is not None:
            # An older library: its structs' layouts may differ too, so it is refused rather than
            # half used.
            raise LibraryNotFound(
                f"{path} (from {where}) has no {missing}: it is older than this binding "
                f"(Amber {self.amber_version_string().decode()} without it). " + HOW_TO_FIX)
        number = int(self.amber_version_number())
        major, minor = number // 1000000, number // 1000 % 1000
        if major != ABI_MAJOR or minor < ABI_MINOR:
            raise LibraryNotFound(
                f"{path} (from {where}) is Amber {self.amber_version_string().decode()} (version number {number}); "
                f"this binding needs major version {ABI_MAJOR}, minor >= {ABI_MINOR}. " + HOW_TO_FIX)
        self.version_number = number

    def __getattr__(self, name: str) -> Any:  # Any: a ctypes function, its arguments declared
        """The C function ``name``, declared on its first use; then an attribute of the library,
        so that this is not called for it again."""
        proto = PROTOTYPES.get(name)
        if proto is None:
            raise AttributeError(f"libamber.so has no function {name!r} in this binding")
        # Any: typeshed's errcheck type wants _check to take ctypes objects; it gets a Python int.
        fn: Any = (self._released if proto.releases_gil else self._held)[name]
        fn.argtypes = proto.argtypes
        fn.restype = proto.restype
        if proto.status:
            fn.errcheck = _check
        setattr(self, name, fn)
        return fn


def _exports(dll: ctypes.CDLL, name: str) -> bool:
    """Whether the library exports ``name``: the symbol looked up (dlsym) as a variable's, which
    makes no function object."""
    try:
        c_char.in_dll(dll, name)
    except ValueError:  # "undefined symbol"
        return False
    return True


_lib: Optional[Library] = None
_lock = threading.Lock()
#: Called once with the library when it is first loaded (log.py installs the log function).
LOAD_HOOKS: List[Callable[[Library], None]] = []


def load() -> Library:
    """Loads the library on first use and returns it. Raises LibraryNotFound."""
    lib = _lib
    if lib is not None:
        return lib
    return _load()


def _load() -> Library:
    global _lib
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
            except OSError as failure:
                tried.append(f"{where}: {failure}")
                if where == "AMBER_LIBRARY":
                    break
                continue
            _lib = lib
            for hook in LOAD_HOOKS:
                hook(lib)
            return lib
        raise LibraryNotFound("cannot load libamber.so (tried " + "; ".join(tried) + "). " + HOW_TO_FIX)


# ---- contexts: what a C context pointer stands for -------------------------------------------
# A context is a small integer. ``_contexts`` maps it weakly to its holder (an Object, a delegate
# box, ...); the holder's owner (an Engine or a CodingRegistry) keeps it strongly in ``owner._keep``
# until Amber calls ctx_free, which forgets both. So gc never frees what C may still call, and an
# engine nobody references can still be collected (closing it frees the rest).

_contexts: Dict[int, "weakref.ref[Holder]"] = {}
_next_context = itertools.count(1).__next__


class Owner(Protocol):
    """What keeps holders alive: an Engine or a CodingRegistry. A protocol, so that the modules
    that register holders for an engine (storage, views) need not import the engine."""
    _keep: Dict[int, "Holder"]


class Holder:
    """Something a C context stands for. ``register`` gives it its number (``c_context``); its
    ``c_owner`` (an Engine or a CodingRegistry, with a ``_keep`` dict) keeps it alive until Amber
    calls ctx_free, which calls ``c_released``. Subclasses add the ``c_*`` methods their
    trampolines call."""
    __slots__ = ("__weakref__", "c_owner", "c_context")
    c_owner: Any  # the Owner given to register; Any: a subclass knows which kind it is
    c_context: int

    def register(self, owner: Owner) -> int:
        self.c_owner = owner
        self.c_context = key = _next_context()
        owner._keep[key] = self
        _contexts[key] = weakref.ref(self)
        return key

    def unregister(self) -> None:
        """Forgets a context Amber refused (on failure Amber does not call ctx_free)."""
        _contexts.pop(self.c_context, None)
        self.c_owner._keep.pop(self.c_context, None)

    def c_released(self) -> None:
        """Amber no longer needs this context."""


def holder(key: Optional[int]) -> Any:  # Any: the holder's c_* methods are its subclass's
    """The holder of a context number; RuntimeError if it is gone."""
    ref = _contexts.get(key) if key is not None else None
    found = ref() if ref is not None else None
    if found is None:
        raise RuntimeError(f"amber: callback context {key} is gone")
    return found


def _t_ctx_free(key: Optional[int]) -> None:
    try:
        ref = _contexts.pop(key, None) if key is not None else None
        found = ref() if ref is not None else None
        if found is not None:
            found.c_owner._keep.pop(key, None)
            found.c_released()
    except BaseException as failure:  # never propagate into C
        E.callback_failed(failure)


CTX_FREE = CtxFree(_t_ctx_free)


# ---- trampolines ------------------------------------------------------------------------------
# C calls these; each converts C's arguments, finds the holder by its context and calls one of its
# ``c_*`` methods (defined by the module that owns the holder), and turns an exception into a
# status code with a message (``_failed``). The CFUNCTYPE objects are module globals: alive as
# long as the module, as long as C may call them.

def _failed(failure: BaseException, source: Any = None) -> int:
    """What a trampoline that returns a status does with the exception it caught: keeps it for
    the C call's caller (E.callback_failed, which gives the code) and tells Amber why with
    amber_error_set(), as a C callback does: Amber puts the message after the code wherever it
    reports the failure (a record's message at restoration, R12 and R30; an entry's at
    preservation, R28; a launch report's message). Returns the code."""
    code = E.callback_failed(failure, source)
    load().amber_error_set(code, E.describe(failure).encode("utf-8", "replace"))
    return code


def _t_encode(obj_h: int, coder_h: CoderP, ctx: int) -> int:
    obj = None
    try:
        obj = _contexts[ctx]()
        return obj.c_encode(coder_h)  # type: ignore[union-attr, no-any-return]
    except BaseException as failure:
        # The source: a preservation leaves the object out, reports the exception, goes on (R28).
        return _failed(failure, obj)


def _t_decode(obj_h: int, decoder_h: DecoderP, ctx: int) -> int:
    try:
        return _contexts[ctx]().c_decode(decoder_h)  # type: ignore[union-attr, no-any-return]
    except BaseException as failure:
        return _failed(failure)


def _t_finished(obj_h: int, ctx: int) -> None:
    try:
        holder(ctx).c_finished()
    except BaseException as failure:
        E.callback_failed(failure)


def _t_class_make(out: Any, engine_h: int, path: Any, length: int, decoder_h: DecoderP, ctx: int) -> int:
    try:
        maker = holder(ctx)
        result = maker.c_make(decoder_h, path[:length])
        out[0] = result
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_migrate(out: Any, coder_h: CoderP, decoder_h: DecoderP, from_version: int, to_version: int,
               ctx: int) -> int:
    try:
        out[0] = holder(ctx).c_migrate(coder_h, decoder_h, from_version, to_version)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_blueprint_make(out: Any, engine_h: int, blueprint_id: bytes, path: Any, length: int,
                      decoder_h: DecoderP, ctx: int) -> int:
    try:
        out[0] = holder(ctx).c_make_blueprint(decoder_h, blueprint_id, path[:length])
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_should_save(engine_h: int, coder_h: CoderP, ctx: int) -> int:
    try:
        return 1 if holder(ctx).c_should_save(coder_h) else 0
    except BaseException as failure:
        E.callback_failed(failure)
        return 0  # do not save; the exception reaches preserve()'s caller


def _t_will_encode(engine_h: int, coder_h: CoderP, ctx: int) -> int:
    try:
        holder(ctx).c_will_encode(coder_h)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_should_restore(engine_h: int, decoder_h: DecoderP, ctx: int) -> int:
    try:
        return 1 if holder(ctx).c_should_restore(decoder_h) else 0
    except BaseException as failure:
        E.callback_failed(failure)
        return 0  # do not restore; the exception reaches launch()'s caller


def _t_did_decode(engine_h: int, decoder_h: DecoderP, ctx: int) -> int:
    try:
        holder(ctx).c_did_decode(decoder_h)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_object_for_path(out: Any, engine_h: int, path: Any, length: int, decoder_h: DecoderP, ctx: int) -> int:
    try:
        out[0] = holder(ctx).c_object_for_path(decoder_h, path[:length])
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_will_finish(engine_h: int, ctx: int) -> None:
    try:
        holder(ctx).c_launch_step("will_finish_launching")
    except BaseException as failure:
        E.callback_failed(failure)


def _t_did_finish(engine_h: int, ctx: int) -> None:
    try:
        holder(ctx).c_launch_step("did_finish_launching")
    except BaseException as failure:
        E.callback_failed(failure)


def _t_observer(note_h: NotificationP, ctx: int) -> int:
    try:
        return int(holder(ctx).c_notify(note_h))
    except BaseException as failure:
        return _failed(failure)


def _t_store_read(alloc: Any, alloc_ctx: int, out: Any, out_size: Any, out_found: Any, ctx: int) -> int:
    try:
        data = holder(ctx).c_read()
        if data is None:
            out_found[0] = 0
            out_size[0] = 0
            return 0
        p = alloc(max(len(data), 1), alloc_ctx)
        if not p:
            return E.LIMIT_EXCEEDED
        ctypes.memmove(p, data, len(data))
        out[0] = ctypes.cast(p, POINTER(c_uint8))
        out_size[0] = len(data)
        out_found[0] = 1
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_store_write(data: Any, size: int, ctx: int) -> int:
    try:
        holder(ctx).c_write(ctypes.string_at(data, size) if size else b"")
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_store_remove(ctx: int) -> int:
    try:
        holder(ctx).c_remove()
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_store_read_guard(out: Any, ctx: int) -> int:
    try:
        out[0] = int(holder(ctx).c_read_guard())
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_store_write_guard(count: int, ctx: int) -> int:
    try:
        holder(ctx).c_write_guard(count)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_key(key_out: Any, for_saving: int, ctx: int) -> int:
    try:
        key = holder(ctx).c_key(bool(for_saving))
        if key is None:
            return E.KEY_UNAVAILABLE
        ctypes.memmove(key_out, key, 32)
        return 0
    except E.KeyUnavailableError:
        return E.KEY_UNAVAILABLE
    except BaseException as failure:
        return _failed(failure)


def _t_coding_encode(obj_p: int, archiver_h: ArchiverP, ctx: int) -> int:
    try:
        holder(ctx).c_encode_object(obj_p, archiver_h)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_coding_make(out: Any, unarchiver_h: UnarchiverP, ctx: int) -> int:
    try:
        out[0] = holder(ctx).c_make_object(unarchiver_h)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_coding_decode(obj_p: int, unarchiver_h: UnarchiverP, ctx: int) -> int:
    try:
        holder(ctx).c_decode_object(obj_p, unarchiver_h)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_view_read(view_h: int, state: Any, ctx: int) -> int:
    box = None
    try:
        box = holder(ctx)
        box.c_read_view(state.contents)
        return 0
    except BaseException as failure:
        # The source: at preservation the view is left out and the rest saved (R17, R28).
        return _failed(failure, box.view if box is not None else None)


def _t_view_apply(view_h: int, state: Any, ctx: int) -> int:
    try:
        holder(ctx).c_apply_view(state.contents)
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_view_text_length(out: Any, view_h: int, ctx: int) -> int:
    try:
        out[0] = holder(ctx).c_text_length()
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_identifier_for_index_path(out: Any, view_h: int, indexes: Any, length: int, ctx: int) -> int:
    box = None
    try:
        box = holder(ctx)
        # bytes (kept alive by the holder until the next call), or None
        out[0] = box.c_identifier_for_index_path(tuple(indexes[:length]) if length else ())
        return 0
    except BaseException as failure:
        # Called at preservation only: the view is left out and the rest saved (R18, R28).
        return _failed(failure, box.view if box is not None else None)


def _t_index_path_for_identifier(out: Any, capacity: int, out_length: Any, view_h: int, identifier: bytes,
                                 ctx: int) -> int:
    try:
        path = holder(ctx).c_index_path_for_identifier(identifier, capacity)
        out_length[0] = len(path)
        if len(path) <= capacity:  # else Amber calls again with room for it
            for i, index in enumerate(path):
                out[i] = index
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_relaunch_tear_down(engine_h: int, ctx: int) -> int:
    try:
        holder(ctx).c_tear_down()
        return 0
    except BaseException as failure:
        return _failed(failure)


def _t_relaunch_set_up(engine_h: int, ctx: int) -> int:
    try:
        holder(ctx).c_set_up(engine_h)
        return 0
    except BaseException as failure:
        return _failed(failure)


#: The hook the log trampoline calls with (level, message bytes): set by log.py.
on_log: Callable[[int, bytes], None] = lambda level, message: None


def _t_log(level: int, message: bytes, ctx: int) -> None:
    try:
        on_log(level, message)
    except Exception:  # a handler's failure is logging's to report (Handler.handleError)
        pass
    except BaseException as failure:  # KeyboardInterrupt: re-raised after the C call
        E.callback_failed(failure)


T_ENCODE = ObjEncode(_t_encode)
T_DECODE = ObjDecode(_t_decode)
T_FINISHED = ObjFinished(_t_finished)
T_CLASS_MAKE = ClassMake(_t_class_make)
T_BLUEPRINT_MAKE = BlueprintMake(_t_blueprint_make)
T_MIGRATE = Migrate(_t_migrate)
T_DELEGATE = {
    "should_save": DelShouldSave(_t_should_save),
    "will_encode": DelWillEncode(_t_will_encode),
    "should_restore": DelShouldRestore(_t_should_restore),
    "did_decode": DelDidDecode(_t_did_decode),
    "object_for_path": DelObjectForPath(_t_object_for_path),
    "will_finish_launching": DelLaunchStep(_t_will_finish),
    "did_finish_launching": DelLaunchStep(_t_did_finish),
}
T_OBSERVER = ObserverFn(_t_observer)
T_STORE = (StoreRead(_t_store_read), StoreWrite(_t_store_write), StoreRemove(_t_store_remove),
           StoreReadGuard(_t_store_read_guard), StoreWriteGuard(_t_store_write_guard))
T_KEY = KeyCallback(_t_key)
T_CODING = (CodingEncode(_t_coding_encode), CodingMake(_t_coding_make), CodingDecode(_t_coding_decode))
T_VIEW = (ViewRead(_t_view_read), ViewApply(_t_view_apply), ViewTextLength(_t_view_text_length))
T_MODEL = (ModelIdForPath(_t_identifier_for_index_path), ModelPathForId(_t_index_path_for_identifier))
T_LOG = LogFn(_t_log)
T_RELAUNCH = (RelaunchStep(_t_relaunch_tear_down), RelaunchStep(_t_relaunch_set_up))
