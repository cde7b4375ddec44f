"""Restorable objects (R1-R4) and their coders and decoders (R6, R7, R12): the object and coder
sections of the header (amber/object.h, amber/coder.h, and the batch calls of amber/plugin.h)."""
from __future__ import annotations

import ctypes
import re
import threading
import weakref
from ctypes import byref, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint8, POINTER
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, NamedTuple, Optional, Protocol,
                    Sequence, Tuple, TypeVar, Union)

from . import _errors as E
from . import _ffi
from ._ffi import load
from .log import report_restoration_errors
from .values import (KINDS, IndexPath, Kind, Path, Value, c_key, c_text, c_text_or_none, date_from_seconds,
                     fill_value, misuse, not_found, py_text, read_value, seconds_from_date, take_text,
                     value_type_code)

if TYPE_CHECKING:
    import datetime as _dt

_O = TypeVar("_O", bound="Object")

# How amber_*_values() name the value at fault: "values[0] (key 'k'): " before the message. The
# patterns of the package are compiled on first use (re caches them), not at import: a program
# pays for the import before its first frame.
_FIRST_VALUE = r"(?s)values\[0\] \(key '.*?'\): "


def one_value(error: E.AmberError) -> E.AmberError:
    """The error of a one-value batch call (a keyed archive's date or index path) without the
    "values[0] (key ...): " that names the value at fault."""
    message = re.sub(_FIRST_VALUE, "", error.message, count=1)
    return E.error_for(error.code, message, error.status)


class _Batches(threading.local):
    """Per thread, the amber_keyed_value arrays of Coder.update and Decoder.read, made once per
    tuple of keys (or schema) and reused: filling the values of an array whose keys are set
    costs less than making one. An array is taken out of the cache while a call uses it, so a
    call made meanwhile (a signal handler's) makes its own."""

    def __init__(self) -> None:
        self.arrays: Dict[Tuple[Any, ...], Tuple[Any, List[_ffi.KeyedValue]]] = {}


_batches = _Batches()
_BATCH_CACHE = 64  # arrays kept per thread (the oldest are dropped beyond)


def _take_array(keys: Tuple[Any, ...], names: Sequence[str]) -> Tuple[Any, List[_ffi.KeyedValue]]:
    """The cached array for ``keys`` (made with the keys ``names`` set), taken out of the cache."""
    entry = _batches.arrays.pop(keys, None)
    if entry is None:
        array = (_ffi.KeyedValue * len(names))()
        slots = list(array)  # the element views, made once
        for slot, name in zip(slots, names):
            slot.key = c_key(name)
        entry = (array, slots)
    return entry


def _give_back(keys: Tuple[Any, ...], entry: Tuple[Any, List[_ffi.KeyedValue]]) -> None:
    cache = _batches.arrays
    if len(cache) >= _BATCH_CACHE:
        cache.pop(next(iter(cache)))
    cache[keys] = entry


# ---- coders -----------------------------------------------------------------------------------

class Coder:
    """The coder an encode callback writes an object's state into (R6), or the application
    coder of the delegate's should_save and will_encode. Valid only during the callback.

    ``coder.update(mapping)`` writes a whole mapping in one C call, all or nothing;
    ``coder[key] = value`` writes one value (or a reference to an Object, R4); the typed
    ``encode_*`` methods write one value of their type."""
    __slots__ = ("_h",)

    def __init__(self, handle: Optional[_ffi.CoderP]):
        self._h = handle

    def _handle(self) -> _ffi.CoderP:
        if self._h is None:
            raise misuse("a coder is valid only during its callback")
        return self._h

    def update(self, values: Mapping[str, Value], *, sensitive: Sequence[str] = ()) -> None:
        """Writes every value of a mapping in one call (amber_coder_encode_values), all or nothing:
        if a value is refused — by the binding (a type it cannot encode, an int beyond int64, a
        string with a NUL) or by Amber (a reserved key, a key written before, invalid UTF-8) —
        nothing of the mapping is written. Values: bool, int, float, str, bytes, datetime,
        IndexPath. References to objects are written one by one, with ``coder[key] = obj`` or
        encode_object. ``sensitive``: keys to mark sensitive first (``mark_sensitive``, R34)."""
        if not isinstance(values, Mapping):
            raise TypeError(f"update() takes a mapping, not {type(values).__name__}")
        if isinstance(sensitive, str):
            raise TypeError("sensitive= takes a sequence of keys, not one str")
        for key in sensitive:
            self.mark_sensitive(key)
        count = len(values)
        if not count:
            return
        handle = self._handle()
        items: Mapping[str, Any] = values  # each value's type is checked below
        keys = tuple(items)
        entry = _take_array(keys, keys)
        array, slots = entry
        keep: List[Any] = []
        try:
            for slot, key, value in zip(slots, keys, items.values()):
                t = type(value)
                if t is int:
                    if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
                        raise OverflowError(f"{key}: {value} does not fit in int64")
                    slot.type = _ffi.VALUE_INT64
                    slot.int64_value = value
                elif t is str:
                    slot.type = _ffi.VALUE_STRING
                    slot.string_value = c_text(value)
                elif t is float:
                    slot.type = _ffi.VALUE_DOUBLE
                    slot.double_value = value
                elif t is bool:
                    slot.type = _ffi.VALUE_BOOL
                    slot.int64_value = 1 if value else 0
                else:
                    fill_value(slot, key, value, keep)
            load().amber_coder_encode_values(handle, array, count)
        finally:
            _give_back(keys, entry)

    def mark_sensitive(self, key: str) -> None:
        """Marks a key sensitive (R34), before or after its value is written, any type: its value
        is kept only in an encrypted archive, never logged, shown as ``<sensitive>`` by ``amber
        inspect`` and ``amber dump``, and the plaintext copies Amber holds are zeroed (the
        Python strings made from it are not: Python cannot zero them). KeyUnavailableError when
        the engine does not encrypt (NoEncryption): the preservation then writes nothing and
        fails with KeyUnavailableError too."""
        load().amber_coder_mark_sensitive(self._handle(), c_key(key))

    def __setitem__(self, key: str, value: Union[Value, "Object", None]) -> None:
        """Writes one value, or a reference to an Object (or None) as encode_object does."""
        if value is None or isinstance(value, Object):
            self.encode_object(key, value)
        else:
            self.update({key: value})

    def encode_bool(self, key: str, value: bool) -> None:
        load().amber_coder_encode_bool(self._handle(), c_key(key), 1 if value else 0)

    def encode_int(self, key: str, value: int) -> None:
        """Writes a signed 64-bit integer (OverflowError outside its range)."""
        if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
            raise OverflowError(f"{key}: {value} does not fit in int64")
        load().amber_coder_encode_int64(self._handle(), c_key(key), value)

    def encode_float(self, key: str, value: float) -> None:
        load().amber_coder_encode_double(self._handle(), c_key(key), value)

    def encode_string(self, key: str, value: str) -> None:
        """Writes a string (UTF-8; no NUL characters)."""
        load().amber_coder_encode_string(self._handle(), c_key(key), c_text(value))

    def encode_bytes(self, key: str, value: Union[bytes, bytearray, memoryview]) -> None:
        data = bytes(value)
        load().amber_coder_encode_bytes(self._handle(), c_key(key), data, len(data))

    def encode_date(self, key: str, value: _dt.datetime) -> None:
        """Writes a date (NSDate); a naive datetime is UTC.

        A date before 0001-01-01T00:00:00Z (year 1 in a time zone east of UTC) is refused,
        InvalidArgumentError: no archive holds a date outside years 1 to 9999 (R22)."""
        load().amber_coder_encode_date(self._handle(), c_key(key), seconds_from_date(value))

    def encode_index_path(self, key: str, value: Sequence[int]) -> None:
        """Writes an index path (NSIndexPath)."""
        indexes = IndexPath(value)
        load().amber_coder_encode_index_path(self._handle(), c_key(key), (c_int64 * len(indexes))(*indexes),
                                             len(indexes))

    def encode_object(self, key: str, value: Optional["Object"]) -> None:
        """Writes a reference to another restorable object (R4), or None: from an object's coder
        or from the application coder (the delegate's should_save and will_encode). An object
        with a restoration identifier is then preserved with its state even if the walk left it
        out, and with its contents: its identified views and children are preserved under it as
        the walk would (R2, R3). Its path is its own identifier under those of its ancestors
        that have one.
        InvalidArgumentError for an object without an identifier; DuplicateError if another
        preserved object has its path."""
        load().amber_coder_encode_object(self._handle(), c_key(key), None if value is None else value._handle())


class RecordInfo(NamedTuple):
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
    Valid only during the callback. Typed getters raise KeyError (NotFoundError) for a missing
    key and TypeError (TypeMismatchError) for a value of another type; ``decoder[key]`` finds
    the type itself; ``read(schema)`` reads several values in one call."""
    __slots__ = ("_h",)

    def __init__(self, handle: Optional[_ffi.DecoderP]):
        self._h = handle

    def _handle(self) -> _ffi.DecoderP:
        if self._h is None:
            raise misuse("a decoder is valid only during its callback")
        return self._h

    def decode_bool(self, key: str) -> bool:
        out = c_int()
        load().amber_decoder_decode_bool(byref(out), self._handle(), c_key(key))
        return bool(out.value)

    def decode_int(self, key: str) -> int:
        out = c_int64()
        load().amber_decoder_decode_int64(byref(out), self._handle(), c_key(key))
        return int(out.value)

    def decode_float(self, key: str) -> float:
        """A double (an integer is converted)."""
        out = c_double()
        load().amber_decoder_decode_double(byref(out), self._handle(), c_key(key))
        return float(out.value)

    def decode_string(self, key: str) -> str:
        out = c_char_p()
        load().amber_decoder_decode_string(byref(out), self._handle(), c_key(key))
        return py_text(out.value) or ""

    def decode_bytes(self, key: str) -> bytes:
        out = POINTER(c_uint8)()
        size = c_size_t()
        load().amber_decoder_decode_bytes(byref(out), byref(size), self._handle(), c_key(key))
        return ctypes.string_at(out, size.value) if size.value else b""

    def decode_date(self, key: str) -> _dt.datetime:
        """A date, as an aware UTC datetime."""
        out = c_double()
        load().amber_decoder_decode_date(byref(out), self._handle(), c_key(key))
        return date_from_seconds(out.value)

    def decode_index_path(self, key: str) -> IndexPath:
        """An index path (NSIndexPath)."""
        out = _ffi.IndexPath()
        load().amber_decoder_decode_index_path(byref(out), self._handle(), c_key(key))
        return IndexPath(out.indexes[:out.length]) if out.length else IndexPath()

    def decode_object(self, key: str, classes: Optional[Sequence[str]] = None) -> Optional["Object"]:
        """The object restored for the record a reference names (R4), from an object's decoder
        or from the application decoder in the delegate's did_decode; None for a reference to
        None, or to a record for which no object was found (declined, not found). A record
        whose object failed the class check (R11) decodes to the object found. With
        ``classes``, secure decoding (R12): an object of another class is a TypeError."""
        out = _ffi.ObjectP()
        if classes is None:
            load().amber_decoder_decode_object(byref(out), self._handle(), c_key(key), None, 0)
        else:
            names = [c_text(c) for c in classes]
            load().amber_decoder_decode_object(byref(out), self._handle(), c_key(key),
                                               (c_char_p * len(names))(*names), len(names))
        return Object.from_handle(out)

    def __contains__(self, key: str) -> bool:
        return bool(load().amber_decoder_contains(self._handle(), c_key(key)))

    def path_positions(self) -> Tuple[int, ...]:
        """The stack position of each component of the record's path (R3), in path order: what
        a lookup callback's Path carries. InvalidArgumentError on the application decoder."""
        out = POINTER(c_size_t)()
        length = c_size_t()
        load().amber_decoder_path_positions(byref(out), byref(length), self._handle())
        return tuple(out[:length.value])

    def position(self) -> int:
        """The record's stack position (R3) alone: the last of ``path_positions()``."""
        info = _ffi.RecordInfo()
        load().amber_decoder_record(byref(info), self._handle())
        return int(info.position)

    @property
    def record(self) -> RecordInfo:
        """What the archive records of the object this decoder reads, besides its state (R10,
        R3): its kind, class name, blueprint and stack position. InvalidArgumentError on the
        application decoder (should_restore, did_decode)."""
        info = _ffi.RecordInfo()
        load().amber_decoder_record(byref(info), self._handle())
        return RecordInfo(KINDS[info.kind] if info.kind in KINDS else Kind(info.kind), py_text(info.class_name) or "",
                          py_text(info.blueprint), int(info.position))

    def __getitem__(self, key: str) -> Any:
        """The value under ``key`` whatever its type (KeyError if missing). The C ABI cannot tell
        a value's type, so this tries the types in turn, then a reference to an object; use the
        typed getters or read() where speed counts."""
        for vtype in self._probed_types():
            try:
                found = self.read({key: vtype})
            except E.TypeMismatchError:
                continue
            if key not in found:
                raise not_found(key)
            return found[key]
        try:
            return self.decode_object(key)
        except E.TypeMismatchError:
            pass
        raise E.TypeMismatchError(f"the value under {key!r} is of no type the binding knows", E.TYPE_MISMATCH,
                                  "AMBER_TYPE_MISMATCH")

    @staticmethod
    def _probed_types() -> Iterator[type]:
        """The types ``decoder[key]`` tries, dates last: the datetime module is imported only
        for a value of none of the others."""
        yield from (int, bool, float, str, bytes, IndexPath)
        import datetime
        yield datetime.datetime

    def get(self, key: str, default: Any = None) -> Any:
        """``decoder[key]``, or ``default`` for a missing key."""
        try:
            return self[key]
        except KeyError:
            return default

    def read(self, schema: Mapping[str, type]) -> Dict[str, Any]:
        """Reads several values at once: ``schema`` maps each key to its type (bool, int, float,
        str, bytes, datetime, IndexPath, or Object for a reference); a missing key is left out of
        the result. The values are read in one C call (amber_decoder_decode_values), references
        one by one (decode_object). TypeMismatchError (a TypeError) for a value of another type;
        TypeError for a type the binding does not read."""
        handle = self._handle()
        plan = tuple(schema.items())
        reading = _plans.get(plan)
        if reading is None:
            reading = _plan(plan)
        names, codes, objects = reading
        out: Dict[str, Any] = {}
        if names:
            entry = _take_array(plan, names)  # its slots' types are set: the plan is its cache key
            array, slots = entry
            try:
                if slots[0].type == 0:  # a new array (0 is AMBER_VALUE_ANY, which read never asks)
                    for slot, code in zip(slots, codes):
                        slot.type = code
                load().amber_decoder_decode_values(array, len(names), handle)
                for slot, key, code in zip(slots, names, codes):  # a slot's type is its code
                    if slot.found:
                        if code == _ffi.VALUE_INT64:
                            out[key] = slot.int64_value
                        elif code == _ffi.VALUE_STRING:
                            out[key] = slot.string_value.decode("utf-8", "surrogateescape")
                        elif code == _ffi.VALUE_DOUBLE:
                            out[key] = slot.double_value
                        elif code == _ffi.VALUE_BOOL:
                            out[key] = slot.int64_value != 0
                        else:
                            out[key] = read_value(slot)
            finally:
                # The string pointers left in it are borrowed from this callback's decoder: never
                # read again (a call sets every element's `found`; a string is read only where it
                # is 1, just set).
                _give_back(plan, entry)
        for key in objects:
            try:
                out[key] = self.decode_object(key)
            except E.NotFoundError:  # a missing key is left out
                pass
        return out


_Plan = Tuple[List[str], List[int], List[str]]
_plans: Dict[Tuple[Tuple[str, type], ...], _Plan] = {}


def _plan(plan: Tuple[Tuple[str, type], ...]) -> _Plan:
    """How Decoder.read reads a schema, worked out once per schema: the keys read in the batch
    with their amber_value_type, and the keys of object references (TypeError for a type the
    binding does not read)."""
    names: List[str] = []
    codes: List[int] = []
    objects: List[str] = []
    for key, vtype in plan:
        code = value_type_code(vtype)
        if code is not None:
            names.append(key)
            codes.append(code)
        elif isinstance(vtype, type) and issubclass(vtype, Object):
            objects.append(key)
        else:
            raise TypeError(f"amber: cannot read {key!r} as {vtype!r} (bool, int, float, str, bytes, "
                            "datetime, IndexPath or Object)")
    if len(_plans) < 1024:
        _plans[plan] = (names, codes, objects)
    return names, codes, objects


# ---- restorable objects ----------------------------------------------------------------------

_CALLBACKS: Dict[Tuple[bool, bool, bool], _ffi.ObjectCallbacks] = {}  # C copies them; kept for ever
_CLASS_CALLBACKS: Dict[type, _ffi.ObjectCallbacks] = {}  # those of each class's own methods


def _callbacks(which: Tuple[bool, bool, bool]) -> _ffi.ObjectCallbacks:
    """The callbacks struct of objects that have the callbacks ``which`` says (made once)."""
    callbacks = _CALLBACKS.get(which)
    if callbacks is None:
        callbacks = _ffi.ObjectCallbacks(_ffi.OBJECT_CALLBACKS_VERSION)  # zeroed, the version set
        if which[0]:
            callbacks.encode = _ffi.T_ENCODE
        if which[1]:
            callbacks.decode = _ffi.T_DECODE
        if which[2]:
            callbacks.finished_restoring = _ffi.T_FINISHED
        _CALLBACKS[which] = callbacks
    return callbacks


class UnreadRecords(Protocol):
    """A report whose records are not read yet (report.py's ``_CReport``): a C record names its
    object only while the object lives, so the engine has them read before it frees one."""

    def pin(self, objects: Dict[Optional[int], "Object"]) -> None: ...


class EngineCore:
    """The engine as its objects, views, stores and reports know it: its handle, the contexts it
    keeps alive, its live objects and its reports not read yet. ``Engine`` (engine.py) is its
    subclass; it lives here, below the modules that hold an engine, so that they need not import
    engine.py, which imports them (the layering is in the package's docstring)."""
    _h: Optional[_ffi.EngineP]
    _keep: Dict[int, Any]  # context number -> holder, until Amber frees the context
    _objects: Dict[Optional[int], "Object"]  # handle -> Object, for reports and references
    _reports: "weakref.WeakSet[UnreadRecords]"

    def _init_core(self) -> None:
        """The fields of an engine not open yet."""
        self._h = None
        self._keep = {}
        self._objects = {}
        self._reports = weakref.WeakSet()

    def _handle(self) -> _ffi.EngineP:
        if self._h is None:
            raise misuse("the engine is closed")
        return self._h

    def _pin_reports(self) -> None:
        """Reads the records of this engine's reports that are not read yet, before an object
        is freed or the engine closes: a C record names its object only while the object lives."""
        reports = self.__dict__.get("_reports")
        if reports:
            for source in list(reports):
                source.pin(self._objects)


class Object(_ffi.Holder):
    """A restorable object (R1), owned by its engine. Subclass it (or ``Controller``, ``View``,
    ``PlainObject``) and override ``encode_restorable_state``, ``decode_restorable_state`` and
    ``application_finished_restoring``; or pass ``encode=``, ``decode=``, ``finished=`` callables
    taking ``(obj, coder)``, ``(obj, decoder)``, ``(obj,)``. The class name defaults to the Python
    class's name. The engine keeps the object alive until ``free()`` or the engine closes."""
    __slots__ = ("_h", "engine", "_encode", "_decode", "_finished", "__dict__")

    kind: Kind = Kind.OBJECT

    def __init__(self, engine: EngineCore, identifier: Optional[str] = None, *, class_name: Optional[str] = None,
                 kind: Optional[Kind] = None, restoration_class: Optional[str] = None,
                 blueprint: Optional[str] = None, stack: bool = False,
                 encode: Optional[Callable[["Object", Coder], None]] = None,
                 decode: Optional[Callable[["Object", Decoder], None]] = None,
                 finished: Optional[Callable[["Object"], None]] = None):
        self.engine = engine
        self._h: Optional[_ffi.ObjectP] = None
        self._encode = encode
        self._decode = decode
        self._finished = finished
        cls = type(self)
        callbacks = _CLASS_CALLBACKS.get(cls) if encode is None and decode is None and finished is None else None
        if callbacks is None:
            callbacks = _callbacks(
                (encode is not None or cls.encode_restorable_state is not Object.encode_restorable_state,
                 decode is not None or cls.decode_restorable_state is not Object.decode_restorable_state,
                 finished is not None or cls.application_finished_restoring is not Object.application_finished_restoring))
            if encode is None and decode is None and finished is None:
                _CLASS_CALLBACKS[cls] = callbacks
        name = c_key(class_name if class_name is not None else cls.__name__)
        ident = c_text_or_none(identifier)
        engine_h = engine._handle()
        key = self.register(engine)
        out = _ffi.ObjectP()
        try:
            load().amber_object_new(byref(out), engine_h, kind if kind is not None else cls.kind, name, ident,
                                    callbacks, key, _ffi.CTX_FREE)
        except BaseException:
            self.unregister()
            raise
        self._h = out
        engine._objects[out.value] = self
        if restoration_class is not None:
            self.set_restoration_class(restoration_class)
        if blueprint is not None:
            self.set_blueprint(blueprint)
        if stack:
            self.set_stack(True)

    # -- the callbacks: override these --
    def encode_restorable_state(self, coder: Coder) -> None:
        """Writes this object's state while preserving (R6)."""
        if self._encode is not None:
            self._encode(self, coder)

    def decode_restorable_state(self, decoder: Decoder) -> None:
        """Reads it back while restoring, once every object exists (R12)."""
        if self._decode is not None:
            self._decode(self, decoder)

    def application_finished_restoring(self) -> None:
        """Called once every restored object has decoded (R13)."""
        if self._finished is not None:
            self._finished(self)

    # -- what the trampolines call --
    def c_encode(self, coder_h: _ffi.CoderP) -> int:
        coder = Coder(coder_h)
        try:
            self.encode_restorable_state(coder)
        finally:
            coder._h = None
        return 0

    def c_decode(self, decoder_h: _ffi.DecoderP) -> int:
        decoder = Decoder(decoder_h)
        try:
            self.decode_restorable_state(decoder)
        finally:
            decoder._h = None
        return 0

    def c_finished(self) -> None:
        self.application_finished_restoring()

    def c_released(self) -> None:
        if self._h is not None:
            self.engine._objects.pop(self._h.value, None)
        self._h = None

    # -- handles --
    def _handle(self) -> _ffi.ObjectP:
        if self._h is None:
            raise misuse("the object was freed (or its engine closed)")
        return self._h

    @staticmethod
    def from_handle(handle: _ffi.ObjectP) -> Optional["Object"]:
        """The Object of a handle Amber gave (None for NULL, or an object not made in Python)."""
        if not handle:
            return None
        key = load().amber_object_context(handle)
        ref = _ffi._contexts.get(key)
        obj = ref() if ref is not None else None
        return obj if isinstance(obj, Object) else None

    def give(self, engine: EngineCore, what: str) -> _ffi.ObjectP:
        """This object's handle for a make callback's *out: of ``engine``, alive."""
        if self.engine is not engine:
            raise ValueError(f"{what} returned an object of another engine")
        return self._handle()

    # -- properties and the tree --
    @property
    def alive(self) -> bool:
        """False once the object was freed or its engine closed."""
        return self._h is not None

    @property
    def identifier(self) -> Optional[str]:
        """The restoration identifier (R2), None for none; settable."""
        return py_text(load().amber_object_identifier(self._handle()))

    @identifier.setter
    def identifier(self, value: Optional[str]) -> None:
        load().amber_object_set_identifier(self._handle(), c_text_or_none(value))

    def mark_dirty(self) -> None:
        """Marks the object's state changed (R32): with autosave on, a save is due after the quiet
        time, and the next save calls this object's encode callback again."""
        load().amber_object_mark_dirty(self._handle())

    @property
    def class_name(self) -> str:
        return py_text(load().amber_object_class_name(self._handle())) or ""

    @property
    def object_kind(self) -> Kind:
        return Kind(load().amber_object_kind(self._handle()))

    @property
    def path_string(self) -> Optional[str]:
        """The restoration path as Amber writes it, the identifiers joined with '/', each stack
        position k >= 1 after its identifier as "[k]" ("nav/A[1]/X", R3); None if it or an
        ancestor has no identifier."""
        out = _ffi.Buf()
        try:
            load().amber_object_path(byref(out), self._handle())
        except E.NotFoundError:
            return None
        return take_text(out)

    @property
    def path(self) -> Optional[Path]:
        """The restoration path (R3) as a Path with every stack position, None if it or an
        ancestor has no identifier. The C API gives a live object's path as text only
        (path_string, "nav/A[1]/X"): an identifier holding a '/', or ending in "[k]", is read
        apart here (reports and callbacks carry the exact identifiers)."""
        text = self.path_string
        return None if text is None else Path.parse(text)

    def set_restoration_class(self, name: Optional[str]) -> None:
        """Names the restoration class that remakes it at launch (R10 step 1), or None."""
        load().amber_object_set_restoration_class(self._handle(), c_text_or_none(name))

    def set_blueprint(self, blueprint_id: Optional[str]) -> None:
        """Records the blueprint it was made from (R6, R10 step 4), or None."""
        load().amber_object_set_blueprint(self._handle(), c_text_or_none(blueprint_id))

    def set_stack(self, is_stack: bool = True) -> None:
        """Declares a controller a stack container (R3)."""
        load().amber_object_set_stack(self._handle(), 1 if is_stack else 0)

    def add_child(self, child: "_O") -> "_O":
        """Appends a child controller (containment); returns the child."""
        load().amber_object_add_child(self._handle(), child._handle())
        return child

    def remove_child(self, child: "Object") -> None:
        load().amber_object_remove_child(self._handle(), child._handle())

    def present(self, presented: Optional["Object"]) -> None:
        """Presents a controller modally; None dismisses."""
        load().amber_object_present(self._handle(), None if presented is None else presented._handle())

    def add_view(self, view: "_O") -> "_O":
        """Adds a view to this controller; returns the view."""
        load().amber_object_add_view(self._handle(), view._handle())
        return view

    def set_restoration_parent(self, parent: Optional["Object"]) -> None:
        """The restoration parent of a plain object (UIStateRestoring)."""
        load().amber_object_set_restoration_parent(self._handle(), None if parent is None else parent._handle())

    def restore_pending(self, *, raise_errors: bool = False) -> List[BaseException]:
        """Claims, for an object created after launch, the state kept for its restoration path
        (R35, see ``Engine.keep_unclaimed``): decodes it, then the kept records under it whose
        paths match objects under it. ``Engine.restoration_report()`` then records them. Raises
        NotFoundError (a KeyError) when no state is kept for its path, with the reason: none was
        kept, none has this path, or the kept records were dropped (at their deadline, or by
        ``Engine.end_restoration``). An exception of a decode callback is reported as
        ``Engine.launch`` reports it: its record is DECODE_ERROR in ``Engine.restoration_report()``,
        its type and text in the record's message, and a warning names it. Returns those
        exceptions (with their tracebacks; [] if none); ``raise_errors`` raises the first instead."""
        since = E.mark()
        failure: Optional[E.AmberError] = None
        try:
            load().amber_object_restore_pending(self._handle())
        except E.AmberError as error:
            failure = error
        raised = [error for error, _ in E.take_all(since)]
        if failure is not None:
            raise E.first(raised) or failure
        report_restoration_errors(raised, "restore_pending", raise_errors)
        return raised

    def free(self) -> None:
        """Frees the object now (its children are not freed). Harmless twice."""
        if self._h is not None:
            self.engine._pin_reports()
            with E.callbacks_raised():
                load().amber_object_free(self._h)
            self.c_released()

    def __repr__(self) -> str:
        if self._h is None:
            return f"<{type(self).__name__} (freed)>"
        return f"<{type(self).__name__} {self.class_name} {self.identifier!r}>"


class Controller(Object):
    """A controller (a screen; R1)."""
    __slots__ = ()
    kind = Kind.CONTROLLER


class PlainObject(Object):
    """A plain restorable object (UIStateRestoring) with a restoration parent (R1)."""
    __slots__ = ()
    kind = Kind.OBJECT


def object_handle(result: Any, engine: EngineCore, what: str) -> _ffi.ObjectP:
    """The handle a make callback gives Amber for ``result``: an Object of ``engine``, or None."""
    if result is None:
        return _ffi.ObjectP()
    if not isinstance(result, Object):
        raise TypeError(f"{what} must return an amber.Object or None, not {type(result).__name__}")
    return result.give(engine, what)
