"""Keyed archiving of the host's own data (R25, R26): the archive section of the header
(amber/archive.h). Objects of registered coding classes (NSCoding) are archived by key in the
NSKeyedArchiver layout of a binary property list, which CPython's plistlib reads."""
from __future__ import annotations

from ctypes import byref, c_char_p, c_size_t, c_void_p
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar, Union

from . import _errors as E
from . import _ffi
from ._ffi import load
from .objects import one_value
from .values import c_key, c_text, c_text_or_none, fill_value, is_datetime, misuse, not_found, read_value, take_bytes

if TYPE_CHECKING:
    import datetime as _dt

_T = TypeVar("_T")

# Archivers and unarchivers at work, by handle: the coding callbacks find their Python object here.
# Objects cross the C ABI as their id(); the archiver or unarchiver keeps them alive in ``_objects``.
_active: Dict[Optional[int], Any] = {}


class _ClassHolder(_ffi.Holder):
    """The context of a registered coding class."""
    __slots__ = ("cls", "name")

    def __init__(self, cls: type, name: str):
        self.cls = cls
        self.name = name

    def c_encode_object(self, obj_p: int, archiver_h: _ffi.ArchiverP) -> None:
        archiver: Archiver = _active[archiver_h.value]
        archiver._objects[obj_p].encode_with_coder(archiver)

    def c_make_object(self, unarchiver_h: _ffi.UnarchiverP) -> Optional[int]:
        unarchiver: Unarchiver = _active[unarchiver_h.value]
        obj = self.cls.init_with_coder(unarchiver)  # type: ignore[attr-defined]
        if obj is None:
            return None
        unarchiver._objects[id(obj)] = obj
        return id(obj)

    def c_decode_object(self, obj_p: int, unarchiver_h: _ffi.UnarchiverP) -> None:
        unarchiver: Unarchiver = _active[unarchiver_h.value]
        unarchiver._objects[obj_p].decode_with_coder(unarchiver)


class CodingRegistry:
    """The host's coding classes (NSCoding). Register a Python class whose instances implement
    ``encode_with_coder(self, archiver)`` and which has ``init_with_coder(cls, unarchiver)`` (a
    classmethod making the instance) and optionally ``decode_with_coder(self, unarchiver)``
    (filling it in once references back to it resolve: cycles). By decorator or call:

        registry = amber.CodingRegistry()
        @registry.register("BNRItem")
        class Item: ...
    """

    def __init__(self) -> None:
        self._keep: Dict[int, Any] = {}
        self._by_class: Dict[type, str] = {}
        handle = _ffi.RegistryP()
        load().amber_coding_registry_new(byref(handle))
        self._h: Optional[_ffi.RegistryP] = handle

    def _handle(self) -> _ffi.RegistryP:
        if self._h is None:
            raise misuse("the registry is freed")
        return self._h

    def register(self, name: Any = None, cls: Optional[type] = None, superclass: Optional[str] = None) -> Any:
        """Registers ``cls`` under ``name`` (default: its Python name), with a registered
        ``superclass`` name. Usable as a decorator (``@registry.register`` or ``("Name")``)."""
        if isinstance(name, type) and cls is None:
            name, cls = None, name
        if cls is None:
            return lambda target: self.register(name, target, superclass)
        name = name or cls.__name__
        box = _ClassHolder(cls, name)
        key = box.register(self)
        vtable = _ffi.CodingClass(_ffi.CODING_CLASS_VERSION)  # every callback NULL until set
        encode, make, decode = _ffi.T_CODING
        if hasattr(cls, "encode_with_coder"):
            vtable.encode = encode
        if hasattr(cls, "init_with_coder"):
            vtable.make = make
        if hasattr(cls, "decode_with_coder"):
            vtable.decode = decode
        try:
            load().amber_coding_registry_register(self._handle(), c_text(name), c_text_or_none(superclass),
                                                  byref(vtable), key, _ffi.CTX_FREE)
        except BaseException:
            box.unregister()
            raise
        self._by_class[cls] = name
        return cls

    def name_of(self, obj: Any) -> str:
        """The registered name of an object's class (or of its nearest registered base)."""
        for klass in type(obj).__mro__:
            name = self._by_class.get(klass)
            if name is not None:
                return name
        raise E.TypeMismatchError(f"{type(obj).__name__} is not a registered coding class", E.TYPE_MISMATCH,
                                  "AMBER_TYPE_MISMATCH")

    def close(self) -> None:
        """Frees the registry; archivers and unarchivers made with it keep working."""
        if self._h is not None:
            with E.callbacks_raised():
                load().amber_coding_registry_free(self._h)
            self._h = None

    def __enter__(self) -> "CodingRegistry":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if self._h is not None:
                load().amber_coding_registry_free(self._h)
        except Exception:
            pass


class Archiver:
    """Writes a keyed archive (NSKeyedArchiver layout in a binary plist; R25, R26). Write values
    and objects by key, then ``finish()`` for the bytes or ``write_file(path)``."""

    def __init__(self, registry: Optional[CodingRegistry] = None):
        self.registry = registry
        self._objects: Dict[Optional[int], Any] = {}
        handle = _ffi.ArchiverP()
        load().amber_archiver_new(byref(handle), None if registry is None else registry._handle())
        self._h: Optional[_ffi.ArchiverP] = handle
        _active[handle.value] = self

    def _handle(self) -> _ffi.ArchiverP:
        if self._h is None:
            raise misuse("the archiver is freed")
        return self._h

    def _encode(self, key: str, value: Any) -> None:
        """Writes one value (amber_archiver_encode_values, the C API's one value writer)."""
        slot = _ffi.KeyedValue()
        slot.key = c_key(key)
        keep: List[Any] = []
        fill_value(slot, key, value, keep)
        try:
            load().amber_archiver_encode_values(self._handle(), byref(slot), 1)
        except E.AmberError as error:
            raise one_value(error) from None

    def encode_bool(self, key: str, value: bool) -> None:
        self._encode(key, bool(value))

    def encode_int(self, key: str, value: int) -> None:
        self._encode(key, int(value))

    def encode_float(self, key: str, value: float) -> None:
        self._encode(key, float(value))

    def encode_string(self, key: str, value: str) -> None:
        self._encode(key, value)

    def encode_bytes(self, key: str, value: Union[bytes, bytearray, memoryview]) -> None:
        self._encode(key, bytes(value))

    def encode_date(self, key: str, value: _dt.datetime) -> None:
        """Writes a date (NSDate). One before 0001-01-01T00:00:00Z (year 1 east of UTC) makes
        finish() raise InvalidArgumentError: no archive holds a date outside years 1 to 9999."""
        self._encode(key, value)

    def _name(self, obj: Any, class_name: Optional[str]) -> bytes:
        if class_name is not None:
            return c_text(class_name)
        if self.registry is None:
            raise E.TypeMismatchError("an archiver without a registry encodes values only", E.TYPE_MISMATCH,
                                      "AMBER_TYPE_MISMATCH")
        return c_text(self.registry.name_of(obj))

    def encode_object(self, key: str, obj: Any, class_name: Optional[str] = None) -> None:
        """Encodes an object of a registered class (None: nil). The same object encoded twice is
        stored once; cycles are kept."""
        if obj is None:
            with E.callbacks_raised():
                load().amber_archiver_encode_object(self._handle(), c_key(key), c_text(class_name or "NSObject"), None)
            return
        self._objects[id(obj)] = obj
        with E.callbacks_raised():
            load().amber_archiver_encode_object(self._handle(), c_key(key), self._name(obj, class_name), id(obj))

    def encode_object_array(self, key: str, objects: Sequence[Any], class_name: Optional[str] = None) -> None:
        """Encodes a list of objects of one registered class (an NSArray)."""
        items = list(objects)
        for obj in items:
            self._objects[id(obj)] = obj
        name = self._name(items[0], class_name) if items else c_text(class_name or "NSObject")
        ids = (c_void_p * len(items))(*[id(o) for o in items])
        with E.callbacks_raised():
            load().amber_archiver_encode_object_array(self._handle(), c_key(key), name, ids, len(items))

    def __setitem__(self, key: str, value: Any) -> None:
        if isinstance(value, (bool, int, float, str, bytes, bytearray, memoryview)) or is_datetime(value):
            self._encode(key, value)
        elif isinstance(value, (list, tuple)):
            self.encode_object_array(key, value)
        else:
            self.encode_object(key, value)

    def finish(self) -> bytes:
        """Finishes the archive and returns its bytes."""
        out = _ffi.Buf()
        with E.callbacks_raised():
            load().amber_archiver_finish(byref(out), self._handle())
        return take_bytes(out)

    def write_file(self, path: str) -> None:
        """Finishes the archive and writes it to ``path`` atomically (archiveRootObject:toFile:)."""
        target = c_text(path)
        data = self.finish()
        load().amber_file_write_atomic(target, data, len(data))

    def close(self) -> None:
        if self._h is not None:
            with E.callbacks_raised():
                load().amber_archiver_free(self._h)
            _active.pop(self._h.value, None)
            self._h = None
            self._objects.clear()

    def __enter__(self) -> "Archiver":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


ClassList = Optional[Iterable[Union[str, type]]]


class Unarchiver:
    """Reads a keyed archive (R25, R26); made from bytes, or by ``Unarchiver.open(path)``."""

    def __init__(self, data: bytes = b"", registry: Optional[CodingRegistry] = None):
        self.registry = registry
        self._objects: Dict[Optional[int], Any] = {}
        self._h: Optional[_ffi.UnarchiverP] = None
        data = bytes(data)
        handle = _ffi.UnarchiverP()
        load().amber_unarchiver_new(byref(handle), None if registry is None else registry._handle(), data, len(data))
        self._h = handle
        _active[handle.value] = self

    @classmethod
    def open(cls, path: str, registry: Optional[CodingRegistry] = None) -> "Unarchiver":
        """Opens the archive in a file (unarchiveObjectWithFile:); the error names the file."""
        out = _ffi.Buf()
        load().amber_file_read(byref(out), c_text(path))
        try:
            return cls(take_bytes(out), registry)
        except E.AmberError as error:
            raise E.error_for(error.code, f"'{path}': {error.message}", error.status) from None

    def _handle(self) -> _ffi.UnarchiverP:
        if self._h is None:
            raise misuse("the unarchiver is freed")
        return self._h

    def __contains__(self, key: str) -> bool:
        return bool(load().amber_unarchiver_contains(self._handle(), c_key(key)))

    def _get(self, key: str, vtype: int) -> Any:
        """The value under ``key`` of type ``vtype`` (amber_unarchiver_decode_values, the C API's
        one value reader); NotFoundError (a KeyError) if there is none."""
        slot = _ffi.KeyedValue()
        slot.key = c_key(key)
        slot.type = vtype
        try:
            load().amber_unarchiver_decode_values(byref(slot), 1, self._handle())
        except E.AmberError as error:
            raise one_value(error) from None
        if not slot.found:
            raise not_found(key)
        return read_value(slot)

    def decode_bool(self, key: str) -> bool:
        return bool(self._get(key, _ffi.VALUE_BOOL))

    def decode_int(self, key: str) -> int:
        return int(self._get(key, _ffi.VALUE_INT64))

    def decode_float(self, key: str) -> float:
        return float(self._get(key, _ffi.VALUE_DOUBLE))

    def decode_string(self, key: str) -> str:
        return str(self._get(key, _ffi.VALUE_STRING))

    def decode_date(self, key: str) -> _dt.datetime:
        value: _dt.datetime = self._get(key, _ffi.VALUE_DATE)
        return value

    def decode_bytes(self, key: str) -> bytes:
        return bytes(self._get(key, _ffi.VALUE_BYTES))

    def _classes(self, classes: ClassList) -> Tuple[Any, int]:
        names = []
        for c in classes or ():
            if isinstance(c, type):
                if self.registry is None:
                    raise ValueError("classes given as Python classes need a registry")
                c = self.registry._by_class[c]
            names.append(c_text(c))
        return (c_char_p * len(names))(*names), len(names)

    def decode_object(self, key: str, classes: ClassList = None) -> Any:
        """Decodes an object (secure coding, R12): of one of ``classes`` (names or registered
        Python classes) or a registered subclass; None allows every registered class."""
        names, count = self._classes(classes)
        out = c_void_p()
        with E.callbacks_raised():
            load().amber_unarchiver_decode_object(byref(out), self._handle(), c_key(key), names, count)
        return None if not out.value else self._objects[out.value]

    def decode_object_array(self, key: str, classes: ClassList = None) -> List[Any]:
        """Decodes a list of objects, as decode_object."""
        names, count = self._classes(classes)
        length = c_size_t()
        k = c_key(key)
        lib = load()
        with E.callbacks_raised():
            lib.amber_unarchiver_decode_object_array(None, 0, byref(length), self._handle(), k, names, count)
        out = (c_void_p * length.value)()
        with E.callbacks_raised():
            lib.amber_unarchiver_decode_object_array(out, length.value, byref(length), self._handle(), k, names,
                                                     count)
        return [self._objects[p] for p in out[:length.value]]

    def close(self) -> None:
        if self._h is not None:
            with E.callbacks_raised():
                load().amber_unarchiver_free(self._h)
            _active.pop(self._h.value, None)
            self._h = None

    def __enter__(self) -> "Unarchiver":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def archive(root: Any, registry: Optional[CodingRegistry] = None, key: str = "root") -> bytes:
    """Archives one root object or list (archivedDataWithRootObject:)."""
    with Archiver(registry) as a:
        a[key] = root
        return a.finish()


def unarchive(data: bytes, registry: Optional[CodingRegistry] = None, classes: ClassList = None,
              key: str = "root") -> Any:
    """Reads back what ``archive`` wrote: the object or list under ``key``."""
    with Unarchiver(data, registry) as u:
        try:
            return u.decode_object(key, classes)
        except E.TypeMismatchError:
            return u.decode_object_array(key, classes)
