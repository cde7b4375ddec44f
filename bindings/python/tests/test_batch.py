"""A mapping's values in one C call (amber_coder_encode_values, amber_decoder_decode_values):
Coder.update of any Mapping is all or nothing, Decoder.read reads every value of a schema at
once, and both give what the typed setters and getters give."""
import datetime
import threading
import types

import pytest

import amber
from amber import _ffi
from conftest import Delegate


class Writer(amber.Controller):
    """Runs ``write(coder)`` in its encode callback, records what it raised; reads ``schema``
    back with read() and the typed getters."""
    write = None
    schema: dict = {}
    raised = None
    read_back = None
    contains = None
    calls = None  # the batch_calls counter, to count the batch calls of one read()
    reads = None

    def encode_restorable_state(self, coder):
        try:
            self.write(coder)
        except Exception as error:  # recorded; the preservation goes on
            self.raised = error

    def decode_restorable_state(self, decoder):
        before = dict(self.calls) if self.calls is not None else None
        self.read_back = decoder.read(self.schema)
        if before is not None:
            self.reads = self.calls["decode"] - before["decode"]
        self.contains = {k for k in ("a", "b", "c", "d", "e", "late", "x", "m") if k in decoder}


def roundtrip(open_engine, write, schema, calls=None):
    e = open_engine(Delegate())
    w = e.add_root(Writer(e, "Root"))
    w.write = write
    assert e.preserve()
    e2 = open_engine(Delegate())
    back = e2.add_root(Writer(e2, "Root"))
    back.schema = schema
    back.calls = calls
    e2.launch()
    return w, back


SIMPLE = {"a": 1, "b": True, "c": 2.5, "d": "text ✓", "e": -(1 << 63)}
SCHEMA = {"a": int, "b": bool, "c": float, "d": str, "e": int}


@pytest.fixture
def batch_calls(monkeypatch):
    """Counts the batch calls the binding makes (the library's functions are attributes)."""
    lib = _ffi.load()
    calls = {"encode": 0, "decode": 0}
    real_encode, real_decode = lib.amber_coder_encode_values, lib.amber_decoder_decode_values

    def encode(*args):
        calls["encode"] += 1
        return real_encode(*args)

    def decode(*args):
        calls["decode"] += 1
        return real_decode(*args)
    monkeypatch.setattr(lib, "amber_coder_encode_values", encode)
    monkeypatch.setattr(lib, "amber_decoder_decode_values", decode)
    return calls


def counted_update(values, calls, seen):
    """A write that updates ``values`` and records how many batch calls that made."""
    def write(coder):
        before = calls["encode"]
        coder.update(values)
        seen["encode"] = calls["encode"] - before
    return write


def test_simple_dict_round_trips_in_one_call(open_engine, batch_calls):  # R6, R12
    seen = {}
    _, back = roundtrip(open_engine, counted_update(SIMPLE, batch_calls, seen), dict(SCHEMA, missing=int),
                        batch_calls)
    assert back.read_back == SIMPLE  # the missing key is left out
    assert type(back.read_back["b"]) is bool
    assert (seen["encode"], back.reads) == (1, 1)


def typed_setters(coder):
    coder.encode_int("a", SIMPLE["a"])
    coder.encode_bool("b", SIMPLE["b"])
    coder.encode_float("c", SIMPLE["c"])
    coder.encode_string("d", SIMPLE["d"])
    coder.encode_int("e", SIMPLE["e"])


def test_batch_and_typed_calls_agree(open_engine):  # R6, R12
    _, batch = roundtrip(open_engine, lambda c: c.update(SIMPLE), SCHEMA)
    _, single = roundtrip(open_engine, typed_setters, SCHEMA)
    assert batch.read_back == single.read_back == SIMPLE


def test_a_refused_value_writes_nothing_of_the_dict(open_engine):  # R7
    def write(coder):
        coder["x"] = 1
        for bad in ({"a": 1, "bundleVersion": "9"},    # reserved
                    {"a": 1, "x": 2},                  # written before
                    {"a": 1, "d": "nul\0inside"},      # NUL
                    {"a": 1, "e": 1 << 64},            # beyond int64
                    types.MappingProxyType({"a": 1, "b": b"x", "bundleVersion": "9"}),  # any Mapping alike
                    {"a": 1, "ref": amber.Object}):    # a type update does not write
            try:
                coder.update(bad)
            except (amber.AmberError, ValueError, OverflowError, TypeError) as error:
                write.errors.append(type(error).__name__)
        coder.update({"late": 3})
    write.errors = []
    w, back = roundtrip(open_engine, write, {"a": int, "late": int})
    assert w.raised is None
    assert write.errors == ["ReservedKeyError", "DuplicateError", "InvalidArgumentError", "OverflowError",
                            "ReservedKeyError", "TypeError"], write.errors
    assert back.read_back == {"late": 3}
    assert back.contains == {"x", "late"}  # nothing of the refused dicts


def test_refusal_messages_name_the_value(open_engine):
    messages = []

    def write(coder):
        try:
            coder.update({"a": 1, "b": 2, "bundleVersion": "x"})
        except amber.AmberError as error:
            messages.append(str(error))
    roundtrip(open_engine, write, {})
    assert messages and "values[2]" in messages[0] and "bundleVersion" in messages[0], messages


def test_every_value_type_goes_in_the_same_call(open_engine, batch_calls):  # R6, R12
    when = datetime.datetime(2026, 11, 23, tzinfo=datetime.timezone.utc)
    values = {"a": 1, "when": when, "blob": b"\x00\x01", "d": "s", "path": amber.IndexPath(0, 3)}
    seen = {}
    _, back = roundtrip(open_engine, counted_update(values, batch_calls, seen),
                        {"a": int, "when": datetime.datetime, "blob": bytes, "d": str, "path": amber.IndexPath},
                        batch_calls)
    assert back.read_back == values
    assert (seen["encode"], back.reads) == (1, 1)


def test_same_keys_with_other_types_reuse_the_array_safely(open_engine):
    # The cached array of the keys ("a", "b") is reused with the types changed.
    e = open_engine(Delegate())
    written = ({"a": 1, "b": "one"}, {"a": "two", "b": 2.0}, {"a": True, "b": -5})
    for i, values in enumerate(written):
        w = e.add_root(Writer(e, f"R{i}"))
        w.write = (lambda v: lambda c: c.update(v))(values)
    assert e.preserve()
    e2 = open_engine(Delegate())
    schemas = ({"a": int, "b": str}, {"a": str, "b": float}, {"a": bool, "b": int})
    backs = []
    for i, schema in enumerate(schemas):
        b = e2.add_root(Writer(e2, f"R{i}"))
        b.schema = schema
        backs.append(b)
    e2.launch()
    assert [b.read_back for b in backs] == list(written)


def test_read_type_mismatch_raises(open_engine):
    errors = []

    class Reader(Writer):
        def decode_restorable_state(self, decoder):
            try:
                decoder.read({"a": int, "d": int})
            except TypeError as error:
                errors.append(str(error))
    e = open_engine(Delegate())
    w = e.add_root(Writer(e, "Root"))
    w.write = lambda c: c.update(SIMPLE)
    assert e.preserve()
    e2 = open_engine(Delegate())
    e2.add_root(Reader(e2, "Root", class_name="Writer"))
    e2.launch()
    assert errors and "values[1]" in errors[0] and "'d'" in errors[0], errors


def test_batches_on_threads(open_engine):
    errors = []

    def work(n):
        try:
            store = amber.MemoryStore()
            for round_ in range(10):
                values = {"a": n * 100 + round_, "d": f"t{n}-{round_}", "c": n / 3}
                with amber.Engine(f"org.b{n}", store=store, delegate=Delegate(),
                                  protection=amber.FixedKey(bytes([n + 1]) * 32)) as e:
                    for i in range(20):
                        w = e.add_root(Writer(e, f"R{i}"))
                        w.write = (lambda v: lambda c: c.update(v))(dict(values, b=i % 2 == 0))
                    assert e.preserve()
                with amber.Engine(f"org.b{n}", store=store, delegate=Delegate(),
                                  protection=amber.FixedKey(bytes([n + 1]) * 32)) as e:
                    backs = []
                    for i in range(20):
                        b = e.add_root(Writer(e, f"R{i}"))
                        b.schema = {"a": int, "d": str, "c": float, "b": bool}
                        backs.append(b)
                    e.launch()
                    assert [b.read_back for b in backs] == [dict(values, b=i % 2 == 0) for i in range(20)]
        except BaseException as error:  # pragma: no cover - reported below
            errors.append((n, error))
    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_read_objects_and_unknown_types(open_engine):  # R4, R12
    e = open_engine(Delegate())
    a = e.add_root(Writer(e, "A"))
    b = e.add_root(Writer(e, "B"))
    def write_a(coder):
        coder.update({"n": 1})
        coder["ref"] = b  # a reference: one call of its own (R4)
        with pytest.raises(TypeError):
            coder.update({"m": 2, "other": b})  # update writes values only, and nothing of this
    a.write = write_a
    b.write = lambda c: c.update({"n": 2})
    assert e.preserve()
    e2 = open_engine(Delegate())
    got = {}

    class Reader(Writer):
        def decode_restorable_state(self, decoder):
            got[self.identifier] = decoder.read({"n": int, "ref": amber.Object})
            try:
                decoder.read({"n": int, "odd": complex})
            except TypeError as error:
                got["error"] = str(error)
    e2.add_root(Reader(e2, "A", class_name="Writer"))
    b2 = e2.add_root(Reader(e2, "B", class_name="Writer"))
    e2.launch()
    assert got["A"] == {"n": 1, "ref": b2}
    assert got["B"] == {"n": 2}  # no reference: left out
    assert "odd" in got["error"]
