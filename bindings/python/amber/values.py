"""The value types the other modules share: the C API's enums, restoration paths (``Path``),
index paths, dates, and the conversions of text between Python and C."""
from __future__ import annotations

import ctypes
import enum
import re
import sys
from typing import TYPE_CHECKING, Any, Dict, Iterable, Optional, Sequence, Tuple, Union

from . import _errors as E
from . import _ffi

if TYPE_CHECKING:
    import datetime as _dt


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
    #: An older state version migrated by its class's migrate callback, then restored (R30).
    MIGRATED = 7
    #: A newer state version than its class declares, or an older one not migrated (R30):
    #: neither it nor anything under it was restored.
    DECLINED_VERSION = 8


class Migration(enum.IntEnum):
    """What a migrate function answers (amber_migration, R30): DONE (or True, or no answer:
    None) when the new coder holds the current version's state, DECLINED (or False) to leave the
    record and everything under it unrestored. Any other answer is a failure of the function."""
    DONE = 0
    DECLINED = 1


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
    #: the archive was saved by another application (another app id, R9): discarded, not restored
    OTHER_APPLICATION = 11


class NotSaved(enum.IntEnum):
    """Why a preservation saved nothing (amber_not_saved, R28); NONE: an archive was written."""
    NONE = 0
    NO_SHOULD_SAVE = 1
    DECLINED = 2
    FAILED = 3
    OVER_BUDGET = 4  # the archive was over its budget (R31): the previous one is kept


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
    OVER_BUDGET = 8  # its record took more than the engine's object_budget; its size is in the entry (R31)
    CARRIED = 9  # a record kept for an object created later (R35), none claimed it yet: written as restored
    NOT_CARRIED = 10  # such a kept record that this archive does not hold; the message says why (R35, R34)


class AppState(enum.IntEnum):
    """The application's state (amber_app_state, R23)."""
    NOT_RUNNING = 0
    INACTIVE = 1
    ACTIVE = 2
    BACKGROUND = 3
    SUSPENDED = 4


class ViewKind(enum.IntEnum):
    """The kinds of view whose standard state the engine keeps (amber_view_kind, R17)."""
    NONE = 0
    SCROLL = 1
    TABLE = 2
    COLLECTION = 3
    TEXT_FIELD = 4
    TEXT_VIEW = 5
    IMAGE = 6
    WEB = 7


class ViewField(enum.IntFlag):
    """The members of a view's standard state (the AMBER_VIEW_FIELD_* bits, R17)."""
    CONTENT_OFFSET = 1 << 0
    CONTENT_INSET = 1 << 1
    ZOOM_SCALE = 1 << 2
    SELECTED_ITEMS = 1 << 3
    FIRST_VISIBLE_ITEM = 1 << 4
    EDITING = 1 << 5
    SELECTED_RANGE = 1 << 6
    EDITABLE = 1 << 7
    BOUNDS = 1 << 8
    CENTER = 1 << 9
    TRANSFORM = 1 << 10
    ANCHOR_POINT = 1 << 11
    PAGES = 1 << 12
    CURRENT_PAGE = 1 << 13


KINDS: Dict[int, Kind] = {int(k): k for k in Kind}


class Path(Tuple[str, ...]):
    """A restoration path (R3): the identifiers from a root down to an object, exactly as the
    host set them, and each one's ``positions`` entry: its position among the children of its
    stack that have the same identifier (0, 1, 2... in order; 0 outside a stack). ``position``
    is the last one, the object's own.

    It is a tuple of str: ``path[-1]`` is the object's own identifier, and slicing, ``len`` and
    iteration work as on a tuple. Two paths are equal when their identifiers and positions are,
    so the child X of the first A of a stack and that of the second A differ; a plain tuple
    equals a path whose positions are all 0. ``str(path)`` joins the identifiers with '/', each
    position k >= 1 after its identifier as ``[k]``, as Amber's own text does ("nav/A[1]/X");
    ``Path.parse()`` is the reverse (for identifiers without a '/' that do not end in ``[k]``)."""

    #: Set on the instance only when one is not 0 (most paths are outside a stack).
    _positions: Tuple[int, ...] = ()

    def __new__(cls, identifiers: Iterable[str] = (), position: int = 0,
                positions: Optional[Iterable[int]] = None) -> "Path":
        """``positions``: one per identifier; or ``position`` alone, the last one's (the others
        0, as a path of Amber 0.2 had it)."""
        if isinstance(identifiers, str):
            raise TypeError("Path() takes a sequence of identifiers; use Path.parse() for 'A/B' text")
        self = super().__new__(cls, identifiers)
        if not all(type(i) is str for i in self):
            raise TypeError("a path's identifiers are str")
        if positions is None:
            if position < 0:
                raise ValueError("a position is not negative")
            if position and not self:
                raise ValueError("an empty path has no position")
            if position:
                self._positions = (0,) * (len(self) - 1) + (int(position),)
            return self
        given = tuple(int(p) for p in positions)
        if len(given) != len(self):
            raise ValueError(f"{len(given)} positions for {len(self)} identifiers")
        if any(p < 0 for p in given):
            raise ValueError("a position is not negative")
        if position and position != given[-1]:
            raise ValueError("position is the last of positions")
        if any(given):
            self._positions = given
        return self

    @property
    def positions(self) -> Tuple[int, ...]:
        """The stack position of each identifier, in path order."""
        return self._positions or (0,) * len(self)

    @property
    def position(self) -> int:
        """The object's own stack position: the last of ``positions`` (0 for an empty path)."""
        return self._positions[-1] if self._positions else 0

    @classmethod
    def parse(cls, text: str, position: int = 0) -> "Path":
        """The path of Amber's text form ("nav/A[1]/X"): the identifiers split at '/', a
        trailing ``[k]`` (k >= 1) read as the component's position. ``position``, if not 0, is
        the last component's."""
        identifiers, positions = [], []
        for part in text.split("/") if text else ():
            match = re.fullmatch(_POSITIONED, part)
            identifiers.append(match.group(1) if match else part)
            positions.append(int(match.group(2)) if match else 0)
        if position and positions:
            positions[-1] = position
        return cls(identifiers, positions=positions)

    @classmethod
    def from_c(cls, parts: Sequence[bytes], position: int, positions: Optional[Sequence[int]] = None) -> "Path":
        """The path of C strings Amber lent (valid UTF-8, else decoded with surrogateescape),
        with the positions Amber gave (``positions``, one per part; or the last one alone): the
        identifiers are str by construction, so Path()'s checks are skipped."""
        try:
            self = tuple.__new__(cls, map(bytes.decode, parts))
        except UnicodeDecodeError:
            self = tuple.__new__(cls, [b.decode("utf-8", "surrogateescape") for b in parts])
        if positions is not None and len(positions) == len(self):
            if any(positions):
                self._positions = tuple(positions)
        elif position and self:
            self._positions = (0,) * (len(self) - 1) + (position,)
        return self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Path):
            return self.positions == other.positions and tuple.__eq__(self, other)
        if isinstance(other, tuple):
            return not self._positions and tuple.__eq__(self, other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return tuple.__hash__(self) if not self._positions else hash((tuple(self), self._positions))

    def __str__(self) -> str:
        if not self._positions:
            return "/".join(self)
        return "/".join(i if p == 0 else f"{i}[{p}]" for i, p in zip(self, self._positions))

    def __repr__(self) -> str:
        identifiers = tuple.__repr__(self)
        if not self._positions:
            return f"Path({identifiers})"
        if not any(self._positions[:-1]):
            return f"Path({identifiers}, position={self.position})"
        return f"Path({identifiers}, positions={self._positions!r})"


#: A path component of Amber's text form with a stack position: "A[1]" (compiled on first use).
_POSITIONED = r"(?s)(.*)\[([1-9][0-9]*)\]"


def as_path(path: Union[str, Sequence[str]], position: int = 0) -> Path:
    """A path given as "A/B[1]/C" text, as a Path (with its positions), or as a sequence of
    identifiers (for identifiers with a '/'); ``position``, if not 0, is the last component's."""
    if isinstance(path, str):
        return Path.parse(path, position)
    if isinstance(path, Path):
        if not position or not path:
            return path
        return Path(path, positions=path.positions[:-1] + (position,))
    return Path(path, position)


class IndexPath(Tuple[int, ...]):
    """An index path (NSIndexPath): a tuple of ints that a coder stores as an index path."""

    def __new__(cls, *indexes: Union[int, Iterable[int]]) -> "IndexPath":
        items: Iterable[Any] = indexes[0] if len(indexes) == 1 and not isinstance(indexes[0], int) else indexes
        return super().__new__(cls, (int(i) for i in items))

    def __repr__(self) -> str:
        return f"IndexPath{tuple.__repr__(self)}"


# Dates: the datetime module is imported by the first date read, not by ``import amber``; until
# a program has imported it, no value it hands Amber can be a datetime.

def datetime_class() -> Optional[type]:
    """datetime.datetime if the datetime module is imported, else None (nothing is a datetime)."""
    module = sys.modules.get("datetime")
    return getattr(module, "datetime", None) if module is not None else None


def is_datetime(value: Any) -> bool:
    """Whether ``value`` is a datetime, without importing the datetime module."""
    cls = datetime_class()
    return cls is not None and isinstance(value, cls)


def _epoch_2001() -> _dt.datetime:
    import datetime
    return datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def seconds_from_date(value: _dt.datetime) -> float:
    """Seconds since 2001-01-01T00:00:00Z (NSDate's reference date); a naive datetime is UTC."""
    import datetime
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return (value - _epoch_2001()).total_seconds()


def date_from_seconds(seconds: float) -> _dt.datetime:
    """The aware UTC datetime of seconds since 2001-01-01T00:00:00Z."""
    import datetime
    return _epoch_2001() + datetime.timedelta(seconds=seconds)


# ---- text between Python and C ---------------------------------------------------------------

def invalid_argument(message: str) -> E.InvalidArgumentError:
    return E.InvalidArgumentError(message, E.INVALID_ARGUMENT, "AMBER_INVALID_ARGUMENT")


def nul_error() -> E.InvalidArgumentError:
    return invalid_argument("a string with a NUL character cannot cross the C ABI")


def c_text(text: str) -> bytes:
    """Text as a C string (UTF-8; surrogateescape for lone surrogates, which Amber then refuses
    as invalid UTF-8). A NUL inside is an InvalidArgumentError: C would cut the string there."""
    if not isinstance(text, str):
        raise TypeError(f"expected str, got {type(text).__name__}")
    if "\0" in text:
        raise nul_error()
    try:
        return text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape")


def c_text_or_none(text: Optional[str]) -> Optional[bytes]:
    """c_text, with None for None (a NULL string)."""
    return None if text is None else c_text(text)


_KEYS: Dict[str, bytes] = {}


def c_key(key: str) -> bytes:
    """A coder key as a C string, cached: keys repeat across thousands of objects."""
    b = _KEYS.get(key)
    if b is None:
        b = c_text(key)
        if len(_KEYS) < 65536:
            _KEYS[key] = b
    return b


def py_text(value: Optional[bytes]) -> Optional[str]:
    """A C string Amber gave as str (None for NULL)."""
    return None if value is None else value.decode("utf-8", "surrogateescape")


def take_bytes(buf: _ffi.Buf) -> bytes:
    """The bytes of an amber_buf Amber filled, which is then disposed of (amber_buf_dispose)."""
    try:
        return ctypes.string_at(buf.ptr, buf.size) if buf.size else b""
    finally:
        _ffi.load().amber_buf_dispose(ctypes.byref(buf))


def take_text(buf: _ffi.Buf) -> str:
    """The text of an amber_buf Amber filled, which is then disposed of."""
    return take_bytes(buf).decode("utf-8", "surrogateescape")


def not_found(key: str) -> E.NotFoundError:
    """The error of a key without a value, for the values read through amber_keyed_value (where
    a missing key is not an error: its ``found`` is 0)."""
    return E.NotFoundError(f"no value for key '{key}'", E.NOT_FOUND, "AMBER_NOT_FOUND")


def misuse(message: str) -> E.MisuseError:
    return E.MisuseError(message, E.MISUSE, "AMBER_MISUSE")


#: The value types a coder, decoder, user info and keyed archive take, in one Python type.
Value = Union[bool, int, float, str, bytes, "_dt.datetime", IndexPath]


def fill_value(slot: _ffi.KeyedValue, key: str, value: Any, keep: list) -> None:  # type: ignore[type-arg]
    """Checks one value and writes it with its type into an amber_keyed_value whose key is set.
    ``keep`` receives what the struct points to and must outlive the C call (bytes and index
    path arrays). Raises TypeError, OverflowError or InvalidArgumentError (a NUL) without
    writing anything Amber would see."""
    if isinstance(value, bool):
        slot.type = _ffi.VALUE_BOOL
        slot.int64_value = 1 if value else 0
    elif isinstance(value, int):
        if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
            raise OverflowError(f"{key}: {value} does not fit in int64")
        slot.type = _ffi.VALUE_INT64
        slot.int64_value = value
    elif isinstance(value, float):
        slot.type = _ffi.VALUE_DOUBLE
        slot.double_value = value
    elif isinstance(value, str):
        slot.type = _ffi.VALUE_STRING
        slot.string_value = c_text(value)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        keep.append(data)
        slot.type = _ffi.VALUE_BYTES
        slot.bytes_value = ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p)
        slot.bytes_size = len(data)
    elif is_datetime(value):
        slot.type = _ffi.VALUE_DATE
        slot.double_value = seconds_from_date(value)
    elif isinstance(value, IndexPath):
        array = (ctypes.c_int64 * len(value))(*value)
        keep.append(array)
        slot.type = _ffi.VALUE_INDEX_PATH
        slot.index_path_value.indexes = ctypes.cast(array, ctypes.POINTER(ctypes.c_int64))
        slot.index_path_value.length = len(value)
    else:
        raise TypeError(f"amber: cannot encode {type(value).__name__} under {key!r} (bool, int, float, str, "
                        "bytes, datetime or IndexPath; an Object through coder[key] = obj or encode_object)")


def read_value(slot: _ffi.KeyedValue) -> Any:
    """The value an amber_keyed_value holds, by its ``type`` (its ``found`` set)."""
    t = slot.type
    if t == _ffi.VALUE_INT64:
        return slot.int64_value
    if t == _ffi.VALUE_STRING:
        return slot.string_value.decode("utf-8", "surrogateescape")
    if t == _ffi.VALUE_DOUBLE:
        return slot.double_value
    if t == _ffi.VALUE_BOOL:
        return slot.int64_value != 0
    if t == _ffi.VALUE_BYTES:
        return ctypes.string_at(slot.bytes_value, slot.bytes_size) if slot.bytes_size else b""
    if t == _ffi.VALUE_DATE:
        return date_from_seconds(slot.double_value)
    if t == _ffi.VALUE_INDEX_PATH:
        path = slot.index_path_value
        return IndexPath(path.indexes[:path.length]) if path.length else IndexPath()
    raise E.TypeMismatchError(f"the value under {slot.key!r} is of an unknown type ({t})", E.TYPE_MISMATCH,
                              "AMBER_TYPE_MISMATCH")


#: The amber_value_type of each Python type a decoder reads in one batch.
#: datetime is added by value_type_code, once the datetime module is imported.
VALUE_TYPES: Dict[type, int] = {bool: _ffi.VALUE_BOOL, int: _ffi.VALUE_INT64, float: _ffi.VALUE_DOUBLE,
                                str: _ffi.VALUE_STRING, bytes: _ffi.VALUE_BYTES, IndexPath: _ffi.VALUE_INDEX_PATH}


def value_type_code(vtype: Any) -> Optional[int]:
    """The amber_value_type a decoder reads for the Python type ``vtype``, or None."""
    code = VALUE_TYPES.get(vtype)
    if code is None:
        date_class = datetime_class()
        if date_class is not None and vtype is date_class:
            VALUE_TYPES[date_class] = code = _ffi.VALUE_DATE
    return code
