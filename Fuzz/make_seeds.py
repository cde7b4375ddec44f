#!/usr/bin/env python3
"""Writes the plistlib-made part of the reader fuzzer's seed corpus (Fuzz/corpus/reader/).

Run through Fuzz/make-seeds.sh, which also writes the seeds made by the library itself.
Output is deterministic: running it again gives the same bytes.
"""
import datetime
import os
import plistlib
import sys
from plistlib import UID

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "reader")


def write(name, value):
    data = plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False)
    assert len(data) < 4096, (name, len(data))
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def cls(name, *supers):
    return {"$classname": name, "$classes": [name, *supers, "NSObject"]}


def archive(objects, top=None):
    """A keyed archive: objects[0] must be '$null'."""
    assert objects[0] == "$null"
    return {
        "$version": 100000,
        "$archiver": "NSKeyedArchiver",
        "$top": top if top is not None else {"root": UID(1)},
        "$objects": objects,
    }


def main():
    os.makedirs(OUT, exist_ok=True)

    # Property lists of every type.
    write("plist-bool-true.bplist", True)
    write("plist-int-sizes.bplist", [0, 1, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**62, -1, -(2**63), 2**63 - 1])
    write("plist-int-uint64-max-16byte.bplist", 2**64 - 1)
    write("plist-int-16byte-in-array.bplist", [2**63, 2**64 - 1, -5])
    write("plist-real-double.bplist", [1.5, -0.0, float("inf"), float("nan"), 1e300])
    write("plist-date.bplist", datetime.datetime(2024, 2, 29, 12, 30, 15))
    write("plist-data.bplist", bytes(range(40)))
    write("plist-string-ascii.bplist", "hello, bplist")
    write("plist-string-unicode-utf16.bplist", ["h\u00e9llo w\u00f6rld", "\u65e5\u672c\u8a9e", "emoji \U0001F600 surrogate pair", "e\u0301"])
    write("plist-string-long.bplist", "x" * 300)
    # Canonically equivalent but different strings: a writer must not merge them.
    write("plist-strings-canonically-equivalent.bplist", ["\u00e9", "e\u0301", {"\u00e9": 1, "e\u0301": 2}])
    write("plist-uid.bplist", [UID(0), UID(1), UID(255), UID(256), UID(70000), UID(2**32)])
    write("plist-array-nested.bplist", [[[[[1, 2], [3]], []], "a"], ["b", [True, False]]])
    write("plist-dict-nested.bplist", {"a": {"b": {"c": {"d": [1, {"e": "f"}]}}}, "g": {}})
    write("plist-dict-all-types.bplist", {
        "bool": False, "int": 42, "neg": -42, "big": 2**64 - 1, "real": 0.25,
        "date": datetime.datetime(2001, 1, 1), "data": b"\x00\xff", "ascii": "abc",
        "utf16": "\u00fc\u00f1\u00ee", "uid": UID(7), "array": [1, "two", 3.0], "dict": {"k": "v"},
    })
    write("plist-empty-containers.bplist", [[], {}, "", b""])
    write("plist-many-objects-2byte-refs.bplist", [f"s{i}" for i in range(300)])
    write("plist-shared-strings.bplist", {"a": "same", "b": "same", "c": ["same", "same"]})

    # Keyed archives in the NSKeyedArchiver layout.
    write("archive-string-root.bplist", archive(["$null", "hello"]))
    write("archive-int-root-inline.bplist", archive(["$null"], top={"root": 12345, "flag": True, "pi": 3.14}))
    write("archive-null-root.bplist", archive(["$null"], top={"root": UID(0)}))
    write("archive-nsarray.bplist", archive([
        "$null", {"NS.objects": [UID(3), UID(4), UID(0)], "$class": UID(2)}, cls("NSArray"), "one", 2,
    ]))
    write("archive-nsmutablearray-nested.bplist", archive([
        "$null", {"NS.objects": [UID(3), UID(1)], "$class": UID(2)}, cls("NSMutableArray", "NSArray"),
        {"NS.objects": [UID(4)], "$class": UID(2)}, "inner",
    ]))
    write("archive-nsarray-shared-child.bplist", archive([
        "$null", {"NS.objects": [UID(3), UID(3), UID(3)], "$class": UID(2)}, cls("NSArray"),
        {"NS.objects": [UID(4), UID(4)], "$class": UID(2)}, "leaf",
    ]))
    write("archive-nsdictionary.bplist", archive([
        "$null", {"NS.keys": [UID(3), UID(4)], "NS.objects": [UID(5), UID(6)], "$class": UID(2)},
        cls("NSDictionary"), "name", "count", "Amber", 3,
    ]))
    write("archive-nsmutabledictionary-nested.bplist", archive([
        "$null", {"NS.keys": [UID(3)], "NS.objects": [UID(4)], "$class": UID(2)},
        cls("NSMutableDictionary", "NSDictionary"), "list",
        {"NS.objects": [UID(6), UID(7)], "$class": UID(5)}, cls("NSMutableArray", "NSArray"), "x", 1.5,
    ]))
    write("archive-nsarray-canonically-equivalent-strings.bplist", archive([
        "$null", {"NS.objects": [UID(3), UID(4)], "$class": UID(2)}, cls("NSArray"), "\u00e9", "e\u0301",
    ]))
    write("archive-nsset.bplist", archive([
        "$null", {"NS.objects": [UID(3), UID(4)], "$class": UID(2)}, cls("NSSet"), "a", "b",
    ]))
    write("archive-nsdate.bplist", archive([
        "$null", {"NS.time": 730000000.5, "$class": UID(2)}, cls("NSDate"),
    ]))
    write("archive-nsindexpath-data.bplist", archive([
        "$null", {"NSIndexPathLength": 2, "NSIndexPathData": UID(3), "$class": UID(2)}, cls("NSIndexPath"),
        b"\x01\x02",
    ]))
    write("archive-nsindexpath-leb128.bplist", archive([
        "$null", {"NSIndexPathLength": 3, "NSIndexPathData": UID(3), "$class": UID(2)}, cls("NSIndexPath"),
        b"\x05\xac\x02\xf0\xa2\x04",
    ]))
    write("archive-nsindexpath-length1.bplist", archive([
        "$null", {"NSIndexPathLength": 1, "NSIndexPathValue": 7, "$class": UID(2)}, cls("NSIndexPath"),
    ]))
    write("archive-nsuuid.bplist", archive([
        "$null", {"NS.uuidbytes": bytes(range(0x10, 0x20)), "$class": UID(2)}, cls("NSUUID"),
    ]))
    write("archive-nsstring-nsdata-nsnull-objects.bplist", archive([
        "$null", {"NS.objects": [UID(2), UID(4), UID(6)], "$class": UID(8)},
        {"NS.string": "str", "$class": UID(3)}, cls("NSMutableString", "NSString"),
        {"NS.bytes": b"\x01\x02\x03", "$class": UID(5)}, cls("NSMutableData", "NSData"),
        {"$class": UID(7)}, cls("NSNull"), cls("NSArray"),
    ]))
    write("archive-custom-class-cycle.bplist", archive([
        "$null", {"name": UID(3), "child": UID(4), "$class": UID(2)}, cls("AmberFuzzNode"), "parent",
        {"name": UID(5), "parent": UID(1), "$$escaped": 1, "$class": UID(6)}, "child",
        cls("AmberFuzzLeaf", "AmberFuzzNode"),
    ], top={"root": UID(1), "$$top": UID(3)}))


if __name__ == "__main__":
    main()
