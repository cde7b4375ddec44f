"""The engine, its objects, coders, delegate, classes, report, lifecycle and notifications."""
from __future__ import annotations

import ctypes
import datetime as _dt
import enum
import itertools
import logging
import re
import struct
import threading
import weakref
from ctypes import byref, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint8, c_uint64, c_void_p, POINTER
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Type,
                    TypeVar, Union)

from . import _errors as E
from . import _ffi as F
from ._ffi import load

__all__ = ["Kind", "Outcome", "FreshReason", "NotSaved", "LeftOut", "AppState", "IndexPath", "Object",
           "Controller", "View", "PlainObject", "Coder", "Decoder", "RecordInfo", "Record", "Report",
           "PreservationEntry", "PreservationReport", "Notification", "Store", "MemoryStore", "Protection",
           "KeyFile", "FixedKey", "KeyProvider", "NoEncryption", "Engine", "check", "Notifications",
           "date_from_seconds", "seconds_from_date", "set_log_level", "LOGGER_NAME"]


class Kind(enum.IntEnum):
    """The kind of a restorable object (amber_kind)."""
    CONTROLLER = 0
    VIEW = 1
    OBJECT = 2


class Outcome(enum.IntEnum):
    """What happened to one archived object (amber_outcome, R16)."""
    RESTORED = 0
    DECLINED_BY_CLASS = 1
    NOT_FOUND = 2
    CLASS_MISMATCH = 3
    LEFT_OUT = 4
    DECODE_ERROR = 5
    DUPLICATE = 6


class FreshReason(enum.IntEnum):
    """Why a launch was fresh (amber_fresh_reason); NONE: restoration ran."""
    NONE = 0
    NO_ARCHIVE = 1
    DECLINED = 2
    CORRUPT = 3
    CRASH_LOOP = 4
    KEY_UNAVAILABLE = 5
    STORE_ERROR = 6
    AUTHENTICATION_FAILED = 7
    DISCARDED_BY_HOST = 8
    IN_PROGRESS = 9
    #: the previous process ended while restoration was extended (R15): the archive was discarded
    EXTENSION_UNFINISHED = 10


class NotSaved(enum.IntEnum):
    """Why a preservation saved nothing (amber_not_saved, R28); NONE: an archive was written."""
    NONE = 0
    NO_SHOULD_SAVE = 1
    DECLINED = 2
    FAILED = 3


class LeftOut(enum.IntEnum):
    """Why an object was not preserved (amber_left_out, R28); NONE: it was preserved."""
    NONE = 0
    NO_IDENTIFIER = 1
    ANCESTOR_WITHOUT_IDENTIFIER = 2
    DUPLICATE_PATH = 3
    ENCODE_FAILED = 4
    UNDER_LEFT_OUT = 5
    NOT_REFERENCED = 6
    TOO_DEEP = 7  # deeper than the limit restoration reads (512 levels), with what is under it (R22)


class AppState(enum.IntEnum):
    """The application's state (amber_app_state, R23)."""
    NOT_RUNNING = 0
    INACTIVE = 1
    ACTIVE = 2
    BACKGROUND = 3
    SUSPENDED = 4


class Notifications:
    """The names of the engine's own notifications (R24)."""
    DID_FINISH_LAUNCHING = "AmberApplicationDidFinishLaunchingNotification"
    WILL_RESIGN_ACTIVE = "AmberApplicationWillResignActiveNotification"
    DID_BECOME_ACTIVE = "AmberApplicationDidBecomeActiveNotification"
    DID_ENTER_BACKGROUND = "AmberApplicationDidEnterBackgroundNotification"
    WILL_ENTER_FOREGROUND = "AmberApplicationWillEnterForegroundNotification"
    WILL_TERMINATE = "AmberApplicationWillTerminateNotification"
    DID_RECEIVE_MEMORY_WARNING = "AmberApplicationDidReceiveMemoryWarningNotification"


class IndexPath(tuple):
    """An index path (NSIndexPath): a tuple of ints that a coder stores as an index path."""

    def __new__(cls, *indexes: int) -> "IndexPath":
        if len(indexes) == 1 and not isinstance(indexes[0], int):
            indexes = tuple(indexes[0])
        return super().__new__(cls, (int(i) for i in indexes))

    def __repr__(self) -> str:
        return f"IndexPath{tuple.__repr__(self)}"


_EPOCH_2001 = _dt.datetime(2001, 1, 1, tzinfo=_dt.timezone.utc)


def seconds_from_date(value: _dt.datetime) -> float:
    """Seconds since 2001-01-01T00:00:00Z (NSDate's reference date); a naive datetime is UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.timezone.utc)
    return (value - _EPOCH_2001).total_seconds()


def date_from_seconds(seconds: float) -> _dt.datetime:
    """The aware UTC datetime of seconds since 2001-01-01T00:00:00Z."""
    return _EPOCH_2001 + _dt.timedelta(seconds=seconds)


# ---- errors -------------------------------------------------------------------------------------

def _raise(code: int) -> None:
    lib = load()
    message = lib.amber_error_last().decode("utf-8", "replace")
    raise E.error_for(code, message, lib.amber_status_string(code).decode())


# How amber_*_values() name the value at fault: "values[0] (key 'k'): ..." before the message.
_FIRST_VALUE = re.compile(r"values\[0\] \(key '.*?'\): ", re.S)


def _raise_one(code: int) -> None:
    """_raise for a call of amber_*_values() with one value (a typed setter or getter of the
    binding): its message without the "values[0] (key ...): " that names the value at fault,
    as the typed functions of the C API 0.1 gave it."""
    lib = load()
    message = _FIRST_VALUE.sub("", lib.amber_error_last().decode("utf-8", "replace"), count=1)
    raise E.error_for(code, message, lib.amber_status_string(code).decode())


def check(code: int) -> None:
    """Raises the exception of a status code (nothing for AMBER_OK)."""
    if code:
        _raise(code)


class _Call:
    """Runs a C call that may call back into Python: exceptions raised by callbacks during it are
    re-raised after it returns (the first one; the others are noted on it), before any status
    code is turned into an exception."""
    __slots__ = ("since",)

    def __enter__(self) -> "_Call":
        self.since = E.mark()
        return self

    def __exit__(self, et, ev, tb) -> None:
        error = E.take(self.since)
        if error is not None:
            if ev is not None and error is not ev:
                error.__context__ = ev
            raise error


def _call(fn: Callable[..., int], *args: Any) -> int:
    """Calls ``fn(*args)`` (a C function returning a status), re-raising callbacks' exceptions,
    then raising for a non-zero status."""
    since = E.mark()
    rc = fn(*args)
    error = E.take(since)
    if error is not None:
        raise error
    if rc:
        _raise(rc)
    return rc


def _s(text: Optional[str]) -> Optional[bytes]:
    """Text to a C string: None stays None; a NUL inside is a ValueError (C would cut it)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError(f"expected str, got {type(text).__name__}")
    if "\0" in text:
        raise E.InvalidArgumentError("a string with a NUL character cannot cross the C ABI", E.INVALID_ARGUMENT,
                                     "AMBER_INVALID_ARGUMENT")
    return text.encode("utf-8", "surrogateescape")


_KEYS: Dict[str, bytes] = {}


def _key(key: str) -> bytes:
    """A coder key as bytes, cached (keys repeat across thousands of objects)."""
    b = _KEYS.get(key)
    if b is None:
        b = _s(key)
        if len(_KEYS) < 65536:
            _KEYS[key] = b
    return b


def _str(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else value.decode("utf-8", "surrogateescape")


def _path_tuple(path, length: int) -> Tuple[str, ...]:
    """A restoration path from C (``length`` C strings) as a tuple of str, built once per call.

    Amber's strings are valid UTF-8, so the strict decoder (``bytes.decode``, through ``map``)
    decodes them; anything else falls back to surrogateescape, as every string of the binding.
    (A cache of decoded components keyed by their bytes was measured and not kept: hashing a
    fresh bytes object costs as much as decoding a short ASCII one.)"""
    parts = path[:length]
    try:
        return tuple(map(bytes.decode, parts))
    except UnicodeDecodeError:
        return tuple([b.decode("utf-8", "surrogateescape") for b in parts])


def _take_bytes(buf: F.Buf) -> bytes:
    """The bytes of an amber_buf Amber filled, which is disposed of (amber_buf_dispose)."""
    try:
        return ctypes.string_at(buf.ptr, buf.size) if buf.size else b""
    finally:
        (F._lib or load()).amber_buf_dispose(byref(buf))


def _take_string(buf: F.Buf) -> str:
    """The text of an amber_buf Amber filled, which is disposed of (amber_buf_dispose)."""
    return _take_bytes(buf).decode("utf-8", "surrogateescape")


def _not_found(key: str) -> E.NotFoundError:
    """The error of a key without a value, for the values read through amber_keyed_value (a
    missing key is not an error there: its `found` is 0), as the typed getters of the C API
    0.1 raised it."""
    return E.NotFoundError(f"no value for key '{key}'", E.NOT_FOUND, "AMBER_NOT_FOUND")


def _keyed_value(key: str, vtype: int) -> F.KeyedValue:
    """One amber_keyed_value with its key and type set (its key's bytes kept by the struct)."""
    value = F.KeyedValue()
    value.key = _key(key)
    value.type = vtype
    return value


def _index_path_value(value: F.KeyedValue, indexes: Sequence[int]) -> None:
    """Sets an amber_keyed_value's index path (ctypes keeps the indexes' array alive with the
    struct)."""
    arr = (c_int64 * len(indexes))(*indexes)
    value.index_path_value.indexes = ctypes.cast(arr, POINTER(c_int64))
    value.index_path_value.length = len(indexes)


# ---- contexts: what a C context pointer stands for ----------------------------------------------
# A context is a small integer key. The global table maps it weakly to its holder (an Object, a
# delegate box, ...); the holder's engine keeps it strongly until Amber calls ctx_free, which
# forgets both. So gc never frees what C may still call, and an engine nobody references can
# still be collected (closing it frees the rest).

_contexts: Dict[int, "weakref.ref[Any]"] = {}
_next_key = itertools.count(1).__next__


class _Holder:
    """Something a C context stands for; ``owner`` keeps it alive (an Engine or a registry)."""
    __slots__ = ("__weakref__", "owner", "key")

    def _register(self, owner: Any) -> int:
        self.owner = owner
        self.key = key = _next_key()
        owner._keep[key] = self
        _contexts[key] = weakref.ref(self)
        return key

    def _released(self) -> None:
        """Amber no longer needs this context."""


def _ctx_free(key: Optional[int]) -> None:
    try:
        ref = _contexts.pop(key, None)
        holder = ref() if ref is not None else None
        if holder is not None:
            holder.owner._keep.pop(key, None)
            holder._released()
    except BaseException as error:  # never propagate into C
        E.callback_failed(error)


CTX_FREE = F.CtxFree(_ctx_free)


def _holder(key: Optional[int]) -> Any:
    ref = _contexts.get(key)
    holder = ref() if ref is not None else None
    if holder is None:
        raise RuntimeError(f"amber: callback context {key} is gone")
    return holder


# ---- coders -----------------------------------------------------------------------------------

class Coder:
    """The coder an encode callback writes an object's state into (R6), or the application
    coder. Valid only during the callback. Write with typed setters, ``coder[key] = value``
    (the type picks the setter), or ``coder.update(mapping)`` for a whole dict at once."""
    __slots__ = ("_h", "_engine")

    def __init__(self, handle: F.CoderP, engine: "Engine"):
        self._h = handle
        self._engine = engine

    def encode_bool(self, key: str, value: bool) -> None:
        """Writes a boolean."""
        rc = load().amber_coder_encode_bool(self._h, _key(key), 1 if value else 0)
        if rc: _raise(rc)

    def encode_int(self, key: str, value: int) -> None:
        """Writes a signed 64-bit integer (OverflowError outside its range)."""
        if not -(1 << 63) <= value < (1 << 63):
            raise OverflowError(f"{value} does not fit in int64")
        rc = load().amber_coder_encode_int64(self._h, _key(key), value)
        if rc: _raise(rc)

    def encode_float(self, key: str, value: float) -> None:
        """Writes a double."""
        rc = load().amber_coder_encode_double(self._h, _key(key), value)
        if rc: _raise(rc)

    def encode_string(self, key: str, value: str) -> None:
        """Writes a string (UTF-8; no NUL characters)."""
        rc = load().amber_coder_encode_string(self._h, _key(key), _s(value))
        if rc: _raise(rc)

    def encode_bytes(self, key: str, value: Union[bytes, bytearray, memoryview]) -> None:
        """Writes bytes."""
        data = bytes(value)
        rc = load().amber_coder_encode_bytes(self._h, _key(key), data, len(data))
        if rc: _raise(rc)

    def encode_date(self, key: str, value: _dt.datetime) -> None:
        """Writes a date (NSDate)."""
        kv = _keyed_value(key, F.VALUE_DATE)
        kv.double_value = seconds_from_date(value)
        rc = load().amber_coder_encode_values(self._h, byref(kv), 1)
        if rc: _raise_one(rc)

    def encode_index_path(self, key: str, value: Sequence[int]) -> None:
        """Writes an index path (NSIndexPath)."""
        kv = _keyed_value(key, F.VALUE_INDEX_PATH)
        _index_path_value(kv, value)
        rc = load().amber_coder_encode_values(self._h, byref(kv), 1)
        if rc: _raise_one(rc)

    def encode_object(self, key: str, value: Optional["Object"]) -> None:
        """Writes a reference to another restorable object (R4), or None: from an object's coder
        or from the application coder (the delegate's should_save and will_encode). An object
        with a restoration identifier is then preserved with its state even if the walk left it
        out (the children of a container without an identifier, a plain object); its path is
        its own identifier under those of its ancestors that have one. ValueError
        (InvalidArgumentError) for an object without an identifier; DuplicateError if another
        preserved object has its path."""
        handle = None if value is None else value._handle()
        rc = load().amber_coder_encode_object(self._h, _key(key), handle)
        if rc: _raise(rc)

    def __setitem__(self, key: str, value: Any) -> None:
        self.update(((key, value),))

    def update(self, values: Union[Mapping[str, Any], Iterable[Tuple[str, Any]]] = (), **more: Any) -> None:
        """Writes every value of a mapping (or of (key, value) pairs), each with the setter its
        type calls for: bool, int, float, str, bytes, datetime, IndexPath, Object or None.

        A dict whose values are all str, int, float or bool (by their exact type) crosses the C
        ABI in one call (amber_coder_encode_values), all or nothing: if a value is refused
        (a reserved key, a key written before, a string with a NUL), none of the dict is
        written. Anything else makes one C call per value, with nothing else in between: the keys
        are encoded once and cached, the four common types go straight to the C functions
        without ctypes' argument conversion (``lib.fast``), and any other type goes through the
        typed setters."""
        h = self._h
        if type(values) is dict:
            if not more and values and _encode_batch(h, values):
                return
            items = values.items()
        elif isinstance(values, Mapping):
            items = values.items()
        else:
            items = values
        if more:
            items = itertools.chain(items, more.items())
        fast = (F._lib or load()).fast
        keys = _KEYS
        enc_int, enc_str, enc_bool, enc_dbl = (fast.amber_coder_encode_int64, fast.amber_coder_encode_string,
                                               fast.amber_coder_encode_bool, fast.amber_coder_encode_double)
        for key, value in items:
            k = keys.get(key) or _key(key)
            t = type(value)
            if t is str:
                if "\0" in value:
                    _s(value)
                try:
                    b = value.encode()  # strict UTF-8: the fast codec path
                except UnicodeEncodeError:  # a lone surrogate
                    b = value.encode("utf-8", "surrogateescape")
                rc = enc_str(h, k, b)
            elif t is int:
                if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
                    raise OverflowError(f"{key}: {value} does not fit in int64")
                rc = enc_int(h, k, c_int64(value))
            elif t is float:
                rc = enc_dbl(h, k, c_double(value))
            elif t is bool:
                rc = enc_bool(h, k, 1 if value else 0)
            else:
                self._encode_other(key, value)
                continue
            if rc:
                _raise(rc)

    def _encode_other(self, key: str, value: Any) -> None:
        if isinstance(value, bool):
            self.encode_bool(key, value)
        elif isinstance(value, IndexPath):
            self.encode_index_path(key, value)
        elif isinstance(value, int):
            self.encode_int(key, value)
        elif isinstance(value, float):
            self.encode_float(key, value)
        elif isinstance(value, str):
            self.encode_string(key, value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            self.encode_bytes(key, value)
        elif isinstance(value, _dt.datetime):
            self.encode_date(key, value)
        elif value is None or isinstance(value, Object):
            self.encode_object(key, value)
        else:
            raise TypeError(f"amber: cannot encode {type(value).__name__} under {key!r} (bool, int, float, str, "
                            "bytes, datetime, IndexPath, Object or None)")


_MISSING = object()


@dataclass(frozen=True)
class RecordInfo:
    """What the archive records of an object besides its state (amber_record_info; R3, R6,
    R10): read with ``decoder.record`` in any lookup or decode callback."""
    kind: Kind
    #: the archived class name
    class_name: str
    #: the blueprint it was made from (UIKit's storyboard identifier), or None
    blueprint: Optional[str]
    #: its position among the children of its stack with the same identifier (0: the first,
    #: and always outside a stack); the path's last component is the identifier as set (R3)
    position: int


class Decoder:
    """The decoder a callback reads an object's state (or the application state) from (R12).
    Valid only during the callback. Typed getters raise KeyError for a missing key and TypeError
    for a value of another type; ``decoder[key]`` finds the type itself."""
    __slots__ = ("_h", "_engine")

    def __init__(self, handle: F.DecoderP, engine: Optional["Engine"]):
        self._h = handle
        self._engine = engine

    def decode_bool(self, key: str) -> bool:
        out = c_int()
        rc = load().amber_decoder_decode_bool(byref(out), self._h, _key(key))
        if rc: _raise(rc)
        return bool(out.value)

    def decode_int(self, key: str) -> int:
        out = c_int64()
        rc = load().amber_decoder_decode_int64(byref(out), self._h, _key(key))
        if rc: _raise(rc)
        return out.value

    def decode_float(self, key: str) -> float:
        """A double (an integer is converted)."""
        out = c_double()
        rc = load().amber_decoder_decode_double(byref(out), self._h, _key(key))
        if rc: _raise(rc)
        return out.value

    def decode_string(self, key: str) -> str:
        out = c_char_p()
        rc = load().amber_decoder_decode_string(byref(out), self._h, _key(key))
        if rc: _raise(rc)
        return out.value.decode("utf-8", "surrogateescape")

    def decode_bytes(self, key: str) -> bytes:
        out = POINTER(c_uint8)()
        size = c_size_t()
        rc = load().amber_decoder_decode_bytes(byref(out), byref(size), self._h, _key(key))
        if rc: _raise(rc)
        return ctypes.string_at(out, size.value) if size.value else b""

    def _decode_value(self, key: str, vtype: int) -> F.KeyedValue:
        """The value under ``key`` of type ``vtype``, through amber_decoder_decode_values()
        (the C API's only reader of dates and index paths)."""
        kv = _keyed_value(key, vtype)
        rc = load().amber_decoder_decode_values(byref(kv), 1, self._h)
        if rc: _raise_one(rc)
        if not kv.found:
            raise _not_found(key)
        return kv

    def decode_date(self, key: str) -> _dt.datetime:
        return date_from_seconds(self._decode_value(key, F.VALUE_DATE).double_value)

    def decode_index_path(self, key: str) -> IndexPath:
        path = self._decode_value(key, F.VALUE_INDEX_PATH).index_path_value
        return IndexPath(*path.indexes[:path.length]) if path.length else IndexPath()

    def decode_object(self, key: str, classes: Optional[Sequence[str]] = None) -> Optional["Object"]:
        """The object restored for the record a reference names (R4), from an object's decoder
        or from the application decoder in the delegate's did_decode; None for a reference to
        None, or to a record for which no object was found (declined, not found). A record
        whose object failed the class check (R11) decodes to the object found: it is kept,
        only its state was not decoded. With ``classes``, secure decoding (R12): an object of
        another class is a TypeError."""
        lib = load()
        out = F.ObjectP()
        if classes is None:
            rc = lib.amber_decoder_decode_object(byref(out), self._h, _key(key), None, 0)
        else:
            names = [_s(c) for c in classes]
            arr = (c_char_p * len(names))(*names)
            rc = lib.amber_decoder_decode_object(byref(out), self._h, _key(key), arr, len(names))
        if rc: _raise(rc)
        return Object._from_handle(out)

    def __contains__(self, key: str) -> bool:
        return bool(load().amber_decoder_contains(self._h, _key(key)))

    @property
    def record(self) -> "RecordInfo":
        """What the archive records of the object this decoder reads, besides its state (R10,
        R3): its kind, class name, blueprint and stack position. Every lookup callback (a
        restoration class's make, the delegate's object_for_path, a blueprint factory) can so
        tell what it is asked for; decode callbacks can too. ValueError (InvalidArgumentError)
        on the application decoder (should_restore, did_decode)."""
        info = F.RecordInfo()
        rc = load().amber_decoder_record(byref(info), self._h)
        if rc: _raise(rc)
        kind = _KINDS.get(info.kind)
        return RecordInfo(kind if kind is not None else Kind(info.kind), _str(info.class_name) or "",
                          _str(info.blueprint), info.position)

    _PROBES = ("decode_int", "decode_bool", "decode_float", "decode_string", "decode_bytes", "decode_date",
               "decode_index_path", "decode_object")

    def __getitem__(self, key: str) -> Any:
        """The value under ``key`` whatever its type (KeyError if missing). The C ABI cannot tell
        a value's type, so this tries the typed getters in turn; use those where speed counts."""
        for name in self._PROBES:
            try:
                return getattr(self, name)(key)
            except E.TypeMismatchError:
                continue
        raise E.TypeMismatchError(f"the value under {key!r} is of no type the binding knows", E.TYPE_MISMATCH,
                                  "AMBER_TYPE_MISMATCH")

    def get(self, key: str, default: Any = None) -> Any:
        """``decoder[key]``, or ``default`` for a missing key."""
        try:
            return self[key]
        except KeyError:
            return default

    def read(self, schema: Mapping[str, type]) -> Dict[str, Any]:
        """Reads several values at once: ``schema`` maps each key to its type (bool, int, float,
        str, bytes, datetime, IndexPath or Object); a missing key is left out of the result.

        A schema of bool, int, float and str only is read in one C call
        (amber_decoder_decode_values) into an array prepared once per schema and thread. Other
        schemas make one C call per value: the keys are encoded once and cached, the four common
        types go straight to the C functions without ctypes' argument conversion (``lib.fast``)
        into out cells reused from call to call (one set per thread), the others through the
        typed getters."""
        if type(schema) is dict:
            out = _decode_batch(self._h, schema)
            if out is not None:
                return out
        fast = (F._lib or load()).fast
        h = self._h
        out: Dict[str, Any] = {}
        cells = _cells.free
        if cells is None:
            cells = _new_cells()
        else:
            _cells.free = None  # taken: a nested read (a signal handler's) makes its own
        i64, dbl, cint, cstr, ri64, rdbl, rint, rstr = cells
        d_int, d_str, d_dbl, d_bool = (fast.amber_decoder_decode_int64, fast.amber_decoder_decode_string,
                                       fast.amber_decoder_decode_double, fast.amber_decoder_decode_bool)
        keys = _KEYS
        not_found = E.NOT_FOUND
        for key, t in schema.items():
            k = keys.get(key) or _key(key)
            if t is int:
                rc = d_int(ri64, h, k)
                if not rc:
                    out[key] = i64.value
                    continue
            elif t is str:
                rc = d_str(rstr, h, k)
                if not rc:
                    out[key] = cstr.value.decode("utf-8", "surrogateescape")
                    continue
            elif t is float:
                rc = d_dbl(rdbl, h, k)
                if not rc:
                    out[key] = dbl.value
                    continue
            elif t is bool:
                rc = d_bool(rint, h, k)
                if not rc:
                    out[key] = bool(cint.value)
                    continue
            else:
                name = _TYPED.get(t)
                if name is None:
                    if isinstance(t, type) and issubclass(t, Object):
                        name = "decode_object"
                    else:
                        _cells.free = cells
                        raise TypeError(f"amber: cannot read {key!r} as {t!r} (bool, int, float, str, bytes, "
                                        "datetime, IndexPath or Object)")
                try:
                    out[key] = getattr(self, name)(key)
                except E.NotFoundError:  # a missing key is left out
                    pass
                continue
            if rc != not_found:
                _raise(rc)
        _cells.free = cells
        return out


class _Cells(threading.local):
    """Per thread, the out cells of Decoder.read when no read is using them (``free``)."""

    def __init__(self) -> None:
        self.free: Optional[tuple] = None


def _new_cells() -> tuple:
    i64, dbl, cint, cstr = c_int64(), c_double(), c_int(), c_char_p()
    return i64, dbl, cint, cstr, byref(i64), byref(dbl), byref(cint), byref(cstr)


_cells = _Cells()


# ---- values in one call (amber_coder_encode_values, amber_decoder_decode_values) -------------

_VALUE_TYPES = {bool: F.VALUE_BOOL, int: F.VALUE_INT64, float: F.VALUE_DOUBLE, str: F.VALUE_STRING}


class _Batches(threading.local):
    """Per thread, the amber_keyed_value arrays of the batch calls, prepared once per set of keys
    (encoding) or per schema (decoding) and reused: filling the value fields of an array whose
    keys are set costs less than making one. An array is taken out while a call uses it, so a
    nested call (a signal handler's) prepares its own."""

    def __init__(self) -> None:
        self.encode: Dict[tuple, tuple] = {}
        self.decode: Dict[tuple, tuple] = {}


_batches = _Batches()
_BATCH_CACHE = 64  # arrays kept per thread and direction (the oldest are dropped beyond)


def _keyed_array(keys: Iterable[str], n: int) -> tuple:
    arr = (F.KeyedValue * n)()
    elems = list(arr)  # the element views, made once
    for e, key in zip(elems, keys):
        e.key = _KEYS.get(key) or _key(key)
    return arr, elems


def _encode_batch(h: Any, values: dict, _str=str, _int=int, _float=float, _bool=bool,
                  _S=F.VALUE_STRING, _I=F.VALUE_INT64, _D=F.VALUE_DOUBLE, _B=F.VALUE_BOOL) -> bool:
    """Writes a dict of str, int, float and bool values in one C call; False (nothing done)
    if it holds another type, for the caller's value-by-value path."""
    cache = _batches.encode
    ks = tuple(values)
    entry = cache.pop(ks, None)
    if entry is None:
        if len(cache) >= _BATCH_CACHE:
            cache.pop(next(iter(cache)))
        arr, elems = _keyed_array(ks, len(ks))
        entry = (arr, elems, [None] * len(ks))
    arr, elems, types = entry  # types: the Python type each element's `type` field was set for
    try:
        i = 0
        for e, value in zip(elems, values.values()):
            t = type(value)
            if t is _str:
                if "\0" in value:
                    _s(value)  # raises, naming the NUL
                try:
                    e.string_value = value.encode()  # strict UTF-8: the fast codec path
                except UnicodeEncodeError:  # a lone surrogate
                    e.string_value = value.encode("utf-8", "surrogateescape")
                if types[i] is not _str:
                    e.type = _S
            elif t is _int:
                if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
                    raise OverflowError(f"{ks[i]}: {value} does not fit in int64")
                e.int64_value = value
                if types[i] is not _int:
                    e.type = _I
            elif t is _float:
                e.double_value = value
                if types[i] is not _float:
                    e.type = _D
            elif t is _bool:
                e.int64_value = 1 if value else 0
                if types[i] is not _bool:
                    e.type = _B
            else:
                return False  # nothing written yet
            types[i] = t
            i += 1
        rc = (F._lib or load()).fast.amber_coder_encode_values(h, arr, c_size_t(i))
    finally:
        # Kept for the next call with these keys (the strings set stay referenced by the array
        # until overwritten).
        cache[ks] = entry
    if rc:
        _raise(rc)
    return True


def _decode_batch(h: Any, schema: dict) -> Optional[Dict[str, Any]]:
    """Reads a schema of bool, int, float and str in one C call; None if it has another type,
    for the caller's value-by-value path."""
    cache = _batches.decode
    plan = tuple(schema.items())
    entry = cache.pop(plan, None)
    if entry is None:
        vt = _VALUE_TYPES
        for _, t in plan:
            if t not in vt:
                return None
        arr, elems = _keyed_array(schema, len(plan))
        steps = []
        for e, (key, t) in zip(elems, plan):
            e.type = vt[t]
            steps.append((key, vt[t], e))
        entry = (arr, len(plan), steps)
    arr, n, steps = entry
    try:
        rc = (F._lib or load()).fast.amber_decoder_decode_values(arr, c_size_t(n), h)
        if rc:
            _raise(rc)
        out: Dict[str, Any] = {}
        for key, t, e in steps:
            if e.found:
                if t == F.VALUE_INT64:
                    out[key] = e.int64_value
                elif t == F.VALUE_STRING:
                    out[key] = e.string_value.decode("utf-8", "surrogateescape")
                elif t == F.VALUE_DOUBLE:
                    out[key] = e.double_value
                else:
                    out[key] = e.int64_value != 0
        return out
    finally:
        # Kept for the next read of this schema. The string pointers left in it are borrowed
        # from this callback's decoder: never read again (a successful call sets every element's
        # `found`, and a string is read only where it is 1, just set).
        if len(cache) >= _BATCH_CACHE:
            cache.pop(next(iter(cache)))
        cache[plan] = entry


_TYPED = {bytes: "decode_bytes", _dt.datetime: "decode_date", IndexPath: "decode_index_path"}


# ---- restorable objects ----------------------------------------------------------------------

class Object(_Holder):
    """A restorable object (R1), owned by its engine. Subclass it (or ``Controller``, ``View``,
    ``PlainObject``) and override ``encode_restorable_state``, ``decode_restorable_state`` and
    ``application_finished_restoring``; or pass ``encode=``, ``decode=``, ``finished=`` callables
    taking ``(obj, coder)``, ``(obj, decoder)``, ``(obj,)``. The class name defaults to the Python
    class's name. The engine keeps the object alive until ``free()`` or the engine closes."""
    __slots__ = ("_h", "engine", "_enc", "_dec", "_fin", "__dict__")

    kind: Kind = Kind.OBJECT

    def __init__(self, engine: "Engine", identifier: Optional[str] = None, *, class_name: Optional[str] = None,
                 kind: Optional[Kind] = None, restoration_class: Optional[str] = None,
                 blueprint: Optional[str] = None, stack: bool = False,
                 encode: Optional[Callable[["Object", Coder], None]] = None,
                 decode: Optional[Callable[["Object", Decoder], None]] = None,
                 finished: Optional[Callable[["Object"], None]] = None):
        # The hot path of restoration (a make callback creates one per archived object): no
        # method calls but the C one, made without ctypes' argument conversion (lib.fast).
        lib = F._lib or load()
        self.engine = engine
        self._h = None
        self._enc = encode
        self._dec = decode
        self._fin = finished
        cls = type(self)
        which = (bool(encode) or cls.encode_restorable_state is not _OBJECT_ENCODE,
                 bool(decode) or cls.decode_restorable_state is not _OBJECT_DECODE,
                 bool(finished) or cls.application_finished_restoring is not _OBJECT_FINISHED)
        callbacks = _CALLBACK_REFS.get(which)
        if callbacks is None:
            callbacks = _object_callbacks(which)
        if kind is None:
            kind = cls.kind
        engine_h = engine._h
        if engine_h is None:
            engine._handle()  # raises: the engine is closed
        kind = int(kind)
        name = class_name or cls.__name__
        name_b = _KEYS.get(name) or _key(name)
        ident_b = None if identifier is None else _s(identifier)
        # _Holder._register, inline
        self.owner = engine
        self.key = key = _next_key()
        engine._keep[key] = self
        _contexts[key] = _weakref(self)
        out = F.ObjectP()
        rc = lib.fast.amber_object_new(byref(out), engine_h, kind, name_b, ident_b, callbacks, c_void_p(key), CTX_FREE)
        if rc:
            _contexts.pop(key, None)
            engine._keep.pop(key, None)
            _raise(rc)
        self._h = out
        engine._objects[out.value] = self
        if restoration_class is not None:
            self.restoration_class = restoration_class
        if blueprint is not None:
            self.blueprint = blueprint
        if stack:
            self.set_stack(True)

    # -- the callbacks: override these --
    def encode_restorable_state(self, coder: Coder) -> None:
        """Writes this object's state while preserving (R6)."""
        if self._enc:
            self._enc(self, coder)

    def decode_restorable_state(self, decoder: Decoder) -> None:
        """Reads it back while restoring, once every object exists (R12)."""
        if self._dec:
            self._dec(self, decoder)

    def application_finished_restoring(self) -> None:
        """Called once every restored object has decoded (R13)."""
        if self._fin:
            self._fin(self)

    # -- internals --
    def _handle(self) -> F.ObjectP:
        if self._h is None:
            raise E.MisuseError("the object was freed (or its engine closed)", E.MISUSE, "AMBER_MISUSE")
        return self._h

    def _released(self) -> None:
        if self._h is not None:
            self.engine._objects.pop(self._h.value, None)
        self._h = None

    @staticmethod
    def _from_handle(handle: F.ObjectP) -> Optional["Object"]:
        if not handle:
            return None
        key = load().amber_object_context(handle)
        ref = _contexts.get(key)
        obj = ref() if ref is not None else None
        return obj if isinstance(obj, Object) else None

    # -- properties and the tree --
    @property
    def alive(self) -> bool:
        """False once the object was freed or its engine closed."""
        return self._h is not None

    @property
    def identifier(self) -> Optional[str]:
        """The restoration identifier (R2), None for none; settable."""
        return _str(load().amber_object_identifier(self._handle()))

    @identifier.setter
    def identifier(self, value: Optional[str]) -> None:
        check(load().amber_object_set_identifier(self._handle(), _s(value)))

    @property
    def class_name(self) -> str:
        return _str(load().amber_object_class_name(self._handle())) or ""

    @property
    def object_kind(self) -> Kind:
        return Kind(load().amber_object_kind(self._handle()))

    @property
    def path(self) -> Optional[str]:
        """The restoration path joined with '/' (R3), None if it or an ancestor has no identifier."""
        out = F.Buf()
        rc = load().amber_object_path(byref(out), self._handle())
        if rc == E.NOT_FOUND:
            return None
        check(rc)
        return _take_string(out)

    def _set_restoration_class(self, name: Optional[str]) -> None:
        check(load().amber_object_set_restoration_class(self._handle(), _s(name)))

    restoration_class = property(None, _set_restoration_class, doc="The restoration class that remakes it (R10 step 1); write-only.")

    def _set_blueprint(self, blueprint_id: Optional[str]) -> None:
        check(load().amber_object_set_blueprint(self._handle(), _s(blueprint_id)))

    blueprint = property(None, _set_blueprint, doc="The blueprint it was made from (R6, R10 step 4); write-only.")

    def set_stack(self, is_stack: bool = True) -> None:
        """Declares a controller a stack container (R3)."""
        check(load().amber_object_set_stack(self._handle(), 1 if is_stack else 0))

    def add_child(self, child: "Object") -> "Object":
        """Appends a child controller (containment); returns the child."""
        check(load().amber_object_add_child(self._handle(), child._handle()))
        return child

    def remove_child(self, child: "Object") -> None:
        check(load().amber_object_remove_child(self._handle(), child._handle()))

    def present(self, presented: Optional["Object"]) -> None:
        """Presents a controller modally; None dismisses."""
        check(load().amber_object_present(self._handle(), None if presented is None else presented._handle()))

    def add_view(self, view: "Object") -> "Object":
        check(load().amber_object_add_view(self._handle(), view._handle()))
        return view

    def set_restoration_parent(self, parent: Optional["Object"]) -> None:
        """The restoration parent of a plain object (UIStateRestoring)."""
        check(load().amber_object_set_restoration_parent(self._handle(), None if parent is None else parent._handle()))

    def free(self) -> None:
        """Frees the object now (its children are not freed). Harmless twice."""
        if self._h is not None:
            self.engine._pin_reports()
            with _Call():
                load().amber_object_free(self._h)
            self._released()

    def __repr__(self) -> str:
        if self._h is None:
            return f"<{type(self).__name__} (freed)>"
        return f"<{type(self).__name__} {self.class_name} {self.identifier!r}>"


_CALLBACKS: Dict[Tuple[bool, bool, bool], F.ObjectCallbacks] = {}  # read-only once made; C copies them
_OBJECT_ENCODE = Object.encode_restorable_state
_OBJECT_DECODE = Object.decode_restorable_state
_OBJECT_FINISHED = Object.application_finished_restoring
_weakref = weakref.ref


_CALLBACK_REFS: Dict[Tuple[bool, bool, bool], Any] = {}  # byref() of the structs of _CALLBACKS


def _object_callbacks(which: Tuple[bool, bool, bool]) -> Any:
    """byref() of the callbacks struct of objects that have the callbacks ``which`` says (made once)."""
    callbacks = F.ObjectCallbacks(F.OBJECT_CALLBACKS_VERSION)  # zeroed, the version set
    if which[0]:
        callbacks.encode = _T_ENCODE
    if which[1]:
        callbacks.decode = _T_DECODE
    if which[2]:
        callbacks.finished_restoring = _T_FINISHED
    _CALLBACKS[which] = callbacks
    _CALLBACK_REFS[which] = ref = byref(callbacks)
    return ref


class Controller(Object):
    """A controller (a screen; R1)."""
    __slots__ = ()
    kind = Kind.CONTROLLER


class View(Object):
    """A view belonging to a controller (R1)."""
    __slots__ = ()
    kind = Kind.VIEW


class PlainObject(Object):
    """A plain restorable object (UIStateRestoring) with a restoration parent (R1)."""
    __slots__ = ()
    kind = Kind.OBJECT


def _object_of(ctx: Optional[int]) -> Object:
    return _holder(ctx)


# The trampolines: C calls them, they call the Python object's method. Each is as short as it
# can be (they run once per object and callback): the object found through its context without
# a helper call, the coder or decoder made without running an __init__. Whatever the callback
# raises (BaseException included) is caught and kept (E.callback_failed), and C is told the code;
# the C call that led here re-raises it (_call, _Call). The CFUNCTYPE objects are module globals:
# alive as long as the module, i.e. as long as C may call them.

_new = object.__new__


def _t_encode(obj_h, coder_h, ctx):
    obj = None
    try:
        obj = _contexts[ctx]()
        coder = _new(Coder)
        coder._h = coder_h
        coder._engine = obj.engine
        try:
            obj.encode_restorable_state(coder)
        finally:
            coder._h = None
        return 0
    except BaseException as error:
        # The source: a preservation leaves the object out, reports the exception and goes on (R28).
        return E.callback_failed(error, obj)


def _t_decode(obj_h, decoder_h, ctx):
    try:
        obj = _contexts[ctx]()
        decoder = _new(Decoder)
        decoder._h = decoder_h
        decoder._engine = obj.engine
        try:
            obj.decode_restorable_state(decoder)
        finally:
            decoder._h = None
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_finished(obj_h, ctx):
    try:
        _object_of(ctx).application_finished_restoring()
    except BaseException as error:
        E.callback_failed(error)


_T_ENCODE = F.ObjEncode(_t_encode)
_T_DECODE = F.ObjDecode(_t_decode)
_T_FINISHED = F.ObjFinished(_t_finished)


def _give_object(out, engine: "Engine", result: Any, what: str) -> int:
    """Sets a make callback's *out to the handle of ``result`` (an Object of ``engine``, or None)."""
    if result is None:
        out[0] = F.ObjectP()
        return 0
    if not isinstance(result, Object):
        raise TypeError(f"{what} must return an amber.Object or None, not {type(result).__name__}")
    if result.engine is not engine:
        raise ValueError(f"{what} returned an object of another engine")
    h = result._h
    out[0] = h if h is not None else result._handle()  # _handle() raises: the object was freed
    return 0


# ---- restoration classes, blueprint factories ----------------------------------------------------

class _Maker(_Holder):
    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn


def _t_class_make(out, engine_h, path, length, decoder_h, ctx):
    try:
        ref = _contexts.get(ctx)
        maker = ref() if ref is not None else None
        if maker is None:
            maker = _holder(ctx)  # raises: the context is gone
        engine = maker.owner
        decoder = _new(Decoder)
        decoder._h = decoder_h
        decoder._engine = engine
        try:
            result = maker.fn(engine, _path_tuple(path, length), decoder)
        finally:
            decoder._h = None
        return _give_object(out, engine, result, "a restoration class's make")
    except BaseException as error:
        return E.callback_failed(error)


def _t_blueprint_make(out, engine_h, blueprint_id, path, length, decoder_h, ctx):
    try:
        maker = _holder(ctx)
        engine = maker.owner
        decoder = Decoder(decoder_h, engine)
        try:
            result = maker.fn(engine, blueprint_id.decode("utf-8", "surrogateescape"), _path_tuple(path, length),
                              decoder)
        finally:
            decoder._h = None
        return _give_object(out, engine, result, "a blueprint factory")
    except BaseException as error:
        return E.callback_failed(error)


_T_CLASS_MAKE = F.ClassMake(_t_class_make)
_T_BLUEPRINT_MAKE = F.BlueprintMake(_t_blueprint_make)


# ---- the delegate ---------------------------------------------------------------------------

class _DelegateBox(_Holder):
    __slots__ = ("delegate",)


def _delegate_of(ctx):
    box = _holder(ctx)
    return box.owner, box.delegate


def _t_should_save(engine_h, coder_h, ctx):
    try:
        engine, delegate = _delegate_of(ctx)
        coder = Coder(coder_h, engine)
        try:
            return 1 if delegate.should_save(engine, coder) else 0
        finally:
            coder._h = None
    except BaseException as error:
        E.callback_failed(error)
        return 0  # do not save; the exception reaches preserve()'s caller


def _t_will_encode(engine_h, coder_h, ctx):
    try:
        engine, delegate = _delegate_of(ctx)
        coder = Coder(coder_h, engine)
        try:
            delegate.will_encode(engine, coder)
        finally:
            coder._h = None
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_should_restore(engine_h, decoder_h, ctx):
    try:
        engine, delegate = _delegate_of(ctx)
        decoder = Decoder(decoder_h, engine)
        try:
            return 1 if delegate.should_restore(engine, decoder) else 0
        finally:
            decoder._h = None
    except BaseException as error:
        E.callback_failed(error)
        return 0  # do not restore; the exception reaches launch()'s caller


def _t_did_decode(engine_h, decoder_h, ctx):
    try:
        engine, delegate = _delegate_of(ctx)
        decoder = Decoder(decoder_h, engine)
        try:
            delegate.did_decode(engine, decoder)
        finally:
            decoder._h = None
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_object_for_path(out, engine_h, path, length, decoder_h, ctx):
    try:
        engine, delegate = _delegate_of(ctx)
        decoder = Decoder(decoder_h, engine)
        try:
            result = delegate.object_for_path(engine, _path_tuple(path, length), decoder)
        finally:
            decoder._h = None
        return _give_object(out, engine, result, "the delegate's object_for_path")
    except BaseException as error:
        return E.callback_failed(error)


def _t_will_finish(engine_h, ctx):
    try:
        engine, delegate = _delegate_of(ctx)
        delegate.will_finish_launching(engine)
    except BaseException as error:
        E.callback_failed(error)


def _t_did_finish(engine_h, ctx):
    try:
        engine, delegate = _delegate_of(ctx)
        delegate.did_finish_launching(engine)
    except BaseException as error:
        E.callback_failed(error)


_DELEGATE_TRAMPOLINES = {
    "should_save": F.DelShouldSave(_t_should_save),
    "will_encode": F.DelWillEncode(_t_will_encode),
    "should_restore": F.DelShouldRestore(_t_should_restore),
    "did_decode": F.DelDidDecode(_t_did_decode),
    "object_for_path": F.DelObjectForPath(_t_object_for_path),
    "will_finish_launching": F.DelLaunchStep(_t_will_finish),
    "did_finish_launching": F.DelLaunchStep(_t_did_finish),
}


# ---- the report ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Record:
    """What happened to one archived object (R16). ``path`` is the identifiers exactly as the
    host set them (R3): the children of a stack with the same identifier share a path and are
    told apart by ``position`` (0, 1, 2... in order; 0 outside a stack). ``object`` is the
    object found for the record (restored, class mismatch, decode error, duplicate), or None."""
    path: Tuple[str, ...]
    class_name: str
    kind: Kind
    outcome: Outcome
    message: str
    object: Optional[Object]
    position: int = 0

    @property
    def path_string(self) -> str:
        return "/".join(self.path)


@dataclass(frozen=True)
class Report:
    """What a launch restored and why not (R16): ``fresh_reason`` (FreshReason.NONE if it
    restored), the launch's ``message``, the ``protection`` in words, one Record per archived
    object, and Amber's own ``text`` of it.

    A report made by a launch reads ``records`` and ``text`` from Amber's C report the first
    time they are asked for (then they are plain attributes), so that a launch does not spend
    its time turning thousands of records into Python objects; ``len(report)`` needs neither.
    What each record's ``object`` is does not depend on when it is read: the engine reads the
    records of its reports not read yet before it frees an object or closes. The C report is
    freed once both are read, by ``close()``, or when the Report is collected. Values,
    equality, repr, copies and pickles are those of a report read at once."""
    fresh_reason: FreshReason
    message: str
    protection: str
    records: Tuple[Record, ...]
    text: str

    def __getattr__(self, name: str) -> Any:
        # Reached only when an attribute is not set: records or text not read yet.
        if name == "records" or name == "text":
            lazy = self.__dict__.get("_lazy")
            if lazy is not None:
                return lazy.read(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def fresh(self) -> bool:
        return self.fresh_reason != FreshReason.NONE

    @property
    def restored(self) -> List[Object]:
        """The objects restored, parents first."""
        return [r.object for r in self.records if r.outcome == Outcome.RESTORED and r.object is not None]

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        d = self.__dict__
        if "records" not in d and "_lazy" in d:
            return d["_lazy"].count
        return len(self.records)

    def outcome(self, path: Union[str, Sequence[str]], position: int = 0) -> Optional[Outcome]:
        """The outcome of the record at a path ("A/B" or a sequence; a sequence for identifiers
        that hold a "/") and stack position (R3), None if there is none."""
        key = tuple(path.split("/")) if isinstance(path, str) else tuple(path)
        for r in self.records:
            if r.path == key and r.position == position:
                return r.outcome
        return None

    def close(self) -> None:
        """Reads the records and text if they are not read yet, and frees the C report now.
        Optional (the Report frees it when collected); harmless twice."""
        self.records
        self.text

    def __getstate__(self) -> Dict[str, Any]:
        self.close()
        return dict(self.__dict__)

    def __str__(self) -> str:
        return self.text


# amber_report_record as struct fields: path, path_length, class_name, kind, outcome, message, object,
# position, dropped_identifiers, dropped_count.
_RECORD_LAYOUT = struct.Struct("@PNPiiPPNPN")
assert _RECORD_LAYOUT.size == ctypes.sizeof(F.ReportRecordPointers)
_PATH_ARRAYS: Dict[int, Any] = {}


def _path_array(length: int) -> Any:
    """The ctypes array type of ``length`` C strings (made once per length)."""
    array = _PATH_ARRAYS[length] = c_char_p * length
    return array


_KINDS = {int(k): k for k in Kind}
_OUTCOMES = {int(o): o for o in Outcome}


class _LazyReport:
    """The C report behind a Report whose records or text are not read yet: its handle (freed
    by ``free``, a weakref.finalize of the Report), its record count, and the engine whose
    objects the records name."""
    __slots__ = ("__weakref__", "handle", "count", "free", "report", "engine", "pending", "lock")

    def __init__(self, handle: F.ReportP, count: int, free: weakref.finalize, report: Report,
                 engine: Optional["Engine"]):
        self.handle = handle
        self.count = count
        self.free = free
        self.report = weakref.ref(report)
        self.engine = None if engine is None else weakref.ref(engine)
        self.pending = None
        self.lock = threading.RLock()
        if engine is not None and count:
            self.pending = engine._reports
            self.pending.add(self)

    def read(self, report: Report, name: str, objects: Optional[Dict[int, Object]] = None) -> Any:
        """Reads ``name`` ("records" or "text") into the report, once; frees the C report when
        both are read. ``objects``: the engine's handle -> Object map (default: the engine's
        own, or none if it is gone)."""
        with self.lock:
            d = report.__dict__
            if name not in d:
                if name == "records":
                    if objects is None:
                        engine = self.engine() if self.engine is not None else None
                        objects = engine._objects if engine is not None else {}
                    value = self._records(objects)
                else:
                    value = self._text()
                if name not in d:  # a nested read (the engine pinning it from a finalizer) came first
                    d[name] = value
                if name == "records" and self.pending is not None:
                    self.pending.discard(self)
                    self.pending = None
                if "records" in d and "text" in d:
                    self.free()
                    d.pop("_lazy", None)
            return d[name]

    def pin(self, objects: Dict[int, Object]) -> None:
        """Reads the records now, while ``objects`` (the engine's) still holds what they name."""
        report = self.report()
        if report is not None:
            self.read(report, "records", objects)

    def _records(self, objects: Dict[int, Object]) -> Tuple[Record, ...]:
        lib = F._lib or load()
        record_at = lib.fast.amber_report_record_at
        handle = self.handle
        count = self.count
        # Every record read into one array (one C call each), then its fields unpacked at once.
        table = (F.ReportRecordPointers * count)()
        size = ctypes.sizeof(F.ReportRecordPointers)
        base = ctypes.addressof(table)
        for i in range(count):
            rc = record_at(c_void_p(base + i * size), handle, c_size_t(i))
            if rc:
                _raise(rc)
        strings: Dict[int, str] = {0: ""}  # address of a C string lent by this report -> str
        kinds, outcomes = _KINDS, _OUTCOMES
        get_object = objects.get
        paths = _PATH_ARRAYS
        decode = bytes.decode
        records = []
        append = records.append
        for path_p, length, name_p, k, o, message_p, obj, position, _, _ in _RECORD_LAYOUT.iter_unpack(
                memoryview(table).cast("B")):
            class_name = strings.get(name_p)
            if class_name is None:
                class_name = strings[name_p] = ctypes.string_at(name_p).decode("utf-8", "surrogateescape")
            message = strings.get(message_p)
            if message is None:
                message = strings[message_p] = ctypes.string_at(message_p).decode("utf-8", "surrogateescape")
            kind = kinds.get(k)
            if kind is None:
                kind = Kind(k)
            outcome = outcomes.get(o)
            if outcome is None:
                outcome = Outcome(o)
            if length:
                parts = (paths.get(length) or _path_array(length)).from_address(path_p)[:]
                try:
                    path = tuple(map(decode, parts))
                except UnicodeDecodeError:
                    path = tuple([b.decode("utf-8", "surrogateescape") for b in parts])
            else:
                path = ()
            record = _new(Record)  # Record's own fields, without the frozen __init__'s setattr per field
            v = record.__dict__
            v["path"] = path
            v["class_name"] = class_name
            v["kind"] = kind
            v["outcome"] = outcome
            v["message"] = message
            v["object"] = get_object(obj) if obj else None
            v["position"] = position
            append(record)
        return tuple(records)

    def _text(self) -> str:
        text = F.Buf()
        check((F._lib or load()).amber_report_format(byref(text), self.handle))
        return _take_string(text)


def _read_report(handle: F.ReportP, engine: Optional["Engine"] = None) -> Report:
    """The Report of a C report, which it owns from now on. The launch's reason, message and
    protection are read now; records and text when first asked for (see Report)."""
    lib = F._lib or load()
    report = _new(Report)
    free = weakref.finalize(report, lib.amber_report_free, handle)
    d = report.__dict__
    try:
        d["fresh_reason"] = FreshReason(lib.amber_report_fresh_reason(handle))
        d["message"] = _str(lib.amber_report_message(handle)) or ""
        d["protection"] = _str(lib.amber_report_protection(handle)) or ""
        count = lib.amber_report_count(handle)
    except BaseException:
        free()
        raise
    if count == 0:
        d["records"] = ()
    d["_lazy"] = _LazyReport(handle, count, free, report, engine)
    return report


# ---- the preservation report (R28) ----------------------------------------------------------

@dataclass(frozen=True)
class PreservationEntry:
    """One object of a preservation report (R28): preserved (``left_out`` is LeftOut.NONE), with
    the bytes its record added to the archive, or left out, with why in ``message``.

    ``path`` is the object's restoration path as far as it has one: the identifiers of its
    ancestors that have one, then its own if it has one; ``position`` its place among the
    children of its stack with the same identifier (R3).

    An object whose encode callback raised is left out (LeftOut.ENCODE_FAILED) with everything
    under it (LeftOut.UNDER_LEFT_OUT), and the rest is saved: the exception is not raised by
    preserve() but kept here, as ``error`` (the exception object, with its traceback), and
    named at the end of ``message``: "...: its encode callback failed: the encode callback of
    'Screen' returned 12 (AMBER_CALLBACK_FAILED); raised ValueError: bad row"."""
    path: Tuple[str, ...]
    class_name: str
    kind: Kind
    left_out: LeftOut
    message: str
    size: int
    position: int = 0
    error: Optional[BaseException] = field(default=None, compare=False, repr=False)

    @property
    def preserved(self) -> bool:
        return self.left_out == LeftOut.NONE

    @property
    def path_string(self) -> str:
        return "/".join(self.path)


@dataclass(frozen=True)
class PreservationReport:
    """What a preservation did (R28): ``saved`` (or why not: ``not_saved`` and ``message``), the
    archive's ``size`` in bytes (after encryption), one PreservationEntry per record of the
    archive (in archive order: preserved, or left out because its encode callback or one above
    it failed) and then per object of the trees not recorded, with why, and Amber's ``text`` of
    it (``str(report)``).

    ``entries`` and ``text`` are read from Amber's report the first time they are asked for
    (then they are plain attributes): a save of thousands of objects does not turn them all
    into Python objects unless asked; ``len(report)`` needs neither. The C report is freed once
    both are read, or when the report is collected.

    A report is true when an archive was written (``bool(report) == report.saved``), as the
    bool that preserve() returned before it returned the report."""
    not_saved: NotSaved
    message: str
    size: int
    entries: Tuple[PreservationEntry, ...]
    text: str

    def __getattr__(self, name: str) -> Any:
        # Reached only when an attribute is not set: entries or text not read yet.
        if name == "entries" or name == "text":
            lazy = self.__dict__.get("_lazy")
            if lazy is not None:
                return lazy.read(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __len__(self) -> int:
        d = self.__dict__
        if "entries" not in d and "_lazy" in d:
            return int(d["_lazy"].count)
        return len(self.entries)

    @property
    def saved(self) -> bool:
        return self.not_saved == NotSaved.NONE

    @property
    def preserved(self) -> List[PreservationEntry]:
        """The entries of the objects preserved, in archive order."""
        return [e for e in self.entries if e.left_out == LeftOut.NONE]

    @property
    def left_out(self) -> List[PreservationEntry]:
        """The entries of the objects left out."""
        return [e for e in self.entries if e.left_out != LeftOut.NONE]

    @property
    def errors(self) -> List[BaseException]:
        """The exceptions the encode callbacks raised (their objects are left out)."""
        return [e.error for e in self.entries if e.error is not None]

    def entry(self, path: Union[str, Sequence[str]], position: int = 0) -> Optional[PreservationEntry]:
        """The entry at a path ("A/B" or a sequence) and stack position, None if there is none."""
        key = tuple(path.split("/")) if isinstance(path, str) else tuple(path)
        for e in self.entries:
            if e.path == key and e.position == position:
                return e
        return None

    def __bool__(self) -> bool:
        return self.not_saved == NotSaved.NONE

    def __iter__(self) -> Iterator[PreservationEntry]:
        return iter(self.entries)

    def __str__(self) -> str:
        return self.text


# amber_preservation_entry as struct fields: path, path_length, class_name, kind, left_out, message,
# size, position.
_ENTRY_LAYOUT = struct.Struct("@PNPiiPQN")
assert _ENTRY_LAYOUT.size == ctypes.sizeof(F.PreservationEntry)
_LEFT_OUT = {int(r): r for r in LeftOut}


def _read_preservation(handle: F.PreservationP) -> PreservationReport:
    """The PreservationReport of a C report: its summary now, its entries and text when first
    asked for (_LazyPreservation); the C report is freed once both are read."""
    lib = F._lib or load()
    try:
        not_saved = NotSaved(lib.amber_preservation_not_saved(handle))
        message = _str(lib.amber_preservation_message(handle)) or ""
        size = lib.amber_preservation_size(handle)
        count = lib.amber_preservation_count(handle)
    except BaseException:
        lib.amber_preservation_free(handle)
        raise
    report = _new(PreservationReport)
    d = report.__dict__
    d["not_saved"] = not_saved
    d["message"] = message
    d["size"] = size
    d["_lazy"] = _LazyPreservation(handle, count, weakref.finalize(report, lib.amber_preservation_free, handle))
    return report


class _LazyPreservation:
    """The C report behind a PreservationReport whose entries or text are not read yet."""
    __slots__ = ("handle", "count", "free", "lock")

    def __init__(self, handle: F.PreservationP, count: int, free: weakref.finalize):
        self.handle = handle
        self.count = count
        self.free = free
        self.lock = threading.RLock()

    def read(self, report: PreservationReport, name: str) -> Any:
        """Reads ``name`` ("entries" or "text") into the report, once; frees the C report when
        both are read."""
        with self.lock:
            d = report.__dict__
            if name not in d:
                d[name] = self._entries() if name == "entries" else self._text()
                if "entries" in d and "text" in d:
                    self.free()
                    d.pop("_lazy", None)
            return d[name]

    def _text(self) -> str:
        lib = F._lib or load()
        out = F.Buf()
        check(lib.amber_preservation_format(byref(out), self.handle))
        return _take_string(out)

    def _entries(self) -> Tuple[PreservationEntry, ...]:
        lib = F._lib or load()
        handle = self.handle
        count = self.count
        entry_at = lib.fast.amber_preservation_entry_at
        # Every entry read into one array (one C call each), then its fields unpacked at once.
        table = (F.PreservationEntry * count)()
        width = ctypes.sizeof(F.PreservationEntry)
        base = ctypes.addressof(table)
        for i in range(count):
            rc = entry_at(c_void_p(base + i * width), handle, c_size_t(i))
            if rc:
                _raise(rc)
        strings: Dict[int, str] = {0: ""}  # by address: the messages of preserved entries share one
        names: Dict[bytes, str] = {}  # class names, by their bytes (each entry lends its own copy)
        kinds, reasons, paths, decode, string_at = _KINDS, _LEFT_OUT, _PATH_ARRAYS, bytes.decode, ctypes.string_at
        entries = []
        append = entries.append
        for path_p, length, name_p, k, why, message_p, bytes_, position in _ENTRY_LAYOUT.iter_unpack(
                memoryview(table).cast("B")):
            raw = string_at(name_p)
            class_name = names.get(raw)
            if class_name is None:
                class_name = names[raw] = raw.decode("utf-8", "surrogateescape")
            text = strings.get(message_p)
            if text is None:
                text = strings[message_p] = string_at(message_p).decode("utf-8", "surrogateescape")
            if length:
                parts = (paths.get(length) or _path_array(length)).from_address(path_p)[:]
                try:
                    path = tuple(map(decode, parts))
                except UnicodeDecodeError:
                    path = tuple([b.decode("utf-8", "surrogateescape") for b in parts])
            else:
                path = ()
            entry = _new(PreservationEntry)  # its fields, without the frozen __init__'s setattr per field
            v = entry.__dict__
            v["path"] = path
            v["class_name"] = class_name
            kind = kinds.get(k)
            v["kind"] = kind if kind is not None else Kind(k)
            reason = reasons.get(why)
            v["left_out"] = reason if reason is not None else LeftOut(why)
            v["message"] = text
            v["size"] = bytes_
            v["position"] = position
            v["error"] = None
            append(entry)
        return tuple(entries)


def _attach_errors(report: PreservationReport, failures: Sequence[Tuple[BaseException, "Object"]]) -> None:
    """Puts each exception an encode callback raised on the entry of its object (left out as
    ENCODE_FAILED), in order: the message gains the exception's type and text; a warning
    names the object and the exception's type (not its text: it may hold state values)."""
    pending = list(failures)
    for entry in report.entries:
        if not pending:
            break
        if entry.left_out != LeftOut.ENCODE_FAILED:
            continue
        for i, (error, obj) in enumerate(pending):
            h = obj._h
            if h is None:
                continue
            lib = load()
            ident = _str(lib.amber_object_identifier(h))
            if _str(lib.amber_object_class_name(h)) == entry.class_name and \
                    (ident is None or (entry.path and entry.path[-1] == ident)):
                del pending[i]
                text = error.message if isinstance(error, E.AmberError) else str(error)
                said = f"raised {type(error).__name__}" + (f": {text}" if text and text not in entry.message else "")
                entry.__dict__["message"] = f"{entry.message}; {said}"
                entry.__dict__["error"] = error
                _logger.warning("preserve: left out /%s (%s): its encode callback raised %s; the rest is saved",
                                entry.path_string, entry.class_name, type(error).__name__)
                break


# ---- notifications ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Notification:
    """A notification delivered to an observer (R24): its name, its sender (the Engine for the
    engine's own; the object given to post_notification; None) and its user info as a dict."""
    name: str
    sender: Any
    user_info: Dict[str, Any]


def _read_user_info(info: F.UserInfoP) -> Dict[str, Any]:
    """A user info's values, all read in one call (amber_user_info_values, AMBER_VALUE_ANY)."""
    lib = load()
    result: Dict[str, Any] = {}
    count = lib.amber_user_info_count(info)
    if not count:
        return result
    values = (F.KeyedValue * count)()
    key = c_char_p()
    for i, v in enumerate(values):
        check(lib.amber_user_info_key_at(byref(key), info, i))
        v.key = key.value
        v.type = F.VALUE_ANY
    check(lib.amber_user_info_values(values, count, info))
    for v in values:
        if not v.found:  # gone since key_at: nothing changes a notification's user info meanwhile
            continue
        t = v.type
        if t == F.VALUE_BOOL:
            value: Any = v.int64_value != 0
        elif t == F.VALUE_INT64:
            value = v.int64_value
        elif t == F.VALUE_DOUBLE:
            value = v.double_value
        elif t == F.VALUE_STRING:
            value = v.string_value.decode("utf-8", "surrogateescape")
        elif t == F.VALUE_BYTES:
            value = ctypes.string_at(v.bytes_value, v.bytes_size) if v.bytes_size else b""
        else:
            raise E.TypeMismatchError(f"the user info's value under {v.key!r} is of an unknown type ({t})",
                                      E.TYPE_MISMATCH, "AMBER_TYPE_MISMATCH")
        result[v.key.decode("utf-8", "surrogateescape")] = value
    return result


def _make_user_info(values: Mapping[str, Any]) -> F.UserInfoP:
    """A new user info holding ``values``, set in one call (amber_user_info_set_values)."""
    lib = load()
    items = list(values.items())
    array = (F.KeyedValue * len(items))()
    for v, (key, value) in zip(array, items):
        v.key = _s(key)
        if isinstance(value, bool):
            v.type = F.VALUE_BOOL
            v.int64_value = 1 if value else 0
        elif isinstance(value, int):
            v.type = F.VALUE_INT64
            v.int64_value = value
        elif isinstance(value, float):
            v.type = F.VALUE_DOUBLE
            v.double_value = value
        elif isinstance(value, str):
            v.type = F.VALUE_STRING
            v.string_value = _s(value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            data = bytes(value)
            v.type = F.VALUE_BYTES
            v.bytes_value = ctypes.cast(c_char_p(data), c_void_p)  # the array keeps `data` alive
            v.bytes_size = len(data)
        else:
            raise TypeError(f"a user info holds bool, int, float, str or bytes, not {type(value).__name__}")
    info = F.UserInfoP()
    check(lib.amber_user_info_new(byref(info)))
    try:
        check(lib.amber_user_info_set_values(info, array, len(items)))
    except BaseException:
        lib.amber_user_info_free(info)
        raise
    return info


class _ObserverBox(_Holder):
    __slots__ = ("fn", "token")


def _t_observer(note_h, ctx):
    try:
        box = _holder(ctx)
        engine = box.owner
        lib = load()
        sender_p = lib.amber_notification_sender(note_h)
        if sender_p is None:
            sender = None
        elif engine._h is not None and sender_p == engine._h.value:
            sender = engine
        else:
            sender = engine._senders.get(sender_p, sender_p)
        note = Notification(lib.amber_notification_name(note_h).decode("utf-8", "surrogateescape"), sender,
                            _read_user_info(lib.amber_notification_user_info(note_h)))
        result = box.fn(note)
        return result if isinstance(result, int) and not isinstance(result, bool) else 0
    except BaseException as error:
        return E.callback_failed(error)


_T_OBSERVER = F.ObserverFn(_t_observer)


# ---- stores and key providers ---------------------------------------------------------------

class Store:
    """An archive store (a plugin; R19): where the engine keeps the archive and the launch
    guard. Subclass it and implement the five methods; ``write`` must be atomic (the old archive
    or the new one, never a torn one)."""

    def read(self) -> Optional[bytes]:
        """The archive, or None when there is none."""
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        """Replaces the archive, atomically."""
        raise NotImplementedError

    def remove(self) -> None:
        """Removes the archive (none is not an error)."""
        raise NotImplementedError

    def read_guard(self) -> int:
        """The launch guard count (0 when none)."""
        raise NotImplementedError

    def write_guard(self, count: int) -> None:
        """Writes the launch guard count; 0 removes it."""
        raise NotImplementedError


class MemoryStore(Store):
    """A store in a Python object: survives engines (open a second engine on the same store to
    relaunch), not the process."""

    def __init__(self) -> None:
        self.data: Optional[bytes] = None
        self.guard = 0
        self.writes = 0

    def read(self) -> Optional[bytes]:
        return self.data

    def write(self, data: bytes) -> None:
        self.data = bytes(data)
        self.writes += 1

    def remove(self) -> None:
        self.data = None

    def read_guard(self) -> int:
        return self.guard

    def write_guard(self, count: int) -> None:
        self.guard = count


class _StoreBox(_Holder):
    __slots__ = ("store",)


def _t_store_read(alloc, alloc_ctx, out, out_size, out_found, ctx):
    try:
        data = _holder(ctx).store.read()
        if data is None:
            out_found[0] = 0
            out_size[0] = 0
            return 0
        data = bytes(data)
        p = alloc(max(len(data), 1), alloc_ctx)
        if not p:
            return E.LIMIT_EXCEEDED
        ctypes.memmove(p, data, len(data))
        out[0] = ctypes.cast(p, POINTER(c_uint8))
        out_size[0] = len(data)
        out_found[0] = 1
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_store_write(data, size, ctx):
    try:
        _holder(ctx).store.write(ctypes.string_at(data, size) if size else b"")
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_store_remove(ctx):
    try:
        _holder(ctx).store.remove()
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_store_read_guard(out, ctx):
    try:
        out[0] = int(_holder(ctx).store.read_guard())
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_store_write_guard(count, ctx):
    try:
        _holder(ctx).store.write_guard(count)
        return 0
    except BaseException as error:
        return E.callback_failed(error)


_T_STORE = (F.StoreRead(_t_store_read), F.StoreWrite(_t_store_write), F.StoreRemove(_t_store_remove),
            F.StoreReadGuard(_t_store_read_guard), F.StoreWriteGuard(_t_store_write_guard))


class Protection:
    """How archives are protected (R20). Use KeyFile, FixedKey, KeyProvider or NoEncryption."""
    code = 0


class KeyFile(Protection):
    """The default: a key file of 32 random bytes, mode 0600 (``path`` None: archive.key in the
    state directory)."""
    code = 0

    def __init__(self, path: Optional[str] = None):
        self.path = path


class FixedKey(Protection):
    """A fixed 32-byte master key."""
    code = 2

    def __init__(self, key: bytes):
        if len(key) != 32:
            raise ValueError("a fixed key is 32 bytes")
        self.key = bytes(key)


class KeyProvider(Protection):
    """The host's key callback: ``fn(for_saving: bool) -> bytes`` (32 bytes), or pass a
    subclass overriding ``key``. Raise KeyUnavailableError (or return None) when the key cannot
    be had now (device locked): restoration is deferred, a save fails. Any other exception
    fails a save with it; at launch it defers restoration too (the archive is kept, the launch
    fresh with FreshReason.KEY_UNAVAILABLE, and the report's message names the key provider)."""
    code = 1

    def __init__(self, fn: Optional[Callable[[bool], Optional[bytes]]] = None):
        self.fn = fn

    def key(self, for_saving: bool) -> Optional[bytes]:
        if self.fn is None:
            raise NotImplementedError("KeyProvider needs fn or an overridden key()")
        return self.fn(for_saving)


class NoEncryption(Protection):
    """No encryption, an explicit choice (the report says so)."""
    code = 3


class _KeyBox(_Holder):
    __slots__ = ("provider",)


def _t_key(key_out, for_saving, ctx):
    try:
        key = _holder(ctx).provider.key(bool(for_saving))
        if key is None:
            return E.KEY_UNAVAILABLE
        key = bytes(key)
        if len(key) != 32:
            raise ValueError(f"a key provider must give 32 bytes, not {len(key)}")
        ctypes.memmove(key_out, key, 32)
        return 0
    except E.KeyUnavailableError:
        return E.KEY_UNAVAILABLE
    except BaseException as error:
        return E.callback_failed(error)


_T_KEY = F.KeyCallback(_t_key)


# ---- the log (R29) -----------------------------------------------------------------------------
# Amber's log lines go to the standard logging module, logger "amber": debug -> DEBUG, info ->
# INFO, warn -> WARNING. The engine builds a line only when a sink takes its level, so the level
# given to Amber is the logger's effective level (read when the library loads, for the
# process-wide function, and when an engine opens, for the engine's own), not DEBUG filtered
# by logging afterwards; set_log_level() and Engine.set_log_level() read it again.

#: The name of the logger Amber's lines go to.
LOGGER_NAME = "amber"
_logger = logging.getLogger(LOGGER_NAME)
_PY_LEVELS = (logging.DEBUG, logging.INFO, logging.WARNING)


def _amber_level(level: Optional[int]) -> int:
    """The amber_log_level that lets through the lines of Python level ``level`` (None: the
    ``amber`` logger's effective level)."""
    if level is None:
        level = _logger.getEffectiveLevel()
    if level <= logging.DEBUG:
        return 0
    return 1 if level <= logging.INFO else 2


def _t_log(level, message, ctx):
    try:
        py_level = _PY_LEVELS[level] if 0 <= level <= 2 else logging.WARNING
        if _logger.isEnabledFor(py_level):
            _logger.log(py_level, "%s", message.decode("utf-8", "replace"))
    except Exception:  # a handler's failure is logging's to report (Handler.handleError)
        pass
    except BaseException as error:  # KeyboardInterrupt: re-raised after the C call
        E.callback_failed(error)


# Alive as long as the module, i.e. for the process: C keeps calling it.
_T_LOG = F.LogFn(_t_log)


def set_log_level(level: Optional[int] = None) -> None:
    """Sets the level of the process-wide log function (R29), which takes the lines of engines
    without their own (every amber.Engine has its own: see Engine.set_log_level): a logging
    level, or None for the ``amber`` logger's effective level now. Installed when the library
    loads; safe from any thread."""
    check(load().amber_set_log(_amber_level(level), _T_LOG, None))


def _install_log(lib: "F.Library") -> None:
    check(lib.amber_set_log(_amber_level(None), _T_LOG, None))


F.LOAD_HOOKS.append(_install_log)
if F._lib is not None:  # loaded before this module was imported (by _ffi's own users)
    _install_log(F._lib)


# ---- the engine --------------------------------------------------------------------------------

_O = TypeVar("_O")


class Engine:
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
    """

    def __init__(self, app_id: str, *, state_directory: Optional[str] = None, memory_store: bool = False,
                 store: Optional[Store] = None, protection: Optional[Protection] = None,
                 bundle_version: Optional[str] = None, interface_idiom: Optional[str] = None,
                 delegate: Any = None):
        lib = load()
        self._h: Optional[F.EngineP] = None
        self._keep: Dict[int, Any] = {}
        self._objects: Dict[int, Object] = {}
        self._reports: "weakref.WeakSet[_LazyReport]" = weakref.WeakSet()  # reports whose records are not read
        self._senders: Dict[int, Any] = {}
        self._delegate: Any = None
        self._preservation: Optional[PreservationReport] = None  # the last one preserve() returned
        self.app_id = app_id
        opts = F.EngineOptions(F.ENGINE_OPTIONS_VERSION)  # zeroed (the defaults), the version set
        opts.bundle_version = _s(bundle_version)
        opts.interface_idiom = _s(interface_idiom)
        opts.state_directory = _s(state_directory)
        opts.memory_store = 1 if memory_store else 0
        keys = []
        self._store_struct = None
        if store is not None:
            box = _StoreBox()
            box.store = store
            keys.append(box._register(self))
            st = F.Store(F.STORE_VERSION)
            st.read, st.write, st.remove, st.read_guard, st.write_guard = _T_STORE
            self._store_struct = st
            opts.store = ctypes.pointer(st)
            opts.store_ctx = box.key
            opts.store_ctx_free = CTX_FREE
        protection = protection or KeyFile()
        opts.protection = protection.code
        fixed = None
        if isinstance(protection, KeyFile):
            opts.key_file = _s(protection.path)
        elif isinstance(protection, FixedKey):
            fixed = (c_uint8 * 32).from_buffer_copy(protection.key)
            opts.fixed_key = ctypes.cast(fixed, POINTER(c_uint8))
        elif isinstance(protection, KeyProvider):
            box = _KeyBox()
            box.provider = protection
            keys.append(box._register(self))
            opts.key_callback = _T_KEY
            opts.key_ctx = box.key
            opts.key_ctx_free = CTX_FREE
        out = F.EngineP()
        rc = lib.amber_engine_open(byref(out), _s(app_id), byref(opts))
        if rc:
            for k in keys:  # on failure Amber does not call ctx_free
                _contexts.pop(k, None)
                self._keep.pop(k, None)
            _raise(rc)
        self._h = out
        self.set_log_level()
        if delegate is not None:
            self.set_delegate(delegate)

    # -- lifetime --
    def _handle(self) -> F.EngineP:
        if self._h is None:
            raise E.MisuseError("the engine is closed", E.MISUSE, "AMBER_MISUSE")
        return self._h

    @property
    def closed(self) -> bool:
        return self._h is None

    def close(self) -> None:
        """Closes the engine: frees its objects (their Python wrappers become dead), classes and
        callbacks. Harmless twice. Exceptions of ctx_free callbacks are re-raised."""
        if self._h is None:
            return
        lib = load()
        self._pin_reports()
        with _Call():
            lib.amber_engine_close(self._h)
            if lib.amber_error_last_code() == E.MISUSE and b"callback" in lib.amber_error_last():
                raise E.MisuseError(lib.amber_error_last().decode(), E.MISUSE, "AMBER_MISUSE")
            self._h = None
            for obj in list(self._objects.values()):
                obj._h = None
            self._objects.clear()
            for key in list(self._keep):
                _contexts.pop(key, None)
            self._keep.clear()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _pin_reports(self) -> None:
        """Reads the records of this engine's reports that are not read yet, before an object
        is freed or the engine closes: a C record names its object only while the object lives."""
        reports = self.__dict__.get("_reports")
        if reports:
            for lazy in list(reports):
                lazy.pin(self._objects)

    def __del__(self) -> None:
        try:
            if self._h is not None:
                self._pin_reports()
                load().amber_engine_close(self._h)
                self._h = None
        except Exception:
            pass

    # -- objects --
    def controller(self, identifier: Optional[str], class_name: str = "UIViewController", **kw: Any) -> Controller:
        """A new controller (kwargs as Object)."""
        return Controller(self, identifier, class_name=class_name, **kw)

    def view(self, identifier: Optional[str], class_name: str = "UIView", **kw: Any) -> View:
        return View(self, identifier, class_name=class_name, **kw)

    def plain_object(self, identifier: Optional[str], class_name: str = "NSObject", **kw: Any) -> PlainObject:
        return PlainObject(self, identifier, class_name=class_name, **kw)

    def add_root(self, root: Object) -> Object:
        """Adds a root (a window or scene; R2); returns it."""
        check(load().amber_engine_add_root(self._handle(), root._handle()))
        return root

    def remove_root(self, root: Object) -> None:
        check(load().amber_engine_remove_root(self._handle(), root._handle()))

    # -- classes --
    def register_restoration_class(self, name: Optional[str] = None, make: Any = None) -> Any:
        """Registers a restoration class (R10 step 1): by call, ``register_restoration_class(name,
        make)``, or as a decorator of a function or of a class with a ``make`` (class)method:

            @engine.register_restoration_class("Screens")
            class Screens:
                @classmethod
                def make(cls, engine, path, decoder): return ... or None

        ``make(engine, path: tuple[str, ...], decoder)`` returns an Object of this engine, or None
        to decline: neither it nor anything under it (objects recorded by reference included) is
        looked up or restored. ``path[-1]`` is the identifier as the host set it (R3);
        ``decoder.record`` tells the kind, class, blueprint and stack position of what is asked
        for. A class's name defaults to its Python name."""
        if make is None and name is not None and not isinstance(name, str):
            make, name = name, None
        if make is None:
            return lambda target: self.register_restoration_class(name, target)
        fn = getattr(make, "make", make) if isinstance(make, type) else make
        box = _Maker(fn)
        cls = F.RestorationClass(F.RESTORATION_CLASS_VERSION, _T_CLASS_MAKE)
        self._register_maker(box, load().amber_engine_register_restoration_class,
                             name or getattr(make, "__name__", None), cls)
        return make

    restoration_class = register_restoration_class

    def register_blueprint_factory(self, name: str, make: Any = None) -> Any:
        """Registers a blueprint factory (R10 step 4): ``make(engine, blueprint_id, path, decoder)``
        returns an Object or None. Usable as a decorator."""
        if make is None:
            return lambda target: self.register_blueprint_factory(name, target)
        fn = getattr(make, "make", make) if isinstance(make, type) else make
        box = _Maker(fn)
        fac = F.BlueprintFactory(F.BLUEPRINT_FACTORY_VERSION, _T_BLUEPRINT_MAKE)
        self._register_maker(box, load().amber_engine_register_blueprint_factory, name, fac)
        return make

    blueprint_factory = register_blueprint_factory

    def _register_maker(self, box: _Holder, fn: Callable[..., int], name: Optional[str], struct: Any) -> None:
        if not name:
            raise ValueError("a name is needed")
        key = box._register(self)
        rc = fn(self._handle(), _s(name), byref(struct), key, CTX_FREE)
        if rc:
            _contexts.pop(key, None)
            self._keep.pop(key, None)
            _raise(rc)

    def register_subclass(self, name: str, superclass: str) -> None:
        """Declares class ``name`` a subclass of ``superclass`` (the class check, R11)."""
        check(load().amber_engine_register_subclass(self._handle(), _s(name), _s(superclass)))

    def load_plugin(self, path: str) -> None:
        """Loads a plugin library and calls its entry point with this engine."""
        _call(load().amber_engine_load_plugin, self._handle(), _s(path))

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
          controllers only, views being found in their controller; ``decoder.record`` tells
          the kind, class, blueprint and stack position of what is asked for)
        - ``will_finish_launching(engine)``, ``did_finish_launching(engine)``
        None removes it."""
        lib = load()
        if delegate is None:
            with _Call():
                check(lib.amber_engine_set_delegate(self._handle(), None, None, CTX_FREE))
            self._delegate = None
            return
        d = F.Delegate(F.DELEGATE_VERSION)  # every callback NULL (Amber's defaults) until set
        for name, trampoline in _DELEGATE_TRAMPOLINES.items():
            if callable(getattr(delegate, name, None)):
                setattr(d, name, trampoline)
        box = _DelegateBox()
        box.delegate = delegate
        key = box._register(self)
        with _Call():
            rc = lib.amber_engine_set_delegate(self._handle(), byref(d), key, CTX_FREE)
        if rc:
            _contexts.pop(key, None)
            self._keep.pop(key, None)
            _raise(rc)
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
        check(load().amber_engine_set_log(self._handle(), _amber_level(level), _T_LOG, None))

    # -- preserving and restoring --
    def preserve(self) -> PreservationReport:
        """Preserves the interface (R5-R8) and returns what it did (R28): a PreservationReport,
        true if an archive was written (``report.saved``), else saying why not (no should_save,
        should_save declined).

        An exception raised by should_save, will_encode, the store or the key provider is
        re-raised here (nothing is written; the previous archive is kept), with the report as
        ``exception.amber_preservation`` when there is one. An exception raised by an object's
        encode callback is not: that object and everything under it are left out, the rest is
        saved, and the report's entry for it holds the exception (``entry.error``, named in
        ``entry.message``); a warning goes to the ``amber`` logger. KeyboardInterrupt and the
        other exceptions that are not Exceptions are re-raised once the preservation is done."""
        saved = c_int()
        rc, report = self._preserving(load().released.amber_engine_preserve, (byref(saved), self._handle()), True)
        assert report is not None
        return report

    def _preserving(self, fn: Callable[..., int], args: Tuple[Any, ...], preserves: bool,
                    transition: bool = False) -> Tuple[int, Optional[PreservationReport]]:
        """Runs a C call that preserves if ``preserves`` (preserve(), a transition to the
        background): reads the report, puts the exceptions of encode callbacks on it, raises
        the others. A transition reads the report only when a callback raised (reading a
        report of N objects costs about as much as preserving them: last_preservation reads
        it when asked)."""
        since = E.mark()
        rc = fn(*args)
        raised = E.take_all(since)
        report = None
        if preserves and (raised or not transition) and not (transition and rc == E.MISUSE):
            report = self._read_preservation()
            # A preserve() that failed wrote a report that says so; any other report is an
            # older one (it failed before it began). A transition that was allowed (not
            # MISUSE) preserved, whatever its observers did.
            if rc and not transition and report is not None and report.not_saved != NotSaved.FAILED:
                report = None
        if preserves:
            self._preservation = report  # None: last_preservation reads the engine's
        reported = [(error, source) for error, source in raised if source is not None] if rc == 0 else []
        if reported and report is not None:
            _attach_errors(report, reported)
        kept = {id(error) for error, _ in reported if isinstance(error, Exception)}
        # A failed save's own cause (a store, a key provider) before an encode callback's.
        errors = [error for error, source in raised if source is None and id(error) not in kept] + \
                 [error for error, source in raised if source is not None and id(error) not in kept]
        error = E.first(errors)
        if error is not None:
            if report is not None:
                error.amber_preservation = report  # type: ignore[attr-defined]
            raise error
        if rc:
            _raise(rc)
        return rc, report

    def _read_preservation(self) -> Optional[PreservationReport]:
        out = F.PreservationP()
        rc = load().amber_engine_preservation(byref(out), self._handle())
        if rc == E.NOT_FOUND:
            return None
        check(rc)
        return _read_preservation(out)

    @property
    def last_preservation(self) -> Optional[PreservationReport]:
        """The report of the engine's last preservation (R28), by preserve() or by the
        transition to the background; None before the first. The one preserve() returned, or
        that transition() read because a callback raised (with the exceptions of encode
        callbacks on its entries); else read from the engine, anew at each access."""
        if self._preservation is not None:
            return self._preservation
        return self._read_preservation()

    @property
    def last_duplicates(self) -> List[str]:
        """The restoration paths the last preservation met more than once (R3), joined with '/',
        one per object left out as a duplicate: the paths of the DUPLICATE_PATH entries of its
        report (``last_preservation``), whose messages name the object kept for each."""
        self._handle()  # raises: the engine is closed
        report = self.last_preservation
        if report is None:
            return []
        return [entry.path_string for entry in report.entries if entry.left_out == LeftOut.DUPLICATE_PATH]

    def _launch(self, fn: Callable[..., int], state: int) -> Report:
        out = F.ReportP()
        since = E.mark()
        rc = fn(byref(out), self._handle(), state)
        error = E.take(since)
        report = _read_report(out, self) if out else None
        if error is not None:
            if report is not None:
                error.amber_report = report  # type: ignore[attr-defined]
            raise error
        check(rc)
        assert report is not None
        return report

    def launch(self, *, in_background: bool = False) -> Report:
        """The launch sequence (R9-R16, R23): will_finish_launching, restoration,
        did_finish_launching; returns the report. If a callback raised, its exception is
        re-raised after the launch completes, with the report as ``exception.amber_report``."""
        return self._launch(load().released.amber_engine_launch, F.APP_BACKGROUND if in_background else F.APP_INACTIVE)

    def discard(self) -> None:
        """Discards the archive on purpose (R14)."""
        check(load().released.amber_engine_discard(self._handle()))

    def extend_restoration(self) -> int:
        """Extends restoration while data loads (R15); returns a token for complete_restoration.
        Call it from a restoration callback."""
        out = c_uint64()
        check(load().amber_engine_extend_restoration(byref(out), self._handle()))
        return out.value

    def complete_restoration(self, token: int) -> None:
        """Completes an extension; after the last, the archive is discarded (R15)."""
        _call(load().released.amber_engine_complete_restoration, self._handle(), token)

    # -- lifecycle (R23) --
    @property
    def state(self) -> AppState:
        return AppState(load().amber_engine_app_state(self._handle()))

    def transition(self, state: AppState) -> bool:
        """Moves the application to ``state`` (R23); returns True if entering the background wrote
        an archive. MisuseError for a transition UIKit does not allow. Entering the background
        preserves as preserve() does: its report is ``last_preservation`` (the exceptions of
        encode callbacks are on it, not raised), and an exception that makes it fail is raised
        here with the report as ``exception.amber_preservation``."""
        saved = c_int()
        h = self._handle()
        preserves = int(state) == AppState.BACKGROUND and self.state == AppState.INACTIVE
        self._preserving(load().released.amber_engine_transition, (byref(saved), h, int(state)), preserves, True)
        return bool(saved.value)

    def report_memory_warning(self) -> None:
        """Posts the memory warning notification (R24)."""
        _call(load().amber_engine_report_memory_warning, self._handle())

    # -- notifications (R24) --
    def add_observer(self, callback: Callable[[Notification], Optional[int]], name: Optional[str] = None,
                     sender: Any = None) -> int:
        """Registers ``callback(notification)`` for notifications named ``name`` (None: all) from
        ``sender`` (None: any; the engine for its own). Returns a token for remove_observer. A
        callback may return a non-zero int, which the post returns (as an exception)."""
        lib = load()
        box = _ObserverBox()
        box.fn = callback
        key = box._register(self)
        out = c_uint64()
        rc = lib.amber_engine_add_observer(byref(out), self._handle(), _s(name), self._sender_ptr(sender),
                                           _T_OBSERVER, key, CTX_FREE)
        if rc:
            _contexts.pop(key, None)
            self._keep.pop(key, None)
            _raise(rc)
        box.token = out.value
        return out.value

    def remove_observer(self, token: int) -> None:
        _call(load().amber_engine_remove_observer, self._handle(), token)

    def observe(self, name: Optional[str] = None, sender: Any = None) -> Callable[[_O], _O]:
        """Decorator form of add_observer."""
        def register(fn):
            self.add_observer(fn, name, sender)
            return fn
        return register

    def _sender_ptr(self, sender: Any) -> Optional[int]:
        if sender is None:
            return None
        if sender is self:
            return self._handle().value
        self._senders[id(sender)] = sender  # kept: C compares by pointer while observers live
        return id(sender)

    def post_notification(self, name: str, sender: Any = None, user_info: Optional[Mapping[str, Any]] = None) -> None:
        """Posts a notification to the matching observers, at once, in registration order."""
        lib = load()
        info = _make_user_info(user_info) if user_info else None
        try:
            _call(lib.amber_engine_post_notification, self._handle(), _s(name), self._sender_ptr(sender), info)
        finally:
            if info is not None:
                lib.amber_user_info_free(info)

    def __repr__(self) -> str:
        return f"<amber.Engine {self.app_id!r}{' closed' if self._h is None else ''}>"
