import Foundation
import Testing
@testable import AmberArchive

// MARK: - Running CPython

/// The Python side: reads property lists and keyed archives with plistlib and prints them as
/// canonical JSON, or writes property lists and keyed archives (the NSKeyedArchiver layout built
/// by hand with plistlib.UID) for Amber to read.
///
/// Canonical JSON: every value is a one-key object naming its type; numbers and bytes are
/// strings (decimal integers, the hex bits of reals, hex bytes, UTF-8 hex of strings, dates in
/// whole microseconds since 2001), so that Swift can write the same text for the values it expects.
let plistlibScript = #"""
import sys, json, math, struct, plistlib, datetime
from plistlib import UID

EPOCH = datetime.datetime(2001, 1, 1)

def real(x):
    return "nan" if math.isnan(x) else struct.pack(">d", x).hex()

def canon(v):
    if isinstance(v, bool): return {"bool": v}
    if isinstance(v, int): return {"int": str(v)}
    if isinstance(v, float): return {"real": real(v)}
    if isinstance(v, datetime.datetime): return {"date": str((v - EPOCH) // datetime.timedelta(microseconds=1))}
    if isinstance(v, bytes): return {"data": v.hex()}
    if isinstance(v, str): return {"str": v.encode("utf-8").hex()}
    if isinstance(v, UID): return {"uid": str(v.data)}
    if isinstance(v, list): return {"array": [canon(x) for x in v]}
    if isinstance(v, dict): return {"dict": [[canon(k), canon(x)] for k, x in v.items()]}
    raise TypeError(type(v))

def leb128(data):
    out, value, shift = [], 0, 0
    for b in data:
        value |= (b & 0x7F) << shift
        if b & 0x80: shift += 7
        else:
            out.append(value - (1 << 64) if value >= 1 << 63 else value)
            value, shift = 0, 0
    return out

def resolve(objs, v, seen):
    if not isinstance(v, UID): return canon(v)
    u = v.data
    if u == 0: return {"null": True}
    o = objs[u]
    if not (isinstance(o, dict) and "$class" in o): return canon(o)
    c = objs[o["$class"].data]
    name = c["$classname"]
    items = lambda key: [resolve(objs, x, seen) for x in o[key]]
    if name in ("NSArray", "NSMutableArray"): return {"array": items("NS.objects")}
    if name in ("NSSet", "NSMutableSet"): return {"set": items("NS.objects")}
    if name in ("NSDictionary", "NSMutableDictionary"):
        return {"dict": [list(p) for p in zip(items("NS.keys"), items("NS.objects"))]}
    if name == "NSDate": return {"date": str(round(o["NS.time"] * 1e6))}
    if name == "NSUUID": return {"uuid": o["NS.uuidbytes"].hex()}
    if name == "NSNull": return {"null": True}
    if name in ("NSData", "NSMutableData"): return canon(o.get("NS.bytes", o.get("NS.data")))
    if name in ("NSString", "NSMutableString"): return canon(o["NS.string"])
    if name == "NSIndexPath":
        n = o["NSIndexPathLength"]
        if n == 0: path = []
        elif n == 1: path = [o["NSIndexPathValue"]]
        else:
            d = o["NSIndexPathData"]
            path = leb128(objs[d.data] if isinstance(d, UID) else d)
            assert len(path) == n
        return {"indexPath": [str(i) for i in path]}
    if u in seen: return {"ref": str(seen[u])}
    seen[u] = len(seen)
    fields = [[k[1:] if k.startswith("$") else k, resolve(objs, x, seen)] for k, x in o.items() if k != "$class"]
    return {"object": name, "classes": c["$classes"], "fields": fields}

def keyed(archive):
    assert archive["$archiver"] == "NSKeyedArchiver" and archive["$version"] == 100000
    objs = archive["$objects"]
    assert objs[0] == "$null"
    seen = {}
    return {"top": [[k[1:] if k.startswith("$") else k, resolve(objs, v, seen)] for k, v in archive["$top"].items()]}

def dump(obj):
    print(json.dumps(obj, separators=(",", ":")))

def write(directory):
    def save(name, value):
        with open(directory + "/" + name, "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
    at = lambda seconds: EPOCH + datetime.timedelta(seconds=seconds)
    save("plain.plist", {
        "ints": [0, 1, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, -1, -2**63, 2**63, 2**64 - 1],
        "reals": [0.0, -0.0, 1.5, -2.75, 1e300, 5e-324, float("inf"), float("-inf"), float("nan")],
        "bools": [True, False],
        "dates": [at(0), at(100.5), at(-978307200), at(700000000.25)],
        "data": [b"", bytes(range(256)), bytes(i * 7 % 256 for i in range(100000))],
        "strings": ["", "ascii", "h\u00e9llo", "\u65e5\u672c\u8a9e", "emoji \U0001F389\U0001F469\u200D\U0001F469\u200D\U0001F467",
                    "x" * 300, "\u00e9" * 70000, "nul\u0000inside"],
        "uids": [UID(0), UID(255), UID(256), UID(65536), UID(2**32), UID(2**64 - 1)],
        "nested": {"a": [[[]], {}], "b": {"c": [1, "two", 3.0]}},
        "\u043a\u043b\u044e\u0447": "\u0437\u043d\u0430\u0447\u0435\u043d\u0438\u0435",
        "many": list(range(100000, 170000)),
    })
    save("top-array.plist", [True, 1, 1.0, "1"])

    objs = ["$null"]
    classes = {}
    def add(o):
        objs.append(o)
        return UID(len(objs) - 1)
    def cls(name, chain=None):
        if name not in classes:
            classes[name] = add({"$classname": name, "$classes": chain or [name, "NSObject"]})
        return classes[name]
    def array(items, name="NSArray"):
        return add({"$class": cls(name), "NS.objects": items})
    nsnull = add({"$class": cls("NSNull")})
    path_data = add(bytes([1, 0xAC, 0x02, 0xF0, 0xA2, 0x04, 2]))
    top = {
        "string": add("h\u00e9llo \U0001F389"), "int": 42, "neg": -7, "bool": True, "double": 2.5, "big": 2**64 - 1,
        "data": add(b"\x00\x01\xff"),
        "date": add({"$class": cls("NSDate"), "NS.time": 100.5}),
        "array": add({"$class": cls("NSMutableArray", ["NSMutableArray", "NSArray", "NSObject"]),
                      "NS.objects": [add("x"), add(1), nsnull, add(2.5), add(False)]}),
        "dict": add({"$class": cls("NSDictionary"), "NS.keys": [add("k1"), add("k2")], "NS.objects": [add("v1"), add(7)]}),
        "set": add({"$class": cls("NSSet"), "NS.objects": [add("a"), add("b")]}),
        "uuid": add({"$class": cls("NSUUID"), "NS.uuidbytes": bytes(range(16))}),
        "path": add({"$class": cls("NSIndexPath"), "NSIndexPathLength": 4, "NSIndexPathData": path_data}),
        "path1": add({"$class": cls("NSIndexPath"), "NSIndexPathLength": 1, "NSIndexPathValue": 7}),
        "path0": add({"$class": cls("NSIndexPath"), "NSIndexPathLength": 0}),
        "null": UID(0),
        "$$dollar": add("escaped"),  # a key beginning with "$", escaped as NSKeyedArchiver does
        "mdata": add({"$class": cls("NSMutableData", ["NSMutableData", "NSData", "NSObject"]), "NS.data": b"abc"}),
        "mstring": add({"$class": cls("NSMutableString", ["NSMutableString", "NSString", "NSObject"]), "NS.string": "mutable"}),
        "nested": array([array([array([add("deep")])]), add({"$class": cls("NSDictionary"), "NS.keys": [], "NS.objects": []})]),
    }
    save("values.keyed", {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": top, "$objects": objs})

    # A graph of PyNode objects: root -> a, b; a -> c; b -> c (a diamond); c's friend is root (a
    # cycle); every child's parent is its parent; d is its own friend.
    objs = ["$null"]
    classes = {}
    node_class = cls("PyNode", ["PyNode", "PyBase", "NSObject"])
    def node(name):
        return add({"$class": node_class, "name": add(name), "children": None, "parent": UID(0), "friend": UID(0)})
    root, a, b, c, d = (node(n) for n in ["root", "a", "b", "c", "d"])
    def children(n, kids): objs[n.data]["children"] = array(kids)
    children(root, [a, b, d]); children(a, [c]); children(b, [c]); children(c, []); children(d, [])
    for parent, kids in [(root, [a, b, d]), (a, [c])]:
        for k in kids: objs[k.data]["parent"] = parent
    objs[c.data]["friend"] = root
    objs[d.data]["friend"] = d
    save("graph.keyed", {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": root}, "$objects": objs})

mode, path = sys.argv[1], sys.argv[2]
if mode == "dump":
    with open(path, "rb") as f: dump(canon(plistlib.load(f)))
elif mode == "keyed":
    with open(path, "rb") as f: dump(keyed(plistlib.load(f)))
elif mode == "write":
    write(path)
"""#

/// A scratch directory holding the script.
func pythonScratch() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("amber-plistlib-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try plistlibScript.write(to: dir.appendingPathComponent("interop.py"), atomically: true, encoding: .utf8)
    return dir
}

/// Runs the script with `python3`; returns its standard output, or records why it failed.
func runPython(_ dir: URL, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", dir.appendingPathComponent("interop.py").path] + arguments
    // Standard error goes to a file and standard output is read to its end before waiting, so
    // that a large output cannot block the child.
    let errorFile = dir.appendingPathComponent("stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    let out = Pipe()
    process.standardOutput = out
    process.standardError = try? FileHandle(forWritingTo: errorFile)
    do {
        try process.run()
    } catch {
        Issue.record("cannot run python3: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    let outputData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
    guard process.terminationStatus == 0 else {
        Issue.record("python3 \(arguments) failed (\(process.terminationStatus)): \(String(decoding: errorData, as: UTF8.self))", sourceLocation: sourceLocation)
        return nil
    }
    return String(decoding: outputData, as: UTF8.self).trimmingCharacters(in: .newlines)
}

// MARK: - The same canonical JSON, from Swift

func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

func canonicalReal(_ d: Double) -> String {
    d.isNaN ? #"{"real":"nan"}"# : #"{"real":"\#(hexString(RawPlist.be(d.bitPattern, 8)))"}"#
}

func canonicalDate(_ t: Double) -> String { #"{"date":"\#(Int64((t * 1e6).rounded()))"}"# }

func canonicalString(_ s: String) -> String { #"{"str":"\#(hexString(s.utf8))"}"# }

func canonical(_ p: PropertyList) -> String {
    switch p {
    case .bool(let b): return #"{"bool":\#(b)}"#
    case .int(let i): return #"{"int":"\#(i)"}"#
    case .uint(let u): return #"{"int":"\#(u)"}"#
    case .float(let f): return canonicalReal(Double(f))
    case .double(let d): return canonicalReal(d)
    case .date(let t): return canonicalDate(t)
    case .data(let d): return #"{"data":"\#(hexString(d))"}"#
    case .string(let s): return canonicalString(s)
    case .uid(let u): return #"{"uid":"\#(u)"}"#
    case .array(let a): return #"{"array":["# + a.map(canonical).joined(separator: ",") + "]}"
    case .set: return "sets are not plistlib's"
    case .dictionary(let pairs):
        return #"{"dict":["# + pairs.map { "[\(canonical($0.key)),\(canonical($0.value))]" }.joined(separator: ",") + "]}"
    }
}

func canonical(_ v: ArchiveValue) -> String {
    switch v {
    case .null: return #"{"null":true}"#
    case .bool(let b): return #"{"bool":\#(b)}"#
    case .int(let i): return #"{"int":"\#(i)"}"#
    case .uint(let u): return #"{"int":"\#(u)"}"#
    case .double(let d): return canonicalReal(d)
    case .string(let s): return canonicalString(s)
    case .data(let d): return #"{"data":"\#(hexString(d))"}"#
    case .date(let t): return canonicalDate(t)
    case .uuid(let b): return #"{"uuid":"\#(hexString(b))"}"#
    case .indexPath(let p): return #"{"indexPath":["# + p.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    case .indexSet(let r): return #"{"indexSet":["# + r.map { "[\"\($0.lowerBound)\",\"\($0.count)\"]" }.joined(separator: ",") + "]}"
    case .array(let a): return #"{"array":["# + a.map(canonical).joined(separator: ",") + "]}"
    case .set(let a): return #"{"set":["# + a.map(canonical).joined(separator: ",") + "]}"
    case .countedSet(let items):
        return #"{"countedSet":["# + items.map { "[\(canonical($0.value)),\"\($0.count)\"]" }.joined(separator: ",") + "]}"
    case .dictionary(let pairs):
        return #"{"dict":["# + pairs.map { "[\(canonical($0.key)),\(canonical($0.value))]" }.joined(separator: ",") + "]}"
    }
}

/// A graph node as the script prints it: depth first, fields in the order the class encodes them,
/// a node met again as a reference to its number.
func canonical(_ node: GraphNode?, _ seen: inout [ObjectIdentifier: Int], className: String = "GraphNode") -> String {
    guard let node else { return #"{"null":true}"# }
    if let number = seen[ObjectIdentifier(node)] { return #"{"ref":"\#(number)"}"# }
    seen[ObjectIdentifier(node)] = seen.count
    let name = canonicalString(node.name)
    var kids: [String] = []
    for child in node.children { kids.append(canonical(child, &seen, className: className)) }
    let parent = canonical(node.parent, &seen, className: className)
    let friend = canonical(node.friend, &seen, className: className)
    return #"{"object":"\#(className)","classes":["\#(className)","NSObject"],"fields":[["name",\#(name)],["children",{"array":[\#(kids.joined(separator: ","))]}],["parent",\#(parent)],["friend",\#(friend)]]}"#
}

// MARK: - The suite

@Suite struct PlistlibInteropTests {
    /// A property list with every type plistlib knows (no sets: plistlib has none).
    static let plainValue: PropertyList = .dictionary([
        "bools": .array([.bool(true), .bool(false)]),
        "ints": .array(integerSamples.map { .int($0) } + [.uint(1 << 63), .uint(.max)]),
        "doubles": .array(doubleSamples.map { .double($0) }),
        "floats": .array(floatSamples.map { .float($0) }),
        "dates": .array([0, 100.5, -978_307_200, 700_000_000.25, 1e9, -0.000001].map { .date($0) }),
        "data": .array([.data([]), .data(Array(0 ... 255)), .data((0 ..< 100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })]),
        "strings": .array(stringSamples.map { .string($0) }),
        "uids": .array([0, 255, 256, 65535, 65536, 1 << 24, 1 << 32, 1 << 40, UInt64.max].map { .uid($0) }),
        "empty": .array([.array([]), .dictionary([])]),
        "nested": .dictionary(["a": .array([.array([.array([.string("deep")])])]), "b": .dictionary(["c": .int(1)])]),
        "int keys": .dictionary([PropertyListPair(.int(1), .string("one")), PropertyListPair(.int(-2), .string("minus two"))]),
        "schlüssel 🔑": .string("wert"),
    ])

    // R26: plistlib reads every type of property list Amber writes, to the same values.
    @Test func plistlibReadsAmberPlists() throws {
        let dir = try pythonScratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, PropertyList)] = [
            ("everything", Self.plainValue),
            ("a top-level string", .string("just a string")),
            ("a top-level integer", .int(-42)),
            ("70 000 strings: 3-byte references and offsets", .array((0 ..< 70000).map { .string("s\($0)") })),
        ]
        for (name, value) in cases {
            let file = dir.appendingPathComponent("amber.plist")
            try Data(BinaryPropertyList.encode(value)).write(to: file)
            let output = runPython(dir, ["dump", file.path])
            #expect(output == canonical(value), "\(name)")
        }
        // UIDs of every width from 1 to 8 bytes, and references and offsets of every size, as
        // Amber reads them (built byte by byte): plistlib reads them the same.
        for size in 1 ... 8 {
            var raw = RawPlist()
            raw.refSize = size
            raw.add([])
            var expected: [PropertyList] = []
            for width in 1 ... 8 {
                let value = (0 ..< width).reduce(UInt64(0)) { $0 << 8 | UInt64(0x80 + $1) }
                raw.add(RawPlist.uid(value, width: width))
                expected.append(.uid(value))
            }
            raw.objects[0] = raw.array(Array(1 ... 8))
            let bytes = raw.bytes(offsetSize: size)
            #expect(try BinaryPropertyList.decode(bytes) == .array(expected))
            let file = dir.appendingPathComponent("raw.plist")
            try Data(bytes).write(to: file)
            #expect(runPython(dir, ["dump", file.path]) == canonical(.array(expected)), "sizes of \(size)")
        }
    }

    // R26: plistlib reads the keyed archives Amber writes, layout and all: the script resolves
    // the NSKeyedArchiver layout itself and finds the same values and the same object graph.
    @Test func plistlibReadsAmberKeyedArchives() throws {
        let dir = try pythonScratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let values: [(String, ArchiveValue)] = [
            ("null", .null), ("true", .bool(true)), ("int", .int(-5)), ("big", .uint(.max)), ("double", .double(2.5)),
            ("nan", .double(.nan)), ("string", .string("héllo 🎉")), ("empty", .string("")),
            ("long", .string(String(repeating: "ü", count: 70000))), ("data", .data([0, 1, 255])),
            ("date", .date(100.5)), ("uuid", .uuid(Array(0 ..< 16))),
            ("path0", .indexPath([])), ("path1", .indexPath([7])), ("path", .indexPath([1, 300, 70000, 2])),
            ("negative path", .indexPath([-1, Int.max, Int.min])),
            ("array", .array([.string("a"), .int(1), .null, .double(1.5), .bool(false), .array([])])),
            ("set", .set([.string("a"), .string("b"), .int(3)])),
            ("dict", .dictionary(["k": .string("v"), "n": .int(1), "nested": .dictionary(["deep": .array([.date(0)])])])),
            ("int keys", .dictionary([ArchiveValuePair(.int(1), .string("one")), ArchiveValuePair(.string("two"), .int(2))])),
            ("$dollar", .string("escaped key")),
            ("many", .array((0 ..< 1000).map { .string("item \($0)") })),
        ]
        let archiver = KeyedArchiver()
        for (key, value) in values { archiver.encode(value, forKey: key) }
        archiver.encode(Int64.min, forKey: "inline int")
        archiver.encode(true, forKey: "inline bool")
        archiver.encode(-0.5, forKey: "inline double")
        let file = dir.appendingPathComponent("values.keyed")
        try Data(try archiver.finishEncoding()).write(to: file)
        // The script unescapes "$$dollar" to "$dollar", the key given.
        var expected = values.map { "[\"\($0.0)\",\(canonical($0.1))]" }
        expected += [#"["inline int",{"int":"-9223372036854775808"}]"#, #"["inline bool",{"bool":true}]"#,
                     "[\"inline double\",\(canonicalReal(-0.5))]"]
        #expect(runPython(dir, ["keyed", file.path]) == #"{"top":["# + expected.joined(separator: ",") + "]}")

        // An object graph with a diamond, cycles and a self-reference.
        let root = GraphNode("root"), a = GraphNode("a"), b = GraphNode("b"), c = GraphNode("c"), d = GraphNode("d")
        root.children = [a, b, d]
        a.children = [c]
        b.children = [c]
        a.parent = root; b.parent = root; d.parent = root; c.parent = a
        c.friend = root
        d.friend = d
        let graphFile = dir.appendingPathComponent("graph.keyed")
        try Data(try archiveGraph(root, registry: try graphRegistry())).write(to: graphFile)
        var seen: [ObjectIdentifier: Int] = [:]
        let expectedGraph = #"{"top":[["root","# + canonical(root, &seen) + "]]}"
        #expect(runPython(dir, ["keyed", graphFile.path]) == expectedGraph)
        for n in [root, a, b, c, d] { n.children = []; n.parent = nil; n.friend = nil }
    }

    // R26: Amber reads the property lists plistlib writes, to the same values.
    @Test func amberReadsPlistlibPlists() throws {
        let dir = try pythonScratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        guard runPython(dir, ["write", dir.path]) != nil else { return }
        let plain = try BinaryPropertyList.decode(Array(try Data(contentsOf: dir.appendingPathComponent("plain.plist"))))
        let expected: PropertyList = .dictionary([
            "ints": .array([0, 1, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, .max, -1, .min].map { .int($0) } + [.uint(1 << 63), .uint(.max)]),
            // plistlib stores equal scalars once, and -0.0 == 0.0 in Python: it writes 0.0 twice.
            "reals": .array([0, 0, 1.5, -2.75, 1e300, .leastNonzeroMagnitude, .infinity, -.infinity, .nan].map { .double($0) }),
            "bools": .array([.bool(true), .bool(false)]),
            "dates": .array([0, 100.5, -978_307_200, 700_000_000.25].map { .date($0) }),
            "data": .array([.data([]), .data(Array(0 ... 255)), .data((0 ..< 100_000).map { UInt8($0 * 7 % 256) })]),
            "strings": .array(["", "ascii", "héllo", "日本語", "emoji \u{1F389}\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}", String(repeating: "x", count: 300),
                               String(repeating: "é", count: 70000), "nul\u{0}inside"].map { .string($0) }),
            "uids": .array([0, 255, 256, 65536, 1 << 32, UInt64.max].map { .uid($0) }),
            "nested": .dictionary(["a": .array([.array([.array([])]), .dictionary([])]), "b": .dictionary(["c": .array([.int(1), .string("two"), .double(3)])])]),
            "ключ": .string("значение"),
            "many": .array((100_000 ..< 170_000).map { .int(Int64($0)) }),
        ])
        #expect(exactlyEqual(plain, expected))
        if case .dictionary(let got) = plain, case .dictionary(let want) = expected {
            for (g, w) in zip(got, want) where !exactlyEqual(g.value, w.value) {
                Issue.record("key \(g.key): read \(String(describing: g.value).prefix(200))")
            }
        }
        // plistlib's sizes: 70 000 objects need 4-byte references (it uses 1, 2, 4 or 8).
        let bytes = Array(try Data(contentsOf: dir.appendingPathComponent("plain.plist")))
        #expect(trailer(bytes).refSize == 4)
        // True, 1, 1.0 and "1" are four objects to plistlib, and four values to Amber.
        let top = try BinaryPropertyList.decode(Array(try Data(contentsOf: dir.appendingPathComponent("top-array.plist"))))
        #expect(top == .array([.bool(true), .int(1), .double(1), .string("1")]))
    }

    // R25, R26: Amber reads the keyed archives plistlib writes (the NSKeyedArchiver layout built
    // by hand), typed values and an object graph alike.
    @Test func amberReadsPlistlibKeyedArchives() throws {
        let dir = try pythonScratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        guard runPython(dir, ["write", dir.path]) != nil else { return }
        let u = try KeyedUnarchiver(bytes: Array(try Data(contentsOf: dir.appendingPathComponent("values.keyed"))))
        #expect(try u.decodeString(forKey: "string") == "héllo 🎉")
        #expect(try u.decodeInt64(forKey: "int") == 42)
        #expect(try u.decodeInt64(forKey: "neg") == -7)
        #expect(try u.decodeBool(forKey: "bool") == true)
        #expect(try u.decodeDouble(forKey: "double") == 2.5)
        #expect(try u.decodeValue(forKey: "big") == .uint(.max))
        #expect(try u.decodeBytes(forKey: "data") == [0, 1, 255])
        #expect(try u.decodeDate(forKey: "date") == 100.5)
        #expect(try u.decodeValue(forKey: "array") == .array([.string("x"), .int(1), .null, .double(2.5), .bool(false)]))
        #expect(try u.decodeValue(forKey: "dict") == .dictionary(["k1": .string("v1"), "k2": .int(7)]))
        #expect(try u.decodeValue(forKey: "set") == .set([.string("a"), .string("b")]))
        #expect(try u.decodeUUID(forKey: "uuid") == Array(0 ..< 16))
        #expect(try u.decodeIndexPath(forKey: "path") == [1, 300, 70000, 2])
        #expect(try u.decodeIndexPath(forKey: "path1") == [7])
        #expect(try u.decodeIndexPath(forKey: "path0") == [])
        #expect(try u.decodeValue(forKey: "null") == .null)
        #expect(try u.decodeObject(forKey: "null") == nil)
        #expect(try u.decodeString(forKey: "$dollar") == "escaped")
        #expect(try u.decodeBytes(forKey: "mdata") == Array("abc".utf8))
        #expect(try u.decodeString(forKey: "mstring") == "mutable")
        #expect(try u.decodeValue(forKey: "nested") == .array([.array([.array([.string("deep")])]), .dictionary([])]))
        #expect(Set(u.allKeys()) == ["string", "int", "neg", "bool", "double", "big", "data", "date", "array", "dict", "set",
                                    "uuid", "path", "path1", "path0", "null", "$dollar", "mdata", "mstring", "nested"])

        // The graph, read into GraphNode through a class registered under plistlib's class name.
        let registry = ArchiveClassRegistry()
        try registry.register(graphNodeClass("PyNode"))
        let graph = try KeyedUnarchiver(bytes: Array(try Data(contentsOf: dir.appendingPathComponent("graph.keyed"))), registry: registry)
        let root = try #require(try graph.decodeObject(forKey: "root", ofClasses: ["PyNode"]) as? GraphNode)
        #expect(root.name == "root")
        #expect(root.children.map(\.name) == ["a", "b", "d"])
        let (a, b, d) = (root.children[0], root.children[1], root.children[2])
        #expect(a.children.count == 1 && b.children.count == 1)
        #expect(a.children[0] === b.children[0], "the diamond's bottom is one object")
        let c = a.children[0]
        #expect(c.name == "c")
        #expect(c.friend === root, "the cycle back to the root")
        #expect(c.parent === a && a.parent === root && b.parent === root && d.parent === root)
        #expect(root.parent == nil && root.friend == nil)
        #expect(d.friend === d, "a self-reference")
        // The class description claims PyBase as a superclass; only registered names count.
        let other = try KeyedUnarchiver(bytes: Array(try Data(contentsOf: dir.appendingPathComponent("graph.keyed"))), registry: registry)
        expectCode(.classNotAllowed, "PyNode when only PyBase is allowed") { _ = try other.decodeObject(forKey: "root", ofClasses: ["PyBase"]) }
        for n in [root, a, b, c, d] { n.children = []; n.parent = nil; n.friend = nil }
    }
}
