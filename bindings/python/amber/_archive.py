"""Keyed archiving of the host's own data (R25, R26), application directories and atomic data
files (R27)."""
from __future__ import annotations

import ctypes
import datetime as _dt
import enum
from ctypes import byref, c_char_p, c_size_t, c_void_p
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Type, Union

from . import _errors as E
from . import _ffi as F
from ._core import (CTX_FREE, _Call, _Holder, _call, _contexts, _holder, _key, _keyed_value, _not_found, _raise,
                    _raise_one, _s, _take_bytes, _take_string, check, date_from_seconds, seconds_from_date)
from ._ffi import load

__all__ = ["CodingRegistry", "Archiver", "Unarchiver", "Directory", "app_directory", "write_file_atomic",
           "read_file", "archive", "unarchive"]


class Directory(enum.IntEnum):
    """An application directory (amber_directory, R27)."""
    DOCUMENTS = 0
    CACHES = 1
    PREFERENCES = 2
    TEMPORARY = 3


def app_directory(app_id: str, directory: Directory) -> str:
    """Resolves (and creates, mode 0700) one of an application's directories on the XDG
    conventions (R27)."""
    out = F.Buf()
    check(load().released.amber_app_directory(byref(out), _s(app_id), int(directory)))
    return _take_string(out)


def write_file_atomic(path: str, data: Union[bytes, bytearray, memoryview]) -> None:
    """Replaces a file with ``data`` atomically and durably (write, fsync, rename, directory
    fsync), mode 0600 (R27)."""
    data = bytes(data)
    check(load().released.amber_file_write_atomic(_s(path), data, len(data)))


def read_file(path: str) -> bytes:
    """Reads a whole file (up to 1 GiB); KeyError (NotFoundError) if there is none."""
    out = F.Buf()
    check(load().released.amber_file_read(byref(out), _s(path)))
    return _take_bytes(out)


# ---- coding classes -------------------------------------------------------------------------------

class _ClassBox(_Holder):
    __slots__ = ("cls", "name")


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
        lib = load()
        self._keep: Dict[int, Any] = {}
        self._by_class: Dict[type, str] = {}
        self._h = F.RegistryP()
        check(lib.amber_coding_registry_new(byref(self._h)))

    def _handle(self) -> F.RegistryP:
        if self._h is None:
            raise E.MisuseError("the registry is freed", E.MISUSE, "AMBER_MISUSE")
        return self._h

    def register(self, name: Any = None, cls: Optional[type] = None, superclass: Optional[str] = None) -> Any:
        """Registers ``cls`` under ``name`` (default: its Python name), with a registered
        ``superclass`` name. Usable as a decorator (``@registry.register`` or ``("Name")``)."""
        if isinstance(name, type) and cls is None:
            name, cls = None, name
        if cls is None:
            return lambda target: self.register(name, target, superclass)
        name = name or cls.__name__
        lib = load()
        box = _ClassBox()
        box.cls = cls
        box.name = name
        key = box._register(self)
        struct = F.CodingClass(F.CODING_CLASS_VERSION)  # every callback NULL until set
        if hasattr(cls, "encode_with_coder"):
            struct.encode = _T_CODING_ENCODE
        if hasattr(cls, "init_with_coder"):
            struct.make = _T_CODING_MAKE
        if hasattr(cls, "decode_with_coder"):
            struct.decode = _T_CODING_DECODE
        rc = lib.amber_coding_registry_register(self._handle(), _s(name), _s(superclass), byref(struct), key, CTX_FREE)
        if rc:
            _contexts.pop(key, None)
            self._keep.pop(key, None)
            _raise(rc)
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
            with _Call():
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


# Objects cross as their id(); the archiver or unarchiver at work keeps them alive in ``_objects``.
_active: Dict[int, Any] = {}  # archiver/unarchiver handle value -> its Python object


def _t_coding_encode(obj_p, archiver_h, ctx):
    try:
        archiver = _active[archiver_h.value]
        obj = archiver._objects[obj_p]
        previous, archiver._nested = archiver._nested, archiver_h
        try:
            obj.encode_with_coder(archiver)
        finally:
            archiver._nested = previous
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_coding_make(out, unarchiver_h, ctx):
    try:
        box = _holder(ctx)
        unarchiver = _active[unarchiver_h.value]
        obj = box.cls.init_with_coder(unarchiver)
        if obj is None:
            out[0] = None
            return 0
        unarchiver._objects[id(obj)] = obj
        out[0] = id(obj)
        return 0
    except BaseException as error:
        return E.callback_failed(error)


def _t_coding_decode(obj_p, unarchiver_h, ctx):
    try:
        unarchiver = _active[unarchiver_h.value]
        unarchiver._objects[obj_p].decode_with_coder(unarchiver)
        return 0
    except BaseException as error:
        return E.callback_failed(error)


_T_CODING_ENCODE = F.CodingEncode(_t_coding_encode)
_T_CODING_MAKE = F.CodingMake(_t_coding_make)
_T_CODING_DECODE = F.CodingDecode(_t_coding_decode)


class Archiver:
    """Writes a keyed archive (NSKeyedArchiver layout in a binary plist; R25, R26). Write values
    and objects by key, then ``finish()`` for the bytes or ``write_file(path)``."""

    def __init__(self, registry: Optional[CodingRegistry] = None):
        lib = load()
        self.registry = registry
        self._objects: Dict[int, Any] = {}
        self._nested = None
        self._h = F.ArchiverP()
        check(lib.amber_archiver_new(byref(self._h), None if registry is None else registry._handle()))
        _active[self._h.value] = self

    def _handle(self) -> F.ArchiverP:
        if self._h is None:
            raise E.MisuseError("the archiver is freed", E.MISUSE, "AMBER_MISUSE")
        return self._h

    def _encode(self, value: F.KeyedValue) -> None:
        """Writes one value (amber_archiver_encode_values, the C API's one value writer)."""
        rc = load().amber_archiver_encode_values(self._handle(), byref(value), 1)
        if rc: _raise_one(rc)

    def encode_bool(self, key: str, value: bool) -> None:
        v = _keyed_value(key, F.VALUE_BOOL)
        v.int64_value = 1 if value else 0
        self._encode(v)

    def encode_int(self, key: str, value: int) -> None:
        v = _keyed_value(key, F.VALUE_INT64)
        v.int64_value = value
        self._encode(v)

    def encode_float(self, key: str, value: float) -> None:
        v = _keyed_value(key, F.VALUE_DOUBLE)
        v.double_value = value
        self._encode(v)

    def encode_string(self, key: str, value: str) -> None:
        v = _keyed_value(key, F.VALUE_STRING)
        v.string_value = _s(value)
        self._encode(v)

    def encode_bytes(self, key: str, value: bytes) -> None:
        data = bytes(value)
        v = _keyed_value(key, F.VALUE_BYTES)
        v.bytes_value = ctypes.cast(c_char_p(data), c_void_p)  # the struct keeps `data` alive
        v.bytes_size = len(data)
        self._encode(v)

    def encode_date(self, key: str, value: _dt.datetime) -> None:
        v = _keyed_value(key, F.VALUE_DATE)
        v.double_value = seconds_from_date(value)
        self._encode(v)

    def _name(self, obj: Any, class_name: Optional[str]) -> bytes:
        if class_name is not None:
            return _s(class_name)
        if self.registry is None:
            raise E.TypeMismatchError("an archiver without a registry encodes values only", E.TYPE_MISMATCH,
                                      "AMBER_TYPE_MISMATCH")
        return _s(self.registry.name_of(obj))

    def encode_object(self, key: str, obj: Any, class_name: Optional[str] = None) -> None:
        """Encodes an object of a registered class (None: nil). The same object encoded twice is
        stored once; cycles are kept."""
        if obj is None:
            _call(load().amber_archiver_encode_object, self._handle(), _key(key), _s(class_name or "NSObject"), None)
            return
        self._objects[id(obj)] = obj
        _call(load().amber_archiver_encode_object, self._handle(), _key(key), self._name(obj, class_name), id(obj))

    def encode_object_array(self, key: str, objects: Sequence[Any], class_name: Optional[str] = None) -> None:
        """Encodes a list of objects of one registered class (an NSArray)."""
        objects = list(objects)
        for obj in objects:
            self._objects[id(obj)] = obj
        name = self._name(objects[0], class_name) if objects else _s(class_name or "NSObject")
        arr = (c_void_p * len(objects))(*[id(o) for o in objects])
        _call(load().amber_archiver_encode_object_array, self._handle(), _key(key), name, arr, len(objects))

    def __setitem__(self, key: str, value: Any) -> None:
        if isinstance(value, bool):
            self.encode_bool(key, value)
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
        elif isinstance(value, (list, tuple)):
            self.encode_object_array(key, value)
        else:
            self.encode_object(key, value)

    def finish(self) -> bytes:
        """Finishes the archive and returns its bytes."""
        out = F.Buf()
        _call(load().amber_archiver_finish, byref(out), self._handle())
        return _take_bytes(out)

    def write_file(self, path: str) -> None:
        """Finishes the archive and writes it to ``path`` atomically (archiveRootObject:toFile:)."""
        target = _s(path)
        data = self.finish()
        check(load().released.amber_file_write_atomic(target, data, len(data)))

    def close(self) -> None:
        if self._h is not None:
            with _Call():
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


class Unarchiver:
    """Reads a keyed archive (R25, R26); made from bytes, or by ``Unarchiver.open(path)``."""

    def __init__(self, data: Optional[bytes] = None, registry: Optional[CodingRegistry] = None, *,
                 _path: Optional[str] = None):
        lib = load()
        self.registry = registry
        self._objects: Dict[int, Any] = {}
        self._h = F.UnarchiverP()
        reg = None if registry is None else registry._handle()
        if _path is not None:
            file = F.Buf()
            check(lib.released.amber_file_read(byref(file), _s(_path)))
            data = _take_bytes(file)
        else:
            data = bytes(data or b"")
        rc = lib.amber_unarchiver_new(byref(self._h), reg, data, len(data))
        if rc and _path is not None:  # the message names the file, as unarchiveObjectWithFile: did
            raise E.error_for(rc, f"'{_path}': " + lib.amber_error_last().decode("utf-8", "replace"),
                              lib.amber_status_string(rc).decode())
        check(rc)
        _active[self._h.value] = self

    @classmethod
    def open(cls, path: str, registry: Optional[CodingRegistry] = None) -> "Unarchiver":
        """Opens the archive in a file (unarchiveObjectWithFile:)."""
        return cls(None, registry, _path=path)

    def _handle(self) -> F.UnarchiverP:
        if self._h is None:
            raise E.MisuseError("the unarchiver is freed", E.MISUSE, "AMBER_MISUSE")
        return self._h

    def __contains__(self, key: str) -> bool:
        return bool(load().amber_unarchiver_contains(self._handle(), _key(key)))

    def _get(self, key: str, vtype: int) -> F.KeyedValue:
        """The value under ``key`` of type ``vtype`` (amber_unarchiver_decode_values, the C API's
        one value reader); NotFoundError (a KeyError) if there is none."""
        v = _keyed_value(key, vtype)
        rc = load().amber_unarchiver_decode_values(byref(v), 1, self._handle())
        if rc: _raise_one(rc)
        if not v.found:
            raise _not_found(key)
        return v

    def decode_bool(self, key: str) -> bool:
        return self._get(key, F.VALUE_BOOL).int64_value != 0

    def decode_int(self, key: str) -> int:
        return self._get(key, F.VALUE_INT64).int64_value

    def decode_float(self, key: str) -> float:
        return self._get(key, F.VALUE_DOUBLE).double_value

    def decode_string(self, key: str) -> str:
        return self._get(key, F.VALUE_STRING).string_value.decode("utf-8", "surrogateescape")

    def decode_date(self, key: str) -> _dt.datetime:
        return date_from_seconds(self._get(key, F.VALUE_DATE).double_value)

    def decode_bytes(self, key: str) -> bytes:
        v = self._get(key, F.VALUE_BYTES)
        return ctypes.string_at(v.bytes_value, v.bytes_size) if v.bytes_size else b""

    @staticmethod
    def _classes(classes: Optional[Iterable[Union[str, type]]], registry: Optional[CodingRegistry]):
        names = []
        for c in classes or ():
            if isinstance(c, type):
                if registry is None:
                    raise ValueError("classes given as Python classes need a registry")
                c = registry._by_class[c]
            names.append(_s(c))
        return (c_char_p * len(names))(*names), len(names)

    def decode_object(self, key: str, classes: Optional[Iterable[Union[str, type]]] = None) -> Any:
        """Decodes an object (secure coding, R12): of one of ``classes`` (names or registered
        Python classes) or a registered subclass; None allows every registered class."""
        arr, n = self._classes(classes, self.registry)
        out = c_void_p()
        _call(load().amber_unarchiver_decode_object, byref(out), self._handle(), _key(key), arr, n)
        return None if not out.value else self._objects[out.value]

    def decode_object_array(self, key: str, classes: Optional[Iterable[Union[str, type]]] = None) -> List[Any]:
        """Decodes a list of objects, as decode_object."""
        lib = load()
        arr, n = self._classes(classes, self.registry)
        length = c_size_t()
        k = _key(key)
        _call(lib.amber_unarchiver_decode_object_array, None, 0, byref(length), self._handle(), k, arr, n)
        out = (c_void_p * length.value)()
        _call(lib.amber_unarchiver_decode_object_array, out, length.value, byref(length), self._handle(), k, arr, n)
        return [self._objects[p] for p in out[:length.value]]

    def close(self) -> None:
        if self._h is not None:
            with _Call():
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


def unarchive(data: bytes, registry: Optional[CodingRegistry] = None,
              classes: Optional[Iterable[Union[str, type]]] = None, key: str = "root") -> Any:
    """Reads back what ``archive`` wrote: the object or list under ``key``."""
    with Unarchiver(data, registry) as u:
        try:
            return u.decode_object(key, classes)
        except E.TypeMismatchError:
            return u.decode_object_array(key, classes)
