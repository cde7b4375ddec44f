"""What a launch restored and why not (R16, R18), and what a preservation did (R28): the report
section of the header (amber/report.h)."""
from __future__ import annotations

import ctypes
import struct
import threading
import weakref
from ctypes import byref, c_char_p
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union, cast

from . import _ffi
from ._ffi import load
from .log import logger
from .objects import EngineCore, Object
from .values import KINDS, FreshReason, Kind, LeftOut, NotSaved, Outcome, Path, as_path, py_text, take_text



class Record(NamedTuple):
    """What happened to one archived object (R16). ``path`` is the identifiers exactly as the
    host set them, with the record's stack position (R3). ``object`` is the object found for
    the record (restored, class mismatch, decode error, duplicate), or None.
    ``dropped_identifiers``: a view's model identifiers that no longer resolve to an index path
    (R18), in archived order; the rest of its state was applied."""
    path: Path
    class_name: str
    kind: Kind
    outcome: Outcome
    message: str
    object: Optional[Object]
    dropped_identifiers: Tuple[str, ...] = ()

    @property
    def position(self) -> int:
        """Its position among the children of its stack with the same identifier (R3)."""
        return self.path.position

    @property
    def path_string(self) -> str:
        return str(self.path)


class PreservationEntry(NamedTuple):
    """One object of a preservation report (R28): preserved (``left_out`` is LeftOut.NONE), with
    the bytes its record added to the archive, or left out, with why in ``message``.

    ``path`` is the object's restoration path as far as it has one (the identifiers of its
    ancestors that have one, then its own if it has one), with its stack position (R3).

    An object whose encode callback raised is left out (LeftOut.ENCODE_FAILED) with everything
    under it (LeftOut.UNDER_LEFT_OUT), and the rest is saved: the exception is not raised by
    preserve() but kept here as ``error`` (with its traceback) and named at the end of
    ``message``.

    A record kept for an object created later (R35) that none has claimed yet is not an object
    of the trees: LeftOut.CARRIED when the archive carries it as it was restored (``size`` is
    what it added), LeftOut.NOT_CARRIED with why in ``message`` when it does not."""
    path: Path
    class_name: str
    kind: Kind
    left_out: LeftOut
    message: str
    size: int
    error: Optional[BaseException] = None

    @property
    def position(self) -> int:
        return self.path.position

    @property
    def preserved(self) -> bool:
        return self.left_out == LeftOut.NONE

    @property
    def path_string(self) -> str:
        return str(self.path)


class _CReport:
    """A C report (amber_report or amber_preservation) not read whole yet: its handle, its
    count, and the finalizer that frees it (when its Python report is collected, or once read)."""
    __slots__ = ("__weakref__", "handle", "count", "free", "lock", "report", "engine")

    def __init__(self, handle: Any, count: int, free: Callable[[], Any], report: Any,
                 engine: Optional[EngineCore]) -> None:
        self.handle = handle
        self.count = count
        self.free = free
        self.lock = threading.RLock()
        self.report = weakref.ref(report)
        self.engine = None if engine is None else weakref.ref(engine)

    def objects(self) -> Dict[Optional[int], Object]:
        engine = self.engine() if self.engine is not None else None
        return engine._objects if engine is not None else {}

    def pin(self, objects: Dict[Optional[int], Object]) -> None:
        """Reads the records now, while ``objects`` (the engine's) still holds what they name:
        called by the engine before it frees an object or closes."""
        report = self.report()
        if isinstance(report, Report):
            report._read_records(objects)


def _strings(count: int, address: int) -> List[bytes]:
    """``count`` C strings at ``address`` (a ``const char *const *``)."""
    return cast(List[bytes], (c_char_p * count).from_address(address)[:]) if count else []


def _positions(read: Callable[..., Any], handle: Any, index: int, length: int) -> Optional[List[int]]:
    """The stack position of each of the ``length`` components of item ``index``'s path (R3),
    read with ``read`` (amber_report_record_positions and the like); None for a path of one
    component, whose position is the item's own."""
    if length < 2:
        return None
    out = ctypes.POINTER(ctypes.c_size_t)()
    read(byref(out), handle, index)
    return out[:length]


# amber_report_record as raw fields: path, path_length, class_name, kind, outcome, message, object,
# position, dropped_identifiers, dropped_count.
_RECORD_LAYOUT = struct.Struct("@PNPiiPPNPN")
assert _RECORD_LAYOUT.size == ctypes.sizeof(_ffi.ReportRecord)
_OUTCOMES = {int(o): o for o in Outcome}


class _LazyReport:
    """What Report and PreservationReport share: a summary read at once, and the items
    (records, entries) and Amber's text of them read from the C report when first asked for;
    the C report is freed once both are read (``_read_done``), or when the report is collected.
    A subclass says how C formats it, and what its values and items are."""
    __slots__ = ("__weakref__", "_items", "_text", "_source")

    def __init__(self, items: Sequence[Any], text: str) -> None:
        self._items: Optional[Tuple[Any, ...]] = tuple(items)
        self._text: Optional[str] = text
        self._source: Optional[_CReport] = None

    @property
    def text(self) -> str:
        """Amber's own text of the report (``str(report)``)."""
        if self._text is None:
            source = self._source
            assert source is not None
            with source.lock:
                if self._text is None:
                    out = _ffi.Buf()
                    self._format(out, source.handle)
                    self._text = take_text(out)
                    self._read_done()
        assert self._text is not None
        return self._text

    def _read_done(self) -> None:
        """Frees the C report once the items and the text are read."""
        source = self._source
        if source is not None and self._items is not None and self._text is not None:
            source.free()
            self._source = None

    def _format(self, out: _ffi.Buf, handle: Any) -> None:
        """Amber's text of the C report ``handle``, into ``out``."""
        raise NotImplementedError

    def _values(self) -> Tuple[Any, ...]:
        """The report's values, in the order its constructor takes them."""
        raise NotImplementedError

    def _all_items(self) -> Tuple[Any, ...]:
        """The items (records or entries), read if they are not yet."""
        raise NotImplementedError

    def __len__(self) -> int:
        if self._items is None and self._source is not None:
            return self._source.count
        return len(self._all_items())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _LazyReport)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), self._values())

    def __str__(self) -> str:
        return self.text


class Report(_LazyReport):
    """What a launch restored and why not (R16): ``fresh_reason`` (FreshReason.NONE if it
    restored), the launch's ``message``, the ``protection`` in words, one Record per archived
    object (``records``), and Amber's own ``text`` of it (``str(report)``).

    The summary is read when the launch returns; ``records`` and ``text`` the first time they
    are asked for, so that a launch does not spend its time turning thousands of records into
    Python objects (``len(report)`` needs neither). What each record's ``object`` is does not
    depend on when it is read: the engine reads the records not read yet before it frees an
    object or closes. The C report is freed once both are read, by ``close()``, or when the
    report is collected. ``Report(...)`` makes one from values, all read already.

    ``errors``: the exceptions the launch's callbacks raised, in the order raised, with their
    tracebacks (``Engine.launch`` says where each is reported); they are not part of the
    report's value (equality, hash, repr), which is C's."""
    __slots__ = ("fresh_reason", "message", "protection", "errors")

    def __init__(self, fresh_reason: FreshReason, message: str, protection: str,
                 records: Sequence[Record] = (), text: str = ""):
        super().__init__(records, text)
        self.fresh_reason = fresh_reason
        self.message = message
        self.protection = protection
        self.errors: List[BaseException] = []

    @classmethod
    def from_c(cls, handle: _ffi.ReportP, engine: Optional[EngineCore]) -> "Report":
        """The Report of a C report, which it owns from then on."""
        lib = load()
        try:
            reason = FreshReason(lib.amber_report_fresh_reason(handle))
            message = py_text(lib.amber_report_message(handle)) or ""
            protection = py_text(lib.amber_report_protection(handle)) or ""
            count = int(lib.amber_report_count(handle))
        except BaseException:
            lib.amber_report_free(handle)
            raise
        report = cls(reason, message, protection)
        report._items = None if count else ()
        report._text = None
        source = _CReport(handle, count, weakref.finalize(report, lib.amber_report_free, handle), report, engine)
        report._source = source
        if engine is not None and count:
            engine._reports.add(source)
        return report

    @property
    def records(self) -> Tuple[Record, ...]:
        """One Record per archived object, in archive order."""
        records = self._items
        if records is None:
            source = self._source
            assert source is not None
            return self._read_records(source.objects())
        return records

    def _read_records(self, objects: Dict[Optional[int], Object]) -> Tuple[Record, ...]:
        source = self._source
        if self._items is not None or source is None:
            return self.records
        with source.lock:
            if self._items is None:
                self._items = _records(source.handle, source.count, objects)
                engine = source.engine() if source.engine is not None else None
                if engine is not None:
                    engine._reports.discard(source)
                self._read_done()
        assert self._items is not None
        return self._items

    @property
    def fresh(self) -> bool:
        return self.fresh_reason != FreshReason.NONE

    @property
    def restored(self) -> List[Object]:
        """The objects restored, parents first."""
        return [r.object for r in self.records if r.outcome in (Outcome.RESTORED, Outcome.MIGRATED)
                and r.object is not None]

    def outcome(self, path: Union[str, Sequence[str]], position: int = 0) -> Optional[Outcome]:
        """The outcome of the record at a path ("A/B", or a sequence of identifiers for those
        that hold a '/') and stack position (R3); None if there is none."""
        wanted = as_path(path, position)
        for r in self.records:
            if r.path == wanted:
                return r.outcome
        return None

    def close(self) -> None:
        """Reads the records and the text if they are not read yet, and frees the C report now.
        Optional (the report frees it when collected); harmless twice."""
        self.records
        self.text

    def _values(self) -> Tuple[Any, ...]:
        return (self.fresh_reason, self.message, self.protection, self.records, self.text)

    def _format(self, out: _ffi.Buf, handle: Any) -> None:
        load().amber_report_format(byref(out), handle)

    def _all_items(self) -> Tuple[Any, ...]:
        return self.records

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __repr__(self) -> str:
        return (f"Report(fresh_reason={self.fresh_reason!r}, message={self.message!r}, "
                f"protection={self.protection!r}, records={self.records!r}, text={self.text!r})")


def _records(handle: _ffi.ReportP, count: int, objects: Dict[Optional[int], Object]) -> Tuple[Record, ...]:
    """Every record of a C report, read into one array (one C call each), then unpacked at once
    (a class name's C string is lent once per distinct name: decoded once per address)."""
    lib = load()
    record_at = lib.amber_report_record_at
    positions_at = lib.amber_report_record_positions
    table = (_ffi.ReportRecord * count)()
    for i in range(count):
        record_at(table[i], handle, i)  # the element, passed by reference
    strings: Dict[int, str] = {0: ""}  # address of a C string lent by this report -> str
    records = []
    for i, (path_p, length, name_p, kind, outcome, message_p, obj, position, dropped_p,
            dropped_count) in enumerate(_RECORD_LAYOUT.iter_unpack(memoryview(table).cast("B"))):
        class_name = strings.get(name_p)
        if class_name is None:
            class_name = strings[name_p] = ctypes.string_at(name_p).decode("utf-8", "surrogateescape")
        message = strings.get(message_p)
        if message is None:
            message = strings[message_p] = ctypes.string_at(message_p).decode("utf-8", "surrogateescape")
        dropped = tuple(b.decode("utf-8", "surrogateescape") for b in _strings(dropped_count, dropped_p))
        path = Path.from_c(_strings(length, path_p), position, _positions(positions_at, handle, i, length))
        records.append(Record(path, class_name,
                              KINDS[kind] if kind in KINDS else Kind(kind),
                              _OUTCOMES[outcome] if outcome in _OUTCOMES else Outcome(outcome), message,
                              objects.get(obj) if obj else None, dropped))
    return tuple(records)


# ---- the preservation report (R28) ----------------------------------------------------------

# amber_preservation_entry as raw fields: path, path_length, class_name, kind, left_out, message,
# size, position.
_ENTRY_LAYOUT = struct.Struct("@PNPiiPQN")
assert _ENTRY_LAYOUT.size == ctypes.sizeof(_ffi.PreservationEntry)
_LEFT_OUT = {int(r): r for r in LeftOut}


class PreservationReport(_LazyReport):
    """What a preservation did (R28): ``saved`` (or why not: ``not_saved`` and ``message``), the
    archive's ``size`` in bytes (after encryption), one PreservationEntry per record of the
    archive (in archive order: preserved, or left out because its encode callback or one above
    it failed) and then per object of the trees not recorded, with why (``entries``), and
    Amber's ``text`` of it (``str(report)``), and the ten ``largest`` objects in the archive, the
    largest first (R31; also when the archive was over its budget: NotSaved.OVER_BUDGET).

    As for Report, the summary is read at once, ``entries`` and ``text`` when first asked for;
    the C report is freed once both are read, or when the report is collected. A report is true
    when an archive was written (``bool(report) == report.saved``)."""
    __slots__ = ("not_saved", "message", "size", "largest")

    def __init__(self, not_saved: NotSaved, message: str, size: int,
                 entries: Sequence[PreservationEntry] = (), text: str = "",
                 largest: Sequence[PreservationEntry] = ()):
        super().__init__(entries, text)
        self.not_saved = not_saved
        self.message = message
        self.size = size
        self.largest = tuple(largest)

    @classmethod
    def from_c(cls, handle: _ffi.PreservationP) -> "PreservationReport":
        lib = load()
        try:
            not_saved = NotSaved(lib.amber_preservation_not_saved(handle))
            message = py_text(lib.amber_preservation_message(handle)) or ""
            size = int(lib.amber_preservation_size(handle))
            count = int(lib.amber_preservation_count(handle))
            largest = _largest(handle)
        except BaseException:
            lib.amber_preservation_free(handle)
            raise
        report = cls(not_saved, message, size, largest=largest)
        report._items = None
        report._text = None
        report._source = _CReport(handle, count, weakref.finalize(report, lib.amber_preservation_free, handle),
                                  report, None)
        return report

    @property
    def entries(self) -> Tuple[PreservationEntry, ...]:
        """One PreservationEntry per record, then per object left out before it was recorded."""
        if self._items is None:
            source = self._source
            assert source is not None
            with source.lock:
                if self._items is None:
                    self._items = _entries(source.handle, source.count)
                    self._read_done()
        assert self._items is not None
        return self._items

    @property
    def saved(self) -> bool:
        return self.not_saved == NotSaved.NONE

    @property
    def preserved(self) -> List[PreservationEntry]:
        """The entries of the objects preserved, in archive order."""
        return [e for e in self.entries if e.left_out == LeftOut.NONE]

    @property
    def left_out(self) -> List[PreservationEntry]:
        """The entries of the objects left out (not those carried)."""
        return [e for e in self.entries if e.left_out not in (LeftOut.NONE, LeftOut.CARRIED)]

    @property
    def carried(self) -> List[PreservationEntry]:
        """The records kept for objects created later (R35) that no object has claimed yet,
        written into this archive as they were restored (LeftOut.CARRIED)."""
        return [e for e in self.entries if e.left_out == LeftOut.CARRIED]

    @property
    def errors(self) -> List[BaseException]:
        """The exceptions the encode callbacks raised (their objects are left out)."""
        return [e.error for e in self.entries if e.error is not None]

    def entry(self, path: Union[str, Sequence[str]], position: int = 0) -> Optional[PreservationEntry]:
        """The entry at a path ("A/B" or a sequence) and stack position, None if there is none."""
        wanted = as_path(path, position)
        for e in self.entries:
            if e.path == wanted:
                return e
        return None

    def attach_errors(self, failures: Sequence[Tuple[BaseException, Object]]) -> None:
        """Puts each exception an encode callback raised on the entry of its object (left out
        as ENCODE_FAILED), in order, and a warning names the object and the exception's type
        (not its text: it may hold state). Amber's message for the entry already ends with the
        exception's type and text: the trampoline gave them with amber_error_set()."""
        pending = list(failures)
        entries = list(self.entries)
        for n, entry in enumerate(entries):
            if not pending:
                break
            if entry.left_out != LeftOut.ENCODE_FAILED:
                continue
            for i, (error, obj) in enumerate(pending):
                if not obj.alive:
                    continue
                identifier = obj.identifier
                if obj.class_name == entry.class_name and \
                        (identifier is None or (len(entry.path) > 0 and entry.path[-1] == identifier)):
                    del pending[i]
                    entries[n] = entry._replace(error=error)
                    logger().warning("preserve: left out /%s (%s): its encode callback raised %s; the rest is saved",
                                    entry.path_string, entry.class_name, type(error).__name__)
                    break
        self._items = tuple(entries)

    def _values(self) -> Tuple[Any, ...]:
        return (self.not_saved, self.message, self.size, self.entries, self.text, self.largest)

    def __bool__(self) -> bool:
        return self.not_saved == NotSaved.NONE

    def _format(self, out: _ffi.Buf, handle: Any) -> None:
        load().amber_preservation_format(byref(out), handle)

    def _all_items(self) -> Tuple[Any, ...]:
        return self.entries

    def __iter__(self) -> Iterator[PreservationEntry]:
        return iter(self.entries)

    def __repr__(self) -> str:
        return (f"PreservationReport(not_saved={self.not_saved!r}, message={self.message!r}, size={self.size!r}, "
                f"entries={self.entries!r}, text={self.text!r}, largest={self.largest!r})")


def _entries(handle: _ffi.PreservationP, count: int) -> Tuple[PreservationEntry, ...]:
    lib = load()
    entry_at = lib.amber_preservation_entry_at
    positions_at = lib.amber_preservation_entry_positions
    table = (_ffi.PreservationEntry * count)()
    for i in range(count):
        entry_at(table[i], handle, i)  # the element, passed by reference
    return _converted(table, lambda i, length: _positions(positions_at, handle, i, length))


def _largest(handle: _ffi.PreservationP) -> Tuple[PreservationEntry, ...]:
    """The largest objects of the archive, the largest first, as Amber ranks them (R31)."""
    lib = load()
    count = int(lib.amber_preservation_largest_count(handle))
    table = (_ffi.PreservationEntry * count)()
    for rank in range(count):
        lib.amber_preservation_largest_at(table[rank], handle, rank)
    positions_at = lib.amber_preservation_largest_positions
    return _converted(table, lambda rank, length: _positions(positions_at, handle, rank, length))


def _converted(table: Any, positions: Callable[[int, int], Optional[List[int]]]) -> Tuple[PreservationEntry, ...]:
    """The PreservationEntry of each amber_preservation_entry of ``table``, a ctypes array;
    ``positions(i, length)`` reads the stack positions of item i's path."""
    strings: Dict[int, str] = {0: ""}  # by address: the messages of preserved entries share one
    names: Dict[bytes, str] = {}  # class names, by their bytes (each entry lends its own copy)
    entries = []
    for i, (path_p, length, name_p, kind, why, message_p, size, position) in enumerate(_ENTRY_LAYOUT.iter_unpack(
            memoryview(table).cast("B"))):
        raw = ctypes.string_at(name_p)
        class_name = names.get(raw)
        if class_name is None:
            class_name = names[raw] = raw.decode("utf-8", "surrogateescape")
        message = strings.get(message_p)
        if message is None:
            message = strings[message_p] = ctypes.string_at(message_p).decode("utf-8", "surrogateescape")
        path = Path.from_c(_strings(length, path_p), position, positions(i, length))
        entries.append(PreservationEntry(path, class_name,
                                         KINDS[kind] if kind in KINDS else Kind(kind),
                                         _LEFT_OUT[why] if why in _LEFT_OUT else LeftOut(why), message,
                                         size))
    return tuple(entries)
